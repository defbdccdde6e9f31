import { runSummarySchema } from "@/lib/api/responses";
import { runCellParamsSchema } from "@/lib/api/schemas";
import { rerunCell } from "@/lib/services/runs";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/** Runs one finished cell again, bypassing the cache; its new result overwrites the old. */
export const POST = route({ params: runCellParamsSchema, output: runSummarySchema }, ({ caller, params, app }) =>
  rerunCell(app, { userId: caller.userId, runId: params.id, cellId: params.cellId }),
);
