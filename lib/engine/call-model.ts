import { retryDelayMs } from "@/lib/core/backoff";
import { computeCost } from "@/lib/core/cost";
import type { ClaimedCell } from "@/lib/db/cells/claim-cells";
import { priceKey, type RunSettings } from "@/lib/db/runs/load-run-settings";
import type { ProviderError } from "@/lib/providers/provider-error";
import type { ModelParams, TextGenerateResult, TextProvider } from "@/lib/providers/types";
import { asProviderError } from "./as-provider-error";
import type { ExecuteCellDeps } from "./execute-cell";

/** A generator call's outcome: the answer with its duration and cost, or the failure and whether to retry it. */
export type ModelCall =
  | { ok: true; answer: TextGenerateResult; latencyMs: number; costUsd: number | null }
  | { ok: false; error: ProviderError; latencyMs: number; retryDelayMs: number | null };

/**
 * One generator call of a claimed cell, as the workbench, eval and matrix cells make it: the
 * cell's provider resolved with its user's credentials, the prompt sent under the run's timeout
 * (and the worker's stop signal), the duration measured and the answer priced. A provider's
 * failure comes back as a value, with a retry delay while the cell has attempts left and the
 * error is retryable (Retry-After honoured); anything else is our bug and is thrown.
 * beforeGenerate runs once the provider is known and before any money is spent (the workbench's
 * context-window check); a ProviderError it throws is the call's failure.
 */
export async function callModel(
  deps: ExecuteCellDeps,
  settings: RunSettings,
  request: {
    cell: ClaimedCell;
    prompt: string;
    params: ModelParams;
    variables: Record<string, string>;
    beforeGenerate?: (provider: TextProvider) => Promise<void>;
  },
): Promise<ModelCall> {
  const { cell } = request;
  const started = deps.now();
  const timeout = AbortSignal.timeout(settings.timeoutMs);
  try {
    const provider = await deps.providers.resolve({ provider: cell.provider, userId: settings.userId });
    await request.beforeGenerate?.(provider);
    const answer = await provider.generate({
      model: cell.model,
      prompt: request.prompt,
      params: request.params,
      variables: request.variables,
      signal: AbortSignal.any([timeout, deps.stopSignal]),
    });
    const latencyMs = deps.now() - started;
    return { ok: true, answer, latencyMs, costUsd: answerCost(settings, cell, answer) };
  } catch (caught) {
    const error = asProviderError(caught, { timedOut: timeout.aborted, timeoutMs: settings.timeoutMs });
    const latencyMs = deps.now() - started;
    const retry = error.retryable && cell.attempts < settings.maxAttempts;
    return {
      ok: false,
      error,
      latencyMs,
      retryDelayMs: retry ? retryDelayMs({ attempt: cell.attempts, retryAfterMs: error.retryAfterMs, random: deps.random }) : null,
    };
  }
}

/**
 * What an answer of target's cost: the provider's own figure when it reports one (OpenRouter
 * does), else its tokens at the run's price for target; null (unknown, never $0) without a price.
 */
export function answerCost(
  settings: RunSettings,
  target: { provider: string; model: string },
  answer: Pick<TextGenerateResult, "tokensIn" | "tokensOut" | "costUsd">,
): number | null {
  const price = settings.prices.get(priceKey(target.provider, target.model)) ?? null;
  return answer.costUsd ?? computeCost({ tokensIn: answer.tokensIn, tokensOut: answer.tokensOut, price });
}
