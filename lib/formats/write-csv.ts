// The CSV writer every export shares. It quotes like Python's csv module (the excel dialect with
// QUOTE_MINIMAL, RFC 4180): a field is quoted when it holds a comma, a double quote, CR or LF,
// quotes inside are doubled, records end in CRLF, and a record of one empty field is written as
// "" so that it is not read back as no record at all. The experiments runner compares its files
// with Python's line for line, so it writes with neutraliseFormulas off (verbatim).

/**
 * One value of a CSV record: null and undefined are written as an empty field, numbers as
 * JavaScript prints them (Python prints 1e-07 where JavaScript prints 1e-7; exports that must
 * match byte for byte pass text).
 */
export type CsvValue = string | number | null | undefined;

/** How a file is written. */
export type CsvOptions = {
  /**
   * Prefix text a spreadsheet would run as a formula (a leading =, +, -, @, tab or CR) with a
   * single quote, so opening an export never evaluates what a model wrote (OWASP "CSV
   * injection"). Numbers are data and stay as they are. For exports a person opens; off for files
   * in a spec's own format.
   */
  neutraliseFormulas?: boolean;
};

const NEEDS_QUOTES = /[",\r\n]/;
const FORMULA_START = /^[=+\-@\t\r]/;

/** Writes records (the header first, if any) as CSV text, each record ended by CRLF. */
export function writeCsv(records: Iterable<readonly CsvValue[]>, options: CsvOptions = {}): string {
  let text = "";
  for (const record of records) text += writeCsvRecord(record, options);
  return text;
}

/** One record and its CRLF. */
export function writeCsvRecord(record: readonly CsvValue[], options: CsvOptions = {}): string {
  if (record.length === 1 && csvText(record[0], options) === "") return '""\r\n';
  return record.map((value) => csvField(value, options)).join(",") + "\r\n";
}

/** One field, quoted when it must be. */
export function csvField(value: CsvValue, options: CsvOptions = {}): string {
  const text = csvText(value, options);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function csvText(value: CsvValue, { neutraliseFormulas = false }: CsvOptions): string {
  if (value === null || value === undefined) return "";
  if (typeof value !== "string") return String(value);
  return neutraliseFormulas && FORMULA_START.test(value) ? `'${value}` : value;
}
