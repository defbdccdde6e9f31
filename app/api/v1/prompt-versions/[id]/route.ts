import { promptVersionSchema } from "@/lib/api/responses";
import { idParams } from "@/lib/api/schemas";
import { asUser } from "@/lib/db/as-user";
import { getPromptVersionText } from "@/lib/db/runs/list-prompt-runs";
import { HttpError } from "@/lib/server/http-errors";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/** The immutable text of a prompt version, to compare two runs' prompts. */
export const GET = route({ params: idParams("version"), output: promptVersionSchema }, async ({ caller, params, app }) => {
  const version = await asUser(app.db, caller.userId, (tx) => getPromptVersionText(tx, { id: params.id }));
  if (!version) throw new HttpError("not_found", `Prompt version ${params.id} not found.`);
  return version;
});
