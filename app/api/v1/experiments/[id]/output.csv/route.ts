import { idParams } from "@/lib/api/schemas";
import { experimentOutputCsv } from "@/lib/services/experiments";
import { fileResponse, route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/**
 * The experiment's output CSV as far as it has finished, in input order: byte for byte the file
 * `parallaxr run` writes. X-Rows-Written says how many rows it holds, X-Finished whether that is all.
 */
export const GET = route({ params: idParams("experiment") }, async ({ caller, params, app }) => {
  const file = await experimentOutputCsv(app, { userId: caller.userId, experimentId: params.id });
  const response = fileResponse(file.text, { filename: file.filename, contentType: "text/csv; charset=utf-8" });
  response.headers.set("x-rows-written", String(file.rows));
  response.headers.set("x-finished", String(file.finished));
  return response;
});
