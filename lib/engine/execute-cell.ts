import { detectExpectedOutput, validateOutput } from "@/lib/core/expected-output";
import { estimateTokens } from "@/lib/core/tokens";
import { renderTemplate } from "@/lib/core/template";
import type { CachedResponse } from "@/lib/db/cache/response-cache";
import { NO_PRICE, WINDOW_UNKNOWN } from "@/lib/db/cells/column-warnings";
import type { CellResult } from "@/lib/db/cells/save-cell-results";
import { priceKey, type RunSettings } from "@/lib/db/runs/load-run-settings";
import { ProviderError } from "@/lib/providers/provider-error";
import type { ProviderRegistry } from "@/lib/providers/registry";
import { callModel } from "./call-model";
import { executeEvalCell } from "./execute-eval-cell";
import { executeExperimentCell } from "./execute-experiment-cell";
import { executeMatrixCell } from "./execute-matrix-cell";
import { gradeOutput, type GraderResult } from "./grade-output";
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

  const call = await callModel(deps, settings, {
    cell,
    prompt: prepared.input,
    params: cell.params,
    variables: prepared.variables,
    // Before any money is spent: an input that cannot fit is an error, and an unknown window a
    // warning (providers without windows, the mock, say nothing).
    beforeGenerate: async (provider) => {
      if (!provider.contextWindow) return;
      const key = priceKey(cell.provider, cell.model);
      let window = deps.contextWindows.get(key);
      if (!window) {
        window = provider.contextWindow(cell.model).catch(() => null);
        deps.contextWindows.set(key, window);
      }
      const size = await window;
      const inputTokens = estimateTokens(prepared.input);
      if (size == null) {
        warnings.push(WINDOW_UNKNOWN);
      } else if (inputTokens > size) {
        throw new ProviderError({
          code: "context_overflow",
          message: `The input is about ${inputTokens} tokens, over the ${size}-token context window of ${cell.model}: shorten the prompt or the row, or pick a model with a larger window.`,
        });
      }
    },
  });
  if (!call.ok) {
    const { error, latencyMs } = call;
    const failure = { ...base, latencyMs, errorCode: error.code, errorMessage: error.message, warnings };
    if (call.retryDelayMs !== null) return { ...failure, status: "queued", retryDelayMs: call.retryDelayMs };
    return { ...failure, status: "error" };
  }
  const { answer, costUsd } = call;
  const validation = validateOutput(answer.text, expected);
  // Both are facts of the column: stored as codes, spelled out with its model when read (column-warnings.ts).
  const costWarning = costUsd == null ? [NO_PRICE] : [];
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
    latencyMs: call.latencyMs,
    costUsd,
    finishReason: answer.finishReason,
    errorMessage: validation.ok ? null : validation.reason,
    warnings: allWarnings,
    cacheKey: prepared.cacheKey,
    cacheTtlSeconds: deps.cacheTtlSeconds,
  };
}

function stringValues(variables: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(variables).map(([key, value]) => [key, value == null ? "" : String(value)]));
}

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
): Promise<GraderResult> {
  if (!settings.graderText) return {};
  if (generator.status === "malformed") return { grade: 0 };
  const { cell } = prepared;
  const target = settings.graderModel ?? { provider: cell.provider, model: cell.model };
  const input = renderTemplate(settings.graderText, { ...cell.variables, output: generator.outputParsed ?? generator.outputRaw }).text;
  return gradeOutput(deps, settings, {
    target,
    prompt: input,
    params: settings.graderModel ? {} : cell.params,
    variables: stringValues({ ...cell.variables, output: generator.outputRaw }),
  });
}
