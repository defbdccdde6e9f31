import { z } from "zod";
import { rerunCell } from "@/lib/engine/run-service";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

const params = z.strictObject({
  id: z.uuid({ message: "run id must be a UUID" }),
  cellId: z.uuid({ message: "cell id must be a UUID" }),
});

/** Runs one finished cell again, bypassing the cache; its new result overwrites the old. */
export const POST = route({ params }, ({ caller, params, app }) =>
  rerunCell(app, { userId: caller.userId, runId: params.id, cellId: params.cellId }),
);
