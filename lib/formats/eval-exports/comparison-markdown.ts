import { summarizeEvalRun, type EvalRun, type PairedComparison } from "@/lib/core/eval/eval-run";
import { differenceVerdict } from "@/lib/core/eval/stats/difference-verdict";
import { markdownCell, markdownInline } from "@/lib/formats/eval-exports/markdown-text";
import {
  formatCost,
  formatDateTime,
  formatNumber,
  formatPassRate,
  formatScore,
  passRateEstimate,
} from "@/lib/formats/eval-exports/report-text";

/** The file name the spec gives the comparison. */
export const COMPARISON_FILE_NAME = "comparison.md";

/** True when the spec writes comparison.md: more than one EvalRun (two prompts, or one prompt on two models). */
export function needsComparison(runs: readonly EvalRun[]): boolean {
  return runs.length > 1;
}

/**
 * comparison.md, laid out as the spec's: the title, date and number compared, the Summary
 * Comparison table (each run's pass rate with its standard error, latency, tokens and cost), the
 * Test-by-Test Comparison (a column per run, test cases sorted; with trials, passes out of
 * trials), then the Paired Comparisons that lib/core/eval/stats computed: each difference with
 * its 95% interval, "not distinguishable" when the interval covers 0, McNemar's p value and the
 * cases a difference that size would need.
 */
export function comparisonToMarkdown(runs: readonly EvalRun[], comparisons: readonly PairedComparison[], at: Date): string {
  const labels = runLabels(runs);
  const lines = [
    "# Prompt Comparison Report",
    "",
    `**Date:** ${formatDateTime(at)}`,
    `**Prompts Compared:** ${runs.length}`,
    "",
    "## Summary Comparison",
    "",
    "| Prompt | Model | Pass Rate | Avg Latency | Total Tokens | Cost |",
    "|--------|-------|-----------|-------------|--------------|------|",
  ];
  for (const run of runs) {
    const summary = summarizeEvalRun(run);
    lines.push(
      `| ${markdownCell(run.prompt_name)} | ${markdownCell(run.model)} | ${formatPassRate(passRateEstimate(run))} | ${formatNumber(summary.avg_latency_ms, 1)} ms | ${summary.total_tokens} | ${formatCost(summary.cost_usd)} |`,
    );
  }
  lines.push("", "## Test-by-Test Comparison", "");
  const testNames = [...new Set(runs.flatMap((run) => run.results.map((result) => result.test_case)))].sort();
  lines.push(
    `| Test Case | ${labels.map(markdownCell).join(" | ")} |`,
    `|-----------|${labels.map((label) => "-".repeat(Math.max(3, markdownCell(label).length + 2))).join("|")}|`,
  );
  for (const name of testNames) {
    const cells = runs.map((run) => {
      const trials = run.results.filter((result) => result.test_case === name);
      if (trials.length === 0) return "-";
      if (trials.length === 1) return trials[0].passed ? "✅" : "❌";
      const passed = trials.filter((result) => result.passed).length;
      return `${passed === trials.length ? "✅" : "❌"} ${passed}/${trials.length}`;
    });
    lines.push(`| ${markdownCell(name)} | ${cells.join(" | ")} |`);
  }
  lines.push("", "## Paired Comparisons", "");
  if (comparisons.length === 0) {
    lines.push("No two runs share a test case, so none is compared.", "");
  }
  for (const comparison of comparisons) lines.push(...pairedSection(comparison, runs));
  return lines.join("\n");
}

function pairedSection(comparison: PairedComparison, runs: readonly EvalRun[]): string[] {
  const name = (label: PairedComparison["baseline"]) => {
    const run = runs.find((candidate) => candidate.run_id === label.run_id);
    return run ? runLabels(runs)[runs.indexOf(run)] : `${label.prompt_name} (${label.model})`;
  };
  const passRate = comparison.pass_rate;
  const interval = (low: number, high: number, format: (value: number) => string) => `${format(low)} to ${format(high)}`;
  const signedPoints = (value: number) => `${value > 0 ? "+" : ""}${formatNumber(value * 100, 1)} pp`;
  const signedScore = (value: number) => `${value > 0 ? "+" : ""}${formatNumber(value, 3)}`;
  const cases = (value: number | null) => (value === null ? "n/a" : String(value));
  const lines = [
    `### ${markdownInline(name(comparison.candidate))} vs ${markdownInline(name(comparison.baseline))}`,
    "",
    `Differences are ${markdownInline(name(comparison.candidate))} minus ${markdownInline(name(comparison.baseline))} on the ${comparison.paired_cases} test cases both ran, with 95% intervals.`,
    "",
    "| Measure | Baseline | Candidate | Difference | 95% Interval | Verdict | Cases Needed |",
    "|---------|----------|-----------|------------|--------------|---------|--------------|",
    `| Pass rate | ${formatPassRate(passRate.baseline)} | ${formatPassRate(passRate.candidate)} | ${signedPoints(passRate.difference)} | ${interval(passRate.interval.low, passRate.interval.high, signedPoints)} | ${verdictText(passRate.interval, passRate.mcnemar_p_value)} | ${cases(passRate.cases_needed)} |`,
  ];
  for (const score of comparison.scores) {
    lines.push(
      `| ${markdownCell(score.metric)} (mean score) | ${formatScore(score.baseline)} | ${formatScore(score.candidate)} | ${signedScore(score.difference)} | ${interval(score.interval.low, score.interval.high, signedScore)} | ${verdictText(score.interval)} | ${cases(score.cases_needed)} |`,
    );
  }
  lines.push("");
  if (passRate.method === "newcombe") {
    lines.push(
      `- Pass rate: Newcombe's score interval for paired proportions; exact McNemar test p = ${formatNumber(passRate.mcnemar_p_value ?? Number.NaN, 4)} (${passRate.discordant.candidate_only} cases passed only by the candidate, ${passRate.discordant.baseline_only} only by the baseline).`,
    );
  } else {
    lines.push(
      `- Pass rate: paired bootstrap of each case's pass rate over its trials (${passRate.discordant.candidate_only} cases better for the candidate, ${passRate.discordant.baseline_only} for the baseline); standard errors clustered by case.`,
    );
  }
  if (comparison.scores.length > 0) {
    const { resamples, seed } = comparison.scores[0];
    lines.push(`- Scores: paired bootstrap percentile intervals, ${resamples} resamples, seed ${seed}.`);
  }
  lines.push("- Cases needed: test cases a difference of the observed size would need to be found at 80% power and alpha 0.05.", "");
  return lines;
}

function verdictText(interval: { low: number; high: number }, mcnemarP: number | null = null): string {
  const verdict = differenceVerdict(interval, mcnemarP);
  return verdict === "not distinguishable" ? "**not distinguishable**" : verdict;
}

/** Each run's column name: the prompt when the models agree, the model when the prompts do, else both. */
function runLabels(runs: readonly EvalRun[]): string[] {
  const oneModel = new Set(runs.map((run) => run.model)).size === 1;
  const onePrompt = new Set(runs.map((run) => run.prompt_name)).size === 1;
  const labels = runs.map((run) => (oneModel ? run.prompt_name : onePrompt ? run.model : `${run.prompt_name} (${run.model})`));
  // Two runs of the same prompt and model (a rerun) are told apart by their run ids.
  return labels.map((label, index) => (labels.indexOf(label) !== labels.lastIndexOf(label) ? `${label} [${runs[index].run_id}]` : label));
}
