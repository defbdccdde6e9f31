import { asUser } from "@/lib/db/as-user";
import type { Database } from "@/lib/db/database";
import { insertAccessToken, listAccessTokens, revokeAccessToken, type AccessTokenSummary } from "@/lib/db/tokens/api-tokens";
import { generateAccessToken, hashAccessToken } from "./access-token";

/** A token just made: the token itself, shown this once, and what is kept of it. */
export interface CreatedAccessToken {
  token: string;
  summary: AccessTokenSummary;
}

/** Makes an access token for userId; only its hash is stored. */
export async function createAccessToken(db: Database, { userId, name }: { userId: string; name: string }): Promise<CreatedAccessToken> {
  const token = generateAccessToken();
  const summary = await asUser(db, userId, (tx) =>
    insertAccessToken(tx, { name, tokenHash: hashAccessToken(token), last4: token.slice(-4) }),
  );
  return { token, summary };
}

/** userId's tokens, newest first, without the tokens themselves. */
export function listUserAccessTokens(db: Database, { userId }: { userId: string }): Promise<AccessTokenSummary[]> {
  return asUser(db, userId, (tx) => listAccessTokens(tx));
}

/** Revokes userId's token named by its id (or first 8 characters) or its name; answers the revoked ones. */
export function revokeUserAccessToken(
  db: Database,
  { userId, idOrName }: { userId: string; idOrName: string },
): Promise<AccessTokenSummary[]> {
  return asUser(db, userId, (tx) => revokeAccessToken(tx, { idOrName }));
}
