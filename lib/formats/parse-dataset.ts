import { parseCsv } from "./parse-csv";
import { parseJsonRows } from "./parse-json-rows";
import type { ParsedDataset } from "./parsed-dataset";

export { DatasetParseError } from "./dataset-parse-error";
export type { ParsedDataset } from "./parsed-dataset";
export { delimiterNames, type CsvDelimiter } from "./detect-csv-delimiter";

/**
 * Parses the text of an uploaded dataset: `.json` files as JSON, everything else as CSV separated
 * by commas, semicolons or tabs (detected from the header, and answered as `delimiter`).
 * Takes text rather than a path so it can run in a browser Web Worker.
 */
export function parseDatasetText(text: string, fileName: string): ParsedDataset {
  const withoutBom = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return /\.json$/i.test(fileName) ? parseJsonRows(withoutBom, fileName) : parseCsv(withoutBom, fileName);
}
