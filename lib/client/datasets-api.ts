// Browser helpers for /api/v1/datasets. Each throws an ApiError with the server's message.
import type { DatasetDeletionResult, DatasetUploadResult, DatasetWithRows } from "@/lib/api/responses";
import type { CreateDatasetRequest, RenameDatasetRequest } from "@/lib/api/schemas";
import { requestJson } from "./api";
import type { DatasetItem } from "./workbench-types";

export type { DatasetWithRows };

/** The body of POST /api/v1/datasets as the upload sends it: headers always named. */
export type DatasetUpload = Required<CreateDatasetRequest>;

/** The most rows one dataset may have (the server's createDatasetSchema allows no more). */
export const MAX_DATASET_ROWS = 100_000;

/** A dataset with its first `limit` rows (the server's default is 50). */
export function getDataset(id: string, { limit }: { limit?: number } = {}): Promise<DatasetWithRows> {
  const query = limit === undefined ? "" : `?limit=${limit}`;
  return requestJson<DatasetWithRows>(`/api/v1/datasets/${encodeURIComponent(id)}${query}`);
}

/**
 * Stores a dataset from a POST body made by datasetUploadBlob (in the parser worker, say); a file
 * stored before answers that dataset, with alreadyStored.
 */
export function uploadDatasetBlob(body: Blob): Promise<DatasetUploadResult> {
  return requestJson<DatasetUploadResult>("/api/v1/datasets", { method: "POST", body });
}

/** The caller's stored datasets, newest first, without rows. */
export function listDatasets(): Promise<DatasetItem[]> {
  return requestJson<DatasetItem[]>("/api/v1/datasets");
}

/** Renames a stored dataset. */
export function renameDataset(id: string, body: RenameDatasetRequest): Promise<DatasetItem> {
  return requestJson<DatasetItem>(`/api/v1/datasets/${encodeURIComponent(id)}`, { method: "PATCH", body: JSON.stringify(body) });
}

/** Deletes a stored dataset (one a run used keeps its rows for that run's history). */
export function deleteDataset(id: string): Promise<DatasetDeletionResult> {
  return requestJson<DatasetDeletionResult>(`/api/v1/datasets/${encodeURIComponent(id)}`, { method: "DELETE" });
}

/**
 * The POST body, serialized a slice of rows at a time with a pause between slices: one
 * JSON.stringify of a 67 MB body blocks the page for about 320 ms (Node 20, same V8). The
 * upload button has the parser worker do this; the pauses are for the page-thread fallback.
 */
export async function datasetUploadBlob(input: DatasetUpload): Promise<Blob> {
  const parts: string[] = [];
  for (const part of datasetUploadParts(input)) {
    parts.push(part);
    if (parts.length % 2 === 0) await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return new Blob(parts, { type: "application/json" });
}

/**
 * The JSON text of `{name, headers, rows}` in parts of at most `rowsPerPart` rows; joined, the
 * parts equal JSON.stringify of the same object.
 */
export function* datasetUploadParts(input: DatasetUpload, rowsPerPart = 5_000): Generator<string> {
  yield `{"name":${JSON.stringify(input.name)},"headers":${JSON.stringify(input.headers)},"rows":[`;
  for (let start = 0; start < input.rows.length; start += rowsPerPart) {
    const slice = JSON.stringify(input.rows.slice(start, start + rowsPerPart));
    yield (start === 0 ? "" : ",") + slice.slice(1, -1);
  }
  yield "]}";
}
