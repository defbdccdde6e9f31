/** The lines of a document by index; a `string[]` is one. */
export type LineSource = { readonly length: number; at(index: number): string | undefined };

/** Inclusive, zero-based: line `fromLine` stays visible, the lines after it up to `toLine` fold. */
export type FoldLines = { fromLine: number; toLine: number };

const BLANK = /^\s*$/;

/** The indentation width of a line, with tabs advancing to the next multiple of `tabSize`. */
export function indentWidth(line: string, tabSize = 4): number {
  let width = 0;
  for (const character of line) {
    if (character === " ") width += 1;
    else if (character === "\t") width += tabSize - (width % tabSize);
    else break;
  }
  return width;
}

/**
 * What folds under line `lineIndex`: the lines after it that are indented deeper, with blank
 * lines inside the block kept and blank lines after its end left out. Null when nothing is
 * deeper, or when the line itself is blank.
 */
export function indentFoldRange(lines: LineSource, lineIndex: number, tabSize = 4): FoldLines | null {
  const header = lines.at(lineIndex);
  if (header === undefined || lineIndex < 0 || BLANK.test(header)) return null;
  const headerIndent = indentWidth(header, tabSize);
  let lastDeeper = -1;
  for (let index = lineIndex + 1; index < lines.length; index++) {
    const line = lines.at(index) ?? "";
    if (BLANK.test(line)) continue;
    if (indentWidth(line, tabSize) <= headerIndent) break;
    lastDeeper = index;
  }
  return lastDeeper === -1 ? null : { fromLine: lineIndex, toLine: lastDeeper };
}
