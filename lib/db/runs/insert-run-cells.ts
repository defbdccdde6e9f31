import type { Queryable } from "../database";
import { takesCellsSql } from "./takes-cells";

/** Thrown (so that the batch's transaction rolls back) when the run stopped being planned mid-batch. */
export class PlanningStopped extends Error {
  constructor(readonly runId: string) {
    super(`Run ${runId} is no longer being planned (cancelled or failed meanwhile)`);
    this.name = "PlanningStopped";
  }
}

/**
 * Inserts the cells of rows fromRow..toRow-1 (x every column x trials) of a run being planned as
 * the calling user, in grid order, and marks the run as heard from (updated_at: a run being
 * planned that nobody touches for long was left by a planner that stopped, see
 * finishInterruptedRuns).
 * With strictBudget, cells of columns without a cost estimate are inserted already skipped,
 * saying why, rather than updated afterwards (an update fires the per-row triggers).
 * With unannounced, the cells take seq 0 instead of a change cursor (0004_realtime.sql): they are
 * added to a run whose followers were told where to start before they went in (create-run.ts,
 * streamRest), and showing them queued needs no change sent; each is sent once it changes.
 * Returns false, inserting nothing, when the run is no longer being planned (it was cancelled),
 * and throws PlanningStopped when it stopped being planned while the cells went in: the caller's
 * transaction then rolls them back.
 *
 * Locking: the run's row is locked last (the update), after the insert, so that two batches of
 * one run can be inserted at once (createRun does on a Postgres server); the insert itself holds
 * only the key share lock of 0021's parent check. A cancel (or a failure) changes the status in a
 * transaction of its own and then cancels the run's cells: it either commits before this batch's
 * update (which then finds the run no longer planned and rolls the batch back) or waits for this
 * batch to commit (and then cancels these cells with the rest).
 */
export async function insertRunCells(
  tx: Queryable,
  {
    runId,
    fromRow,
    toRow,
    trials,
    strictBudget,
    unannounced = false,
  }: { runId: string; fromRow: number; toRow: number; trials: number; strictBudget: boolean; unannounced?: boolean },
): Promise<boolean> {
  const { rowCount: planned } = await tx.query(`select 1 from runs where id = $1 and ${takesCellsSql}`, [runId]);
  if (planned === 0) return false;
  // Each cell's id is the statement's prefix and the cell's number in the statement, and its user
  // the caller, both drawn once (0028_cell_ids_per_statement.sql) rather than by each row's defaults.
  await tx.query(
    `with ids as materialized (
       select parallaxr_uuid7_prefix() as prefix, auth.uid() as user_id,
              (select max(column_index) + 1 from run_columns where run_id = $1) as columns)
     insert into run_cells (id, user_id, run_id, column_id, column_index, row_index, trial, seq, status, finished_at, error_code, error_message)
     select (ids.prefix || lpad(to_hex((((r.i - $2::int)::bigint * ids.columns + col.column_index) * $4::int + t.i)), 8, '0'))::uuid,
            ids.user_id, $1, col.id, col.column_index, r.i, t.i, case when $6::boolean then 0 else nextval('run_cells_seq') end,
            case when skip then 'skipped' else 'queued' end,
            case when skip then now() end,
            case when skip then 'budget' end,
            case when skip then format('Skipped: budget mode strict, and %s/%s (or the model grading it) has no price or no output estimate. Set a price in Settings -> Prices, or maxTokens.', col.provider, col.model) end
       from ids
       cross join generate_series($2::int, $3::int - 1) as r(i)
       cross join (select c.*, ($5::boolean and c.estimated_cost_per_cell is null) as skip from run_columns c where c.run_id = $1) col
       cross join generate_series(0, $4::int - 1) as t(i)
      order by r.i, col.column_index, t.i`,
    [runId, fromRow, toRow, trials, strictBudget, unannounced],
  );
  const { rowCount } = await tx.query(`update runs set updated_at = now() where id = $1 and ${takesCellsSql}`, [runId]);
  if (rowCount === 0) throw new PlanningStopped(runId);
  return true;
}
