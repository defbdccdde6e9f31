import { datasetWithRowsSchema } from "@/lib/api/responses";
import { datasetQuerySchema, idParams } from "@/lib/api/schemas";
import { asUser } from "@/lib/db/as-user";
import { getDatasetWithRows } from "@/lib/db/datasets/get-dataset-with-rows";
import { HttpError } from "@/lib/server/http-errors";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/** One of the caller's datasets with its first `limit` rows (?limit=, default 50). */
export const GET = route(
  { params: idParams("dataset"), query: datasetQuerySchema, output: datasetWithRowsSchema },
  async ({ caller, params, query, app }) => {
    const dataset = await asUser(app.db, caller.userId, (tx) => getDatasetWithRows(tx, { id: params.id, limit: query.limit }));
    if (!dataset) throw new HttpError("not_found", `Dataset ${params.id} not found.`);
    return dataset;
  },
);
