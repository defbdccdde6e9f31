import { batchIdParams } from "@/lib/api/batches";
import { batchZip } from "@/lib/services/batches";
import { fileResponse, route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/** The batch's run folder as a zip under <run_id>/: run.json, the prompt and matrix copies, and every listed image and receipt. */
export const GET = route({ params: batchIdParams }, async ({ caller, params, app }) => {
  const file = await batchZip(app.db, caller.userId, params.id);
  return fileResponse(new Blob([new Uint8Array(file.bytes)]), { filename: file.filename, contentType: file.contentType });
});
