import { evalBaselineSchema, evalRunParamsSchema } from "@/lib/api/eval-baseline";
import { findEvalBaseline } from "@/lib/services/eval-baseline";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/** An earlier EvalRun found by its 8-hex run_id (`parallaxr eval run --baseline` on a server), with the eval run it belongs to. */
export const GET = route({ params: evalRunParamsSchema, output: evalBaselineSchema }, ({ caller, params, app }) =>
  findEvalBaseline(app, { userId: caller.userId, runId: params.runId }),
);
