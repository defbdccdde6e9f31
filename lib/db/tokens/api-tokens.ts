import type { Queryable } from "../database";

/** What may be shown of an access token: never the token or its hash. */
export interface AccessTokenSummary {
  id: string;
  name: string;
  last4: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

type TokenRow = { id: string; name: string; last4: string; created_at: Date; last_used_at: Date | null; revoked_at: Date | null };

const summaryColumns = "id, name, last4, created_at, last_used_at, revoked_at";

function toSummary(row: TokenRow): AccessTokenSummary {
  const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);
  return {
    id: row.id,
    name: row.name,
    last4: row.last4,
    createdAt: new Date(row.created_at).toISOString(),
    lastUsedAt: iso(row.last_used_at),
    revokedAt: iso(row.revoked_at),
  };
}

/** Stores a token's hash for the user of tx (RLS fills user_id); answers its summary. */
export async function insertAccessToken(
  tx: Queryable,
  input: { name: string; tokenHash: string; last4: string },
): Promise<AccessTokenSummary> {
  const { rows } = await tx.query<TokenRow>(
    `insert into api_tokens (name, token_hash, last4) values ($1, $2, $3) returning ${summaryColumns}`,
    [input.name, input.tokenHash, input.last4],
  );
  return toSummary(rows[0]);
}

/** The tokens of the user of tx, newest first, revoked ones included (they say when). */
export async function listAccessTokens(tx: Queryable): Promise<AccessTokenSummary[]> {
  const { rows } = await tx.query<TokenRow>(`select ${summaryColumns} from api_tokens order by created_at desc`);
  return rows.map(toSummary);
}

/**
 * Revokes a token of the user of tx, named by its id or its name (or the id's first 8
 * characters, as `parallaxr token list` shows it). Answers the revoked tokens' summaries.
 */
export async function revokeAccessToken(tx: Queryable, { idOrName }: { idOrName: string }): Promise<AccessTokenSummary[]> {
  const { rows } = await tx.query<TokenRow>(
    `update api_tokens set revoked_at = now()
      where revoked_at is null and (id::text = $1 or name = $1 or (length($1) >= 8 and id::text like $1 || '%'))
      returning ${summaryColumns}`,
    [idOrName],
  );
  return rows.map(toSummary);
}

/**
 * The user a live token belongs to, by its hash; null for an unknown or revoked token. Runs
 * outside RLS (the caller is not known yet), so it names nothing but the hash. Marks the token
 * used at most once a minute, so a busy client does not write on every request.
 */
export async function findTokenUser(db: Queryable, { tokenHash }: { tokenHash: string }): Promise<string | null> {
  const { rows } = await db.query<{ user_id: string }>(
    `with hit as (
       select id, user_id, last_used_at from api_tokens where token_hash = $1 and revoked_at is null
     ), touched as (
       update api_tokens t set last_used_at = now()
         from hit where t.id = hit.id and (hit.last_used_at is null or hit.last_used_at < now() - interval '1 minute')
     )
     select user_id from hit`,
    [tokenHash],
  );
  return rows[0]?.user_id ?? null;
}
