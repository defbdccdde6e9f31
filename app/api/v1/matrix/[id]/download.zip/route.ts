import { idParams } from "@/lib/api/schemas";
import { matrixZip } from "@/lib/services/matrix";
import { fileResponse, route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/**
 * The batch folder as a zip, built in memory from the database (nothing written to the server's
 * disk): runs/{run_id}.json, batches/{batch_id}/summary.json, comparisons/{folder}/comparison.md
 * and comparisons/index.md, as `parallaxr matrix` writes them under data/evals.
 */
export const GET = route({ params: idParams("matrix") }, async ({ caller, params, app }) => {
  const file = await matrixZip(app, { userId: caller.userId, matrixId: params.id });
  return fileResponse(new Blob([new Uint8Array(file.bytes)]), { filename: file.filename, contentType: file.contentType });
});
