import { batchActionParams, batchSummarySchema } from "@/lib/api/batches";
import { changeBatchStatus } from "@/lib/services/batches";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/**
 * POST /api/v1/batches/{id}/pause | resume | cancel, as for runs. Cancel sets the batch cancelled
 * and keeps every output; resume of a paused batch goes on, of an ended one queues its failed,
 * pending and budget-skipped jobs again. An action that does not apply is a 409.
 */
export const POST = route({ params: batchActionParams, output: batchSummarySchema }, ({ caller, params, app }) =>
  changeBatchStatus(app.db, caller.userId, params.id, params.action),
);
