import type { AccessTokenSummary } from "@/lib/api/responses";
import { createAccessToken, listUserAccessTokens, revokeUserAccessToken } from "@/lib/auth/access-tokens";
import type { Database } from "@/lib/db/database";
import { NotFoundError } from "@/lib/engine/errors";

/** userId's access tokens, newest first: names and last four characters, never the tokens. */
export async function listTokens({ db }: { db: Database }, { userId }: { userId: string }): Promise<{ tokens: AccessTokenSummary[] }> {
  return { tokens: await listUserAccessTokens(db, { userId }) };
}

/** Makes an access token for userId; the answer holds the token this once. */
export async function createToken(
  { db }: { db: Database },
  { userId, name }: { userId: string; name: string },
): Promise<AccessTokenSummary & { token: string }> {
  const created = await createAccessToken(db, { userId, name });
  return { token: created.token, ...created.summary };
}

/** Revokes userId's live tokens named by id (or its first 8 characters) or name; a 404 when none is. */
export async function revokeToken(
  { db }: { db: Database },
  { userId, idOrName }: { userId: string; idOrName: string },
): Promise<{ revoked: AccessTokenSummary[] }> {
  const revoked = await revokeUserAccessToken(db, { userId, idOrName });
  if (revoked.length === 0) throw new NotFoundError(`No live token of yours has the id or name "${idOrName}".`);
  return { revoked };
}
