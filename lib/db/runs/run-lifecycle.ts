import type { RunStatus } from "@/lib/api/types";
import type { Database, Queryable } from "../database";

/** Ids of runs a worker may take cells from, oldest first. */
export async function listActiveRunIds(db: Database): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    "select id from runs where status in ('queued', 'running') order by created_at limit 1000",
  );
  return rows.map((row) => row.id);
}

/**
 * Marks completed each of the given queued or running runs (all of them when runIds is null)
 * that has no open cell left (a run whose every cell was skipped at creation ends here too), and
 * none still to be added (runs.planning). Called after each batch of results, and now and then as a sweep.
 */
export async function completeFinishedRuns(db: Database, { runIds }: { runIds: string[] | null }): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `update runs r set status = 'completed', started_at = coalesce(r.started_at, now()), finished_at = now()
      where r.status in ('queued', 'running') and not r.planning and ($1::uuid[] is null or r.id = any($1::uuid[]))
        and not exists (select 1 from run_cells c where c.run_id = r.id and c.status in ('queued', 'running'))
      returning r.id`,
    [runIds],
  );
  return rows.map((row) => row.id);
}

/** What a person can do to a run, and from which statuses. */
export type RunAction = "pause" | "resume" | "cancel";

const transitions: Record<RunAction, { from: RunStatus[]; to: RunStatus }> = {
  pause: { from: ["queued", "running"], to: "paused" },
  resume: { from: ["paused"], to: "running" },
  // planned: a run whose cells are still being inserted; its planner stops at its next batch
  cancel: { from: ["planned", "queued", "running", "paused"], to: "cancelled" },
};

/** What applyRunAction did: the run's new status, or the status that refused the action. */
export type RunActionResult = { applied: true; status: RunStatus } | { applied: false; status: RunStatus };

/**
 * Applies a lifecycle action to the run as the calling user. Pause stops new claims (cells in
 * flight finish and are kept: they are paid for); so does cancel, whose cells not yet started
 * are then cancelled by cancelOpenCells, in batches of their own. Returns the new status; the
 * current one, unchanged, when the action does not apply to it (the engine says why: a run's
 * lifecycle is its policy, not SQL's); null when the run is not the caller's.
 */
export async function applyRunAction(tx: Queryable, { id, action }: { id: string; action: RunAction }): Promise<RunActionResult | null> {
  const current = (await tx.query<{ status: RunStatus }>("select status from runs where id = $1 for update", [id])).rows[0];
  if (!current) return null;
  const { from, to } = transitions[action];
  if (!from.includes(current.status)) return { applied: false, status: current.status };
  await tx.query(
    `update runs set status = $2,
            finished_at = case when $2 = 'cancelled' then now() else finished_at end
      where id = $1`,
    [id, to],
  );
  return { applied: true, status: to };
}

/**
 * Queues one cell again as the calling user, skipping the cache: its result is overwritten when
 * the new call ends. A finished run becomes running again so workers pick the cell up.
 * Returns false when the cell is not the caller's (or not in that run).
 */
export async function requeueCell(tx: Queryable, { runId, cellId }: { runId: string; cellId: string }): Promise<boolean> {
  // The cache rows that read their answer (and its tokens, latency and cost) from this cell keep a
  // copy of it first: the new attempt may fail and take the answer with it (0022, 0026).
  await tx.query(
    `update response_cache r set output_raw = c.output_raw, output_z = c.output_z, cell_id = null,
            tokens_in = c.tokens_in, tokens_out = c.tokens_out, tokens_estimated = c.tokens_estimated,
            latency_ms = c.latency_ms, cost_usd = c.cost_usd, finish_reason = c.finish_reason
       from run_cells c
      where c.id = $1 and c.run_id = $2 and c.status not in ('queued', 'running')
        and (c.output_raw is not null or c.output_z is not null)
        and r.cell_id = c.id and r.user_id = c.user_id`,
    [cellId, runId],
  );
  const { rowCount } = await tx.query(
    `update run_cells
        set status = 'queued', bypass_cache = true, attempts = 0, not_before = now(),
            lease_owner = null, lease_expires_at = null, error_code = null, error_message = null
      where id = $1 and run_id = $2 and status not in ('queued', 'running')`,
    [cellId, runId],
  );
  if (rowCount === 0) return false;
  await tx.query(
    `update runs set status = 'running', finished_at = null where id = $1 and status in ('completed', 'failed', 'cancelled')`,
    [runId],
  );
  return true;
}

/**
 * Sets a person's grade of one cell (1 pass, 0 fail, null none) as the calling user; it
 * overrides the grader's grade in summaries. False when the cell is not the caller's.
 */
export async function setManualGrade(
  tx: Queryable,
  { runId, cellId, grade }: { runId: string; cellId: string; grade: number | null },
): Promise<boolean> {
  return (await tx.query("update run_cells set manual_grade = $3 where id = $1 and run_id = $2", [cellId, runId, grade])).rowCount > 0;
}
