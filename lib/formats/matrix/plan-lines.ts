/**
 * The pre-run display of a matrix (specs/matrix-comparisons.md: "Display pre-batch summary
 * (estimated cost, total runs)"): what runs, how many evals, the estimated tokens and cost per
 * model and in all. The >100 question is lib/core/matrix/plan-matrix.ts's confirmationQuestion.
 *
 *   Prompts: v1, v2
 *   Models: llama-3.3-70b, mixtral
 *   Inputs: tech-talk-01, interview-02, tutorial-03
 *   Evals: 12 (2 prompts x 2 models x 3 inputs)
 *   Estimated tokens: 150,000 input / 12,000 output
 *     llama-3.3-70b: 6 evals, 75,000 input / 6,000 output tokens, $0.0517
 *     mixtral: 6 evals, 75,000 input / 6,000 output tokens, unknown (no price)
 *   Estimated cost: $0.0517 (not counting 1 unpriced model: mixtral)
 */
import { estimatedCostText, type EstimateTotals, type ModelEstimate } from "@/lib/core/matrix/plan-matrix";
import { costText, tokensText } from "@/lib/formats/matrix/number-text";

/** The plan's lines, without newlines. */
export function planLines({
  prompts,
  models,
  inputs,
  perModel,
  totals,
}: {
  prompts: readonly string[];
  models: readonly string[];
  inputs: readonly string[];
  perModel: readonly ModelEstimate[];
  totals: EstimateTotals;
}): string[] {
  const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;
  return [
    `Prompts: ${prompts.join(", ")}`,
    `Models: ${models.join(", ")}`,
    `Inputs: ${inputs.join(", ")}`,
    `Evals: ${totals.evals} (${count(prompts.length, "prompt")} x ${count(models.length, "model")} x ${count(inputs.length, "input")})`,
    `Estimated tokens: ${tokensText(totals.inputTokens)} input / ${tokensText(totals.outputTokens)} output`,
    ...perModel.map(
      (estimate) =>
        `  ${estimate.model}: ${count(estimate.evals, "eval")}, ${tokensText(estimate.inputTokens)} input / ${tokensText(estimate.outputTokens)} output tokens, ${
          estimate.costUsd === null ? "unknown (no price)" : costText(estimate.costUsd)
        }`,
    ),
    `Estimated cost: ${estimatedCostText(totals)}`,
  ];
}
