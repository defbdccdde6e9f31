import { datasetItemSchema, datasetUploadSchema } from "@/lib/api/responses";
import { z } from "zod";
import { createDatasetSchema } from "@/lib/api/schemas";
import { route } from "@/lib/server/route";
import { createDataset, listDatasets } from "@/lib/services/datasets";

export const dynamic = "force-dynamic";

/**
 * Stores a dataset from JSON rows; run it with POST /api/v1/runs {"datasetId": ...}. Answers the
 * dataset as GET /api/v1/datasets lists it, with alreadyStored when the same headers and rows were
 * uploaded before (then that dataset is answered and nothing is stored). Neither this helper nor
 * Next.js (without a proxy.ts) caps the body size; the schema caps the rows at 100,000.
 */
export const POST = route({ body: createDatasetSchema, output: datasetUploadSchema, status: 201 }, ({ caller, body, app }) =>
  createDataset(app, { userId: caller.userId, dataset: body }),
);

/** The caller's uploaded datasets, newest first, without their rows (deleted ones are not listed). */
export const GET = route({ output: z.array(datasetItemSchema) }, ({ caller, app }) => listDatasets(app, { userId: caller.userId }));
