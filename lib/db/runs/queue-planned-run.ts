import type { Queryable } from "../database";

/**
 * Hands a planned run to the workers as the calling user: queued, or completed at once when it
 * has no rows. With planning, more of its cells are still to come (streamed-planning.ts): it is
 * not completed before they are. Returns false when the run is no longer planned (cancelled while
 * it was planned).
 */
export async function queuePlannedRun(tx: Queryable, { runId, planning = false }: { runId: string; planning?: boolean }): Promise<boolean> {
  const { rowCount } = await tx.query(
    `update runs
        set status = case when row_count = 0 then 'completed' else 'queued' end,
            started_at = case when row_count = 0 then now() end,
            finished_at = case when row_count = 0 then now() end,
            planning = $2 and row_count > 0
      where id = $1 and status = 'planned'`,
    [runId, planning],
  );
  return rowCount > 0;
}
