import { summarizeEvalRun, type EvalRun } from "@/lib/core/eval/eval-run";
import { codeBlock, markdownCell, markdownInline } from "@/lib/formats/eval-exports/markdown-text";
import {
  formatCost,
  formatDateTime,
  formatMetrics,
  formatNumber,
  formatPassRate,
  hasTrials,
  passRateEstimate,
  resultLabel,
} from "@/lib/formats/eval-exports/report-text";

/**
 * The Markdown report, laid out as the spec's: a heading with the prompt, run id, model and date,
 * the Summary table (the pass rate with its standard error, and the cost), the Results table (one
 * row per result) and Test Details (system prompt, input and output in code blocks, so a model's
 * output is shown as text, the metrics and any error).
 */
export function evalRunToMarkdown(run: EvalRun): string {
  const summary = summarizeEvalRun(run);
  const repeated = hasTrials(run);
  const lines = [
    `# Evaluation Report: ${markdownInline(run.prompt_name)}`,
    "",
    `**Run ID:** ${markdownInline(run.run_id)}`,
    `**Model:** ${markdownInline(run.model)}`,
    `**Date:** ${formatDateTime(run.started_at)}`,
    "",
    "## Summary",
    "",
    "| Metric | Value |",
    "|--------|-------|",
    `| Total Tests | ${summary.total_tests} |`,
    `| Passed | ${summary.passed} |`,
    `| Failed | ${summary.failed} |`,
    `| Pass Rate | ${formatPassRate(passRateEstimate(run))} |`,
    `| Avg Latency | ${formatNumber(summary.avg_latency_ms, 1)} ms |`,
    `| Total Tokens | ${summary.total_tokens} |`,
    `| Cost | ${formatCost(summary.cost_usd)} |`,
    "",
    "## Results",
    "",
    "| Test Case | Passed | Latency (ms) | Metrics |",
    "|-----------|--------|--------------|---------|",
  ];
  for (const result of run.results) {
    const status = result.passed ? "✅" : "❌";
    lines.push(
      `| ${markdownCell(resultLabel(result, repeated))} | ${status} | ${formatNumber(result.latency_ms, 0)} | ${markdownCell(formatMetrics(result.metrics))} |`,
    );
  }
  lines.push("", "## Test Details", "");
  for (const result of run.results) {
    lines.push(
      `### ${markdownInline(resultLabel(result, repeated))} ${result.passed ? "✅" : "❌"}`,
      "",
      "**System Prompt:**",
      ...codeBlock(result.system_prompt),
      "",
      "**Input:**",
      ...codeBlock(result.input_text),
      "",
      "**Output:**",
      ...codeBlock(result.output),
      "",
      `**Metrics:** ${markdownInline(formatMetrics(result.metrics))}`,
      "",
    );
    if (result.error) lines.push(`**Error:** ${markdownInline(result.error)}`, "");
  }
  return lines.join("\n");
}
