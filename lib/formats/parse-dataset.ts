/** A dataset as the workbench uses it: column names and one string value per column per row. */
export type ParsedDataset = { headers: string[]; rows: Record<string, string>[] };

/** A dataset file that cannot be read, saying where (file and row) and what to do about it. */
export class DatasetParseError extends Error {
  /** The file name as the user gave it. */
  readonly file: string;
  /** Line of the file where the problem is (the header is row 1), or null when no row applies. */
  readonly row: number | null;
  /** What is wrong, as one sentence (kept so the error can be rebuilt across a worker boundary). */
  readonly problem: string;
  /** What the user can do to fix the file. */
  readonly hint: string;

  constructor(input: { file: string; row: number | null; problem: string; hint: string }) {
    const where = input.row === null ? input.file : `${input.file}, row ${input.row}`;
    super(`${where}: ${input.problem} ${input.hint}`);
    this.name = "DatasetParseError";
    this.file = input.file;
    this.row = input.row;
    this.problem = input.problem;
    this.hint = input.hint;
  }
}

/**
 * Parses the text of an uploaded dataset: `.json` files as JSON, everything else as CSV.
 * Takes text rather than a path so it can run in a browser Web Worker.
 */
export function parseDatasetText(text: string, fileName: string): ParsedDataset {
  const withoutBom = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return /\.json$/i.test(fileName) ? parseJsonDataset(withoutBom, fileName) : parseCsvDataset(withoutBom, fileName);
}

// ---------------------------------------------------------------------------------------------
// CSV
//
// A hand-written RFC 4180 reader instead of papaparse: papaparse picks one line ending for the
// whole file (in 5.7.1 a CRLF file with one LF line merges two rows; the reverse leaves a stray
// "\r" in a value), recovers from a stray quote by reading on into later rows, and reports no
// line numbers. Here CR, LF and CRLF all end a record and every error names the line. Measured:
// 50 MB with a fifth of the rows quoted and multi-line parses in 0.8-1.2 s (papaparse 0.9-1.5 s).
// papaparse stays a test oracle only (a devDependency); the experiments runner's CSV must match
// Python's csv module line for line, which this reader's line-numbered errors serve better.
// ---------------------------------------------------------------------------------------------

const COMMA = 44;
const QUOTE = 34;
const LF = 10;
const CR = 13;
const SPACE = 32;
const TAB = 9;

function parseCsvDataset(text: string, file: string): ParsedDataset {
  const reader = new CsvRecordReader(text, file);
  const headerFields = reader.next();
  if (headerFields === null) {
    throw new DatasetParseError({
      file,
      row: null,
      problem: "the file is empty.",
      hint: "Add a header row with the column names, then one row per example.",
    });
  }
  const headers = checkedHeaders(headerFields, file, reader.recordLine);
  const makeRow = rowBuilder(headers);
  const rows: Record<string, string>[] = [];
  for (let fields = reader.next(); fields !== null; fields = reader.next()) {
    if (fields.length > headers.length) {
      throw new DatasetParseError({
        file,
        row: reader.recordLine,
        problem: `row has ${fields.length} fields but the header has ${headers.length}.`,
        hint: "Quote values that contain commas.",
      });
    }
    rows.push(makeRow(fields));
  }
  return { headers, rows };
}

function checkedHeaders(fields: string[], file: string, line: number): string[] {
  const headers = fields.map((field) => field.trim());
  const firstColumn = new Map<string, number>();
  headers.forEach((name, index) => {
    if (name === "") {
      throw new DatasetParseError({
        file,
        row: line,
        problem: `column ${index + 1} of the header has no name.`,
        hint: "Give every column a name in the first row (remove a trailing comma if there is one).",
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

/** Makes the row objects; rows with fewer fields than the header get "" for the rest. */
function rowBuilder(headers: string[]): (fields: string[]) => Record<string, string> {
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

/**
 * Reads one record at a time. Fully empty lines are skipped; a line holding only `""` is a
 * record with one empty value.
 */
class CsvRecordReader {
  /** The line the record last returned by next() starts on. */
  recordLine = 0;
  private index = 0;
  private line = 1;

  constructor(
    private readonly text: string,
    private readonly file: string,
  ) {}

  /** The fields of the next record, or null at the end of the text. */
  next(): string[] | null {
    const text = this.text;
    const length = text.length;
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
        // Tolerate spaces between a closing quote and the comma, as spreadsheet tools do.
        while (index < length && (text.charCodeAt(index) === SPACE || text.charCodeAt(index) === TAB)) index++;
        const next = text.charCodeAt(index);
        if (index < length && next !== COMMA && next !== LF && next !== CR) {
          throw new DatasetParseError({
            file: this.file,
            row: this.line,
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
          if (code === COMMA || code === LF || code === CR) break;
          end++;
        }
        fields.push(text.slice(index, end));
        index = end;
      }

      if (index >= length) break;
      const separator = text.charCodeAt(index);
      if (separator === COMMA) {
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

// ---------------------------------------------------------------------------------------------
// JSON
// ---------------------------------------------------------------------------------------------

function parseJsonDataset(text: string, file: string): ParsedDataset {
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

/**
 * The offset of the first syntax error in `text`, or null if none is found. JSON.parse only
 * sometimes says where it failed ("Unexpected token" messages carry no position in V8), and other
 * engines word it differently, so the position is found here; this only runs after a failure.
 */
function locateJsonError(text: string): number | null {
  type State = "value" | "valueOrClose" | "keyOrClose" | "key" | "colon" | "after";
  const containers: Array<"[" | "{"> = [];
  let state: State = "value";
  let index = 0;
  const length = text.length;

  for (;;) {
    while (index < length && " \t\n\r".includes(text[index])) index++;
    if (index >= length) return state === "after" && containers.length === 0 ? null : length;
    const character = text[index];

    if (state === "value" || state === "valueOrClose") {
      if (state === "valueOrClose" && character === "]") {
        containers.pop();
        index++;
        state = "after";
      } else if (character === "{" || character === "[") {
        containers.push(character);
        index++;
        state = character === "{" ? "keyOrClose" : "valueOrClose";
      } else if (character === '"') {
        const end = scanJsonString(text, index);
        if (end < 0) return -end - 1;
        index = end;
        state = "after";
      } else {
        const end = scanJsonScalar(text, index);
        if (end === index) return index;
        index = end;
        state = "after";
      }
    } else if (state === "keyOrClose" || state === "key") {
      if (state === "keyOrClose" && character === "}") {
        containers.pop();
        index++;
        state = "after";
      } else if (character === '"') {
        const end = scanJsonString(text, index);
        if (end < 0) return -end - 1;
        index = end;
        state = "colon";
      } else {
        return index;
      }
    } else if (state === "colon") {
      if (character !== ":") return index;
      index++;
      state = "value";
    } else {
      const container = containers[containers.length - 1];
      if (container === undefined) return index;
      if (character === ",") state = container === "{" ? "key" : "value";
      else if (character === (container === "{" ? "}" : "]")) containers.pop();
      else return index;
      index++;
    }
  }
}

/** End offset of the string starting at `start`, or -(error offset + 1). */
function scanJsonString(text: string, start: number): number {
  let index = start + 1;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    if (code === QUOTE) return index + 1;
    if (code < 0x20) return -index - 1;
    if (code === 92 /* backslash */) {
      const escape = text[index + 1];
      if (escape === "u") {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(index + 2, index + 6))) return -index - 1;
        index += 6;
      } else if (escape !== undefined && '"\\/bfnrt'.includes(escape)) {
        index += 2;
      } else {
        return -index - 1;
      }
    } else {
      index++;
    }
  }
  return -text.length - 1;
}

/** End offset of the number or literal at `start`; `start` itself when there is none. */
function scanJsonScalar(text: string, start: number): number {
  for (const literal of ["true", "false", "null"]) {
    if (text.startsWith(literal, start)) return start + literal.length;
  }
  const number = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  number.lastIndex = start;
  return number.test(text) ? number.lastIndex : start;
}
