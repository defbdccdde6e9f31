import { deletedSchema, promptSchema } from "@/lib/api/responses";
import { idParams, updatePromptSchema } from "@/lib/api/schemas";
import { route } from "@/lib/server/route";
import { deletePrompt, getPrompt, updatePrompt } from "@/lib/services/prompts";

export const dynamic = "force-dynamic";

const params = idParams("prompt");

/** One prompt of the caller's. */
export const GET = route({ params, output: promptSchema }, ({ caller, params, app }) =>
  getPrompt(app, { userId: caller.userId, promptId: params.id }),
);

/** Saves text (no version bump), renames (the version starts again at 1) or changes the type. */
export const PATCH = route({ params, body: updatePromptSchema, output: promptSchema }, ({ caller, params, body, app }) =>
  updatePrompt(app, { userId: caller.userId, promptId: params.id, change: body }),
);

/** Deletes a prompt for good (its runs keep their versions). */
export const DELETE = route({ params, output: deletedSchema }, ({ caller, params, app }) =>
  deletePrompt(app, { userId: caller.userId, promptId: params.id }),
);
