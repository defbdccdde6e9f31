import type { Database, Queryable } from "../database";
import { unpackAnswer } from "../cells/packed-answer";

/** A stored answer: what a cache hit gives back, with the original tokens, latency and cost. */
export interface CachedResponse {
  cacheKey: string;
  outputRaw: string;
  tokensIn: number | null;
  tokensOut: number | null;
  tokensEstimated: boolean;
  latencyMs: number | null;
  costUsd: number | null;
  finishReason: string | null;
}

/**
 * The unexpired cached answers of userId among keys, in one statement (the worker asks once per
 * claimed batch). The worker bypasses RLS, so the user is named explicitly. A cache row names the
 * cell that holds its answer and the call's tokens, latency and cost, or keeps its own copy of
 * them when that cell was asked again or deleted (0022_smaller_cells.sql, 0026_slimmer_cache_rows.sql).
 * Keys are hex SHA-256 (lib/core/cache-key.ts), stored as their bytes.
 */
export async function findCachedResponses(
  db: Database,
  { userId, keys }: { userId: string; keys: string[] },
): Promise<Map<string, CachedResponse>> {
  if (keys.length === 0) return new Map();
  const { rows } = await db.query<{
    cache_key: string;
    output_raw: string | null;
    output_z: string | null;
    tokens_in: number | null;
    tokens_out: number | null;
    tokens_estimated: boolean;
    latency_ms: number | null;
    cost_usd: number | null;
    finish_reason: string | null;
  }>(
    `select encode(r.cache_key, 'hex') as cache_key, a.output_raw, encode(a.output_z, 'base64') as output_z,
            a.tokens_in, a.tokens_out, a.tokens_estimated, a.latency_ms, a.cost_usd, a.finish_reason
       from response_cache r
       left join run_cells c on c.id = r.cell_id and c.user_id = r.user_id
       cross join lateral (
         select case when r.cell_id is null then r.output_raw else c.output_raw end as output_raw,
                case when r.cell_id is null then r.output_z else c.output_z end as output_z,
                case when r.cell_id is null then r.tokens_in else c.tokens_in end as tokens_in,
                case when r.cell_id is null then r.tokens_out else c.tokens_out end as tokens_out,
                case when r.cell_id is null then r.tokens_estimated else c.tokens_estimated end as tokens_estimated,
                case when r.cell_id is null then r.latency_ms else c.latency_ms end as latency_ms,
                case when r.cell_id is null then r.cost_usd else c.cost_usd end as cost_usd,
                case when r.cell_id is null then r.finish_reason else c.finish_reason end as finish_reason
       ) a
      where r.user_id = $1 and r.cache_key = any(array(select parallaxr_cache_key(k) from unnest($2::text[]) as k))
        and (r.expires_at is null or r.expires_at > now())
        and (a.output_raw is not null or a.output_z is not null)`,
    [userId, keys],
  );
  return new Map(
    rows.map((row) => [
      row.cache_key,
      {
        cacheKey: row.cache_key,
        outputRaw: unpackAnswer(row.output_raw, row.output_z)!,
        tokensIn: row.tokens_in,
        tokensOut: row.tokens_out,
        tokensEstimated: row.tokens_estimated,
        latencyMs: row.latency_ms,
        costUsd: row.cost_usd,
        finishReason: row.finish_reason,
      },
    ]),
  );
}

/** Deletes the caller's cached answers; returns how many. */
export async function clearResponseCache(tx: Queryable): Promise<number> {
  return (await tx.query("delete from response_cache")).rowCount;
}
