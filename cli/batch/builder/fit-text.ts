/**
 * Text fitted to a terminal's width: the builder and the live view draw plain lines (no colour
 * carries meaning), each at most `width` characters, so an 80-column terminal never wraps them on
 * its own and the redraw's line count stays true.
 */

/** The line cut to width, ending in "..." where something was cut. */
export function clip(line: string, width: number): string {
  if (line.length <= width) return line;
  return width <= 3 ? line.slice(0, width) : `${line.slice(0, width - 3)}...`;
}

/** The text broken at spaces into lines of at most width, the first prefixed by `first`, the rest by `rest`. */
export function wrap(text: string, width: number, first = "", rest = " ".repeat(first.length)): string[] {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of text.split(/\s+/).filter((w) => w !== "")) {
    const room = width - line.length - (empty ? 0 : 1);
    if (word.length <= room) {
      line += (empty ? "" : " ") + word;
      empty = false;
      continue;
    }
    if (!empty) {
      lines.push(line);
      line = rest;
    }
    // A word longer than a whole line (a long path) is broken where the line ends.
    let remaining = word;
    while (remaining.length > width - line.length) {
      const take = Math.max(1, width - line.length);
      lines.push(line + remaining.slice(0, take));
      remaining = remaining.slice(take);
      line = rest;
    }
    line += remaining;
    empty = remaining === "";
  }
  lines.push(line);
  return lines;
}

/** Seconds as m:ss, or h:mm:ss from an hour on. */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}
