import { evalExportParamsSchema, evalExportQuerySchema } from "@/lib/api/evals";
import { evalExport } from "@/lib/services/evals";
import { fileResponse, route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/**
 * An eval run's export as the spec names and writes it, `{prompt}_{run_id}_{timestamp}.{ext}`:
 * json, csv, markdown or html of one EvalRun (`?run=` its run_id, needed when the eval made
 * several), junit of every EvalRun (or of `?run=` alone).
 */
export const GET = route({ params: evalExportParamsSchema, query: evalExportQuerySchema }, async ({ caller, params, query, app }) => {
  const file = await evalExport(app, { userId: caller.userId, evalId: params.id, format: params.format, run: query.run ?? null });
  return fileResponse(file.text, { filename: file.filename, contentType: file.contentType });
});
