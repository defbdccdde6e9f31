import { createdTokenSchema, tokenListSchema } from "@/lib/api/responses";
import { createTokenSchema } from "@/lib/api/schemas";
import { createAccessToken, listUserAccessTokens } from "@/lib/auth/access-tokens";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/** The caller's access tokens, newest first: names and last four characters, never the tokens. */
export const GET = route({ output: tokenListSchema }, async ({ caller, app }) => ({
  tokens: await listUserAccessTokens(app.db, { userId: caller.userId }),
}));

/** Makes an access token for the caller; the answer holds the token this once. */
export const POST = route({ body: createTokenSchema, output: createdTokenSchema, status: 201 }, async ({ caller, body, app }) => {
  const created = await createAccessToken(app.db, { userId: caller.userId, name: body.name });
  return { token: created.token, ...created.summary };
});
