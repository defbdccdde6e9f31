import type { Queryable } from "../database";
import { getDatasetItem } from "./get-dataset-item";
import type { DatasetListItem } from "./list-datasets";

/** A stored dataset with its first rows. */
export type DatasetWithRows = DatasetListItem & { rows: Array<Record<string, string>> };

/**
 * The dataset and its first `limit` rows in order, or null when it is not the caller's (RLS
 * hides other users' datasets and rows alike). The (dataset_id, row_index) unique index serves
 * the ordered, limited read.
 */
export async function getDatasetWithRows(tx: Queryable, { id, limit }: { id: string; limit: number }): Promise<DatasetWithRows | null> {
  const dataset = await getDatasetItem(tx, { id });
  if (!dataset) return null;
  const { rows } = await tx.query<{ data: Record<string, string> }>(
    "select data from dataset_rows where dataset_id = $1 order by row_index limit $2",
    [id, limit],
  );
  return { ...dataset, rows: rows.map((row) => row.data) };
}
