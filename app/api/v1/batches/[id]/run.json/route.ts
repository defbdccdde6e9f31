import { batchIdParams } from "@/lib/api/batches";
import { batchManifest } from "@/lib/services/batches";
import { fileResponse, route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/** The batch's run.json (schema v1, schemas/run.schema.json) as the database says it now: the same view its folder holds. */
export const GET = route({ params: batchIdParams }, async ({ caller, params, app }) => {
  const manifest = await batchManifest(app.db, caller.userId, params.id);
  return fileResponse(`${JSON.stringify(manifest, null, 2)}\n`, { filename: "run.json", contentType: "application/json; charset=utf-8" });
});
