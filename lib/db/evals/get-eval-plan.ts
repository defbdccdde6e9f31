import type { Queryable } from "../database";
import type { EvalPlan } from "./eval-plan";

/** An eval run of the calling user's: its checked config and times, or null. */
export async function getEvalPlan(
  tx: Queryable,
  { runId }: { runId: string },
): Promise<{ plan: EvalPlan; createdAt: string; finishedAt: string | null } | null> {
  const { rows } = await tx.query<{ plan: EvalPlan; created_at: Date | string; finished_at: Date | string | null }>(
    "select config -> 'eval' as plan, created_at, finished_at from runs where id = $1 and kind = 'eval'",
    [runId],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    plan: row.plan,
    createdAt: new Date(row.created_at).toISOString(),
    finishedAt: row.finished_at === null ? null : new Date(row.finished_at).toISOString(),
  };
}
