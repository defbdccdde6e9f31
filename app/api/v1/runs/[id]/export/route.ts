import { idParams, runExportQuerySchema } from "@/lib/api/schemas";
import { exportRun } from "@/lib/services/export-run";
import { fileResponse, route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/** GET /api/v1/runs/{id}/export?format=csv|json: every cell of the run as a file to download. */
export const GET = route({ params: idParams("run"), query: runExportQuerySchema }, async ({ caller, params, query, app }) => {
  const file = await exportRun(app, { userId: caller.userId, runId: params.id, format: query.format });
  return fileResponse(file.body, { filename: file.filename, contentType: file.contentType });
});
