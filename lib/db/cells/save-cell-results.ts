import type { Database } from "../database";

/** The outcome of executing one cell, as the worker writes it. */
export interface CellResult {
  id: string;
  runId: string;
  /** queued means "retry after retryDelayMs". */
  status: "queued" | "ok" | "warning" | "error" | "malformed" | "skipped";
  retryDelayMs?: number;
  inputHash?: string | null;
  outputRaw?: string | null;
  outputParsed?: string | null;
  tokensIn?: number | null;
  tokensOut?: number | null;
  tokensEstimated?: boolean;
  latencyMs?: number | null;
  costUsd?: number | null;
  finishReason?: string | null;
  errorCode?: string | null;
  errorMessage?: string | null;
  warnings?: string[];
  cached?: boolean;
}

/**
 * Writes many results in one statement. Only cells this worker still holds are written: a cell
 * whose lease expired and was taken by another worker keeps that worker's result.
 * Returns the ids that were written.
 */
export async function saveCellResults(
  db: Database,
  { workerId, results }: { workerId: string; results: CellResult[] },
): Promise<string[]> {
  if (results.length === 0) return [];
  const payload = results.map((result) => ({
    id: result.id,
    status: result.status,
    retry_delay_ms: result.retryDelayMs ?? 0,
    input_hash: result.inputHash ?? null,
    output_raw: result.outputRaw ?? null,
    output_parsed: result.outputParsed ?? null,
    tokens_in: result.tokensIn ?? null,
    tokens_out: result.tokensOut ?? null,
    tokens_estimated: result.tokensEstimated ?? false,
    latency_ms: result.latencyMs == null ? null : Math.round(result.latencyMs),
    cost_usd: result.costUsd ?? null,
    finish_reason: result.finishReason ?? null,
    error_code: result.errorCode ?? null,
    error_message: result.errorMessage ?? null,
    warnings: result.warnings ?? [],
    cached: result.cached ?? false,
  }));
  const { rows } = await db.query<{ id: string }>(
    `update run_cells c
        set status = x.status,
            not_before = case when x.status = 'queued'
                              then now() + make_interval(secs => x.retry_delay_ms / 1000.0) else c.not_before end,
            input_hash = coalesce(x.input_hash, c.input_hash),
            output_raw = x.output_raw, output_parsed = x.output_parsed,
            tokens_in = x.tokens_in, tokens_out = x.tokens_out, tokens_estimated = x.tokens_estimated,
            latency_ms = x.latency_ms, cost_usd = x.cost_usd, finish_reason = x.finish_reason,
            error_code = x.error_code, error_message = x.error_message,
            warnings = x.warnings, cached = x.cached,
            lease_owner = null, lease_expires_at = null,
            bypass_cache = case when x.status = 'queued' then c.bypass_cache else false end,
            finished_at = case when x.status = 'queued' then null else now() end
       from jsonb_to_recordset($1::jsonb) as x(
              id uuid, status text, retry_delay_ms double precision, input_hash text, output_raw text,
              output_parsed text, tokens_in integer, tokens_out integer, tokens_estimated boolean,
              latency_ms integer, cost_usd double precision, finish_reason text, error_code text,
              error_message text, warnings jsonb, cached boolean)
      where c.id = x.id and c.lease_owner = $2 and c.status = 'running'
      returning c.id`,
    [JSON.stringify(payload), workerId],
  );
  return rows.map((row) => row.id);
}
