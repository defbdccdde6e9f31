import type { Database } from "../database";
import { saveCellResults, type CellResult } from "./save-cell-results";

/**
 * Extends the lease of every cell workerId holds. One statement for all of them; it changes
 * nothing visible, so it neither bumps seq nor notifies (0004_realtime.sql).
 * Returns how many leases were renewed.
 *
 * Cells another statement holds at that moment are skipped, not waited for: on a Postgres server
 * the worker's saves run beside this on other connections, and two statements that lock the same
 * cells in different orders deadlock (Postgres aborts one). A held cell is being saved (its lease
 * ends anyway) or has its files recorded; the next renewal, a third of a lease later, renews it.
 */
export async function renewLeases(db: Database, { workerId, leaseMs }: { workerId: string; leaseMs: number }): Promise<number> {
  const { rowCount } = await db.query(
    `update run_cells set lease_expires_at = now() + make_interval(secs => $2::double precision / 1000)
      where id in (select id from run_cells where lease_owner = $1 and status = 'running' for update skip locked)
        and lease_owner = $1 and status = 'running'`,
    [workerId, leaseMs],
  );
  return rowCount;
}

/**
 * Gives back the cells workerId holds, as if never claimed (a graceful stop): queued, due now,
 * the attempt not counted.
 */
export async function releaseLeases(db: Database, { workerId }: { workerId: string }): Promise<number> {
  const { rowCount } = await db.query(
    `update run_cells
        set status = 'queued', lease_owner = null, lease_expires_at = null,
            attempts = greatest(attempts - 1, 0), not_before = now()
      where lease_owner = $1 and status = 'running'`,
    [workerId],
  );
  return rowCount;
}

/**
 * Gives back cells workerId held ready but never started (claimed ahead, 0018_claim_ahead.sql),
 * as releaseLeases does; those of a run that was cancelled or failed meanwhile are cancelled, as
 * its other cells not in flight are.
 */
export async function releaseCells(db: Database, { workerId, ids }: { workerId: string; ids: string[] }): Promise<number> {
  if (ids.length === 0) return 0;
  const { rowCount } = await db.query(
    `update run_cells c
        set status = case when r.status in ('cancelled', 'failed') then 'cancelled' else 'queued' end,
            finished_at = case when r.status in ('cancelled', 'failed') then now() else c.finished_at end,
            lease_owner = null, lease_expires_at = null,
            attempts = greatest(c.attempts - 1, 0), not_before = now()
       from runs r
      where r.id = c.run_id and c.id = any($2::uuid[]) and c.lease_owner = $1 and c.status = 'running'`,
    [workerId, ids],
  );
  return rowCount;
}

/**
 * Expires every lease but the sparing worker's at once. Only for PGlite at start-up: one process
 * owns a PGlite folder, so any cell still marked running there by another worker was left by a
 * process that has ended. A cell its worker held ready and never called (claimed ahead, still
 * held: 0023_claim_ahead_on_a_server.sql) goes back as never claimed, the attempt not counted; the
 * others are taken back with theirs counted. Answers how many cells were left running.
 */
export async function expireAllLeases(db: Database, { sparing = null }: { sparing?: string | null } = {}): Promise<number> {
  return db.transaction(async (tx) => {
    const released = await tx.query(
      `update run_cells
          set status = 'queued', lease_owner = null, lease_expires_at = null,
              attempts = greatest(attempts - 1, 0), not_before = now()
        where status = 'running' and held and lease_owner is distinct from $1`,
      [sparing],
    );
    const expired = await tx.query(
      "update run_cells set lease_expires_at = now() where status = 'running' and lease_expires_at > now() and lease_owner is distinct from $1",
      [sparing],
    );
    return released.rowCount + expired.rowCount;
  });
}

/**
 * Saves answers a process paid for and journaled but died before saving (lib/engine/answer-journal.ts),
 * as workerId's: only into cells still running, which nobody has finished or taken back since.
 * Returns the ids saved.
 */
export async function saveLeftAnswers(db: Database, { workerId, results }: { workerId: string; results: CellResult[] }): Promise<string[]> {
  if (results.length === 0) return [];
  await db.query("update run_cells set lease_owner = $1 where id = any($2::uuid[]) and status = 'running'", [
    workerId,
    results.map((result) => result.id),
  ]);
  return saveCellResults(db, { workerId, results });
}
