import type { RunStatus } from "@/lib/api/types";
import type { Queryable } from "../database";

/** The run's status alone (one row by its key, for who reads often), or null when there is no such run. */
export async function getRunStatus(tx: Queryable, { id }: { id: string }): Promise<RunStatus | null> {
  const { rows } = await tx.query<{ status: RunStatus }>("select status from runs where id = $1", [id]);
  return rows[0]?.status ?? null;
}
