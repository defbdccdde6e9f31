/**
 * Text inside a Markdown table cell: pipes and backslashes escaped, line breaks as spaces, and
 * < and & as entities so that a renderer that passes HTML through shows the text.
 */
export function markdownCell(text: string): string {
  return text
    .replaceAll("\\", "\\\\")
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll("|", "\\|")
    .replace(/\r\n|\r|\n/g, " ");
}

/**
 * Text after a label or in a heading: as a cell, with the marks that would format it escaped.
 * Underscores stay: CommonMark does not emphasise inside a word, and summarizer_v1 reads as the
 * spec writes it.
 */
export function markdownInline(text: string): string {
  return markdownCell(text).replace(/[*`[\]]/g, (mark) => `\\${mark}`);
}

/**
 * A fenced code block holding the text as it is: the fence is one backtick longer than the
 * longest run of backticks in the text, so no output can close it early (CommonMark 4.5).
 */
export function codeBlock(text: string): string[] {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return [fence, text, fence];
}
