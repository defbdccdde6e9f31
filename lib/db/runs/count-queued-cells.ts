import type { Queryable } from "../database";

/**
 * Cells the calling user has waiting or in flight over all their unfinished runs (planned,
 * queued, running, paused): the open cells of each, and every cell a planned run will have
 * (its planner may not have inserted them yet); for a run still being added to (planning), every
 * cell it will have (an experiment: every row's cell), finished or not. Takes a per-user lock
 * until the transaction ends first, so two runs created at once by one user are counted one after
 * the other and cannot both slip under the limit.
 */
export async function countQueuedCells(tx: Queryable, { userId }: { userId: string }): Promise<number> {
  await tx.query("select pg_advisory_xact_lock(hashtext('parallaxr.queued_cells'), hashtext($1))", [userId]);
  const { rows } = await tx.query<{ queued: number }>(
    `select coalesce(sum(case
              -- a workbench run answered before its last cells were in (create-run.ts, streamRest) too
              when r.status = 'planned' or (r.planning and r.kind = 'workbench')
                then r.row_count::float8 * r.trials * (select count(*) from run_columns col where col.run_id = r.id)
              -- an experiment's cells still being added (0019_streamed_planning.sql): a cell per row
              when r.planning then r.row_count::float8
              else (select count(*) from run_cells c where c.run_id = r.id and c.status in ('queued', 'running'))
            end), 0)::float8 as queued
       from runs r
      where r.user_id = $1 and r.status in ('planned', 'queued', 'running', 'paused')`,
    [userId],
  );
  return rows[0].queued;
}
