import type { Database } from "../database";

/** What a worker needs to know about a run to execute its cells. */
export interface RunPlan {
  id: string;
  userId: string;
  promptText: string;
  maxAttempts: number;
  timeoutMs: number;
  /** The run's cap of calls in flight over all workers. */
  concurrency: number;
}

/** Loads the execution settings of a run (the worker keeps them for the run's lifetime). */
export async function loadRunPlan(db: Database, { runId }: { runId: string }): Promise<RunPlan | null> {
  const { rows } = await db.query<{ id: string; user_id: string; text: string | null; max_attempts: number; timeout_ms: number; concurrency: number }>(
    `select r.id, r.user_id, v.text, r.max_attempts, r.timeout_ms, r.concurrency
       from runs r left join prompt_versions v on v.id = r.prompt_version_id
      where r.id = $1`,
    [runId],
  );
  const row = rows[0];
  if (!row) return null;
  return { id: row.id, userId: row.user_id, promptText: row.text ?? "", maxAttempts: row.max_attempts, timeoutMs: row.timeout_ms, concurrency: row.concurrency };
}
