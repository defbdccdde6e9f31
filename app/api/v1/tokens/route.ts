import { createdTokenSchema, tokenListSchema } from "@/lib/api/responses";
import { createTokenSchema } from "@/lib/api/schemas";
import { route } from "@/lib/server/route";
import { createToken, listTokens } from "@/lib/services/tokens";

export const dynamic = "force-dynamic";

/** The caller's access tokens, newest first: names and last four characters, never the tokens. */
export const GET = route({ output: tokenListSchema }, ({ caller, app }) => listTokens(app, { userId: caller.userId }));

/** Makes an access token for the caller; the answer holds the token this once. */
export const POST = route({ body: createTokenSchema, output: createdTokenSchema, status: 201 }, ({ caller, body, app }) =>
  createToken(app, { userId: caller.userId, name: body.name }),
);
