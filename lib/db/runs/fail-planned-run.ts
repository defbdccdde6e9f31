import type { Queryable } from "../database";
import { takesCellsSql } from "./takes-cells";

/**
 * Fails a run that is still being planned, with the reason, as the calling user: a planned run,
 * or one whose first cells run while the rest are added (runs.planning). Returns false when it is
 * no longer being planned (queued with all its cells, or cancelled meanwhile): its status is left
 * alone.
 */
export async function failPlannedRun(tx: Queryable, { runId, error }: { runId: string; error: string }): Promise<boolean> {
  const { rowCount } = await tx.query(
    `update runs set status = 'failed', error = $2, finished_at = now(), planning = false
      where id = $1 and ${takesCellsSql}`,
    [runId, error],
  );
  return rowCount > 0;
}
