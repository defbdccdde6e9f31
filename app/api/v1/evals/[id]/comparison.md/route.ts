import { idParams } from "@/lib/api/schemas";
import { evalComparison } from "@/lib/services/evals";
import { fileResponse, route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/**
 * comparison.md of an eval that made more than one EvalRun: the spec's summary and test-by-test
 * tables, then each run against the first with the paired difference, its 95% interval and
 * "not distinguishable" when the interval covers 0.
 */
export const GET = route({ params: idParams("eval") }, async ({ caller, params, app }) => {
  const file = await evalComparison(app, { userId: caller.userId, evalId: params.id });
  return fileResponse(file.text, { filename: file.filename, contentType: file.contentType });
});
