import type { DatasetDeletionResult, DatasetItem, DatasetUploadResult, DatasetWithRows } from "@/lib/api/responses";
import type { CreateDatasetRequest } from "@/lib/api/schemas";
import { datasetContentHash } from "@/lib/formats/dataset-content-hash";
import { asUser } from "@/lib/db/as-user";
import type { Database } from "@/lib/db/database";
import { deleteDataset as deleteDatasetRow } from "@/lib/db/datasets/delete-dataset";
import { getDatasetItem } from "@/lib/db/datasets/get-dataset-item";
import { getDatasetWithRows } from "@/lib/db/datasets/get-dataset-with-rows";
import { listDatasets as listDatasetRows } from "@/lib/db/datasets/list-datasets";
import { renameDataset as renameDatasetRow } from "@/lib/db/datasets/rename-dataset";
import { storeUploadedDataset } from "@/lib/db/datasets/store-uploaded-dataset";
import { NotFoundError } from "@/lib/engine/errors";

/**
 * Stores an upload of userId's, once per content: the same headers and rows uploaded again (under
 * any name) answer the dataset stored the first time, renamed to the new upload's name, with
 * alreadyStored, and store no rows.
 * Values become strings (null as ""); without headers, the rows' keys in order of appearance.
 */
export async function createDataset(
  { db }: { db: Database },
  { userId, dataset }: { userId: string; dataset: CreateDatasetRequest },
): Promise<DatasetUploadResult> {
  const rows = dataset.rows.map((row) =>
    Object.fromEntries(Object.entries(row).map(([key, value]) => [key, value == null ? "" : String(value)])),
  );
  const headers = dataset.headers ?? [...new Set(rows.flatMap((row) => Object.keys(row)))];
  // Hashed before the transaction opens: on PGlite (one connection) it holds every other request.
  const contentHash = datasetContentHash({ headers, rows });
  return asUser(db, userId, async (tx) => {
    const { id, alreadyStored } = await storeUploadedDataset(tx, { name: dataset.name, headers, rows, contentHash });
    const stored = await getDatasetItem(tx, { id });
    if (!stored) throw new Error(`dataset ${id} was not found in the transaction that stored it`);
    return { ...stored, alreadyStored };
  });
}

/** userId's uploaded datasets, newest first, without their rows (deleted ones are not listed). */
export function listDatasets({ db }: { db: Database }, { userId }: { userId: string }): Promise<DatasetItem[]> {
  return asUser(db, userId, (tx) => listDatasetRows(tx));
}

/** One of userId's datasets with its first `limit` rows (a deleted one a run used, too: its history reads it). */
export async function getDataset(
  { db }: { db: Database },
  { userId, datasetId, limit }: { userId: string; datasetId: string; limit: number },
): Promise<DatasetWithRows> {
  const dataset = await asUser(db, userId, (tx) => getDatasetWithRows(tx, { id: datasetId, limit }));
  if (!dataset) throw new NotFoundError(`Dataset ${datasetId} not found.`);
  return dataset;
}

/** Renames one of userId's listed datasets. */
export async function renameDataset(
  { db }: { db: Database },
  { userId, datasetId, name }: { userId: string; datasetId: string; name: string },
): Promise<DatasetItem> {
  const dataset = await asUser(db, userId, (tx) => renameDatasetRow(tx, { id: datasetId, name }));
  if (!dataset) throw new NotFoundError(`Dataset ${datasetId} not found.`);
  return dataset;
}

/**
 * Deletes one of userId's listed datasets and takes it off the workbench. One that a run used
 * leaves the list but keeps its rows for that run's history (keptForRuns); the others are gone.
 */
export async function deleteDataset(
  { db }: { db: Database },
  { userId, datasetId }: { userId: string; datasetId: string },
): Promise<DatasetDeletionResult> {
  const outcome = await asUser(db, userId, (tx) => deleteDatasetRow(tx, { id: datasetId }));
  if (!outcome) throw new NotFoundError(`Dataset ${datasetId} not found.`);
  return { deleted: true, keptForRuns: outcome === "kept-for-runs" };
}
