import type { Queryable } from "../database";

/**
 * Keeps the context window a provider reported for a column of a run, the first time only (every
 * cell of the column then shows the same number). Called by the worker, which reads past RLS.
 */
export async function recordContextWindow(
  db: Queryable,
  { runId, columnIndex, contextWindow }: { runId: string; columnIndex: number; contextWindow: number | null },
): Promise<void> {
  if (contextWindow === null) return;
  await db.query("update run_columns set context_window = $3 where run_id = $1 and column_index = $2 and context_window is null", [
    runId,
    columnIndex,
    contextWindow,
  ]);
}
