import { promptRunsSchema } from "@/lib/api/responses";
import { idParams } from "@/lib/api/schemas";
import { asUser } from "@/lib/db/as-user";
import { listPromptRuns } from "@/lib/db/runs/list-prompt-runs";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/** Run history of a prompt, newest first: version, status and each model's average grade. */
export const GET = route({ params: idParams("prompt"), output: promptRunsSchema }, async ({ caller, params, app }) => ({
  runs: await asUser(app.db, caller.userId, (tx) => listPromptRuns(tx, { promptId: params.id })),
}));
