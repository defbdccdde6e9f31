import { batchImageParams } from "@/lib/api/batches";
import { batchImage } from "@/lib/services/batches";
import { fileResponse, route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/**
 * One image (or its receipt) of a batch, by the name run.json lists it under. Only a file the
 * batch's artifacts list, only for its owner: any other name (run.json, an input copy, `..`) and
 * another user's batch are 404s. Sent as an attachment with its type and nosniff; an <img> shows it.
 */
export const GET = route({ params: batchImageParams }, async ({ caller, params, app }) => {
  const file = await batchImage(app.db, caller.userId, params.id, params.file);
  return fileResponse(new Blob([new Uint8Array(file.bytes)]), { filename: file.filename, contentType: file.contentType });
});
