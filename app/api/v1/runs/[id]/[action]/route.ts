import { z } from "zod";
import { changeRunStatus } from "@/lib/engine/run-service";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

const params = z.strictObject({
  id: z.uuid({ message: "run id must be a UUID" }),
  action: z.enum(["pause", "resume", "cancel"], { message: "action must be pause, resume or cancel" }),
});

/** POST /api/v1/runs/{id}/pause | resume | cancel. */
export const POST = route({ params }, ({ caller, params, app }) =>
  changeRunStatus(app, { userId: caller.userId, runId: params.id, action: params.action }),
);
