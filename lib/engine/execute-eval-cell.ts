import { cacheKey, hashText } from "@/lib/core/cache-key";
import { scoreLocalMetric } from "@/lib/core/eval/metrics";
import { MOCK_PROVIDER } from "@/lib/core/eval/model-route";
import { judgeResult } from "@/lib/core/eval/pass-rule";
import type { ClaimedCell } from "@/lib/db/cells/claim-cells";
import type { CellResult } from "@/lib/db/cells/save-cell-results";
import type { EvalTestCaseRow } from "@/lib/db/evals/eval-plan";
import type { RunSettings } from "@/lib/db/runs/load-run-settings";
import { callModel } from "./call-model";
import type { ExecuteCellDeps } from "./execute-cell";
import { judgeMetrics, judgeOutput } from "./judge-output";
import type { PreparedCell } from "./prepare-cell";

/** What an eval cell stores in run_cells.metric_scores: each metric's score, and the pass rule's verdict. */
export interface EvalCellScores {
  /** Score from 0 to 1 by metric name; a metric that could not score (a judge unread) is absent. */
  scores: Record<string, number>;
  passed: boolean;
  /** The metrics below their threshold or without a score, in config order. */
  failing: string[];
}

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
    const call = await callModel(deps, settings, { cell, prompt: rendered.input, params, variables: prepared.variables });
    if (!call.ok) {
      const { error, latencyMs } = call;
      if (call.retryDelayMs !== null) {
        return {
          ...base,
          status: "queued",
          retryDelayMs: call.retryDelayMs,
          latencyMs,
          errorCode: error.code,
          errorMessage: error.message,
        };
      }
      return { ...failed(`${error.code}: ${error.message}`, error.code), latencyMs, outputRaw: "", tokensIn: 0, tokensOut: 0 };
    }
    answer = call.answer;
    warnings = [...call.answer.warnings];
    generated = { latencyMs: call.latencyMs, costUsd: call.costUsd, cacheKey: prepared.cacheKey, cacheTtlSeconds: deps.cacheTtlSeconds };
  }

  const output = answer.text;
  const scores: Record<string, number> = {};
  const judges = judgeMetrics(plan.metrics);
  const judged = await judgeOutput(deps, settings, {
    metrics: judges,
    judges: plan.judges,
    cell,
    graded: { input: rendered.input, output },
    label: judges.length > 1,
  });
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
