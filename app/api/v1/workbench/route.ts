import { workbenchStateSchema } from "@/lib/api/responses";
import { updateWorkbenchSchema } from "@/lib/api/schemas";
import { route } from "@/lib/server/route";
import { getWorkbench, updateWorkbench } from "@/lib/services/workbench";

export const dynamic = "force-dynamic";

/** The caller's workbench setup: active prompt, dataset, grader and model columns. */
export const GET = route({ output: workbenchStateSchema }, ({ caller, app }) => getWorkbench(app, { userId: caller.userId }));

/** Changes part of the setup; ids must name the caller's own prompts and datasets. */
export const PATCH = route({ body: updateWorkbenchSchema, output: workbenchStateSchema }, ({ caller, body, app }) =>
  updateWorkbench(app, { userId: caller.userId, change: body }),
);
