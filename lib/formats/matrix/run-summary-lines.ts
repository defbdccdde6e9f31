/**
 * The post-run display of a batch (specs/matrix-comparisons.md: "Display post-batch summary
 * (actual cost, success/failure counts)"), from its summary.json:
 *
 *   Batch 20251227_143500_matrix: 11/12 evals succeeded, 1 failed in 45.2s
 *   Tokens: 150,000 input / 10,500 output
 *   Actual cost: $0.1234
 *
 * When every eval failed, the spec's own line comes first: "0/12 evals succeeded. Check batch
 * summary for errors". The cost says how many runs it leaves out for want of a price, and is
 * "unknown" when no run had one.
 */
import type { BatchSummaryDocument } from "@/lib/formats/matrix/summary-json";
import { costText, durationText, tokensText } from "@/lib/formats/matrix/number-text";

/** The spec's line for a batch in which every eval failed. */
export function allFailedLine(totalRuns: number): string {
  return `0/${totalRuns} evals succeeded. Check batch summary for errors`;
}

/** The lines after a batch, without newlines. */
export function runSummaryLines(summary: BatchSummaryDocument): string[] {
  if (summary.total_runs === 0) return [`Batch ${summary.batch_id}: no evals ran`];
  const unpricedNote =
    summary.unpriced_runs > 0 && summary.total_cost_usd !== null
      ? ` (not counting ${summary.unpriced_runs} unpriced run${summary.unpriced_runs === 1 ? "" : "s"}: ${summary.unpriced_models.join(", ")})`
      : "";
  const lines = [
    `Batch ${summary.batch_id}: ${summary.successful_runs}/${summary.total_runs} evals succeeded, ${summary.failed_runs} failed in ${durationText(summary.duration_seconds)}`,
    `Tokens: ${tokensText(summary.total_tokens_input)} input / ${tokensText(summary.total_tokens_output)} output`,
    `Actual cost: ${costText(summary.total_cost_usd)}${unpricedNote}`,
  ];
  return summary.successful_runs === 0 ? [allFailedLine(summary.total_runs), ...lines] : lines;
}
