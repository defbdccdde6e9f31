import { asUser } from "@/lib/db/as-user";
import type { Database, Queryable } from "@/lib/db/database";
import { PlanningStopped } from "@/lib/db/runs/insert-run-cells";
import { completeFinishedRuns } from "@/lib/db/runs/run-lifecycle";
import { endPlanning } from "@/lib/db/runs/streamed-planning";
import { failPlanning } from "./fail-planning";

/** How a run's rows are added behind its first cells (planBehind). */
export interface PlanBehind {
  userId: string;
  runId: string;
  /** The first row not in yet, and the run's row count. */
  fromRow: number;
  rowCount: number;
  /** Rows in the first batch; each next one is twice as large, up to largestBatch. */
  firstBatch: number;
  largestBatch: number;
  /** Batches inserted at once (each in a transaction of its own). */
  lanes?: number;
  /** Aborted: the run is failed at the next batch with why(rowsIn, null). */
  stop?: AbortSignal;
  /**
   * Rows from..to-1, in the transaction given, as the user. False (or PlanningStopped thrown) when
   * the run no longer takes cells (cancelled or failed meanwhile).
   */
  insertBatch: (tx: Queryable, rows: { from: number; to: number }) => Promise<boolean>;
  /** The run's error when it is failed with rowsIn rows in: a batch failed (reason), or stop. */
  why: (rowsIn: number, reason: string | null) => string;
}

/**
 * The rest of a run whose first cells are out to the workers (runs.planning, 0019): its rows from
 * fromRow on, a transaction per batch; then the end of its planning, and its completion when its
 * cells all finished before the last went in (nobody else would look). A cancel stops it at the
 * next batch and leaves the run as the cancel did. A failed batch, or stop, fails the run saying
 * how far it got and cancels its cells not yet run: what finished is kept. Rejects when a batch
 * failed. Workbench runs (create-run.ts) and experiments (create-experiment.ts) are planned so.
 */
export async function planBehind(db: Database, plan: PlanBehind): Promise<void> {
  const { userId, runId, rowCount } = plan;
  let nextRow = plan.fromRow;
  let batch = plan.firstBatch;
  let rowsIn = plan.fromRow;
  let stopped = false;
  let interrupted = false;
  const lane = async () => {
    while (!stopped && nextRow < rowCount) {
      if (plan.stop?.aborted) {
        stopped = interrupted = true;
        return;
      }
      const from = nextRow;
      const to = Math.min(rowCount, from + batch);
      nextRow = to;
      batch = Math.min(plan.largestBatch, batch * 2);
      await yieldToOthers();
      const going = await asUser(db, userId, (tx) => plan.insertBatch(tx, { from, to })).catch((error: unknown) => {
        if (error instanceof PlanningStopped) return false;
        stopped = true;
        throw error;
      });
      // Cancelled (or failed) meanwhile: what is in stays as the cancel left it.
      if (!going) stopped = true;
      else rowsIn += to - from;
    }
  };
  // Every lane is over before the planning is ended or failed: none is left inserting behind it.
  const lanes = await Promise.allSettled(Array.from({ length: plan.lanes ?? 1 }, lane));
  const failed = lanes.find((outcome): outcome is PromiseRejectedResult => outcome.status === "rejected");
  if (failed || interrupted) {
    const reason = failed ? (failed.reason instanceof Error ? failed.reason.message : String(failed.reason)) : null;
    await failPlanning(db, { userId, runId, error: plan.why(rowsIn, reason) }).catch(() => {});
    if (failed) throw failed.reason;
    return;
  }
  await asUser(db, userId, (tx) => endPlanning(tx, { runId }));
  await completeFinishedRuns(db, { runIds: [runId] });
}

// On PGlite each statement holds the thread: let requests that arrived meanwhile be read and
// queue their queries ahead of the next batch (PGlite serves them in arrival order).
export function yieldToOthers(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
