import { finishedRunStatuses } from "@/lib/api/types";
import type { Queryable } from "../database";

/** Whether the run is over (completed, cancelled or failed): one row by its key, for who reads often. */
export async function hasRunEnded(tx: Queryable, { id }: { id: string }): Promise<boolean> {
  const { rows } = await tx.query<{ status: string }>("select status from runs where id = $1", [id]);
  return rows.length > 0 && (finishedRunStatuses as readonly string[]).includes(rows[0].status);
}
