import { z } from "zod";
import { getRun } from "@/lib/engine/run-service";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

const params = z.strictObject({ id: z.uuid({ message: "run id must be a UUID" }) });
const query = z.strictObject({
  outputChars: z.coerce.number({ message: "outputChars must be a number" }).int().min(1).max(1_000_000).optional(),
});

/**
 * The run with its status, rows and cells. ?outputChars=N cuts each cell's output to its first N
 * characters (cells say outputTruncated); GET /runs/{id}/cells/{cellId} has the whole of one.
 */
export const GET = route({ params }, ({ request, caller, params, app }) => {
  const { outputChars } = query.parse({ outputChars: new URL(request.url).searchParams.get("outputChars") ?? undefined });
  return getRun(app, { userId: caller.userId, runId: params.id, outputChars: outputChars ?? null });
});
