import { batchDetailQuerySchema, batchDetailSchema, batchIdParams } from "@/lib/api/batches";
import { getBatch } from "@/lib/services/batches";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/**
 * One batch: its status, counts, elapsed time, throughput, estimated and actual cost, budget
 * remaining, and a page of its jobs as run.json lists them (?offset=, ?limit= up to 1,000,
 * ?status= to filter). Another user's batch is a 404.
 */
export const GET = route(
  { params: batchIdParams, query: batchDetailQuerySchema, output: batchDetailSchema },
  ({ caller, params, query, app }) => getBatch(app.db, caller.userId, params.id, query),
);
