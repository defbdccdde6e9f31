// The character code of a double quote.
const QUOTE = 34;

/**
 * The offset of the first syntax error in `text`, or null if none is found. JSON.parse only
 * sometimes says where it failed ("Unexpected token" messages carry no position in V8), and other
 * engines word it differently, so the position is found here; this only runs after a failure.
 */
export function locateJsonError(text: string): number | null {
  type State = "value" | "valueOrClose" | "keyOrClose" | "key" | "colon" | "after";
  const containers: Array<"[" | "{"> = [];
  let state: State = "value";
  let index = 0;
  const length = text.length;

  for (;;) {
    while (index < length && " \t\n\r".includes(text[index])) index++;
    if (index >= length) return state === "after" && containers.length === 0 ? null : length;
    const character = text[index];

    if (state === "value" || state === "valueOrClose") {
      if (state === "valueOrClose" && character === "]") {
        containers.pop();
        index++;
        state = "after";
      } else if (character === "{" || character === "[") {
        containers.push(character);
        index++;
        state = character === "{" ? "keyOrClose" : "valueOrClose";
      } else if (character === '"') {
        const end = scanJsonString(text, index);
        if (end < 0) return -end - 1;
        index = end;
        state = "after";
      } else {
        const end = scanJsonScalar(text, index);
        if (end === index) return index;
        index = end;
        state = "after";
      }
    } else if (state === "keyOrClose" || state === "key") {
      if (state === "keyOrClose" && character === "}") {
        containers.pop();
        index++;
        state = "after";
      } else if (character === '"') {
        const end = scanJsonString(text, index);
        if (end < 0) return -end - 1;
        index = end;
        state = "colon";
      } else {
        return index;
      }
    } else if (state === "colon") {
      if (character !== ":") return index;
      index++;
      state = "value";
    } else {
      const container = containers[containers.length - 1];
      if (container === undefined) return index;
      if (character === ",") state = container === "{" ? "key" : "value";
      else if (character === (container === "{" ? "}" : "]")) containers.pop();
      else return index;
      index++;
    }
  }
}

/** End offset of the string starting at `start`, or -(error offset + 1). */
function scanJsonString(text: string, start: number): number {
  let index = start + 1;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    if (code === QUOTE) return index + 1;
    if (code < 0x20) return -index - 1;
    if (code === 92 /* backslash */) {
      const escape = text[index + 1];
      if (escape === "u") {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(index + 2, index + 6))) return -index - 1;
        index += 6;
      } else if (escape !== undefined && '"\\/bfnrt'.includes(escape)) {
        index += 2;
      } else {
        return -index - 1;
      }
    } else {
      index++;
    }
  }
  return -text.length - 1;
}

/** End offset of the number or literal at `start`; `start` itself when there is none. */
function scanJsonScalar(text: string, start: number): number {
  for (const literal of ["true", "false", "null"]) {
    if (text.startsWith(literal, start)) return start + literal.length;
  }
  const number = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  number.lastIndex = start;
  return number.test(text) ? number.lastIndex : start;
}
