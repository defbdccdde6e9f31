import { promptRunsSchema } from "@/lib/api/responses";
import { idParams } from "@/lib/api/schemas";
import { route } from "@/lib/server/route";
import { listPromptRuns } from "@/lib/services/prompts";

export const dynamic = "force-dynamic";

/** Run history of a prompt, newest first: version, status and each model's average grade. */
export const GET = route({ params: idParams("prompt"), output: promptRunsSchema }, ({ caller, params, app }) =>
  listPromptRuns(app, { userId: caller.userId, promptId: params.id }),
);
