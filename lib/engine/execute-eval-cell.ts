import { retryDelayMs } from "@/lib/core/backoff";
import { cacheKey, hashText } from "@/lib/core/cache-key";
import { computeCost } from "@/lib/core/cost";
import { judgePrompt, mockJudgeAnswer, parseJudgeAnswer, scoreLocalMetric, type MetricConfig } from "@/lib/core/eval/metrics";
import { MOCK_PROVIDER } from "@/lib/core/eval/model-route";
import { judgeResult } from "@/lib/core/eval/pass-rule";
import { estimateTokens } from "@/lib/core/tokens";
import type { ClaimedCell } from "@/lib/db/cells/claim-cells";
import type { CellResult } from "@/lib/db/cells/save-cell-results";
import type { EvalPlan, EvalRoute, EvalTestCaseRow } from "@/lib/db/evals/eval-plan";
import { priceKey, type RunSettings } from "@/lib/db/runs/load-run-settings";
import { isProviderError, ProviderError } from "@/lib/providers/provider-error";
import type { ExecuteCellDeps } from "./execute-cell";
import type { PreparedCell } from "./prepare-cell";

/** What an eval cell stores in run_cells.metric_scores: each metric's score, and the pass rule's verdict. */
export interface EvalCellScores {
  /** Score from 0 to 1 by metric name; a metric that could not score (a judge unread) is absent. */
  scores: Record<string, number>;
  passed: boolean;
  /** The metrics below their threshold or without a score, in config order. */
  failing: string[];
}

// A judge explains in a few sentences and ends with its score line; this is room enough.
const JUDGE_MAX_TOKENS = 1024;

/** The test case a claimed eval cell's row holds (create-eval.ts stored it), and its prompt's rendered input. */
function evalCell(settings: RunSettings, cell: ClaimedCell) {
  const testCase = cell.variables as unknown as EvalTestCaseRow;
  const prompt = settings.evalPlan?.prompts[cell.variant] ?? null;
  const rendered = testCase.rendered?.[cell.variant] ?? { error: "This cell's prompt is not in the eval's config." };
  // The mock model takes none of these and would warn of each; every vendor takes all three.
  const params = cell.provider === MOCK_PROVIDER ? {} : { ...cell.params, ...(prompt?.system != null ? { system: prompt.system } : {}) };
  return { testCase, prompt, rendered, params };
}

/**
 * An eval cell as the engine sends it: the input create-eval.ts rendered for this prompt and
 * test case, and a cache key over the provider, model, parameters (max_tokens, temperature, the
 * prompt's system text), input and trial, so each trial of `repeat` is a call of its own.
 */
export function prepareEvalCell(settings: RunSettings, cell: ClaimedCell): PreparedCell {
  const { testCase, rendered, params } = evalCell(settings, cell);
  const input = "input" in rendered ? rendered.input : "";
  return {
    cell,
    input,
    missing: [],
    variables: testCase.inputs ?? {},
    inputHash: hashText(JSON.stringify({ system: params.system ?? null, input })),
    cacheKey:
      settings.cache && "input" in rendered
        ? cacheKey({ provider: cell.provider, model: cell.model, params, input, trial: cell.trial })
        : null,
  };
}

/**
 * Executes one cell of an eval run (specs/eval-config.md): the prompt's system text and rendered
 * template sent with max_tokens and temperature (or the cached answer), then every metric scored
 * (contains, response_length and exact_match here; llm_judge by a call to its judge model, the
 * metric's own else the cell's, whose answer must end in `SCORE: <0 to 1>`; a mock judge answers
 * with mockJudgeAnswer, without a key) and the pass rule applied. A test case whose template
 * could not render is an error without a call, and the run goes on. The judges' tokens and cost
 * are the cell's grader figures, so they count in every total and budget.
 */
export async function executeEvalCell(
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
  const plan = settings.evalPlan ?? null;
  const { testCase, rendered, params } = evalCell(settings, cell);
  const base = { id: cell.id, runId: cell.runId, inputHash: prepared.inputHash, provider: cell.provider, model: cell.model };
  const metricNames = plan?.metrics.map((metric) => metric.name) ?? [];
  const failed = (message: string, code: string) => ({
    ...base,
    status: "error" as const,
    errorCode: code,
    errorMessage: message,
    metricScores: { scores: {}, passed: false, failing: metricNames } satisfies EvalCellScores,
  });
  if (!plan) return failed("This run has no eval config.", "bad_request");
  if ("error" in rendered) return { ...failed(rendered.error, "bad_request"), outputRaw: "", tokensIn: 0, tokensOut: 0, latencyMs: 0 };

  let answer: { text: string; tokensIn: number | null; tokensOut: number | null; tokensEstimated: boolean; finishReason: string | null };
  let generated: Pick<CellResult, "latencyMs" | "costUsd" | "cached" | "cacheKey" | "cacheTtlSeconds">;
  let warnings: string[] = [];
  if (hit && !cell.bypassCache) {
    answer = { text: hit.outputRaw, ...hit };
    generated = { latencyMs: hit.latencyMs, costUsd: 0, cached: true };
  } else {
    if (cell.attempts > settings.maxAttempts) return failed(`Gave up after ${settings.maxAttempts} attempts.`, "server");
    const started = deps.now();
    const timeout = AbortSignal.timeout(settings.timeoutMs);
    try {
      const provider = await deps.providers.resolve({ provider: cell.provider, userId: settings.userId });
      const result = await provider.generate({
        model: cell.model,
        prompt: rendered.input,
        params,
        variables: prepared.variables,
        signal: AbortSignal.any([timeout, deps.stopSignal]),
      });
      const price = settings.prices.get(priceKey(cell.provider, cell.model)) ?? null;
      answer = result;
      warnings = [...result.warnings];
      generated = {
        latencyMs: deps.now() - started,
        costUsd: result.costUsd ?? computeCost({ tokensIn: result.tokensIn, tokensOut: result.tokensOut, price }),
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
      return { ...failed(`${error.code}: ${error.message}`, error.code), latencyMs, outputRaw: "", tokensIn: 0, tokensOut: 0 };
    }
  }

  const output = answer.text;
  const scores: Record<string, number> = {};
  const judged = await judge(deps, settings, plan, cell, { input: rendered.input, output });
  for (const metric of plan.metrics) {
    if (metric.type !== "llm_judge") scores[metric.name] = scoreLocalMetric(metric, output, testCase);
    else if (judged.scores[metric.name] !== undefined) scores[metric.name] = judged.scores[metric.name];
  }
  const verdict = judgeResult({ metrics: scores, error: null }, plan.metrics, plan.evaluation_threshold);
  warnings.push(...judged.errors);
  return {
    ...base,
    ...generated,
    ...judged.grader,
    status: warnings.length > 0 ? "warning" : "ok",
    outputRaw: output,
    tokensIn: answer.tokensIn,
    tokensOut: answer.tokensOut,
    tokensEstimated: answer.tokensEstimated,
    finishReason: answer.finishReason,
    warnings,
    metricScores: { scores, passed: verdict.passed, failing: verdict.failing } satisfies EvalCellScores,
  };
}

/**
 * Asks each llm_judge metric's judge for its score of output, one call per metric. The judges'
 * answers (their reasoning) are the cell's grader output, their tokens and cost summed; a judge
 * that fails or answers without a readable score leaves its metric unscored (so the result does
 * not pass) and says why.
 */
async function judge(
  deps: ExecuteCellDeps,
  settings: RunSettings,
  plan: EvalPlan,
  cell: ClaimedCell,
  graded: { input: string; output: string },
): Promise<{ scores: Record<string, number>; errors: string[]; grader: Partial<CellResult> }> {
  const metrics = plan.metrics.filter((metric): metric is Extract<MetricConfig, { type: "llm_judge" }> => metric.type === "llm_judge");
  const scores: Record<string, number> = {};
  const errors: string[] = [];
  if (metrics.length === 0) return { scores, errors, grader: {} };
  const answers: string[] = [];
  let tokensIn = 0;
  let tokensOut = 0;
  let cost: number | null = 0;
  let status: "ok" | "error" | "malformed" = "ok";
  for (const metric of metrics) {
    const target: EvalRoute = plan.judges[metric.name] ?? { provider: cell.provider, model: cell.model };
    const label = metrics.length > 1 ? `[${metric.name}]\n` : "";
    let text: string;
    if (target.provider === MOCK_PROVIDER) {
      text = mockJudgeAnswer({ model: target.model, criteria: metric.criteria, ...graded });
      tokensIn += estimateTokens(judgePrompt({ criteria: metric.criteria, ...graded }));
      tokensOut += estimateTokens(text);
    } else {
      const timeout = AbortSignal.timeout(settings.timeoutMs);
      try {
        const provider = await deps.providers.resolve({ provider: target.provider, userId: settings.userId });
        const answer = await provider.generate({
          model: target.model,
          prompt: judgePrompt({ criteria: metric.criteria, ...graded }),
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
        status = "error";
        continue;
      }
    }
    answers.push(`${label}${text}`);
    const verdict = parseJudgeAnswer(text);
    if (verdict.ok) scores[metric.name] = verdict.score;
    else {
      errors.push(`${metric.name}: ${verdict.error}`);
      if (status === "ok") status = "malformed";
    }
  }
  return {
    scores,
    errors,
    grader: {
      graderStatus: status,
      graderOutputRaw: answers.join("\n\n"),
      graderTokensIn: tokensIn,
      graderTokensOut: tokensOut,
      graderCostUsd: cost,
      graderError: errors.length > 0 ? errors.join("\n") : null,
    },
  };
}

function asProviderError(caught: unknown, context: { timedOut: boolean; timeoutMs: number }): ProviderError {
  if (context.timedOut) {
    return new ProviderError({ code: "timeout", message: `No answer within ${context.timeoutMs / 1000} s.`, cause: caught });
  }
  if (isProviderError(caught)) return caught;
  throw caught;
}
