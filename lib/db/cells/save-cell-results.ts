import type { Database, Statement } from "../database";
import { packAnswer } from "./packed-answer";

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
  /** Set to store a fresh answer in the response cache under this key. */
  cacheKey?: string | null;
  cacheTtlSeconds?: number | null;
  provider?: string;
  model?: string;
  /** The grader's call for this cell, when the run has a grader. */
  graderStatus?: "ok" | "error" | "malformed" | null;
  graderOutputRaw?: string | null;
  graderOutputParsed?: string | null;
  grade?: number | null;
  graderTokensIn?: number | null;
  graderTokensOut?: number | null;
  graderCostUsd?: number | null;
  graderError?: string | null;
  /** An eval cell's metric scores and pass/fail (run_cells.metric_scores). */
  metricScores?: Record<string, unknown> | null;
}

// Postgres text cannot hold U+0000, and jsonb refuses a UTF-16 surrogate without its other half;
// a model can answer with either (a "\u0000" escape, an emoji split by a JSON escape). One such
// string would make the whole batch fail, so every string is made storable here, each bad
// character becoming U+FFFD as a UTF-8 decoder would show it.
// eslint-disable-next-line no-control-regex -- U+0000 is exactly what text columns cannot hold
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function storable(_key: string, value: unknown): unknown {
  return typeof value === "string" ? value.replace(UNSTORABLE, "\uFFFD") : value;
}

const HEX = /^(?:[0-9a-f]{2})+$/;

/** The answer as stored: made storable first, then packed when long (packed-answer.ts). */
function storedAnswer(raw: string | null): { output_raw: string | null; output_z: string | null } {
  return packAnswer(raw === null ? null : raw.replace(UNSTORABLE, "\uFFFD"));
}

function parsedOutput(raw: string | null, parsed: string | null): { output_parsed: string | null; parsed_is_raw: boolean } {
  return parsed !== null && parsed === raw ? { output_parsed: null, parsed_is_raw: true } : { output_parsed: parsed, parsed_is_raw: false };
}

/**
 * Results as the JSON that parallaxr_save_results reads (0022_smaller_cells.sql). A parsed output
 * that is the raw output (a prompt that asks for no JSON) is sent, and stored, once (0020); a long
 * answer is sent and stored deflated (0022).
 */
export function resultsPayload(results: CellResult[]): string {
  return JSON.stringify(
    results.map((result) => ({
      id: result.id,
      status: result.status,
      retry_delay_ms: result.retryDelayMs ?? 0,
      // stored as its bytes (0022): hex only, as hashText writes it
      input_hash: result.inputHash && HEX.test(result.inputHash) ? result.inputHash : null,
      ...storedAnswer(result.outputRaw ?? null),
      ...parsedOutput(result.outputRaw ?? null, result.outputParsed ?? null),
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
      cache_key: result.cacheKey ?? null,
      cache_ttl_s: result.cacheTtlSeconds ?? null,
      provider: result.provider ?? null,
      model: result.model ?? null,
      grader_status: result.graderStatus ?? null,
      grader_output_raw: result.graderOutputRaw ?? null,
      grader_output_parsed: result.graderOutputParsed ?? null,
      grade: result.grade ?? null,
      grader_tokens_in: result.graderTokensIn ?? null,
      grader_tokens_out: result.graderTokensOut ?? null,
      grader_cost_usd: result.graderCostUsd ?? null,
      grader_error: result.graderError ?? null,
      metric_scores: result.metricScores ?? null,
    })),
    storable,
  );
}

/**
 * Writes many results in one statement. Only cells this worker still holds are written: a cell
 * whose lease expired and was taken by another worker keeps that worker's result.
 * Returns the ids that were written.
 */
export async function saveCellResults(db: Database, { workerId, results }: { workerId: string; results: CellResult[] }): Promise<string[]> {
  if (results.length === 0) return [];
  const { sql, params } = saveResultsStatement(workerId, results);
  const { rows } = await db.query<{ saved: string[] }>(sql, params);
  return rows[0].saved;
}

/** The statement saveCellResults runs, for a batch of statements; its one row's `saved` names the cells written. */
export function saveResultsStatement(workerId: string, results: CellResult[]): Statement {
  // Saving and adapting credential limits (AIMD on 429s) are independent of each other's order.
  return {
    sql: "select parallaxr_save_results($1, $2::jsonb) as saved, parallaxr_adapt_limits($2::jsonb)",
    params: [workerId, resultsPayload(results)],
  };
}
