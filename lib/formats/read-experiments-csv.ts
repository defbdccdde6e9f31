import { DatasetParseError } from "./dataset-parse-error";
import { ExperimentFileError } from "./experiment-file-error";
import { CsvRecordReader } from "./parse-csv";

/** The columns every experiments CSV must have (specs/experiments-cli.md). */
export const REQUIRED_EXPERIMENT_COLUMNS = ["provider", "model"] as const;

/** One data row of an experiments CSV. */
export interface ExperimentInputRow {
  /** 1 for the first data row: the spec's "experiment 1/3" and "experiment row 1". */
  number: number;
  /** The physical line the row starts on (the header is line 1). */
  line: number;
  /** One value per column, "" where the row has fewer fields than the header. */
  values: string[];
  provider: string;
  model: string;
  /**
   * The row's template variables in CSV order: every column but provider and model, and only
   * where the cell is not blank (a blank cell, like a column that is not there, has no value).
   */
  variables: Record<string, string>;
  /** Every column but provider and model with the row's text, blank or not (the mock's `Variables:` line). */
  allVariables: Record<string, string>;
}

/** An experiments CSV as read: its header (the output's first columns) and its rows. */
export interface ExperimentsTable {
  columns: string[];
  rows: ExperimentInputRow[];
}

/**
 * Reads an experiments CSV (comma-separated, RFC 4180 as Python's csv module reads it; the BOM
 * already removed). Fully blank lines are skipped, as csv.DictReader skips them. Anything that
 * makes the file unusable is an ExperimentFileError naming the file, line and column.
 */
export function readExperimentsCsv(text: string, file: string): ExperimentsTable {
  const reader = new CsvRecordReader(text, file, ",");
  const next = (): string[] | null => {
    try {
      return reader.next();
    } catch (error) {
      if (!(error instanceof DatasetParseError)) throw error;
      throw new ExperimentFileError({ file, line: error.row, column: error.column, problem: error.problem, hint: error.hint });
    }
  };

  const header = next();
  if (header === null) {
    throw new ExperimentFileError({
      file,
      problem: "the file is empty.",
      hint: "Write a header line with at least the columns provider and model, then one line per experiment.",
    });
  }
  const columns = checkedColumns(header, file);
  const rows: ExperimentInputRow[] = [];
  for (let fields = next(); fields !== null; fields = next()) {
    if (fields.length > columns.length) {
      throw new ExperimentFileError({
        file,
        line: reader.recordLine,
        column: columns.length + 1,
        problem: `the line has ${fields.length} fields but the header has ${columns.length}.`,
        hint: "Quote values that contain commas, or add a name for the extra column to the header.",
      });
    }
    rows.push(inputRow(columns, fields, rows.length + 1, reader.recordLine));
  }
  return { columns, rows };
}

function checkedColumns(fields: string[], file: string): string[] {
  const columns = fields.map((field) => field.trim());
  const seen = new Map<string, number>();
  columns.forEach((name, index) => {
    if (name === "") {
      throw new ExperimentFileError({
        file,
        line: 1,
        column: index + 1,
        problem: `column ${index + 1} of the header has no name.`,
        hint: "Give every column a name (remove a trailing comma if there is one).",
      });
    }
    const earlier = seen.get(name);
    if (earlier !== undefined) {
      throw new ExperimentFileError({
        file,
        line: 1,
        column: index + 1,
        problem: `the column "${name}" appears twice (columns ${earlier + 1} and ${index + 1}).`,
        hint: "Rename one of them: every column is a template variable and needs its own name.",
      });
    }
    seen.set(name, index);
  });
  const missing = REQUIRED_EXPERIMENT_COLUMNS.filter((name) => !seen.has(name));
  if (missing.length > 0) {
    throw new ExperimentFileError({
      file,
      line: 1,
      problem: `the header has no ${missing.map((name) => `"${name}"`).join(" or ")} column (it has ${columns.map((name) => `"${name}"`).join(", ")}).`,
      hint: "Every experiments CSV needs the columns provider and model, e.g. `provider,model,source`.",
    });
  }
  return columns;
}

function inputRow(columns: string[], fields: string[], number: number, line: number): ExperimentInputRow {
  const values = columns.map((_, index) => fields[index] ?? "");
  const variables: Record<string, string> = {};
  const allVariables: Record<string, string> = {};
  let provider = "";
  let model = "";
  columns.forEach((name, index) => {
    const value = values[index];
    if (name === "provider") provider = value.trim();
    else if (name === "model") model = value.trim();
    else {
      define(allVariables, name, value);
      if (value !== "") define(variables, name, value);
    }
  });
  return { number, line, values, provider, model, variables, allVariables };
}

// A "__proto__" column is a variable like any other, not the object's prototype.
function define(target: Record<string, string>, key: string, value: string): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
