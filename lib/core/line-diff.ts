// A line diff between two prompt texts (Myers' O((N+M)·D) algorithm), for the run history's
// "what changed between these two runs". Lines are split on "\n" exactly as the editor numbers
// them, so a trailing newline is a last, empty line and line numbers match the editor's.

/** One line of a diff: kept, added in `after`, or removed from `before`, with its 1-based line numbers. */
export interface DiffLine {
  kind: "same" | "added" | "removed";
  text: string;
  beforeLine: number | null;
  afterLine: number | null;
}

/** Unchanged lines folded away between two changes, with the lines to show when unfolded. */
export interface FoldedLines {
  kind: "fold";
  lines: DiffLine[];
}

/**
 * Above this many edits the exact diff is not worth its cost (memory grows with edits²: 2,000
 * edits keep about 4 million numbers, 16 MB); the changed middle is then shown as one block
 * removed and one block added. Prompts of a few thousand lines with ordinary edits stay far below.
 */
const DEFAULT_MAX_EDITS = 2000;

/** The lines of a text as the editor shows them; the empty text has none. CRLF counts as LF. */
function splitLines(text: string): string[] {
  return text === "" ? [] : text.replace(/\r\n?/g, "\n").split("\n");
}

/**
 * The line diff that turns `before` into `after`: a shortest edit script, with each changed
 * stretch listed as its removed lines first, then its added lines. `maxEdits` bounds the work (see
 * DEFAULT_MAX_EDITS); past it the changed middle is one removed block and one added block.
 */
export function diffLines(before: string, after: string, { maxEdits = DEFAULT_MAX_EDITS }: { maxEdits?: number } = {}): DiffLine[] {
  const a = splitLines(before);
  const b = splitLines(after);

  // Prompts are mostly edited in one place: trimming the shared ends keeps the costly part tiny.
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;

  const middleA = a.slice(prefix, a.length - suffix);
  const middleB = b.slice(prefix, b.length - suffix);
  const middle = myersMoves(internLines(middleA, middleB), maxEdits) ?? wholeBlockMoves(middleA.length, middleB.length);

  const result: DiffLine[] = [];
  for (let index = 0; index < prefix; index++) result.push({ kind: "same", text: a[index], beforeLine: index + 1, afterLine: index + 1 });
  for (const move of groupChanges(middle)) {
    const beforeLine = prefix + move.x + 1;
    const afterLine = prefix + move.y + 1;
    if (move.kind === "same") result.push({ kind: "same", text: middleA[move.x], beforeLine, afterLine });
    else if (move.kind === "removed") result.push({ kind: "removed", text: middleA[move.x], beforeLine, afterLine: null });
    else result.push({ kind: "added", text: middleB[move.y], beforeLine: null, afterLine });
  }
  for (let index = 0; index < suffix; index++) {
    const beforeIndex = a.length - suffix + index;
    const afterIndex = b.length - suffix + index;
    result.push({ kind: "same", text: a[beforeIndex], beforeLine: beforeIndex + 1, afterLine: afterIndex + 1 });
  }
  return result;
}

/**
 * The diff with long unchanged stretches folded: `context` unchanged lines stay visible next to
 * each change, and a fold replaces the rest when it would hide more than one line.
 */
export function foldUnchangedLines(lines: DiffLine[], context = 3): Array<DiffLine | FoldedLines> {
  const result: Array<DiffLine | FoldedLines> = [];
  let index = 0;
  while (index < lines.length) {
    if (lines[index].kind !== "same") {
      result.push(lines[index++]);
      continue;
    }
    let end = index;
    while (end < lines.length && lines[end].kind === "same") end++;
    const keepBefore = index === 0 ? 0 : context;
    const keepAfter = end === lines.length ? 0 : context;
    const hidden = end - index - keepBefore - keepAfter;
    if (hidden > 1) {
      result.push(...lines.slice(index, index + keepBefore));
      result.push({ kind: "fold", lines: lines.slice(index + keepBefore, end - keepAfter) });
      result.push(...lines.slice(end - keepAfter, end));
    } else {
      result.push(...lines.slice(index, end));
    }
    index = end;
  }
  return result;
}

type Move = { kind: "same" | "added" | "removed"; x: number; y: number };

/** Both sides as numbers (one per distinct line), so the inner loop compares integers. */
function internLines(a: string[], b: string[]): { a: Int32Array; b: Int32Array } {
  const ids = new Map<string, number>();
  const toIds = (lines: string[]) =>
    Int32Array.from(lines, (line) => {
      let id = ids.get(line);
      if (id === undefined) ids.set(line, (id = ids.size));
      return id;
    });
  return { a: toIds(a), b: toIds(b) };
}

/**
 * Myers' greedy shortest edit script, after "An O(ND) Difference Algorithm and Its Variations"
 * (1986). Keeps each round's furthest-reaching x per diagonal to walk back; null past maxEdits.
 */
function myersMoves({ a, b }: { a: Int32Array; b: Int32Array }, maxEdits: number): Move[] | null {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  const furthest = new Int32Array(2 * max + 3);
  // trace[d] holds diagonals -(d+1)..d+1 as they stood before round d.
  const trace: Int32Array[] = [];

  for (let d = 0; d <= Math.min(max, maxEdits); d++) {
    trace.push(furthest.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && furthest[offset + k - 1] < furthest[offset + k + 1])
          ? furthest[offset + k + 1]
          : furthest[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      furthest[offset + k] = x;
      if (x >= n && y >= m) return walkBack(trace, n, m);
    }
  }
  return null;
}

/** The moves from (0, 0) to (n, m), read back from the rounds' snapshots. */
function walkBack(trace: Int32Array[], n: number, m: number): Move[] {
  const moves: Move[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const snapshot = trace[d];
    const at = (k: number) => snapshot[k + d + 1];
    const k = x - y;
    const previousK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const previousX = d === 0 ? 0 : at(previousK);
    const previousY = d === 0 ? 0 : previousX - previousK;
    while (x > previousX && y > previousY) {
      x--;
      y--;
      moves.push({ kind: "same", x, y });
    }
    if (d > 0) {
      if (x === previousX) moves.push({ kind: "added", x: previousX, y: previousY });
      else moves.push({ kind: "removed", x: previousX, y: previousY });
    }
    x = previousX;
    y = previousY;
  }
  return moves.reverse();
}

/** Every line of one side removed, then every line of the other added. */
function wholeBlockMoves(n: number, m: number): Move[] {
  const moves: Move[] = [];
  for (let x = 0; x < n; x++) moves.push({ kind: "removed", x, y: 0 });
  for (let y = 0; y < m; y++) moves.push({ kind: "added", x: n, y });
  return moves;
}

/** Within each run of changes, removals before additions: reads as "this became that". */
function groupChanges(moves: Move[]): Move[] {
  const result: Move[] = [];
  let index = 0;
  while (index < moves.length) {
    if (moves[index].kind === "same") {
      result.push(moves[index++]);
      continue;
    }
    let end = index;
    while (end < moves.length && moves[end].kind !== "same") end++;
    const stretch = moves.slice(index, end);
    result.push(...stretch.filter((move) => move.kind === "removed"), ...stretch.filter((move) => move.kind === "added"));
    index = end;
  }
  return result;
}
