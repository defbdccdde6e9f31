import { retryDelayMs } from "@/lib/core/backoff";
import { cacheKey, hashText } from "@/lib/core/cache-key";
import { computeCost } from "@/lib/core/cost";
import { detectExpectedOutput, validateOutput } from "@/lib/core/expected-output";
import { EVAL_DEFAULTS } from "@/lib/core/eval/config";
import { judgePrompt, mockJudgeAnswer, parseJudgeAnswer, scoreLocalMetric } from "@/lib/core/eval/metrics";
import { judgeResult } from "@/lib/core/eval/pass-rule";
import { parseGrade } from "@/lib/core/parse-grade";
import { estimateTokens } from "@/lib/core/tokens";
import { renderTemplate } from "@/lib/core/template";
import { MOCK_PROVIDER } from "@/lib/core/eval/model-route";
import type { ClaimedCell } from "@/lib/db/cells/claim-cells";
import type { CellResult } from "@/lib/db/cells/save-cell-results";
import type { MatrixInputRow, MatrixMetrics } from "@/lib/db/matrix/matrix-plan";
import { priceKey, type RunSettings } from "@/lib/db/runs/load-run-settings";
import { isProviderError, ProviderError } from "@/lib/providers/provider-error";
import type { ExecuteCellDeps } from "./execute-cell";
import type { PreparedCell } from "./prepare-cell";

/** The input a claimed matrix cell's row holds (create-matrix.ts stored it), and its prompt version's rendered prompt. */
function matrixCell(cell: ClaimedCell) {
  const row = cell.variables as unknown as MatrixInputRow;
  const rendered = row.rendered?.[cell.variant] ?? null;
  // The mock model takes no system text and would warn of it; every vendor takes it.
  const params = cell.provider === MOCK_PROVIDER || !rendered?.system ? { ...cell.params } : { ...cell.params, system: rendered.system };
  return { row, rendered, params };
}

/**
 * A matrix cell as the engine sends it: the prompt create-matrix.ts rendered for this prompt
 * version and input (every placeholder filled, or the matrix was refused), and a cache key over
 * the provider, model, parameters (the version's system text among them) and that prompt.
 */
export function prepareMatrixCell(settings: RunSettings, cell: ClaimedCell): PreparedCell {
  const { row, rendered, params } = matrixCell(cell);
  const input = rendered?.input ?? "";
  return {
    cell,
    input,
    missing: [],
    variables: { input_id: row.id ?? "" },
    inputHash: hashText(JSON.stringify({ system: rendered?.system ?? null, input })),
    cacheKey:
      settings.cache && rendered ? cacheKey({ provider: cell.provider, model: cell.model, params, input, trial: cell.trial }) : null,
  };
}

/**
 * Executes one eval of a matrix (specs/matrix-comparisons.md): the rendered prompt sent (with the
 * version's system text), or the cached answer; output, tokens, cost and duration kept. The spec's
 * rule "log error, save error metadata, continue with remaining evals": a failed call is an error
 * in its cell with its message, after the engine's retries of a retryable one, and the batch goes
 * on. A model without a price has a null cost (unknown, never $0).
 */
export async function executeMatrixCell(
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
  const { rendered, params } = matrixCell(cell);
  const base = { id: cell.id, runId: cell.runId, inputHash: prepared.inputHash, provider: cell.provider, model: cell.model };
  if (!rendered) {
    return { ...base, status: "error", errorCode: "bad_request", errorMessage: "This eval's prompt version is not in the matrix." };
  }
  if (hit && !cell.bypassCache) {
    // A hit costs nothing now; its original tokens and duration stay for comparison.
    return {
      ...base,
      ...(await gradeMatrixCell(deps, settings, cell, { input: rendered.input, output: hit.outputRaw })),
      status: "ok",
      outputRaw: hit.outputRaw,
      tokensIn: hit.tokensIn,
      tokensOut: hit.tokensOut,
      tokensEstimated: hit.tokensEstimated,
      latencyMs: hit.latencyMs,
      costUsd: 0,
      finishReason: hit.finishReason,
      cached: true,
    };
  }
  if (cell.attempts > settings.maxAttempts) {
    // Claimed again after its worker vanished one time too many (lease expiries count as attempts).
    return { ...base, status: "error", errorCode: "server", errorMessage: `Gave up after ${settings.maxAttempts} attempts.` };
  }

  const started = deps.now();
  const timeout = AbortSignal.timeout(settings.timeoutMs);
  try {
    const provider = await deps.providers.resolve({ provider: cell.provider, userId: settings.userId });
    const answer = await provider.generate({
      model: cell.model,
      prompt: rendered.input,
      params,
      variables: prepared.variables,
      signal: AbortSignal.any([timeout, deps.stopSignal]),
    });
    const price = settings.prices.get(priceKey(cell.provider, cell.model)) ?? null;
    const warnings = [...answer.warnings];
    const latencyMs = deps.now() - started;
    return {
      ...base,
      ...(await gradeMatrixCell(deps, settings, cell, { input: rendered.input, output: answer.text })),
      status: warnings.length > 0 ? "warning" : "ok",
      outputRaw: answer.text,
      tokensIn: answer.tokensIn,
      tokensOut: answer.tokensOut,
      tokensEstimated: answer.tokensEstimated,
      latencyMs,
      // The provider's own figure (OpenRouter reports one) wins over our arithmetic.
      costUsd: answer.costUsd ?? computeCost({ tokensIn: answer.tokensIn, tokensOut: answer.tokensOut, price }),
      finishReason: answer.finishReason,
      warnings,
      cacheKey: prepared.cacheKey,
      cacheTtlSeconds: deps.cacheTtlSeconds,
    };
  } catch (caught) {
    const error = asProviderError(caught, { timedOut: timeout.aborted, timeoutMs: settings.timeoutMs });
    const latencyMs = deps.now() - started;
    if (error.retryable && cell.attempts < settings.maxAttempts) {
      const delay = retryDelayMs({ attempt: cell.attempts, retryAfterMs: error.retryAfterMs, random: deps.random });
      return { ...base, status: "queued", retryDelayMs: delay, latencyMs, errorCode: error.code, errorMessage: error.message };
    }
    return {
      ...base,
      status: "error",
      latencyMs,
      // No tokens: the provider counted none, and a failed eval is not an unpriced one.
      errorCode: error.code,
      errorMessage: error.message,
    };
  }
}

function asProviderError(caught: unknown, context: { timedOut: boolean; timeoutMs: number }): ProviderError {
  if (context.timedOut) {
    return new ProviderError({ code: "timeout", message: `No answer within ${context.timeoutMs / 1000} s.`, cause: caught });
  }
  if (isProviderError(caught)) return caught;
  throw caught;
}

/** The grader's part of a cell result, and the metrics' scores. */
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
  | "metricScores"
>;

/**
 * Grades one answer with the matrix's grader, when it has one: the grader prompt filled with the
 * answer as {{output}} and the input as {{input}} (also {{transcript}}) and {{input_id}}, sent to
 * the grader's model or else the eval's own, its grade read from 0 to 1 (or pass / fail). A
 * grader that fails or answers without a grade is recorded on the cell; the answer, already paid
 * for, is never asked for again. Its tokens and cost are the cell's grader figures, so they count
 * in every total and in the budget.
 */
async function gradeMatrixCell(
  deps: ExecuteCellDeps,
  settings: RunSettings,
  cell: ClaimedCell,
  { input, output }: { input: string; output: string },
): Promise<Graded> {
  const row = cell.variables as unknown as MatrixInputRow;
  if (row.metrics) return scoreMatrixMetrics(deps, settings, cell, row.metrics, { input, output });
  if (!settings.graderText) return {};
  const target = settings.graderModel ?? { provider: cell.provider, model: cell.model };
  const variables = { output, input: row.text ?? "", transcript: row.text ?? "", input_id: row.id ?? "" };
  const prompt = renderTemplate(settings.graderText, variables).text;
  const timeout = AbortSignal.timeout(settings.timeoutMs);
  try {
    const provider = await deps.providers.resolve({ provider: target.provider, userId: settings.userId });
    const answer = await provider.generate({
      model: target.model,
      prompt,
      params: {},
      variables: { input_id: variables.input_id, output },
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

// A judge explains in a few sentences and ends with its score line; as the eval cells allow.
const JUDGE_MAX_TOKENS = 1024;

/**
 * Scores one answer by the matrix's metrics as an eval cell is scored (specs/eval-config.md):
 * response_length here, each llm_judge by a call to its judge (its own model, else the eval's;
 * a mock judge answers with mockJudgeAnswer, keyless), whose answer ends in `SCORE: <0 to 1>`;
 * then the pass rule with the eval spec's default threshold. The judges' answers, tokens and cost
 * are the cell's grader figures; a judge that fails or gives no score leaves its metric unscored
 * (so the output does not pass) and says why.
 */
async function scoreMatrixMetrics(
  deps: ExecuteCellDeps,
  settings: RunSettings,
  cell: ClaimedCell,
  metrics: MatrixMetrics,
  graded: { input: string; output: string },
): Promise<Graded> {
  const scores: Record<string, number> = {};
  const answers: string[] = [];
  const errors: string[] = [];
  let tokensIn = 0;
  let tokensOut = 0;
  let cost: number | null = 0;
  let judged = false;
  for (const metric of metrics.configs) {
    if (metric.type !== "llm_judge") {
      scores[metric.name] = scoreLocalMetric(metric, graded.output, NO_EXPECTED_OUTPUT);
      continue;
    }
    judged = true;
    const target = metrics.judges[metric.name] ?? { provider: cell.provider, model: cell.model };
    const prompt = judgePrompt({ criteria: metric.criteria, ...graded });
    let text: string;
    if (target.provider === MOCK_PROVIDER) {
      text = mockJudgeAnswer({ model: target.model, criteria: metric.criteria, ...graded });
      tokensIn += estimateTokens(prompt);
      tokensOut += estimateTokens(text);
    } else {
      const timeout = AbortSignal.timeout(settings.timeoutMs);
      try {
        const provider = await deps.providers.resolve({ provider: target.provider, userId: settings.userId });
        const answer = await provider.generate({
          model: target.model,
          prompt,
          params: { temperature: 0, maxTokens: JUDGE_MAX_TOKENS },
          variables: {},
          purpose: "grade",
          signal: AbortSignal.any([timeout, deps.stopSignal]),
        });
        text = answer.text;
        tokensIn += answer.tokensIn ?? 0;
        tokensOut += answer.tokensOut ?? 0;
        const price = settings.prices.get(priceKey(target.provider, target.model)) ?? null;
        const spent = answer.costUsd ?? computeCost({ tokensIn: answer.tokensIn, tokensOut: answer.tokensOut, price });
        cost = cost === null || spent === null ? null : cost + spent;
      } catch (caught) {
        const error = asProviderError(caught, { timedOut: timeout.aborted, timeoutMs: settings.timeoutMs });
        errors.push(`${metric.name}: the judge ${target.provider}/${target.model} failed (${error.code}: ${error.message})`);
        continue;
      }
    }
    answers.push(metrics.configs.length > 1 ? `[${metric.name}]\n${text}` : text);
    const verdict = parseJudgeAnswer(text);
    if (verdict.ok) scores[metric.name] = verdict.score;
    else errors.push(`${metric.name}: ${verdict.error}`);
  }
  const verdict = judgeResult({ metrics: scores, error: null }, metrics.configs, EVAL_DEFAULTS.evaluation_threshold);
  return {
    metricScores: { scores, passed: verdict.passed, failing: verdict.failing },
    ...(judged
      ? {
          graderStatus: errors.length === 0 ? "ok" : "error",
          graderOutputRaw: answers.join("\n\n"),
          graderTokensIn: tokensIn,
          graderTokensOut: tokensOut,
          graderCostUsd: cost,
          graderError: errors.length > 0 ? errors.join("\n") : null,
        }
      : {}),
  };
}

/** A matrix's inputs have no expected output: only the metrics that need none are allowed (lib/api/matrix.ts). */
const NO_EXPECTED_OUTPUT = { expected_contains: [], expected_not_contains: [], expected_output: null };
