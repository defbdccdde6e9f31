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
 * cell that holds its answer, or keeps its own copy when that cell was asked again or deleted
 * (0022_smaller_cells.sql).
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
    `select r.cache_key, a.output_raw, encode(a.output_z, 'base64') as output_z, r.tokens_in, r.tokens_out,
            r.tokens_estimated, r.latency_ms, r.cost_usd, r.finish_reason
       from response_cache r
       left join run_cells c on c.id = r.cell_id and c.user_id = r.user_id
       cross join lateral (
         select case when r.cell_id is null then r.output_raw else c.output_raw end as output_raw,
                case when r.cell_id is null then r.output_z else c.output_z end as output_z
       ) a
      where r.user_id = $1 and r.cache_key = any($2::text[]) and (r.expires_at is null or r.expires_at > now())
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
