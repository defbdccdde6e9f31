import type { RunPlanEstimate } from "@/lib/api/responses";
import type { Queryable } from "../database";

/**
 * The plan a run was created with (kept in runs.config by insertRun), or null for a run stored
 * without one (created before plans were kept, or not the caller's).
 */
export async function getRunPlan(tx: Queryable, { id }: { id: string }): Promise<RunPlanEstimate | null> {
  const { rows } = await tx.query<{ plan: RunPlanEstimate | null }>("select config -> 'plan' as plan from runs where id = $1", [id]);
  return rows[0]?.plan ?? null;
}
