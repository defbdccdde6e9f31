import type { Database } from "./database";

/** Cells saved since the last vacuum from which the end of a run vacuums run_cells. */
export const VACUUM_AFTER_CELLS = 1_000;

/**
 * A cell is written three times (queued, running, answered), each time to a new place: the first
 * two versions are dead once it is answered, and their space goes to new rows only after a vacuum
 * has recorded it. A run's queued cells fill pages of their own, which are empty of live rows by
 * its end; without a vacuum the next run's cells went to new pages past them, and the table grew
 * by every version written (bench:product, 1,500-character answers: ~0.37 KB a cell of free space
 * left in run_cells after each run). A server's autovacuum comes by after a fifth of a large table
 * changed, PGlite's only before some checkpoints (wal-checkpoints.ts).
 *
 * So when runs end and this worker saved at least afterCells cells since the last time, it
 * vacuums run_cells a moment later (VACUUM_DELAY_MS), without cleaning its indexes: that visits
 * only the pages changed since a vacuum last did (the others are all-visible), frees the dead
 * versions' space for the next rows, and leaves the indexes' dead entries to the full vacuums.
 * Never two at once; one that cannot have the table (another process vacuums it) is skipped. On a
 * server whose role does not own the table, Postgres skips it with a warning.
 */
export function createRunVacuum(
  db: Database,
  options: { afterCells?: number; delayMs?: number; onError?: (error: unknown) => void } = {},
): { saved(cells: number): void; runsEnded(): void; idle(): Promise<void> } {
  const afterCells = options.afterCells ?? VACUUM_AFTER_CELLS;
  const delayMs = options.delayMs ?? VACUUM_DELAY_MS;
  const onError = options.onError ?? ((error: unknown) => console.error("[parallaxr worker]", error));
  let savedSince = 0;
  let due: ReturnType<typeof setTimeout> | null = null;
  let running: Promise<void> | null = null;
  const start = () => {
    due = null;
    running = db
      .exec("vacuum (index_cleanup off, skip_locked) run_cells")
      .catch((error: unknown) => {
        // the database closing under it (a stopping process) is not worth a report
        if (!/closed/i.test(String(error))) onError(error);
      })
      .finally(() => {
        running = null;
      });
  };
  return {
    /** Counts cells this worker saved (each left two dead versions behind). */
    saved(cells: number) {
      savedSince += cells;
    },
    /** Runs ended: vacuums, delayMs later, when enough was saved since the last time. */
    runsEnded() {
      if (due || running || savedSince < afterCells) return;
      savedSince = 0;
      due = setTimeout(start, delayMs);
      due.unref?.();
    },
    /** Starts a vacuum that is due at once and waits for it (a stopping worker). */
    async idle() {
      if (due) {
        clearTimeout(due);
        start();
      }
      await running;
    },
  };
}

/**
 * How long after a run's end its vacuum waits: the run's followers read its last cells and its
 * end first, and its client its results (on PGlite one statement runs at a time, and a vacuum
 * queued at the run's end came before them).
 */
export const VACUUM_DELAY_MS = 250;
