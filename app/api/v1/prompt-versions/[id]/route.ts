import { promptVersionSchema } from "@/lib/api/responses";
import { idParams } from "@/lib/api/schemas";
import { route } from "@/lib/server/route";
import { getPromptVersion } from "@/lib/services/prompts";

export const dynamic = "force-dynamic";

/** The immutable text of a prompt version, to compare two runs' prompts. */
export const GET = route({ params: idParams("version"), output: promptVersionSchema }, ({ caller, params, app }) =>
  getPromptVersion(app, { userId: caller.userId, versionId: params.id }),
);
