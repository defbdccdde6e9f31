import type { Queryable } from "../database";
import { streamingSql } from "./takes-cells";

/**
 * A run handed to the workers while its cells are still being added (runs.planning, see
 * supabase/migrations/0019_streamed_planning.sql), as the calling user.
 */

/**
 * Before a batch of a run's cells: marks the run as heard from (a planner that stops is found by
 * its silence, see finishInterruptedRuns) and answers its dataset's id, for the batch's rows. Null
 * when the run can no longer take cells (cancelled or failed meanwhile): the planner stops there.
 *
 * Locking: the run's row is locked first (the update), so a cancel, which locks it too, either
 * comes before (this batch sees it and stops) or after (and then cancels these cells).
 */
export async function continuePlanning(tx: Queryable, { runId }: { runId: string }): Promise<{ datasetId: string } | null> {
  const { rows } = await tx.query<{ datasetId: string }>(
    `update runs set updated_at = now() where id = $1 and ${streamingSql}
     returning dataset_id as "datasetId"`,
    [runId],
  );
  return rows[0] ?? null;
}

/**
 * After the last batch: the run is complete once its cells are. Announced as a change of the run
 * (0004's runs notice, which only a status change sends by itself), so that a follower of its
 * events hears at once that every cell is in.
 */
export async function endPlanning(tx: Queryable, { runId }: { runId: string }): Promise<void> {
  await tx.query(
    `with ended as (update runs set planning = false where id = $1 and planning returning id, status)
     select pg_notify('parallaxr_runs', json_build_object('runId', id, 'status', status)::text) from ended`,
    [runId],
  );
}

/** The first row a run being planned has no cell for: its cells are added in row order, a batch per transaction. */
export async function nextRowToPlan(tx: Queryable, { runId }: { runId: string }): Promise<number> {
  const { rows } = await tx.query<{ next: number }>(
    `select coalesce(max(c.row_index) + 1, (r.config -> 'experiment' ->> 'fromRow')::int - 1, 0)::int as next
       from runs r left join run_cells c on c.run_id = r.id
      where r.id = $1
      group by r.id, r.config`,
    [runId],
  );
  return rows[0]?.next ?? 0;
}
