import { datasetDeletionSchema, datasetItemSchema, datasetWithRowsSchema } from "@/lib/api/responses";
import { datasetQuerySchema, idParams, renameDatasetSchema } from "@/lib/api/schemas";
import { route } from "@/lib/server/route";
import { deleteDataset, getDataset, renameDataset } from "@/lib/services/datasets";

export const dynamic = "force-dynamic";

const params = idParams("dataset");

/** One of the caller's datasets with its first `limit` rows (?limit=, default 50). */
export const GET = route({ params, query: datasetQuerySchema, output: datasetWithRowsSchema }, ({ caller, params, query, app }) =>
  getDataset(app, { userId: caller.userId, datasetId: params.id, limit: query.limit }),
);

/** Renames one of the caller's uploaded datasets. */
export const PATCH = route({ params, body: renameDatasetSchema, output: datasetItemSchema }, ({ caller, params, body, app }) =>
  renameDataset(app, { userId: caller.userId, datasetId: params.id, name: body.name }),
);

/**
 * Deletes one of the caller's uploaded datasets and takes it off the workbench. A dataset a run
 * used leaves the list but keeps its rows for that run's history (keptForRuns: true).
 */
export const DELETE = route({ params, output: datasetDeletionSchema }, ({ caller, params, app }) =>
  deleteDataset(app, { userId: caller.userId, datasetId: params.id }),
);
