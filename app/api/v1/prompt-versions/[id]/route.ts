import { z } from "zod";
import { asUser } from "@/lib/db/as-user";
import { getPromptVersionText } from "@/lib/db/runs/list-prompt-runs";
import { HttpError } from "@/lib/server/http-errors";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

const params = z.strictObject({ id: z.uuid({ message: "version id must be a UUID" }) });

/** The immutable text of a prompt version, to compare two runs' prompts. */
export const GET = route({ params }, async ({ caller, params, app }) => {
  const version = await asUser(app.db, caller.userId, (tx) => getPromptVersionText(tx, { id: params.id }));
  if (!version) throw new HttpError("not_found", `Prompt version ${params.id} not found.`);
  return version;
});
