// What grading a matrix's evals costs before it runs, so the engine's budget reserves it with
// each eval (the grader's and judges' calls are the cell's grader figures once made, and count
// in what the run spent). Pure: the caller gives the prices.
import { computeCost, type Price } from "@/lib/core/cost";
import { judgePrompt } from "@/lib/core/eval/metrics";
import { MOCK_PROVIDER } from "@/lib/core/eval/model-route";
import { DEFAULT_ESTIMATED_OUTPUT_TOKENS, type MatrixTask } from "@/lib/core/matrix/plan-matrix";
import { estimateTokens } from "@/lib/core/tokens";

/** A model a grading call goes to. */
export type GradingTarget = { provider: string; model: string };

/** How a matrix grades: a grader prompt (its model, or null for each eval's own), or llm_judge metrics (each judge's model, or null). */
export type MatrixGradingPlan =
  | { by: "grader"; text: string; model: GradingTarget | null }
  | { by: "metrics"; judges: Array<{ criteria: string; model: GradingTarget | null }> };

// A judge is sent with max_tokens 1,024 (lib/engine/judge-output.ts): its answer is at most that.
const JUDGE_OUTPUT_TOKENS = 1_024;
// A grader prompt's answer has no cap; the plan assumes of it what it assumes of an eval's (1,000).
const GRADER_OUTPUT_TOKENS = DEFAULT_ESTIMATED_OUTPUT_TOKENS;

/**
 * The estimated cost of grading one eval: each call's input is its prompt (the grader's template
 * with the input's text for each {{input}} or {{transcript}}, or the judge's prompt with the
 * eval's rendered prompt) plus the eval's estimated answer as {{output}}; its output the cap or
 * assumption above. A mock judge makes no call and costs 0. Null when a call's model has no price.
 */
export function gradingCostOfEval({
  grading,
  task,
  inputText,
  priceOf,
}: {
  grading: MatrixGradingPlan;
  task: Pick<MatrixTask, "prompt" | "estimatedOutputTokens"> & { model: GradingTarget };
  inputText: string;
  priceOf: (target: GradingTarget) => Price | null;
}): number | null {
  const answer = task.estimatedOutputTokens;
  if (grading.by === "grader") {
    const places = grading.text.match(/\{\{\s*(?:input|transcript)\s*\}\}/g)?.length ?? 0;
    const tokensIn = estimateTokens(grading.text) + places * estimateTokens(inputText) + answer;
    const target = grading.model ?? task.model;
    return computeCost({ tokensIn, tokensOut: GRADER_OUTPUT_TOKENS, price: priceOf(target) });
  }
  let total: number | null = 0;
  for (const judge of grading.judges) {
    const target = judge.model ?? task.model;
    if (target.provider === MOCK_PROVIDER) continue;
    const tokensIn = estimateTokens(judgePrompt({ criteria: judge.criteria, input: task.prompt, output: "" })) + answer;
    const cost = computeCost({ tokensIn, tokensOut: JUDGE_OUTPUT_TOKENS, price: priceOf(target) });
    total = total === null || cost === null ? null : total + cost;
  }
  return total;
}
