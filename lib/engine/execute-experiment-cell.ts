import { retryDelayMs } from "@/lib/core/backoff";
import { computeCost } from "@/lib/core/cost";
import * as say from "@/lib/core/experiment-messages";
import { estimateTokens } from "@/lib/core/tokens";
import type { CellResult } from "@/lib/db/cells/save-cell-results";
import { priceKey, type RunSettings } from "@/lib/db/runs/load-run-settings";
import { providerFactories } from "@/lib/providers/provider-factories";
import { isProviderError, type ProviderError } from "@/lib/providers/provider-error";
import type { ExecuteCellDeps } from "./execute-cell";
import type { PreparedCell } from "./prepare-cell";

/**
 * Executes one cell of an experiment run by the experiments spec's rules, which differ from the
 * workbench's: every input is sent as it is (no expected-format check, so never malformed); a
 * placeholder without a value, an unknown context window and an input over the window are
 * warnings and the call is still made; a rate limit after the last attempt (the spec makes none
 * but the first) is a warning; every other failure is an error with one fixed text
 * (lib/core/experiment-messages.ts). input_tokens is the spec's estimate of the rendered text;
 * output_tokens the provider's count, else the same estimate of the answer. No price warning: the
 * spec tracks no cost (the cost is still recorded when known).
 */
export async function executeExperimentCell(
  deps: ExecuteCellDeps,
  settings: RunSettings,
  prepared: PreparedCell,
  hit: {
    outputRaw: string;
    tokensIn: number | null;
    tokensOut: number | null;
    tokensEstimated: boolean;
    latencyMs: number | null;
    finishReason: string | null;
  } | null,
): Promise<CellResult> {
  const { cell } = prepared;
  const inputTokens = estimateTokens(prepared.input);
  const base = {
    id: cell.id,
    runId: cell.runId,
    inputHash: prepared.inputHash,
    provider: cell.provider,
    model: cell.model,
    tokensIn: inputTokens,
  };
  const messages = prepared.missing.map((name) => say.missingVariableWarning(name, cell.rowIndex + 1));

  if (cell.provider === "" || !deps.providers.has(cell.provider)) {
    const known = deps.providers.list().map((provider) => provider.id);
    return {
      ...base,
      status: "error",
      errorCode: "bad_request",
      errorMessage: say.joinMessages([...messages, say.unknownProvider(cell.provider, known)]),
      warnings: messages,
    };
  }
  if (cell.model === "") {
    return {
      ...base,
      status: "error",
      errorCode: "bad_request",
      errorMessage: say.joinMessages([...messages, say.missingModel()]),
      warnings: messages,
    };
  }
  if (hit && !cell.bypassCache) {
    return {
      ...base,
      status: messages.length > 0 ? "warning" : "ok",
      outputRaw: hit.outputRaw,
      tokensOut: outputTokens(hit.outputRaw, hit.tokensOut, hit.tokensEstimated),
      tokensEstimated: hit.tokensEstimated,
      latencyMs: hit.latencyMs,
      costUsd: 0,
      finishReason: hit.finishReason,
      errorMessage: messages.length > 0 ? say.joinMessages(messages) : null,
      warnings: messages,
      cached: true,
    };
  }

  // A row whose process died during its call (the CLI killed, then --resume) is claimed once more
  // with its attempt counted: that one interruption is not the row's failure, so it runs again.
  // Vanishing again gives up (lease expiries count as attempts), so a row that kills its worker
  // cannot loop.
  if (cell.attempts > settings.maxAttempts + 1) {
    const text = say.apiError(cell.provider, `gave up after ${settings.maxAttempts} attempts (the worker stopped during the call)`);
    return { ...base, status: "error", errorCode: "server", errorMessage: say.joinMessages([...messages, text]), warnings: messages };
  }
  const keyVariable = providerFactories[cell.provider]?.envKey ?? null;
  const started = deps.now();
  const timeout = AbortSignal.timeout(settings.timeoutMs);
  const signal = AbortSignal.any([timeout, deps.stopSignal]);
  let provider;
  try {
    provider = await deps.providers.resolve({ provider: cell.provider, userId: settings.userId });
  } catch (caught) {
    if (!isProviderError(caught)) throw caught;
    const text = caught.code === "auth" ? say.missingKey(cell.provider, keyVariable) : say.apiError(cell.provider, caught.message);
    return { ...base, status: "error", errorCode: caught.code, errorMessage: say.joinMessages([...messages, text]), warnings: messages };
  }

  try {
    if (provider.contextWindow) {
      const key = priceKey(cell.provider, cell.model);
      let window = deps.contextWindows.get(key);
      if (!window) {
        window = provider.contextWindow(cell.model).catch(() => null);
        deps.contextWindows.set(key, window);
      }
      const size = await window;
      await deps.recordContextWindow?.({ runId: cell.runId, columnIndex: cell.columnIndex, contextWindow: size });
      if (size == null) messages.push(say.contextWindowUnknown(cell.model));
      else if (inputTokens > size) messages.push(say.contextOverflow(inputTokens, size, cell.model));
    }
    const answer = await provider.generate({
      model: cell.model,
      prompt: prepared.input,
      params: cell.params,
      variables: prepared.variables,
      signal,
    });
    const allMessages = [...messages, ...answer.warnings];
    const price = settings.prices.get(priceKey(cell.provider, cell.model)) ?? null;
    return {
      ...base,
      status: allMessages.length > 0 ? "warning" : "ok",
      outputRaw: answer.text,
      tokensOut: outputTokens(answer.text, answer.tokensOut, answer.tokensEstimated),
      tokensEstimated: answer.tokensEstimated,
      latencyMs: deps.now() - started,
      costUsd: answer.costUsd ?? computeCost({ tokensIn: answer.tokensIn, tokensOut: answer.tokensOut, price }),
      finishReason: answer.finishReason,
      errorMessage: allMessages.length > 0 ? say.joinMessages(allMessages) : null,
      warnings: allMessages,
      cacheKey: prepared.cacheKey,
      cacheTtlSeconds: deps.cacheTtlSeconds,
    };
  } catch (caught) {
    if (!timeout.aborted && !isProviderError(caught)) throw caught;
    const latencyMs = deps.now() - started;
    const error = timeout.aborted ? null : (caught as ProviderError);
    const code = error?.code ?? "timeout";
    const retryable = error ? error.retryable : true;
    if (retryable && cell.attempts < settings.maxAttempts) {
      const delay = retryDelayMs({ attempt: cell.attempts, retryAfterMs: error?.retryAfterMs ?? null, random: deps.random });
      return {
        ...base,
        status: "queued",
        retryDelayMs: delay,
        latencyMs,
        errorCode: code,
        errorMessage: error?.message ?? null,
        warnings: messages,
      };
    }
    const text =
      error === null || code === "timeout"
        ? say.timedOut(settings.timeoutMs / 1000)
        : code === "model_not_found"
          ? say.modelNotFound(cell.model)
          : code === "auth"
            ? say.authenticationFailed(cell.provider, keyVariable)
            : code === "rate_limited"
              ? say.rateLimited(cell.provider, error.message, error.retryAfterMs)
              : say.apiError(cell.provider, error.message);
    // The spec: a rate limit is a warning (the row is written, the run goes on), the rest errors.
    const status = code === "rate_limited" ? "warning" : "error";
    return {
      ...base,
      status,
      latencyMs,
      tokensOut: 0,
      outputRaw: "",
      errorCode: code,
      errorMessage: say.joinMessages([...messages, text]),
      warnings: messages,
    };
  }
}

/** The provider's count of output tokens, else the spec's estimate of the text. */
function outputTokens(text: string, counted: number | null | undefined, estimated: boolean): number {
  return counted != null && !estimated ? counted : estimateTokens(text);
}
