import { createHash } from "node:crypto";

/**
 * Hex SHA-256 of a dataset's content: its headers in order, then each row's values in header
 * order (a value a row lacks counts as ""), each row a JSON array of its own. The same file
 * parsed twice gives the same hash, whatever its name; reordered columns or rows give another.
 * Keys a row has beyond the headers are hashed after them, sorted, so they count too. Fed a row
 * at a time: a 100,000-row upload is never one more string of its whole size.
 */
export function datasetContentHash({ headers, rows }: { headers: string[]; rows: Array<Record<string, string>> }): string {
  const hash = createHash("sha256");
  const known = new Set(headers);
  hash.update(JSON.stringify(headers));
  for (const row of rows) {
    const values: string[] = headers.map((header) => (Object.hasOwn(row, header) ? row[header] : ""));
    const extra = Object.keys(row)
      .filter((key) => !known.has(key))
      .sort();
    hash.update("\n");
    hash.update(JSON.stringify(extra.length === 0 ? values : [...values, ...extra.flatMap((key) => [key, row[key]])]));
  }
  return hash.digest("hex");
}
