import type { RunStatus } from "@/lib/api/types";
import type { Queryable } from "../database";

/**
 * The run's status, and whether its cells are still being added (runs.planning), alone: one row
 * by its key, for who reads often. Null when there is no such run.
 */
export async function getRunState(tx: Queryable, { id }: { id: string }): Promise<{ status: RunStatus; planning: boolean } | null> {
  const { rows } = await tx.query<{ status: RunStatus; planning: boolean }>("select status, planning from runs where id = $1", [id]);
  return rows[0] ?? null;
}
