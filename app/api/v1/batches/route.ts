import { batchListSchema, createBatchOutputSchema, createBatchSchema, listBatchesQuerySchema } from "@/lib/api/batches";
import { createBatch, getBatch, listBatches, planBatch } from "@/lib/services/batches";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/**
 * Starts an image batch (specs/image-batch-runs.md): the prompt set and the matrix as texts with
 * their file names; answers 201 with the batch and its plan, run by the workers into a run folder
 * under the data folder (<data>/batches/<run_id>). With dryRun=true it answers 200 with the plan
 * (prompt count, matrix size, jobs, images, estimated cost, provider/model breakdown, warnings)
 * and stores, writes and sends nothing. A problem in a file is a 400 naming the file and line.
 */
export const POST = route({ body: createBatchSchema, output: createBatchOutputSchema, status: 201 }, async ({ caller, body, app }) => {
  const { dryRun, ...input } = body;
  if (dryRun) {
    const plan = await planBatch(app.db, caller.userId, input);
    return Response.json(createBatchOutputSchema.parse({ dryRun: true, plan }), { status: 200 });
  }
  const created = await createBatch(app.db, caller.userId, input);
  const { batch } = await getBatch(app.db, caller.userId, created.id, { limit: 1 });
  return { batch, plan: created.plan };
});

/** The caller's batches, newest first (?limit=, 20 by default). */
export const GET = route({ query: listBatchesQuerySchema, output: batchListSchema }, async ({ caller, query, app }) => ({
  batches: await listBatches(app.db, caller.userId, { limit: query.limit }),
}));
