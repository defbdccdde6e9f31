import type { CsvDelimiter } from "./detect-csv-delimiter";

/**
 * A dataset as the workbench uses it: column names and one string value per column per row, and
 * for a CSV file the delimiter it was read with.
 */
export type ParsedDataset = { headers: string[]; rows: Record<string, string>[]; delimiter?: CsvDelimiter };

/** Makes the row objects; rows with fewer fields than the header get "" for the rest. */
export function rowBuilder(headers: string[]): (fields: string[]) => Record<string, string> {
  // Plain assignment of a "__proto__" key would set the prototype instead of a value.
  const needsDefine = headers.includes("__proto__");
  return (fields) => {
    const row: Record<string, string> = {};
    for (let index = 0; index < headers.length; index++) {
      const value = index < fields.length ? fields[index] : "";
      if (needsDefine) {
        Object.defineProperty(row, headers[index], { value, enumerable: true, writable: true, configurable: true });
      } else {
        row[headers[index]] = value;
      }
    }
    return row;
  };
}
