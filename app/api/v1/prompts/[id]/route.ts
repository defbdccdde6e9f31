import { deletedSchema, promptSchema } from "@/lib/api/responses";
import { idParams, updatePromptSchema } from "@/lib/api/schemas";
import { asUser } from "@/lib/db/as-user";
import { deletePrompt, getPromptById, updatePrompt } from "@/lib/db/prompts/prompts";
import { HttpError } from "@/lib/server/http-errors";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

const params = idParams("prompt");

/** One prompt of the caller's. */
export const GET = route({ params, output: promptSchema }, async ({ caller, params, app }) => {
  const prompt = await asUser(app.db, caller.userId, (tx) => getPromptById(tx, { id: params.id }));
  if (!prompt) throw new HttpError("not_found", `Prompt ${params.id} not found.`);
  return prompt;
});

/** Saves text (no version bump), renames (the version starts again at 1) or changes the type. */
export const PATCH = route({ params, body: updatePromptSchema, output: promptSchema }, async ({ caller, params, body, app }) => {
  const prompt = await asUser(app.db, caller.userId, (tx) => updatePrompt(tx, { id: params.id, ...body }));
  if (!prompt) throw new HttpError("not_found", `Prompt ${params.id} not found.`);
  return prompt;
});

/** Deletes a prompt for good (its runs keep their versions). */
export const DELETE = route({ params, output: deletedSchema }, async ({ caller, params, app }) => {
  const deleted = await asUser(app.db, caller.userId, (tx) => deletePrompt(tx, { id: params.id }));
  if (!deleted) throw new HttpError("not_found", `Prompt ${params.id} not found.`);
  return { deleted: true as const };
});
