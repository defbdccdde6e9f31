import type { Queryable } from "../database";

/**
 * Fails a run that is still being planned, with the reason, as the calling user. Returns false
 * when the run is no longer planned (queued, or cancelled meanwhile): its status is left alone.
 */
export async function failPlannedRun(tx: Queryable, { runId, error }: { runId: string; error: string }): Promise<boolean> {
  const { rowCount } = await tx.query(
    "update runs set status = 'failed', error = $2, finished_at = now() where id = $1 and status = 'planned'",
    [runId, error],
  );
  return rowCount > 0;
}
