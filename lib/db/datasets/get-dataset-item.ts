import type { Queryable } from "../database";
import { toDatasetListItem, type DatasetListItem } from "./list-datasets";

/** The dataset without its rows, or null when it is not the caller's (RLS hides it). */
export async function getDatasetItem(tx: Queryable, { id }: { id: string }): Promise<DatasetListItem | null> {
  const { rows } = await tx.query<{ id: string; name: string; headers: string[]; row_count: number; created_at: Date }>(
    "select id, name, headers, row_count, created_at from datasets where id = $1",
    [id],
  );
  return rows[0] ? toDatasetListItem(rows[0]) : null;
}
