import { retryDelayMs } from "@/lib/core/backoff";
import { hashText } from "@/lib/core/cache-key";
import { detectExpectedOutput, validateOutput } from "@/lib/core/expected-output";
import { renderTemplate } from "@/lib/core/template";
import type { ClaimedCell } from "@/lib/db/cells/claim-cells";
import type { CellResult } from "@/lib/db/cells/save-cell-results";
import type { RunPlan } from "@/lib/db/runs/load-run-plan";
import { isProviderError, ProviderError } from "@/lib/providers/provider-error";
import type { ProviderRegistry } from "@/lib/providers/registry";

/** What executing a cell needs from the outside world. */
export interface ExecuteCellDeps {
  providers: ProviderRegistry;
  now: () => number;
  random: () => number;
  /** Aborts calls when the worker is stopping. */
  stopSignal: AbortSignal;
}

/**
 * Executes one claimed cell: render, call, validate. Never throws for a provider's failure: it
 * becomes an error result, or a retry (status queued with a delay) while attempts remain and the
 * error is retryable. Errors that are not ProviderErrors are our own bugs and are rethrown.
 */
export async function executeCell(deps: ExecuteCellDeps, plan: RunPlan, cell: ClaimedCell): Promise<CellResult> {
  const base = { id: cell.id, runId: cell.runId };
  const rendered = renderTemplate(plan.promptText, cell.variables);
  const warnings = rendered.missing.map(
    (name) => `Variable {{${name}}} in template has no value in row ${cell.rowIndex + 1}`,
  );
  const inputHash = hashText(rendered.text);
  if (cell.attempts > plan.maxAttempts) {
    // Claimed again after its worker vanished one time too many (lease expiries count as attempts).
    return { ...base, status: "error", inputHash, errorCode: "server", errorMessage: `Gave up after ${plan.maxAttempts} attempts.`, warnings };
  }

  const started = deps.now();
  const timeout = AbortSignal.timeout(plan.timeoutMs);
  const signal = AbortSignal.any([timeout, deps.stopSignal]);
  try {
    const provider = await deps.providers.resolve({ provider: cell.provider, userId: plan.userId });
    const answer = await provider.generate({
      model: cell.model,
      prompt: rendered.text,
      params: cell.params,
      variables: stringValues(cell.variables),
      signal,
    });
    const latencyMs = deps.now() - started;
    const validation = validateOutput(answer.text, detectExpectedOutput(plan.promptText));
    const allWarnings = [...warnings, ...answer.warnings];
    return {
      ...base,
      status: !validation.ok ? "malformed" : allWarnings.length > 0 ? "warning" : "ok",
      inputHash,
      outputRaw: answer.text,
      outputParsed: validation.ok ? validation.parsed : null,
      tokensIn: answer.tokensIn,
      tokensOut: answer.tokensOut,
      tokensEstimated: answer.tokensEstimated,
      latencyMs,
      costUsd: answer.costUsd ?? null,
      finishReason: answer.finishReason,
      errorMessage: validation.ok ? null : validation.reason,
      warnings: allWarnings,
    };
  } catch (caught) {
    const error = asProviderError(caught, { timedOut: timeout.aborted, stopping: deps.stopSignal.aborted, timeoutMs: plan.timeoutMs });
    const latencyMs = deps.now() - started;
    const failure = { ...base, inputHash, latencyMs, errorCode: error.code, errorMessage: error.message, warnings };
    if (error.retryable && cell.attempts < plan.maxAttempts) {
      const delay = retryDelayMs({ attempt: cell.attempts, retryAfterMs: error.retryAfterMs, random: deps.random });
      return { ...failure, status: "queued", retryDelayMs: delay };
    }
    return { ...failure, status: "error" };
  }
}

function asProviderError(
  caught: unknown,
  context: { timedOut: boolean; stopping: boolean; timeoutMs: number },
): ProviderError {
  if (context.timedOut) {
    return new ProviderError({ code: "timeout", message: `No answer within ${context.timeoutMs / 1000} s.`, cause: caught });
  }
  if (isProviderError(caught)) return caught;
  throw caught;
}

function stringValues(variables: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(variables).map(([key, value]) => [key, value == null ? "" : String(value)]));
}
