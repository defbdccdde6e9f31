import type { Queryable } from "../database";
import type { BatchArtifacts } from "./batch-config";

/** A job decided before it runs: skipped (budget, unknown price) with its reason. */
export interface SkippedJob {
  index: number;
  code: "budget" | "unknown_price";
  message: string;
}

/** A job a resumed run.json says succeeded: its record carries over, it is never run again. */
export interface DoneJob {
  index: number;
  attempts: number;
  startedAt: Date | null;
  finishedAt: Date | null;
  costUsd: number | null;
  warnings: string[];
  artifacts: BatchArtifacts;
}

/**
 * Inserts a batch's cells as the calling user, one per prompt row x matrix column in job order
 * (one statement), queued; then marks the ones decided already: skipped with their reason, or
 * done as a resumed run.json recorded them.
 */
export async function insertBatchCells(
  tx: Queryable,
  { runId, prompts, skipped = [], done = [] }: { runId: string; prompts: number; skipped?: SkippedJob[]; done?: DoneJob[] },
): Promise<void> {
  await tx.query(
    `insert into run_cells (run_id, column_id, column_index, row_index, trial, variant)
     select $1, c.id, c.column_index, r.row_index, 0, 0
       from generate_series(0, $2::int - 1) as r(row_index)
       cross join run_columns c
      where c.run_id = $1
      order by r.row_index, c.column_index`,
    [runId, prompts],
  );
  await markSkipped(tx, { runId, skipped });
  if (done.length === 0) return;
  await tx.query(
    `update run_cells c
        set status = 'ok', attempts = x.attempts, started_at = x.started_at, finished_at = x.finished_at,
            cost_usd = x.cost_usd, warnings = x.warnings, artifacts = x.artifacts
       from jsonb_to_recordset($2::jsonb) as x(index int, attempts int, started_at timestamptz, finished_at timestamptz,
                                               cost_usd double precision, warnings jsonb, artifacts jsonb),
            (select count(*)::int as n from run_columns where run_id = $1) k
      where c.run_id = $1 and c.row_index = x.index / k.n and c.column_index = x.index % k.n`,
    [
      runId,
      JSON.stringify(
        done.map((job) => ({
          index: job.index,
          attempts: job.attempts,
          started_at: job.startedAt?.toISOString() ?? null,
          finished_at: job.finishedAt?.toISOString() ?? job.startedAt?.toISOString() ?? null,
          cost_usd: job.costUsd,
          warnings: job.warnings,
          artifacts: job.artifacts,
        })),
      ),
    ],
  );
}

/** Marks jobs of a batch skipped, with their reason (job index = row x columns + column). */
export async function markSkipped(tx: Queryable, { runId, skipped }: { runId: string; skipped: SkippedJob[] }): Promise<void> {
  if (skipped.length === 0) return;
  await tx.query(
    `update run_cells c
        set status = 'skipped', finished_at = now(), error_code = x.code, error_message = x.message,
            lease_owner = null, lease_expires_at = null
       from jsonb_to_recordset($2::jsonb) as x(index int, code text, message text),
            (select count(*)::int as n from run_columns where run_id = $1) k
      where c.run_id = $1 and c.row_index = x.index / k.n and c.column_index = x.index % k.n
        and c.status not in ('running', 'ok', 'warning')`,
    [runId, JSON.stringify(skipped)],
  );
}

/**
 * Queues jobs of a batch again (resume): failed, cancelled, skipped and waiting ones, with their
 * attempts counted from 0 so the one retry is theirs again. Cells that succeeded or are being
 * called now are left alone. Answers how many were queued.
 */
export async function requeueBatchCells(tx: Queryable, { runId, indexes }: { runId: string; indexes: number[] }): Promise<number> {
  if (indexes.length === 0) return 0;
  const { rowCount } = await tx.query(
    `update run_cells c
        set status = 'queued', attempts = 0, not_before = now(), lease_owner = null, lease_expires_at = null,
            error_code = null, error_message = null, finished_at = null, cost_usd = null, warnings = '[]'
       from unnest($2::int[]) as x(index),
            (select count(*)::int as n from run_columns where run_id = $1) k
      where c.run_id = $1 and c.row_index = x.index / k.n and c.column_index = x.index % k.n
        and c.status in ('queued', 'error', 'malformed', 'skipped', 'cancelled')`,
    [runId, indexes],
  );
  return rowCount;
}

/** Makes an ended batch claimable again (queued, its end cleared); a running or paused one is left as it is. */
export async function reopenBatchRun(tx: Queryable, { runId }: { runId: string }): Promise<void> {
  await tx.query(
    `update runs set status = 'queued', finished_at = null, error = null
      where id = $1 and status in ('completed', 'cancelled', 'failed')`,
    [runId],
  );
}
