import { packedColumn, unpackAnswer } from "../cells/packed-answer";
import { shownStatusSql } from "../cells/shown-status";
import type { Queryable } from "../database";
import type { EvalTestCaseRow } from "./eval-plan";

/** One cell of an eval run with its test case, as the EvalRuns are built from it. */
export interface EvalCell {
  variant: number;
  columnIndex: number;
  rowIndex: number;
  trial: number;
  status: string;
  testCase: string;
  rendered: EvalTestCaseRow["rendered"][number] | null;
  outputRaw: string | null;
  errorMessage: string | null;
  latencyMs: number | null;
  tokensIn: number | null;
  tokensOut: number | null;
  costUsd: number | null;
  graderCostUsd: number | null;
  /** The judges' answers (their reasoning), as the worker kept them. */
  graderOutputRaw: string | null;
  metricScores: { scores: Record<string, number>; passed: boolean; failing: string[] } | null;
}

/** Every cell of an eval run of the calling user's, by prompt, model, test case and trial. */
export async function listEvalCells(tx: Queryable, { runId }: { runId: string }): Promise<EvalCell[]> {
  const { rows } = await tx.query<{
    variant: number;
    column_index: number;
    row_index: number;
    trial: number;
    status: string;
    test_case: string | null;
    rendered: EvalCell["rendered"];
    output_raw: string | null;
    output_z: string | null;
    error_message: string | null;
    latency_ms: number | null;
    tokens_in: number | null;
    tokens_out: number | null;
    cost_usd: number | null;
    grader_cost_usd: number | null;
    grader_output_raw: string | null;
    metric_scores: EvalCell["metricScores"];
  }>(
    `select c.variant, c.column_index, c.row_index, c.trial, ${shownStatusSql("c.")} as status, d.data ->> 'name' as test_case,
            d.data -> 'rendered' -> c.variant as rendered, c.output_raw, ${packedColumn("c.")}, c.error_message, c.latency_ms,
            c.tokens_in, c.tokens_out, c.cost_usd, c.grader_cost_usd, c.grader_output_raw, c.metric_scores
       from run_cells c
       join runs r on r.id = c.run_id
       left join dataset_rows d on d.dataset_id = r.dataset_id and d.row_index = c.row_index
      where c.run_id = $1 and r.kind = 'eval'
      order by c.variant, c.column_index, c.row_index, c.trial`,
    [runId],
  );
  return rows.map((row) => ({
    variant: row.variant,
    columnIndex: row.column_index,
    rowIndex: row.row_index,
    trial: row.trial,
    status: row.status,
    testCase: row.test_case ?? `test case ${row.row_index + 1}`,
    rendered: row.rendered,
    outputRaw: unpackAnswer(row.output_raw, row.output_z),
    errorMessage: row.error_message,
    latencyMs: row.latency_ms,
    tokensIn: row.tokens_in,
    tokensOut: row.tokens_out,
    costUsd: row.cost_usd,
    graderCostUsd: row.grader_cost_usd,
    graderOutputRaw: row.grader_output_raw,
    metricScores: row.metric_scores,
  }));
}
