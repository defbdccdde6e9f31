import { workbenchStateSchema } from "@/lib/api/responses";
import { updateWorkbenchSchema } from "@/lib/api/schemas";
import { asUser } from "@/lib/db/as-user";
import { getWorkbenchState, updateWorkbenchState } from "@/lib/db/workbench/workbench-state";
import { HttpError } from "@/lib/server/http-errors";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/** The caller's workbench setup: active prompt, dataset, grader and model columns. */
export const GET = route({ output: workbenchStateSchema }, async ({ caller, app }) =>
  asUser(app.db, caller.userId, (tx) => getWorkbenchState(tx)),
);

/** Changes part of the setup; ids must name the caller's own prompts and datasets. */
export const PATCH = route({ body: updateWorkbenchSchema, output: workbenchStateSchema }, async ({ caller, body, app }) => {
  const result = await asUser(app.db, caller.userId, (tx) => updateWorkbenchState(tx, body));
  if ("invisible" in result) {
    throw new HttpError(
      "not_found",
      `${result.invisible}: no such ${result.invisible === "datasetId" ? "dataset" : "prompt"} of yours.`,
      result.invisible,
    );
  }
  return result.state;
});
