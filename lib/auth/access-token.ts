import { createHash, randomBytes } from "node:crypto";

/** Access tokens read `pxr_` and 43 base64url characters (32 random bytes). */
const tokenPattern = /^pxr_[A-Za-z0-9_-]{43}$/;

/** A new access token: shown once to its creator, stored only as its hash. */
export function generateAccessToken(): string {
  return `pxr_${randomBytes(32).toString("base64url")}`;
}

/** Whether text has the shape of an access token (checked before any database look-up). */
export function looksLikeAccessToken(text: string): boolean {
  return tokenPattern.test(text);
}

/** The SHA-256 of a token, hex: what api_tokens.token_hash holds. */
export function hashAccessToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}
