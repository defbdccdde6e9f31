import type { Queryable } from "../database";

/** A stored dataset without its rows. */
export type DatasetListItem = { id: string; name: string; headers: string[]; rowCount: number; createdAt: string };

/**
 * The calling user's uploaded datasets, newest first (RLS limits the rows to the caller's).
 * Datasets a run made from inline rows (source "inline" and the like) are left out: one appears
 * per run, and nobody chose to keep them; so are deleted ones kept for their runs' history.
 */
export async function listDatasets(tx: Queryable): Promise<DatasetListItem[]> {
  const { rows } = await tx.query<{ id: string; name: string; headers: string[]; row_count: number; created_at: Date }>(
    `select id, name, headers, row_count, created_at from datasets
     where source in ('upload', 'manual') and deleted_at is null
     order by created_at desc, id`,
  );
  return rows.map(toDatasetListItem);
}

/** Maps a datasets row to its API shape. */
export function toDatasetListItem(row: {
  id: string;
  name: string;
  headers: string[];
  row_count: number;
  created_at: Date | string;
}): DatasetListItem {
  return {
    id: row.id,
    name: row.name,
    headers: row.headers,
    rowCount: row.row_count,
    createdAt: new Date(row.created_at).toISOString(),
  };
}
