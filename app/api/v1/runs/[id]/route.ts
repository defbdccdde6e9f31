import { z } from "zod";
import { getRun } from "@/lib/engine/run-service";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

const params = z.object({ id: z.uuid({ message: "run id must be a UUID" }) });

/** The run with its status, rows and cells. */
export const GET = route({ params }, ({ caller, params, app }) => getRun(app, { userId: caller.userId, runId: params.id }));
