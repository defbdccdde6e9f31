import type { RunSummary } from "@/lib/api/types";

// Which runs still take cells. A run takes them while it is planned (its rows are being stored,
// nothing of it runs yet), or while its first cells run and the rest are added behind them
// (runs.planning, 0019_streamed_planning.sql): not once it is complete, cancelled or failed. The
// planners, the failure of a plan, the recovery of interrupted plans and the summary's count of
// cells still to come all ask this one question.

/** The statuses in which a run being planned (runs.planning) has its first cells out to the workers. */
const streamingStatuses = ["queued", "running", "paused"] as const satisfies ReadonlyArray<RunSummary["status"]>;

/** SQL: the run (a row of runs, its columns unqualified) has its first cells out while the rest are added. */
export const streamingSql = `(planning and status in (${streamingStatuses.map((status) => `'${status}'`).join(", ")}))`;

/** SQL: the run (a row of runs, its columns unqualified) still takes cells. */
export const takesCellsSql = `(status = 'planned' or ${streamingSql})`;

/** streamingSql for a run as read: its cells not in yet are still coming. */
export function isStreaming(run: { status: RunSummary["status"]; planning: boolean }): boolean {
  return run.planning && (streamingStatuses as ReadonlyArray<string>).includes(run.status);
}
