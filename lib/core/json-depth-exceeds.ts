/**
 * Whether a parsed JSON value nests deeper than maxDepth objects or arrays (`{}` is 1 deep, a
 * scalar 0). Walks with its own stack and stops at the first path too deep: JSON.parse takes
 * 200,000 levels, but JSON.stringify, zod and the database driver recurse and overflow the stack
 * on them (a 500 before this check).
 */
export function jsonDepthExceeds(value: unknown, maxDepth: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== "object") continue;
    if (depth + 1 > maxDepth) return true;
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
    }
  }
  return false;
}
