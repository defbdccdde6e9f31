import { promptListSchema, promptSchema } from "@/lib/api/responses";
import { createPromptSchema } from "@/lib/api/schemas";
import { asUser } from "@/lib/db/as-user";
import { insertPrompt, listPrompts } from "@/lib/db/prompts/prompts";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/** Stores a prompt; run it with POST /api/v1/runs {"promptId": ...}. */
export const POST = route({ body: createPromptSchema, output: promptSchema, status: 201 }, ({ caller, body, app }) =>
  asUser(app.db, caller.userId, (tx) => insertPrompt(tx, body)),
);

/** The caller's prompts, most recently changed first. */
export const GET = route({ output: promptListSchema }, async ({ caller, app }) => ({
  prompts: await asUser(app.db, caller.userId, (tx) => listPrompts(tx)),
}));
