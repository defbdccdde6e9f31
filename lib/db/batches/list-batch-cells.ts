import { shownStartedAtSql, shownStatusSql } from "../cells/shown-status";
import type { Queryable } from "../database";
import type { BatchArtifacts, BatchColumn, BatchPromptRow } from "./batch-config";

/** A batch cell as run.json needs it. */
export interface BatchCell {
  rowIndex: number;
  columnIndex: number;
  status: "queued" | "running" | "ok" | "warning" | "error" | "malformed" | "skipped" | "cancelled";
  attempts: number;
  startedAt: Date | null;
  finishedAt: Date | null;
  costUsd: number | null;
  errorCode: string | null;
  errorMessage: string | null;
  warnings: string[];
  artifacts: BatchArtifacts | null;
}

type Row = {
  row_index: number;
  column_index: number;
  status: BatchCell["status"];
  attempts: number;
  started_at: Date | string | null;
  finished_at: Date | string | null;
  cost_usd: number | null;
  error_code: string | null;
  error_message: string | null;
  warnings: string[] | null;
  artifacts: BatchArtifacts | null;
};

const date = (value: Date | string | null) => (value === null ? null : new Date(value));

/**
 * Every cell of a batch run in job order (prompt row, then matrix column). One statement. Each
 * status is the one shown (a job a worker holds ahead is pending until its call starts,
 * shown-status.ts), or with asStored the one stored: a held job is running there, claimed, which
 * requeueBatch must leave alone.
 */
export async function listBatchCells(
  tx: Queryable,
  { runId, asStored = false }: { runId: string; asStored?: boolean },
): Promise<BatchCell[]> {
  const [status, startedAt] = asStored
    ? ["c.status", "c.started_at"]
    : [shownStatusSql("c.", "r.status"), shownStartedAtSql("c.", "r.status")];
  const { rows } = await tx.query<Row>(
    `select c.row_index, c.column_index, ${status} as status, c.attempts, ${startedAt} as started_at, c.finished_at, c.cost_usd,
            c.error_code, c.error_message, c.warnings, c.artifacts
       from run_cells c join runs r on r.id = c.run_id
      where c.run_id = $1
      order by c.row_index, c.column_index`,
    [runId],
  );
  return rows.map((row) => ({
    rowIndex: row.row_index,
    columnIndex: row.column_index,
    status: row.status,
    attempts: row.attempts,
    startedAt: date(row.started_at),
    finishedAt: date(row.finished_at),
    costUsd: row.cost_usd,
    errorCode: row.error_code,
    errorMessage: row.error_message,
    warnings: row.warnings ?? [],
    artifacts: row.artifacts,
  }));
}

/** A batch's prompts (its dataset's rows, in order) and columns (its matrix entries, in order): what never changes in a run. */
export async function listBatchInputs(
  tx: Queryable,
  { runId, datasetId }: { runId: string; datasetId: string },
): Promise<{ prompts: BatchPromptRow[]; columns: BatchColumn[] }> {
  const prompts = await tx.query<{ data: BatchPromptRow }>("select data from dataset_rows where dataset_id = $1 order by row_index", [
    datasetId,
  ]);
  const columns = await tx.query<BatchColumn>("select provider, model, params from run_columns where run_id = $1 order by column_index", [
    runId,
  ]);
  return { prompts: prompts.rows.map((row) => row.data), columns: columns.rows };
}
