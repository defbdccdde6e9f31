import type { Estimate, EvalResult, EvalRun, EvalRunConfig } from "@/lib/core/eval/eval-run";
import { clusteredStandardError } from "@/lib/core/eval/stats/clustered-standard-error";

// Figures as the reports print them, shared by Markdown, HTML, JUnit and comparison.md so that
// one run reads the same in each.

/** 0.6667 as "66.7%". */
export function formatPercent(rate: number): string {
  return Number.isFinite(rate) ? `${(rate * 100).toFixed(1)}%` : "n/a";
}

/** A pass rate with its standard error: "66.7% (SE 12.3%)". */
export function formatPassRate(estimate: Estimate): string {
  return `${formatPercent(estimate.value)} (SE ${formatPercent(estimate.standard_error)})`;
}

/** A mean score with its standard error: "0.83 (SE 0.05)". */
export function formatScore(estimate: Estimate): string {
  return `${formatNumber(estimate.value, 2)} (SE ${formatNumber(estimate.standard_error, 2)})`;
}

/** A number with fixed decimals, "n/a" when it is not one. */
export function formatNumber(value: number, decimals: number): string {
  return Number.isFinite(value) ? value.toFixed(decimals) : "n/a";
}

/** Dollars with 4 decimals ("$0.0123"), "n/a" when unpriced. */
export function formatCost(cost: number | null): string {
  return cost === null ? "n/a" : `$${cost.toFixed(4)}`;
}

/** "contains=1.00, response_length=0.00", as the spec's reports list a result's metrics. */
export function formatMetrics(metrics: Record<string, number>): string {
  return Object.entries(metrics)
    .map(([name, score]) => `${name}=${score.toFixed(2)}`)
    .join(", ");
}

/** An ISO time as "YYYY-MM-DD HH:MM:SS" in UTC (the spec's strftime('%Y-%m-%d %H:%M:%S')). */
export function formatDateTime(at: string | Date): string {
  const date = typeof at === "string" ? new Date(at) : at;
  if (Number.isNaN(date.getTime())) return String(at);
  return `${date.toISOString().slice(0, 10)} ${date.toISOString().slice(11, 19)}`;
}

/** A run's pass rate with its standard error clustered by test case (Miller 2024). */
export function passRateEstimate(run: Pick<EvalRun, "results">): Estimate {
  const byCase = new Map<string, number[]>();
  for (const result of run.results) {
    const trials = byCase.get(result.test_case) ?? [];
    trials.push(result.passed ? 1 : 0);
    byCase.set(result.test_case, trials);
  }
  return clusteredStandardError([...byCase.values()]);
}

/** A result's name in lists: the test case, with its trial when the run repeats cases. */
export function resultLabel(result: EvalResult, repeated: boolean): string {
  return repeated ? `${result.test_case} (trial ${result.trial})` : result.test_case;
}

/** True when some result is a second or later trial. */
export function hasTrials(run: Pick<EvalRun, "results">): boolean {
  return run.results.some((result) => result.trial > 1);
}

/**
 * Why a result did not pass: its error, or each metric below its threshold ("contains 0.33 <
 * 0.5"). Empty for a result that passed.
 */
export function failureReasons(result: EvalResult, config: EvalRunConfig): string[] {
  if (result.passed) return [];
  if (result.error) return [result.error];
  const reasons = Object.entries(result.metrics)
    .map(([name, score]) => ({ name, score, threshold: config.metric_thresholds?.[name] ?? config.evaluation_threshold }))
    .filter(({ score, threshold }) => !(score >= threshold))
    .map(({ name, score, threshold }) => `${name} ${formatNumber(score, 2)} < ${threshold}`);
  return reasons.length > 0 ? reasons : ["did not pass"];
}
