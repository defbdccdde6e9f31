import { runSummarySchema } from "@/lib/api/responses";
import { runActionParamsSchema } from "@/lib/api/schemas";
import { changeRunStatus } from "@/lib/services/runs";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/** POST /api/v1/runs/{id}/pause | resume | cancel. */
export const POST = route({ params: runActionParamsSchema, output: runSummarySchema }, ({ caller, params, app }) =>
  changeRunStatus(app, { userId: caller.userId, runId: params.id, action: params.action }),
);
