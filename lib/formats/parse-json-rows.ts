import { DatasetParseError } from "./dataset-parse-error";
import { locateJsonError } from "./locate-json-error";
import { rowBuilder, type ParsedDataset } from "./parsed-dataset";

/**
 * Reads JSON text (the BOM already removed) into a dataset: an array of objects, or {"rows": [...]};
 * the columns are every key, in the order they first appear.
 */
export function parseJsonRows(text: string, file: string): ParsedDataset {
  if (text.trim() === "") {
    throw new DatasetParseError({
      file,
      row: null,
      problem: "the file is empty.",
      hint: 'Write an array of objects, one per row, like [{"topic": "AI"}].',
    });
  }

  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    // V8's message quotes the surrounding text, newlines included, and often has no position;
    // a located error is described in one short line instead.
    const offset = locateJsonError(text);
    const problem =
      offset === null
        ? `the file is not valid JSON (${error instanceof Error ? error.message : String(error)}).`
        : `the file is not valid JSON at line ${lineAndColumn(text, offset)}: ${describeJsonErrorAt(text, offset)}.`;
    throw new DatasetParseError({
      file,
      row: null,
      problem,
      hint: "Check for a missing comma, quote or bracket there.",
    });
  }

  const items = isPlainObject(document) && Array.isArray(document.rows) ? document.rows : document;
  if (!Array.isArray(items)) {
    throw new DatasetParseError({
      file,
      row: null,
      problem: `the file holds ${describeJson(document)}, not a list of rows.`,
      hint: 'Write an array of objects, one per row, like [{"topic": "AI"}], or {"rows": [...]}.',
    });
  }

  const headers: string[] = [];
  const known = new Set<string>();
  items.forEach((item: unknown, index: number) => {
    if (!isPlainObject(item)) {
      throw new DatasetParseError({
        file,
        row: null,
        problem: `the item at index ${index} is ${describeJson(item)}, not an object.`,
        hint: 'Make every item an object of column names to values, like {"topic": "AI"}.',
      });
    }
    for (const key of Object.keys(item)) {
      if (!known.has(key)) {
        known.add(key);
        headers.push(key);
      }
    }
  });

  const makeRow = rowBuilder(headers);
  const rows = items.map((item: Record<string, unknown>) =>
    makeRow(headers.map((header) => (Object.prototype.hasOwnProperty.call(item, header) ? jsonCellText(item[header]) : ""))),
  );
  return { headers, rows };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A JSON value as cell text: numbers and booleans as written, null as empty, nesting as JSON. */
function jsonCellText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

function describeJson(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return "a string";
  if (typeof value === "number") return "a number";
  return `a ${typeof value}`;
}

function describeJsonErrorAt(text: string, offset: number): string {
  if (offset >= text.length) return "the file ends before the JSON is complete";
  return `unexpected ${JSON.stringify(String.fromCodePoint(text.codePointAt(offset) ?? 0))}`;
}

function lineAndColumn(text: string, offset: number): string {
  let line = 1;
  let lineStart = 0;
  for (let index = text.indexOf("\n"); index !== -1 && index < offset; index = text.indexOf("\n", index + 1)) {
    line++;
    lineStart = index + 1;
  }
  // Columns count characters as a person sees them, so an emoji before the error counts once.
  const column = [...text.slice(lineStart, offset)].length + 1;
  return `${line}, column ${column}`;
}
