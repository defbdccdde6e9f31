/** The field separators a dataset CSV may use: comma, semicolon (European spreadsheets) or tab. */
export type CsvDelimiter = "," | ";" | "\t";

/** How a message names each delimiter: "separated by semicolons". */
export const delimiterNames: Record<CsvDelimiter, { one: string; many: string }> = {
  ",": { one: "comma", many: "commas" },
  ";": { one: "semicolon", many: "semicolons" },
  "\t": { one: "tab", many: "tabs" },
};

const QUOTE = 34;
const LF = 10;
const CR = 13;

/**
 * The delimiter of a CSV text, read from its header record: whichever of comma, semicolon and
 * tab appears most often outside quotes. A spreadsheet in a locale whose decimal mark is a comma
 * (most of Europe) exports with semicolons, and its header holds no quoted commas, so the header
 * alone decides. A tie, and a one-column file, are read as commas (RFC 4180).
 */
export function detectCsvDelimiter(text: string): CsvDelimiter {
  const counts: Record<CsvDelimiter, number> = { ",": 0, ";": 0, "\t": 0 };
  let quoted = false;
  let started = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === QUOTE) quoted = !quoted;
    else if (!quoted && (code === LF || code === CR)) {
      // empty lines before the header are skipped, as the reader skips them
      if (started) break;
      continue;
    } else if (!quoted) {
      const character = text[index];
      if (character === "," || character === ";" || character === "\t") counts[character]++;
    }
    started = true;
  }
  let best: CsvDelimiter = ",";
  for (const candidate of [";", "\t"] as const) if (counts[candidate] > counts[best]) best = candidate;
  return best;
}
