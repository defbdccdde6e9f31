import type { Database } from "./database";

/** Write-ahead log since the last checkpoint past which the embedded database checkpoints. */
export const CHECKPOINT_AFTER_BYTES = 32 * 2 ** 20;

/**
 * PGlite is Postgres in a single process, where nothing checkpoints on its own: a server's
 * checkpointer does it as the write-ahead log grows, but in single-user mode Postgres never asks.
 * The log's files are recycled only at a checkpoint, so the data folder's pg_wal grew by every
 * byte ever written (about 9 KB a cell) until the process closed: gigabytes for a few hundred
 * thousand cells. checkIfDue() (the worker's sweep calls it every few seconds) reads how much log
 * the database wrote since its last checkpoint and, past CHECKPOINT_AFTER_BYTES, checkpoints (15-25
 * ms on the database's thread); with max_wal_size=64MB (open-pglite.ts) pg_wal then stays at
 * 32-64 MB. Never two at once; on a Postgres server this does nothing (its checkpointer does it).
 */
export function createWalCheckpointer(
  db: Database,
  options: { afterBytes?: number; onError?: (error: unknown) => void } = {},
): { checkIfDue(): Promise<boolean>; idle(): Promise<void> } {
  const afterBytes = options.afterBytes ?? CHECKPOINT_AFTER_BYTES;
  const onError = options.onError ?? ((error: unknown) => console.error("[parallaxr worker]", error));
  let running: Promise<boolean> | null = null;

  const check = async (): Promise<boolean> => {
    const { rows } = await db.query<{ bytes: string }>(
      "select (pg_current_wal_lsn() - redo_lsn)::text as bytes from pg_control_checkpoint()",
    );
    if (Number(rows[0]?.bytes ?? 0) < afterBytes) return false;
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
