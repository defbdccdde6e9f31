import { runSchema } from "@/lib/api/responses";
import { idParams, runQuerySchema } from "@/lib/api/schemas";
import { getRun } from "@/lib/services/runs";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/**
 * The run with its status, rows and cells. ?outputChars=N cuts each cell's output to its first N
 * characters (cells say outputTruncated); GET /runs/{id}/cells/{cellId} has the whole of one.
 */
export const GET = route({ params: idParams("run"), query: runQuerySchema, output: runSchema }, ({ caller, params, query, app }) =>
  getRun(app, { userId: caller.userId, runId: params.id, outputChars: query.outputChars ?? null }),
);
