import { appendFileSync, readFileSync } from "node:fs";
import { EXPERIMENT_OUTPUT_COLUMNS, experimentOutputHeader } from "@/lib/formats/experiment-output";
import { DatasetParseError } from "@/lib/formats/dataset-parse-error";
import { CsvRecordReader } from "@/lib/formats/parse-csv";
import type { ExperimentsTable } from "@/lib/formats/read-experiments-csv";
import { CliError, exitCodes } from "../cli-error";

/** What is in the output file already. */
export interface ExistingOutput {
  /** False when the file does not exist or is empty: the header is written with the first row. */
  hasHeader: boolean;
  /** Data rows in it. */
  rows: number;
  /** The input values of each data row, in order (for --resume's check). */
  inputValues: string[][];
}

/**
 * Reads an existing output CSV: it is appended to, never overwritten (specs/experiments-cli.md),
 * so its header must be the one this run writes, else it is refused naming both headers.
 */
export function readExistingOutput(file: string, columns: readonly string[]): ExistingOutput {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { hasHeader: false, rows: 0, inputValues: [] };
    throw new CliError(`Cannot read the output file ${file}: ${(error as Error).message}.`);
  }
  if (text.trim() === "") return { hasHeader: false, rows: 0, inputValues: [] };
  const reader = new CsvRecordReader(text.replace(/^\ufeff/, ""), file, ",");
  const expected = [...columns, ...EXPERIMENT_OUTPUT_COLUMNS];
  try {
    const header = reader.next() ?? [];
    if (header.join(",") !== expected.join(",")) {
      throw new CliError(
        `The output file ${file} exists with another header, and output is appended, never overwritten.\n` +
          `  its header:  ${header.join(",")}\n  this run's:  ${expected.join(",")}\n` +
          "Give another --output file, or move this one away.",
        exitCodes.usage,
      );
    }
    const inputValues: string[][] = [];
    for (let record = reader.next(); record !== null; record = reader.next()) inputValues.push(record.slice(0, columns.length));
    return { hasHeader: true, rows: inputValues.length, inputValues };
  } catch (error) {
    if (error instanceof DatasetParseError) {
      throw new CliError(
        `The output file ${file} cannot be read as CSV (line ${error.row}): ${error.problem} Give another --output file.`,
        exitCodes.usage,
      );
    }
    throw error;
  }
}

/**
 * For --resume: the rows of the output must be the first rows of the experiments CSV, in order
 * (matched by their input columns); answers how many are done. A mismatch is refused naming the line.
 */
export function checkResumable(file: string, existing: ExistingOutput, table: ExperimentsTable): number {
  if (existing.rows > table.rows.length) {
    throw new CliError(
      `--resume: ${file} has ${existing.rows} rows but the experiments CSV has ${table.rows.length}: they are not from the same experiments.`,
      exitCodes.usage,
    );
  }
  existing.inputValues.forEach((values, index) => {
    const expected = table.rows[index].values;
    if (values.join("\u0000") !== expected.join("\u0000")) {
      throw new CliError(
        `--resume: row ${index + 1} of ${file} (line ${index + 2}) is not experiment ${index + 1} of the experiments CSV ` +
          `(${values.join(",")} vs ${expected.join(",")}). Resume with the same experiments CSV, or give another --output file.`,
        exitCodes.usage,
      );
    }
  });
  return existing.rows;
}

/**
 * Appends to the output file, each write handed to the operating system at once (the spec's
 * flush after each experiment, as Python's flush() does: a killed process loses nothing written).
 */
export class OutputAppender {
  private headerWritten: boolean;

  constructor(
    private readonly file: string,
    private readonly columns: readonly string[],
    existing: ExistingOutput,
  ) {
    this.headerWritten = existing.hasHeader;
  }

  /** Appends records (already CSV text); writes the header first if the file has none. */
  append(records: string): void {
    const text = (this.headerWritten ? "" : experimentOutputHeader(this.columns)) + records;
    if (text === "") return;
    appendFileSync(this.file, text);
    this.headerWritten = true;
  }
}
