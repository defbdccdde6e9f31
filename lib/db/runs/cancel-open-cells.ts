import { asUser } from "../as-user";
import type { Database, Queryable } from "../database";

// Cells per transaction: ~0.3-0.6 s each on PGlite on these machines, so that a request
// arriving meanwhile waits for one batch at most, never for the whole run.
const defaultBatchSize = 10_000;

/**
 * Cancels up to `limit` cells of a cancelled (or failed) run that are not in flight: queued, or
 * running with an expired lease (their worker vanished). Answers how many; call again until it
 * answers less than limit. Cells in flight finish and keep their results: they are paid for.
 *
 * Why batches, and why quietly: one statement over a 200,000-cell run took 9.3 s on PGlite
 * (its one connection, and so every other request, waiting) and 9.5 s on the Postgres server,
 * most of it the per-row triggers of 0004_realtime.sql, a plpgsql call and a pg_notify per cell.
 * With parallaxr.bulk_cell_update on (transaction-local) those triggers stand aside
 * (0008_bulk_cell_updates.sql): the statement bumps seq and updated_at itself, as they would,
 * and one notice per batch wakes the readers, who read the changed cells by cursor anyway.
 */
export async function cancelOpenCells(tx: Queryable, { runId, limit }: { runId: string; limit: number }): Promise<number> {
  await tx.query("select set_config('parallaxr.bulk_cell_update', 'on', true)");
  const { rowCount } = await tx.query(
    `update run_cells c
        set status = 'cancelled', lease_owner = null, lease_expires_at = null, finished_at = now(),
            seq = nextval('run_cells_seq'), updated_at = now()
      where c.id in (select o.id from run_cells o
                      where o.run_id = $1 and (o.status = 'queued' or (o.status = 'running' and o.lease_expires_at <= now()))
                        and exists (select 1 from runs r where r.id = $1 and r.status in ('cancelled', 'failed'))
                      order by o.row_index, o.column_index
                      limit $2)`,
    [runId, limit],
  );
  await tx.query("select set_config('parallaxr.bulk_cell_update', 'off', true)");
  if (rowCount > 0) {
    await tx.query("select pg_notify('parallaxr_cells', json_build_object('runId', $1::uuid, 'status', 'cancelled')::text)", [runId]);
  }
  return rowCount;
}

/**
 * Cancels every open cell of a cancelled or failed run, a batch per transaction (as userId when
 * given, so RLS applies; else as the connection's own role, for the worker's recovery), letting
 * other requests in between. Answers how many.
 */
export async function cancelAllOpenCells(
  db: Database,
  { runId, userId = null, batchSize = defaultBatchSize }: { runId: string; userId?: string | null; batchSize?: number },
): Promise<number> {
  let total = 0;
  for (;;) {
    const batch = (tx: Queryable) => cancelOpenCells(tx, { runId, limit: batchSize });
    const count = userId ? await asUser(db, userId, batch) : await db.transaction(batch);
    total += count;
    if (count < batchSize) return total;
    // On PGlite a statement holds the thread: let waiting requests be read and queued first.
    await new Promise((resolve) => setImmediate(resolve));
  }
}
