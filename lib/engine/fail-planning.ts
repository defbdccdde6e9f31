import { asUser } from "@/lib/db/as-user";
import type { Database } from "@/lib/db/database";
import { cancelAllOpenCells } from "@/lib/db/runs/cancel-open-cells";
import { failPlannedRun } from "@/lib/db/runs/fail-planned-run";

/**
 * A run whose planner stopped part way (a batch failed, or it was interrupted): failed as userId
 * with the reason, and its cells not yet run cancelled. What already finished is kept.
 */
export async function failPlanning(
  db: Database,
  { userId, runId, error }: { userId: string; runId: string; error: string },
): Promise<void> {
  await asUser(db, userId, (tx) => failPlannedRun(tx, { runId, error }));
  await cancelAllOpenCells(db, { runId, userId });
}
