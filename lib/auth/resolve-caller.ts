import { timingSafeEqual } from "node:crypto";
import type { Queryable } from "@/lib/db/database";
import { findTokenUser } from "@/lib/db/tokens/api-tokens";
import type { AccessConfig } from "./access-config";
import { sessionCookieName } from "./access-config";
import { hashAccessToken, looksLikeAccessToken } from "./access-token";
import { UnauthorizedError } from "./errors";
import { localUserId } from "./local-user";

/** Who is calling: the user whose rows the request may see and change. */
export interface Caller {
  userId: string;
}

/**
 * Resolves the caller of a request. A token (`Authorization: Bearer pxr_...`, or the sign-in
 * page's cookie) names its user, and a token that is wrong is refused even where none is needed.
 * Without a token: the single local user on a loopback-only server; a 401 on a server that
 * listens beyond loopback (access.tokensRequired). controlToken is the server's own secret in its
 * data folder's lock file (0600), by which this machine's CLI acts as the local user.
 */
export async function resolveCaller(
  request: Request,
  { db, access, controlToken = null }: { db: Queryable; access: AccessConfig; controlToken?: string | null },
): Promise<Caller> {
  const token = presentedToken(request);
  if (token !== null && controlToken !== null && sameSecret(token, controlToken)) return { userId: localUserId };
  if (token !== null) {
    const userId = looksLikeAccessToken(token) ? await findTokenUser(db, { tokenHash: hashAccessToken(token) }) : null;
    if (!userId)
      throw new UnauthorizedError("This access token is unknown or revoked. Create one with `parallaxr token create` and sign in again.");
    return { userId };
  }
  if (access.tokensRequired) {
    throw new UnauthorizedError(
      "This server needs an access token: send `Authorization: Bearer <token>`, or sign in at /sign-in. Create one with `parallaxr token create` on the server's machine.",
    );
  }
  return { userId: localUserId };
}

function presentedToken(request: Request): string | null {
  const header = request.headers.get("authorization");
  if (header) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    return match ? match[1] : header;
  }
  const cookies = request.headers.get("cookie");
  if (!cookies) return null;
  for (const part of cookies.split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === sessionCookieName && value.length > 0) return decodeURIComponent(value.join("="));
  }
  return null;
}

function sameSecret(presented: string, expected: string): boolean {
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
