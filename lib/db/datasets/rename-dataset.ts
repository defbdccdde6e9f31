import type { Queryable } from "../database";
import { toDatasetListItem, type DatasetListItem } from "./list-datasets";

/** Renames one of the caller's listed datasets; null when there is none by that id (RLS hides others'). */
export async function renameDataset(tx: Queryable, { id, name }: { id: string; name: string }): Promise<DatasetListItem | null> {
  const { rows } = await tx.query<{ id: string; name: string; headers: string[]; row_count: number; created_at: Date }>(
    `update datasets set name = $2
      where id = $1 and deleted_at is null and source in ('upload', 'manual')
      returning id, name, headers, row_count, created_at`,
    [id, name],
  );
  return rows[0] ? toDatasetListItem(rows[0]) : null;
}
