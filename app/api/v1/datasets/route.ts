import { datasetItemSchema } from "@/lib/api/responses";
import { z } from "zod";
import { createDatasetSchema } from "@/lib/api/schemas";
import { asUser } from "@/lib/db/as-user";
import { getDatasetItem } from "@/lib/db/datasets/get-dataset-item";
import { listDatasets } from "@/lib/db/datasets/list-datasets";
import { insertDataset } from "@/lib/db/runs/insert-dataset";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/**
 * Stores a dataset from JSON rows; run it with POST /api/v1/runs {"datasetId": ...}. Answers the
 * dataset as GET /api/v1/datasets lists it. Neither this helper nor Next.js (without a proxy.ts)
 * caps the body size; the schema caps the rows at 100,000.
 */
export const POST = route({ body: createDatasetSchema, output: datasetItemSchema, status: 201 }, async ({ caller, body, app }) => {
  const rows = body.rows.map((row) =>
    Object.fromEntries(Object.entries(row).map(([key, value]) => [key, value == null ? "" : String(value)])),
  );
  const headers = body.headers ?? [...new Set(rows.flatMap((row) => Object.keys(row)))];
  return asUser(app.db, caller.userId, async (tx) => {
    const id = await insertDataset(tx, { name: body.name, source: "upload", headers, rows });
    const dataset = await getDatasetItem(tx, { id });
    if (!dataset) throw new Error(`dataset ${id} was not found in the transaction that inserted it`);
    return dataset;
  });
});

/** The caller's uploaded datasets, newest first, without their rows. */
export const GET = route({ output: z.array(datasetItemSchema) }, ({ caller, app }) =>
  asUser(app.db, caller.userId, (tx) => listDatasets(tx)),
);
