import { experimentSchema } from "@/lib/api/experiments";
import { idParams } from "@/lib/api/schemas";
import { getExperiment } from "@/lib/services/experiments";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/** One experiment run: its files, the document it sends, and every row with its six output columns. */
export const GET = route({ params: idParams("experiment"), output: experimentSchema }, ({ caller, params, app }) =>
  getExperiment(app, { userId: caller.userId, experimentId: params.id }),
);
