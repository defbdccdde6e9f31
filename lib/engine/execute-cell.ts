import { retryDelayMs } from "@/lib/core/backoff";
import { computeCost } from "@/lib/core/cost";
import { detectExpectedOutput, validateOutput } from "@/lib/core/expected-output";
import { estimateTokens } from "@/lib/core/tokens";
import { parseGrade } from "@/lib/core/parse-grade";
import { renderTemplate } from "@/lib/core/template";
import type { CachedResponse } from "@/lib/db/cache/response-cache";
import type { CellResult } from "@/lib/db/cells/save-cell-results";
import { priceKey, type RunSettings } from "@/lib/db/runs/load-run-settings";
import { isProviderError, ProviderError } from "@/lib/providers/provider-error";
import type { ProviderRegistry } from "@/lib/providers/registry";
import { executeEvalCell } from "./execute-eval-cell";
import { executeExperimentCell } from "./execute-experiment-cell";
import { executeMatrixCell } from "./execute-matrix-cell";
import type { PreparedCell } from "./prepare-cell";

/** What executing a cell needs from the outside world. */
export interface ExecuteCellDeps {
  providers: ProviderRegistry;
  now: () => number;
  random: () => number;
  /** Aborts calls when the worker is stopping. */
  stopSignal: AbortSignal;
  /** How long a fresh answer stays in the response cache; null keeps it until cleared. */
  cacheTtlSeconds: number | null;
  /** Context windows already asked for, per provider/model (the worker keeps them). */
  contextWindows: Map<string, Promise<number | null>>;
  /** Keeps the context window a provider reported for a run's column (an experiment's output shows it). */
  recordContextWindow?: (input: { runId: string; columnIndex: number; contextWindow: number | null }) => Promise<void>;
}

/**
 * Executes one claimed, prepared cell: the cached answer when there is one (and no re-run was
 * asked for), else a call; then validation and price. Never throws for a provider's failure: it
 * becomes an error result, or a retry (status queued with a delay) while attempts remain and the
 * error is retryable. Errors that are not ProviderErrors are our own bugs and are rethrown.
 */
export async function executeCell(
  deps: ExecuteCellDeps,
  settings: RunSettings,
  prepared: PreparedCell,
  hit: CachedResponse | null,
): Promise<CellResult> {
  if (settings.kind === "experiment") return executeExperimentCell(deps, settings, prepared, hit);
  if (settings.kind === "eval") return executeEvalCell(deps, settings, prepared, hit);
  if (settings.kind === "matrix") return executeMatrixCell(deps, settings, prepared, hit);
  const { cell } = prepared;
  const base = { id: cell.id, runId: cell.runId, inputHash: prepared.inputHash, provider: cell.provider, model: cell.model };
  const warnings = prepared.missing.map((name) => `Variable {{${name}}} in template has no value in row ${cell.rowIndex + 1}`);
  const expected = detectExpectedOutput(settings.promptText);

  if (hit && !cell.bypassCache) {
    // A hit costs nothing now; its original tokens and latency stay for comparison.
    const validation = validateOutput(hit.outputRaw, expected);
    const status = !validation.ok ? "malformed" : warnings.length > 0 ? "warning" : "ok";
    const graded = await gradeCell(deps, settings, prepared, {
      status,
      outputRaw: hit.outputRaw,
      outputParsed: validation.ok ? validation.parsed : null,
    });
    return {
      ...base,
      ...graded,
      status,
      outputRaw: hit.outputRaw,
      outputParsed: validation.ok ? validation.parsed : null,
      tokensIn: hit.tokensIn,
      tokensOut: hit.tokensOut,
      tokensEstimated: hit.tokensEstimated,
      latencyMs: hit.latencyMs,
      costUsd: 0,
      finishReason: hit.finishReason,
      errorMessage: validation.ok ? null : validation.reason,
      warnings,
      cached: true,
    };
  }
  if (cell.attempts > settings.maxAttempts) {
    // Claimed again after its worker vanished one time too many (lease expiries count as attempts).
    return { ...base, status: "error", errorCode: "server", errorMessage: `Gave up after ${settings.maxAttempts} attempts.`, warnings };
  }

  const started = deps.now();
  const timeout = AbortSignal.timeout(settings.timeoutMs);
  const signal = AbortSignal.any([timeout, deps.stopSignal]);
  try {
    const provider = await deps.providers.resolve({ provider: cell.provider, userId: settings.userId });
    // Before any money is spent: an input that cannot fit is an error, and an unknown window a
    // warning (providers without windows, the mock, say nothing).
    if (provider.contextWindow) {
      const key = priceKey(cell.provider, cell.model);
      let window = deps.contextWindows.get(key);
      if (!window) {
        window = provider.contextWindow(cell.model).catch(() => null);
        deps.contextWindows.set(key, window);
      }
      const size = await window;
      const inputTokens = estimateTokens(prepared.input);
      if (size == null) {
        warnings.push(`Context window unknown for model ${cell.model}`);
      } else if (inputTokens > size) {
        throw new ProviderError({
          code: "context_overflow",
          message: `The input is about ${inputTokens} tokens, over the ${size}-token context window of ${cell.model}: shorten the prompt or the row, or pick a model with a larger window.`,
        });
      }
    }
    const answer = await provider.generate({
      model: cell.model,
      prompt: prepared.input,
      params: cell.params,
      variables: prepared.variables,
      signal,
    });
    const latencyMs = deps.now() - started;
    const validation = validateOutput(answer.text, expected);
    const price = settings.prices.get(priceKey(cell.provider, cell.model)) ?? null;
    // The provider's own figure (OpenRouter reports one) wins over our arithmetic.
    const costUsd = answer.costUsd ?? computeCost({ tokensIn: answer.tokensIn, tokensOut: answer.tokensOut, price });
    const costWarning =
      costUsd == null ? [`No price for ${cell.provider}/${cell.model}: the cost is unknown (not 0). Set one in Settings -> Prices.`] : [];
    const allWarnings = [...warnings, ...answer.warnings, ...costWarning];
    const status = !validation.ok ? "malformed" : allWarnings.length > 0 ? "warning" : "ok";
    const graded = await gradeCell(deps, settings, prepared, {
      status,
      outputRaw: answer.text,
      outputParsed: validation.ok ? validation.parsed : null,
    });
    return {
      ...base,
      ...graded,
      status,
      outputRaw: answer.text,
      outputParsed: validation.ok ? validation.parsed : null,
      tokensIn: answer.tokensIn,
      tokensOut: answer.tokensOut,
      tokensEstimated: answer.tokensEstimated,
      latencyMs,
      costUsd,
      finishReason: answer.finishReason,
      errorMessage: validation.ok ? null : validation.reason,
      warnings: allWarnings,
      cacheKey: prepared.cacheKey,
      cacheTtlSeconds: deps.cacheTtlSeconds,
    };
  } catch (caught) {
    const error = asProviderError(caught, { timedOut: timeout.aborted, timeoutMs: settings.timeoutMs });
    const latencyMs = deps.now() - started;
    const failure = { ...base, latencyMs, errorCode: error.code, errorMessage: error.message, warnings };
    if (error.retryable && cell.attempts < settings.maxAttempts) {
      const delay = retryDelayMs({ attempt: cell.attempts, retryAfterMs: error.retryAfterMs, random: deps.random });
      return { ...failure, status: "queued", retryDelayMs: delay };
    }
    return { ...failure, status: "error" };
  }
}

function asProviderError(caught: unknown, context: { timedOut: boolean; timeoutMs: number }): ProviderError {
  if (context.timedOut) {
    return new ProviderError({ code: "timeout", message: `No answer within ${context.timeoutMs / 1000} s.`, cause: caught });
  }
  if (isProviderError(caught)) return caught;
  throw caught;
}

function stringValues(variables: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(variables).map(([key, value]) => [key, value == null ? "" : String(value)]));
}

/** The grader's part of a cell result. */
type Graded = Pick<
  CellResult,
  | "graderStatus"
  | "graderOutputRaw"
  | "graderOutputParsed"
  | "grade"
  | "graderTokensIn"
  | "graderTokensOut"
  | "graderCostUsd"
  | "graderError"
>;

/**
 * Calls the run's grader on a generator's answer, with the row's variables and the answer as
 * {{output}} (its parsed part when the prompt asked for one). Malformed answers are graded 0
 * without a call (the spec's rule). A grader that fails, or answers with no readable grade, is
 * recorded on the cell and never re-runs the generator, which is already paid for.
 */
async function gradeCell(
  deps: ExecuteCellDeps,
  settings: RunSettings,
  prepared: PreparedCell,
  generator: { status: string; outputRaw: string; outputParsed: string | null },
): Promise<Graded> {
  if (!settings.graderText) return {};
  if (generator.status === "malformed") return { grade: 0 };
  const { cell } = prepared;
  const target = settings.graderModel ?? { provider: cell.provider, model: cell.model };
  const input = renderTemplate(settings.graderText, { ...cell.variables, output: generator.outputParsed ?? generator.outputRaw }).text;
  const timeout = AbortSignal.timeout(settings.timeoutMs);
  try {
    const provider = await deps.providers.resolve({ provider: target.provider, userId: settings.userId });
    const answer = await provider.generate({
      model: target.model,
      prompt: input,
      params: settings.graderModel ? {} : cell.params,
      variables: stringValues({ ...cell.variables, output: generator.outputRaw }),
      purpose: "grade",
      signal: AbortSignal.any([timeout, deps.stopSignal]),
    });
    const price = settings.prices.get(priceKey(target.provider, target.model)) ?? null;
    const usage = {
      graderOutputRaw: answer.text,
      graderTokensIn: answer.tokensIn,
      graderTokensOut: answer.tokensOut,
      graderCostUsd: answer.costUsd ?? computeCost({ tokensIn: answer.tokensIn, tokensOut: answer.tokensOut, price }),
    };
    const validation = validateOutput(answer.text, detectExpectedOutput(settings.graderText));
    if (!validation.ok) return { ...usage, graderStatus: "malformed", graderError: validation.reason };
    const grade = parseGrade(validation.parsed);
    if (grade == null) {
      return {
        ...usage,
        graderStatus: "malformed",
        graderOutputParsed: validation.parsed,
        graderError: "No grade from 0 to 1 (or pass / fail) in the grader's answer.",
      };
    }
    return { ...usage, graderStatus: "ok", graderOutputParsed: validation.parsed, grade };
  } catch (caught) {
    const error = asProviderError(caught, { timedOut: timeout.aborted, timeoutMs: settings.timeoutMs });
    return { graderStatus: "error", graderError: `${error.code}: ${error.message}` };
  }
}
