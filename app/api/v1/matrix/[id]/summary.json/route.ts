import { idParams } from "@/lib/api/schemas";
import { matrixSummaryFile } from "@/lib/services/matrix";
import { fileResponse, route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/**
 * The batch's summary.json (specs/matrix-comparisons.md's schema, the inputs under
 * config.transcripts) with errors [{run_id, message}] and the unpriced runs and models, of the
 * evals finished so far; built from the database.
 */
export const GET = route({ params: idParams("matrix") }, async ({ caller, params, app }) => {
  const file = await matrixSummaryFile(app, { userId: caller.userId, matrixId: params.id });
  return fileResponse(file.text, { filename: file.filename, contentType: file.contentType });
});
