import type { Database } from "./database";

/** Write-ahead log since the last checkpoint past which the embedded database checkpoints. */
export const CHECKPOINT_AFTER_BYTES = 32 * 2 ** 20;

/** The tables whose rows are rewritten most: each cell is written three times (queued, running, answered). */
export const VACUUMED_TABLES = ["run_cells", "response_cache"];

/**
 * PGlite is Postgres in a single process, where nothing checkpoints on its own: a server's
 * checkpointer does it as the write-ahead log grows, but in single-user mode Postgres never asks.
 * The log's files are recycled only at a checkpoint, so the data folder's pg_wal grew by every
 * byte ever written (about 9 KB a cell) until the process closed: gigabytes for a few hundred
 * thousand cells. checkIfDue() (the worker's sweep calls it every few seconds) reads how much log
 * the database wrote since its last checkpoint and, past CHECKPOINT_AFTER_BYTES, checkpoints (15-25
 * ms on the database's thread); with max_wal_size=64MB (open-pglite.ts) pg_wal then stays at
 * 32-64 MB. Never two at once; on a Postgres server this does nothing (its checkpointer does it).
 *
 * Nothing vacuums either (a server's autovacuum is a background process too). A cell is written as
 * queued, then running, then answered; the two dead versions' space in the table, and their
 * entries in its indexes, were never given back to new rows: the database only grew. Before a
 * checkpoint, when the log written since the last vacuum is more than the vacuumed tables' size,
 * it vacuums them (VACUUMED_TABLES), and their free space goes to the next rows. A cell's three
 * writes log ~9 KB, so that is about a fifth of the cells changed, as autovacuum waits for: a
 * large table is scanned rarely.
 */
export function createWalCheckpointer(
  db: Database,
  options: { afterBytes?: number; vacuumTables?: string[]; onError?: (error: unknown) => void } = {},
): { checkIfDue(): Promise<boolean>; idle(): Promise<void> } {
  const afterBytes = options.afterBytes ?? CHECKPOINT_AFTER_BYTES;
  const vacuumTables = options.vacuumTables ?? VACUUMED_TABLES;
  // where the log was at the last vacuum: none yet in this process, so the first checkpoint vacuums
  let vacuumedAt = "0/0";
  const onError = options.onError ?? ((error: unknown) => console.error("[parallaxr worker]", error));
  let running: Promise<boolean> | null = null;

  const check = async (): Promise<boolean> => {
    const { rows } = await db.query<{ bytes: string }>(
      "select (pg_current_wal_lsn() - redo_lsn)::text as bytes from pg_control_checkpoint()",
    );
    if (Number(rows[0]?.bytes ?? 0) < afterBytes) return false;
    const { rows: due } = await db.query<{ tables: string[] | null; now: string; due: boolean }>(
      `select array_agg(t.name) filter (where to_regclass(t.name) is not null) as tables, pg_current_wal_lsn()::text as now,
              (pg_current_wal_lsn() - $2::pg_lsn) > coalesce(sum(pg_table_size(to_regclass(t.name))), 0) as due
         from unnest($1::text[]) as t(name)`,
      [vacuumTables, vacuumedAt],
    );
    const tables = due[0]?.tables ?? [];
    if (due[0]?.due && tables.length > 0) {
      // names from this file's list, found in the catalog just now
      await db.exec(`vacuum ${tables.map((name) => `"${name.replaceAll('"', '""')}"`).join(", ")}`);
      vacuumedAt = due[0].now;
    }
    await db.exec("checkpoint");
    return true;
  };

  return {
    /** Checkpoints when enough log was written since the last one; resolves whether it did. */
    checkIfDue() {
      if (db.kind !== "pglite") return Promise.resolve(false);
      running ??= check()
        .catch((error: unknown) => {
          // the database closing under it (a stopping process) is not worth a report
          if (!/closed/i.test(String(error))) onError(error);
          return false;
        })
        .finally(() => {
          running = null;
        });
      return running;
    },
    /** Waits for a checkpoint under way (a stopping worker). */
    async idle() {
      await running;
    },
  };
}
