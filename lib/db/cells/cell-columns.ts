import type { Cell } from "@/lib/api/types";
import { hasColumnWarnings, spellColumnWarnings, type ColumnModels } from "./column-warnings";
import { leftChars, packedColumn, unpackAnswer } from "./packed-answer";
import { shownStatusSql } from "./shown-status";

/**
 * The cell columns, with the model's output cut to its first outputChars characters when a number
 * is given (a grid shows 200 of them; a run of 40,000 cells of long answers is tens of megabytes
 * in full). output_truncated says whether anything was cut. A packed answer (0022) comes whole,
 * as it is smaller than its text, and toCell unpacks and cuts it. A cell held ahead is queued
 * (shown-status.ts).
 */
export function cellColumns(outputChars: number | null = null): string {
  if (outputChars !== null && !(Number.isSafeInteger(outputChars) && outputChars >= 0)) {
    throw new Error(`outputChars must be a whole number, 0 or more, not ${outputChars}`);
  }
  // A parsed output equal to the raw one is stored once (0020_one_copy_of_each_answer.sql).
  // toCell fills it from the (unpacked) raw output when parsed_is_raw.
  const output =
    outputChars === null
      ? `output_raw, output_parsed, false as output_truncated`
      : `left(output_raw, ${outputChars}) as output_raw, left(output_parsed, ${outputChars}) as output_parsed,
         coalesce(length(output_raw) > ${outputChars} or length(output_parsed) > ${outputChars}, false) as output_truncated`;
  return `id, row_index, column_index, trial, ${shownStatusSql()} as status, ${output}, ${packedColumn("")}, parsed_is_raw, tokens_in, tokens_out,
  tokens_estimated, latency_ms, cost_usd, finish_reason, error_message, error_code, warnings, attempts, cached,
  grade, manual_grade, seq, updated_at, grader_status, grader_output_raw, grader_error, grader_cost_usd`;
}

/** A run_cells row as cellColumns selects it. */
export interface CellRow {
  id: string;
  row_index: number;
  column_index: number;
  trial: number;
  status: Cell["status"];
  output_raw: string | null;
  output_parsed: string | null;
  output_truncated: boolean;
  /** A packed answer, base64 (packed-answer.ts); output_raw is null then. */
  output_z: string | null;
  parsed_is_raw: boolean;
  tokens_in: number | null;
  tokens_out: number | null;
  tokens_estimated: boolean;
  latency_ms: number | null;
  cost_usd: number | null;
  finish_reason: string | null;
  error_message: string | null;
  error_code: string | null;
  warnings: string[];
  attempts: number;
  cached: boolean;
  grade: number | null;
  manual_grade: number | null;
  seq: number | string;
  updated_at: Date | string;
  grader_status: Cell["graderStatus"];
  grader_output_raw: string | null;
  grader_error: string | null;
  grader_cost_usd: number | null;
}

/** The fields of a CellRow in the order cellsAsArrays puts them in each cell's array. */
const cellRowFields = [
  "id",
  "row_index",
  "column_index",
  "trial",
  "status",
  "output_raw",
  "output_parsed",
  "output_truncated",
  "output_z",
  "parsed_is_raw",
  "tokens_in",
  "tokens_out",
  "tokens_estimated",
  "latency_ms",
  "cost_usd",
  "finish_reason",
  "error_message",
  "error_code",
  "warnings",
  "attempts",
  "cached",
  "grade",
  "manual_grade",
  "seq",
  "updated_at",
  "grader_status",
  "grader_output_raw",
  "grader_error",
  "grader_cost_usd",
] as const satisfies ReadonlyArray<keyof CellRow>;
// Every field of a CellRow is in the list: one missing would be read as undefined without a word.
type UnlistedCellField = Exclude<keyof CellRow, (typeof cellRowFields)[number]>;
const everyFieldListed: [UnlistedCellField] extends [never] ? true : UnlistedCellField = true;
void everyFieldListed;

/**
 * The JSON aggregate of the cells a subquery aliased `alias` selects with cellColumns, in the given
 * order: one JSON array per cell, its values in cellRowFields' order (rowsFromArrays reads it back).
 * An object per cell repeated its 29 keys; building those took a fifth of PGlite's time for a read
 * of 1,000 cells (bench/README.md, "What the span leaves", change 2).
 */
export function cellsAsArrays(alias: string, orderBy: string): string {
  return `json_agg(json_build_array(${cellRowFields.map((field) => `${alias}.${field}`).join(", ")}) order by ${orderBy})`;
}

/** The cells cellsAsArrays aggregated, as CellRows. */
export function rowsFromArrays(text: string): CellRow[] {
  return (JSON.parse(text) as unknown[][]).map((values) => {
    const row: Record<string, unknown> = {};
    for (let index = 0; index < cellRowFields.length; index++) row[cellRowFields[index]] = values[index];
    return row as unknown as CellRow;
  });
}

/**
 * The rows of one run's cells as the API sends them (toCell), the column warnings they store as
 * codes spelled out with their columns' models (column-warnings.ts): models() is asked only when
 * a row has one.
 */
export async function toCells(rows: CellRow[], outputChars: number | null, models: () => Promise<ColumnModels>): Promise<Cell[]> {
  const columns = rows.some((row) => hasColumnWarnings(row.warnings)) ? await models() : null;
  return rows.map((row) => {
    const cell = toCell(row, outputChars);
    return columns ? { ...cell, warnings: spellColumnWarnings(cell.warnings, columns.get(row.column_index)) } : cell;
  });
}

/** A run_cells row as the API sends a cell, its warnings as stored (toCells spells them out); outputChars as given to cellColumns. */
function toCell(row: CellRow, outputChars: number | null): Cell {
  let raw = row.output_raw;
  let truncated = row.output_truncated;
  if (row.output_z !== null) {
    raw = unpackAnswer(null, row.output_z);
    if (raw !== null && outputChars !== null) {
      const left = leftChars(raw, outputChars);
      raw = left.text;
      truncated ||= left.cut;
    }
  }
  return {
    id: row.id,
    row: row.row_index,
    column: row.column_index,
    trial: row.trial,
    status: row.status,
    output: raw,
    outputParsed: row.parsed_is_raw ? raw : row.output_parsed,
    outputTruncated: truncated,
    tokensIn: row.tokens_in,
    tokensOut: row.tokens_out,
    tokensEstimated: row.tokens_estimated,
    latencyMs: row.latency_ms,
    costUsd: row.cost_usd,
    finishReason: row.finish_reason,
    error: row.error_message,
    errorCode: row.error_code,
    warnings: row.warnings ?? [],
    attempts: row.attempts,
    cached: row.cached,
    graderStatus: row.grader_status,
    graderOutput: row.grader_output_raw,
    graderError: row.grader_error,
    graderCostUsd: row.grader_cost_usd,
    grade: row.grade,
    manualGrade: row.manual_grade,
    seq: Number(row.seq),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}
