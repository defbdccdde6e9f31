import type { Database } from "../database";
import { cancelAllOpenCells } from "./cancel-open-cells";
import { takesCellsSql } from "./takes-cells";

/** Why a run was failed while it was planned. */
export const interruptedPlanningError =
  "Planning was interrupted before all of this run's cells were created (the server stopped or lost the database). Nothing of it ran; create the run again.";

/** Why an experiment was failed while its first cells ran and the rest were still being added (runs.planning). */
export const interruptedStreamingError =
  "Planning was interrupted before all of this run's cells were created (the process adding them stopped). The rows that finished are kept; run the rest again (parallaxr run --resume continues after the last row in its output file).";

/** The same for a run of another kind (a large workbench run is answered before its last cells are in). */
export const interruptedStreamingRunError =
  "Planning was interrupted before all of this run's cells were created (the server stopped or lost the database). The cells that finished are kept, the rest were cancelled; create the run again for them.";

/**
 * Runs a stopped process left half done, as the connection's own role (the worker's):
 * - planned runs not heard from for staleMs (a planner marks its run at every batch) are failed
 *   with interruptedPlanningError, and their cells cancelled: half a plan is never run, and the
 *   API shows why. Resuming instead would need the request's rows again for inline datasets.
 *   So are runs still marked planning (their first cells queued while the rest were added), with
 *   interruptedStreamingError (experiments) or interruptedStreamingRunError: what finished of
 *   them is kept, the cells left open are cancelled.
 * - with leftovers, also cancelled or failed runs that still have queued cells (a cancel that
 *   stopped between its batches) get them cancelled.
 * With createdBefore, runs made at or after it are left alone (a planner of this process may be at work on them).
 * Answers the ids of the runs it changed.
 */
export async function finishInterruptedRuns(
  db: Database,
  { staleMs, leftovers, createdBefore = null }: { staleMs: number; leftovers: boolean; createdBefore?: Date | null },
): Promise<string[]> {
  const { rows: failed } = await db.query<{ id: string }>(
    `update runs set status = 'failed', finished_at = now(), planning = false,
            error = case when not planning then $2 when kind = 'experiment' then $4 else $5 end
      where ${takesCellsSql}
        and updated_at <= now() - make_interval(secs => $1::double precision / 1000)
        and ($3::timestamptz is null or created_at < $3::timestamptz)
      returning id`,
    [staleMs, interruptedPlanningError, createdBefore?.toISOString() ?? null, interruptedStreamingError, interruptedStreamingRunError],
  );
  const runIds = failed.map((row) => row.id);
  if (leftovers) {
    const { rows } = await db.query<{ id: string }>(
      `select r.id from runs r
        where r.status in ('cancelled', 'failed')
          and exists (select 1 from run_cells c where c.run_id = r.id and c.status = 'queued')`,
    );
    for (const row of rows) if (!runIds.includes(row.id)) runIds.push(row.id);
  }
  for (const runId of runIds) await cancelAllOpenCells(db, { runId });
  return runIds;
}
