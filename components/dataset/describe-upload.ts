import { DatasetParseError, delimiterNames, type CsvDelimiter } from "@/lib/formats/parse-dataset";
import { MAX_DATASET_ROWS } from "@/lib/client/datasets-api";

/**
 * "Loaded cities.csv: 24 rows, 3 columns", and for a CSV file read with another delimiter than
 * the comma, which one (", separated by semicolons"), so a person can tell the file was understood.
 */
export function describeUploadSuccess(name: string, rowCount: number, columnCount: number, delimiter: CsvDelimiter | null = null): string {
  const rows = rowCount === 1 ? "1 row" : `${rowCount.toLocaleString("en")} rows`;
  const columns = columnCount === 1 ? "1 column" : `${columnCount.toLocaleString("en")} columns`;
  const separated = delimiter && delimiter !== "," ? `, separated by ${delimiterNames[delimiter].many}` : "";
  return `Loaded ${name}: ${rows}, ${columns}${separated}`;
}

/** "cities.csv was stored already: using it (24 rows, 3 columns)": the same file is kept once. */
export function describeAlreadyStored(name: string, rowCount: number, columnCount: number): string {
  const rows = rowCount === 1 ? "1 row" : `${rowCount.toLocaleString("en")} rows`;
  const columns = columnCount === 1 ? "1 column" : `${columnCount.toLocaleString("en")} columns`;
  return `${name} was stored already: using it (${rows}, ${columns})`;
}

/** The message for a file with more rows than a dataset may hold. */
export function tooManyRowsMessage(fileName: string, rowCount: number): string {
  return `${fileName}: ${rowCount.toLocaleString("en")} rows is more than the ${MAX_DATASET_ROWS.toLocaleString("en")} a dataset can hold. Split the file into smaller ones.`;
}

/**
 * What the error toast says: a parse error as the parser worded it (file, row and fix), a
 * server refusal naming the file, anything else as it is (it already names the file).
 */
export function describeUploadFailure(fileName: string, error: unknown, fromServer: boolean): string {
  if (error instanceof DatasetParseError) return error.message;
  const reason = error instanceof Error ? error.message : String(error);
  if (fromServer) return `${fileName}: the server did not store it (${reason}). Try again; if it keeps failing, check the server log.`;
  return reason.startsWith(fileName) ? reason : `${fileName}: ${reason}`;
}
