import type { Queryable } from "../database";
import type { SealedSecret } from "@/lib/auth/secret-box";

/** What may be shown of a stored key: never the key itself. */
export interface ProviderKeySummary {
  provider: string;
  /** The key's last four characters; empty for an entry saved with a base URL only. */
  last4: string;
  /** The only address the key is sent to; null means the provider's default base URL. */
  baseUrl: string | null;
  updatedAt: string;
}

/** Stores (or replaces) the caller's key for a provider. */
export async function upsertProviderKey(
  tx: Queryable,
  input: { provider: string; sealed: SealedSecret; last4: string; baseUrl: string | null },
): Promise<ProviderKeySummary> {
  const { rows } = await tx.query<{ provider: string; last4: string; base_url: string | null; updated_at: Date }>(
    `insert into provider_keys (provider, ciphertext, iv, auth_tag, last4, base_url)
     values ($1, $2, $3, $4, $5, $6)
     on conflict (user_id, provider) do update
        set ciphertext = excluded.ciphertext, iv = excluded.iv, auth_tag = excluded.auth_tag,
            last4 = excluded.last4, base_url = excluded.base_url, updated_at = now()
     returning provider, last4, base_url, updated_at`,
    [input.provider, input.sealed.ciphertext, input.sealed.iv, input.sealed.authTag, input.last4, input.baseUrl],
  );
  const row = rows[0];
  return { provider: row.provider, last4: row.last4, baseUrl: row.base_url, updatedAt: new Date(row.updated_at).toISOString() };
}

/** The caller's stored keys, as summaries. */
export async function listProviderKeys(tx: Queryable): Promise<ProviderKeySummary[]> {
  const { rows } = await tx.query<{ provider: string; last4: string; base_url: string | null; updated_at: Date }>(
    "select provider, last4, base_url, updated_at from provider_keys order by provider",
  );
  return rows.map((row) => ({
    provider: row.provider,
    last4: row.last4,
    baseUrl: row.base_url,
    updatedAt: new Date(row.updated_at).toISOString(),
  }));
}

/** Deletes the caller's key for a provider; true when there was one. */
export async function deleteProviderKey(tx: Queryable, { provider }: { provider: string }): Promise<boolean> {
  return (await tx.query("delete from provider_keys where provider = $1", [provider])).rowCount > 0;
}

/**
 * The sealed key of userId for provider, for the worker (which bypasses RLS and so names the
 * user explicitly). Null when none is stored.
 */
export async function getSealedProviderKey(
  db: Queryable,
  { userId, provider }: { userId: string; provider: string },
): Promise<{ sealed: SealedSecret; baseUrl: string | null } | null> {
  const { rows } = await db.query<{ ciphertext: string; iv: string; auth_tag: string; base_url: string | null }>(
    "select ciphertext, iv, auth_tag, base_url from provider_keys where user_id = $1 and provider = $2",
    [userId, provider],
  );
  const row = rows[0];
  return row ? { sealed: { ciphertext: row.ciphertext, iv: row.iv, authTag: row.auth_tag }, baseUrl: row.base_url } : null;
}

/** The caller's stored entry for a provider, as a summary; null when there is none. */
export async function getProviderKeySummary(tx: Queryable, { provider }: { provider: string }): Promise<ProviderKeySummary | null> {
  const { rows } = await tx.query<{ provider: string; last4: string; base_url: string | null; updated_at: Date }>(
    "select provider, last4, base_url, updated_at from provider_keys where provider = $1",
    [provider],
  );
  const row = rows[0];
  return row
    ? { provider: row.provider, last4: row.last4, baseUrl: row.base_url, updatedAt: new Date(row.updated_at).toISOString() }
    : null;
}

/**
 * Changes the base URL of the caller's keyless entry (Ollama, an OpenAI-compatible server saved
 * with a URL only); null when there is none. An entry holding a key is never moved: a key is
 * bound to the URL it was saved with, and goes elsewhere only when entered again (upsert).
 */
export async function updateProviderBaseUrl(
  tx: Queryable,
  { provider, baseUrl }: { provider: string; baseUrl: string | null },
): Promise<ProviderKeySummary | null> {
  const { rows } = await tx.query<{ provider: string; last4: string; base_url: string | null; updated_at: Date }>(
    "update provider_keys set base_url = $2, updated_at = now() where provider = $1 and last4 = '' returning provider, last4, base_url, updated_at",
    [provider, baseUrl],
  );
  const row = rows[0];
  return row
    ? { provider: row.provider, last4: row.last4, baseUrl: row.base_url, updatedAt: new Date(row.updated_at).toISOString() }
    : null;
}
