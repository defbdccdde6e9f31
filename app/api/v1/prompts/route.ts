import { promptListSchema, promptSchema } from "@/lib/api/responses";
import { createPromptSchema } from "@/lib/api/schemas";
import { route } from "@/lib/server/route";
import { createPrompt, listPrompts } from "@/lib/services/prompts";

export const dynamic = "force-dynamic";

/** Stores a prompt; run it with POST /api/v1/runs {"promptId": ...}. */
export const POST = route({ body: createPromptSchema, output: promptSchema, status: 201 }, ({ caller, body, app }) =>
  createPrompt(app, { userId: caller.userId, prompt: body }),
);

/** The caller's prompts, most recently changed first. */
export const GET = route({ output: promptListSchema }, ({ caller, app }) => listPrompts(app, { userId: caller.userId }));
