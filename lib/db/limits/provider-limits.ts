import type { Queryable } from "../database";

/**
 * A user's limits for one provider, and the engine's current adaptive limit. provider names a
 * credential: a provider, or "mock/<model>", whose rows hold only a throttle (mock models are
 * separate credentials, supabase/migrations/0012_credentials_and_active_runs.sql).
 */
export interface ProviderLimits {
  provider: string;
  maxConcurrency: number | null;
  requestsPerMinute: number | null;
  tokensPerMinute: number | null;
  /** Lowered by the engine after 429s; null when not throttled. */
  adaptiveLimit: number | null;
}

/** The caller's limits, one row per provider that has any. */
export async function listProviderLimits(tx: Queryable): Promise<ProviderLimits[]> {
  const { rows } = await tx.query<{
    provider: string;
    max_concurrency: number | null;
    requests_per_minute: number | null;
    tokens_per_minute: number | null;
    adaptive_limit: number | null;
  }>("select provider, max_concurrency, requests_per_minute, tokens_per_minute, adaptive_limit from provider_limits order by provider");
  return rows.map((row) => ({
    provider: row.provider,
    maxConcurrency: row.max_concurrency,
    requestsPerMinute: row.requests_per_minute,
    tokensPerMinute: row.tokens_per_minute,
    adaptiveLimit: row.adaptive_limit == null ? null : Math.floor(row.adaptive_limit),
  }));
}

/**
 * Lifts the engine's throttle of one of the caller's credentials (a provider, or "mock/<model>"),
 * keeping their own limits; answers whether there was one.
 */
export async function resetThrottle(tx: Queryable, { credential }: { credential: string }): Promise<boolean> {
  const { rows } = await tx.query(
    `update provider_limits set adaptive_limit = null, decreased_at = null, updated_at = now()
      where provider = $1 and adaptive_limit is not null
     returning 1`,
    [credential],
  );
  return rows.length > 0;
}

/** Sets the caller's limits for a provider; a new maximum also resets the engine's throttle. */
export async function saveProviderLimits(
  tx: Queryable,
  input: { provider: string; maxConcurrency: number | null; requestsPerMinute: number | null; tokensPerMinute: number | null },
): Promise<void> {
  await tx.query(
    `insert into provider_limits (provider, max_concurrency, requests_per_minute, tokens_per_minute)
     values ($1, $2, $3, $4)
     on conflict (user_id, provider) do update
        set max_concurrency = excluded.max_concurrency, requests_per_minute = excluded.requests_per_minute,
            tokens_per_minute = excluded.tokens_per_minute, adaptive_limit = null, updated_at = now()`,
    [input.provider, input.maxConcurrency, input.requestsPerMinute, input.tokensPerMinute],
  );
}
