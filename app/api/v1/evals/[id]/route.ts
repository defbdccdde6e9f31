import { evalSchema } from "@/lib/api/evals";
import { idParams } from "@/lib/api/schemas";
import { getEval } from "@/lib/services/evals";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/** One eval run: its summary and an EvalRun per prompt x model (the spec's fields), each with the results finished so far. */
export const GET = route({ params: idParams("eval"), output: evalSchema }, ({ caller, params, app }) =>
  getEval(app, { userId: caller.userId, evalId: params.id }),
);
