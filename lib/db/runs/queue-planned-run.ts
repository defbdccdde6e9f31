import type { Queryable } from "../database";

/**
 * Hands a planned run to the workers as the calling user: queued, or completed at once when it
 * has no rows. Returns false when the run is no longer planned (cancelled while it was planned).
 */
export async function queuePlannedRun(tx: Queryable, { runId }: { runId: string }): Promise<boolean> {
  const { rowCount } = await tx.query(
    `update runs
        set status = case when row_count = 0 then 'completed' else 'queued' end,
            started_at = case when row_count = 0 then now() end,
            finished_at = case when row_count = 0 then now() end
      where id = $1 and status = 'planned'`,
    [runId],
  );
  return rowCount > 0;
}
