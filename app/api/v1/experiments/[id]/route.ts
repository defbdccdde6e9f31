import { experimentQuerySchema, experimentSchema } from "@/lib/api/experiments";
import { idParams } from "@/lib/api/schemas";
import { getExperiment } from "@/lib/services/experiments";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/** One experiment run: its files, the document it sends, and its rows with their six output columns (`?fromRow=&limit=` for a window). */
export const GET = route(
  { params: idParams("experiment"), query: experimentQuerySchema, output: experimentSchema },
  ({ caller, params, query, app }) =>
    getExperiment(app, { userId: caller.userId, experimentId: params.id, fromRow: query.fromRow, limit: query.limit ?? null }),
);
