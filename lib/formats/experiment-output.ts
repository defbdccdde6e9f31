import type { ExperimentRow } from "@/lib/api/experiments";
import { writeCsvRecord } from "./write-csv";

// The experiments runner's output CSV (specs/experiments-cli.md, "Output Format"): every input
// column, then these six. Written verbatim as Python's csv module writes it (QUOTE_MINIMAL, CRLF):
// the user's outputs are data, so no spreadsheet-formula neutralising here. The CLI and the
// page's download both write through these two functions, so their bytes are the same.

/** The six columns the runner adds after the input columns. */
export const EXPERIMENT_OUTPUT_COLUMNS = ["status", "input_tokens", "context_window", "output_tokens", "output", "error_message"] as const;

/** The output's header record: the experiments CSV's columns, then the six. */
export function experimentOutputHeader(columns: readonly string[]): string {
  return writeCsvRecord([...columns, ...EXPERIMENT_OUTPUT_COLUMNS]);
}

/** One finished row as an output record (a pending row has no record). */
export function experimentOutputRecord(row: ExperimentRow): string {
  if (row.status === "pending") throw new Error(`Experiment ${row.number} has not finished: it has no output row yet.`);
  return writeCsvRecord([...row.values, row.status, row.inputTokens, row.contextWindow, row.outputTokens, row.output, row.errorMessage]);
}

/**
 * The output file as far as it can be written in input order: the header, then the finished rows
 * up to the first that is not finished (later rows wait, so the file never has gaps).
 */
export function experimentOutputPrefix(columns: readonly string[], rows: readonly ExperimentRow[]): { text: string; rows: number } {
  let text = experimentOutputHeader(columns);
  let count = 0;
  for (const row of rows) {
    if (row.status === "pending") break;
    text += experimentOutputRecord(row);
    count++;
  }
  return { text, rows: count };
}
