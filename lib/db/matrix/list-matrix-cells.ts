import { packedColumn, unpackAnswer } from "../cells/packed-answer";
import { shownStartedAtSql, shownStatusSql } from "../cells/shown-status";
import type { Queryable } from "../database";

/** One eval of a matrix (a cell): which prompt version, model and input, and what came of it. */
export interface MatrixCell {
  variant: number;
  columnIndex: number;
  rowIndex: number;
  status: string;
  /** The prompt exactly as it was sent. */
  input: string;
  outputRaw: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  warnings: string[];
  tokensIn: number | null;
  tokensOut: number | null;
  costUsd: number | null;
  latencyMs: number | null;
  /** When its call started: none while it is shown queued, a cell held ahead included (its claim is not a start). */
  startedAt: string | null;
  finishedAt: string | null;
  grade: number | null;
  graderError: string | null;
  graderCostUsd: number | null;
  metricScores: { scores: Record<string, number>; passed: boolean; failing: string[] } | null;
}

/** Every cell of a matrix run of the calling user's, by prompt version, model and input. */
export async function listMatrixCells(tx: Queryable, { runId }: { runId: string }): Promise<MatrixCell[]> {
  const { rows } = await tx.query<{
    variant: number;
    column_index: number;
    row_index: number;
    status: string;
    input: string | null;
    output_raw: string | null;
    output_z: string | null;
    error_code: string | null;
    error_message: string | null;
    warnings: string[] | null;
    tokens_in: number | null;
    tokens_out: number | null;
    cost_usd: number | null;
    latency_ms: number | null;
    started_at: Date | string | null;
    finished_at: Date | string | null;
    grade: number | null;
    grader_error: string | null;
    grader_cost_usd: number | null;
    metric_scores: MatrixCell["metricScores"];
  }>(
    `select c.variant, c.column_index, c.row_index, ${shownStatusSql("c.")} as status, d.data -> 'rendered' -> c.variant ->> 'input' as input,
            c.output_raw, ${packedColumn("c.")}, c.error_code, c.error_message, c.warnings, c.tokens_in, c.tokens_out, c.cost_usd,
            c.latency_ms, ${shownStartedAtSql("c.")} as started_at, c.finished_at, c.grade, c.grader_error, c.grader_cost_usd, c.metric_scores
       from run_cells c
       join runs r on r.id = c.run_id
       left join dataset_rows d on d.dataset_id = r.dataset_id and d.row_index = c.row_index
      where c.run_id = $1 and r.kind = 'matrix'
      order by c.variant, c.column_index, c.row_index`,
    [runId],
  );
  return rows.map((row) => ({
    variant: row.variant,
    columnIndex: row.column_index,
    rowIndex: row.row_index,
    status: row.status,
    input: row.input ?? "",
    outputRaw: unpackAnswer(row.output_raw, row.output_z),
    errorCode: row.error_code,
    errorMessage: row.error_message,
    warnings: Array.isArray(row.warnings) ? row.warnings : [],
    tokensIn: row.tokens_in,
    tokensOut: row.tokens_out,
    costUsd: row.cost_usd,
    latencyMs: row.latency_ms,
    startedAt: row.started_at === null ? null : new Date(row.started_at).toISOString(),
    finishedAt: row.finished_at === null ? null : new Date(row.finished_at).toISOString(),
    grade: row.grade,
    graderError: row.grader_error,
    graderCostUsd: row.grader_cost_usd,
    metricScores: row.metric_scores,
  }));
}
