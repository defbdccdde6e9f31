import type { ExperimentRow, ExperimentRowStatus } from "@/lib/api/experiments";
import { packedColumn, unpackAnswer } from "../cells/packed-answer";
import type { Queryable } from "../database";

/**
 * The rows of an experiment run of the calling user's, in CSV order, as the output CSV shows
 * them: the row's values in the given column order, and the six output columns once its cell has
 * finished. A cell that is queued or running is `pending`; one that never ran (cancelled,
 * skipped) is an error saying so.
 */
export async function listExperimentRows(
  tx: Queryable,
  { runId, columns, fromRow = 0, limit = null }: { runId: string; columns: readonly string[]; fromRow?: number; limit?: number | null },
): Promise<ExperimentRow[]> {
  const { rows } = await tx.query<{
    row_index: number;
    status: string;
    tokens_in: number | null;
    tokens_out: number | null;
    output_raw: string | null;
    output_z: string | null;
    error_message: string | null;
    context_window: number | null;
    warnings: string[] | null;
    data: Record<string, string> | null;
  }>(
    `select c.row_index, c.status, c.tokens_in, c.tokens_out, c.output_raw, ${packedColumn("c.")}, c.error_message, col.context_window, c.warnings, d.data
       from run_cells c
       join runs r on r.id = c.run_id
       join run_columns col on col.id = c.column_id
       left join dataset_rows d on d.dataset_id = r.dataset_id and d.row_index = c.row_index
      where c.run_id = $1 and c.row_index >= $2
      order by c.row_index
      limit $3`,
    [runId, fromRow, limit],
  );
  return rows.map((row) => {
    const status = rowStatus(row.status);
    const finished = status !== "pending";
    return {
      number: row.row_index + 1,
      values: columns.map((column) => (row.data && Object.hasOwn(row.data, column) ? String(row.data[column]) : "")),
      status,
      inputTokens: finished ? (row.tokens_in ?? 0) : null,
      contextWindow: finished ? row.context_window : null,
      outputTokens: finished ? (row.tokens_out ?? 0) : null,
      output: finished ? (unpackAnswer(row.output_raw, row.output_z) ?? "") : "",
      warnings: finished ? (row.warnings ?? []) : [],
      errorMessage: finished
        ? (row.error_message ?? (row.status === "cancelled" ? "Cancelled before it ran" : row.status === "skipped" ? "Skipped" : ""))
        : "",
    };
  });
}

function rowStatus(status: string): ExperimentRowStatus {
  if (status === "queued" || status === "running") return "pending";
  if (status === "ok" || status === "warning") return status;
  return "error";
}
