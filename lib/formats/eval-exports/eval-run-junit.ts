import { summarizeEvalRun, type EvalRun } from "@/lib/core/eval/eval-run";
import { htmlText } from "@/lib/formats/eval-exports/html-text";
import { failureReasons, formatPercent, hasTrials, resultLabel } from "@/lib/formats/eval-exports/report-text";

/**
 * JUnit XML for CI (the schema Jenkins, GitLab and GitHub test reporters read): one testsuite per
 * run (prompt and model), one testcase per result named after the test case (and trial), timed
 * by its latency; a result below a threshold is a <failure> whose message names each metric and
 * the threshold it missed, a result with an error is an <error> with the message; the output is
 * the testcase's <system-out>. Several runs go in one <testsuites>.
 */
export function evalRunsToJunit(runs: readonly EvalRun[]): string {
  const summaries = runs.map((run) => summarizeEvalRun(run));
  const errors = (run: EvalRun) => run.results.filter((result) => result.error !== null).length;
  const totalTests = summaries.reduce((sum, summary) => sum + summary.total_tests, 0);
  const totalErrors = runs.reduce((sum, run) => sum + errors(run), 0);
  const totalFailures = summaries.reduce((sum, summary) => sum + summary.failed, 0) - totalErrors;
  const totalTime = runs.reduce((sum, run) => sum + latencySeconds(run), 0);
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="prompt-eval" tests="${totalTests}" failures="${totalFailures}" errors="${totalErrors}" time="${seconds(totalTime)}">`,
  ];
  runs.forEach((run, index) => {
    const summary = summaries[index];
    const repeated = hasTrials(run);
    const className = `${run.prompt_name}.${run.model}`;
    out.push(
      `  <testsuite name="${attribute(`${run.prompt_name} (${run.model})`)}" tests="${summary.total_tests}" failures="${summary.failed - errors(run)}" errors="${errors(run)}" skipped="0" time="${seconds(latencySeconds(run))}" timestamp="${attribute(run.started_at.replace(/Z$/, ""))}">`,
      "    <properties>",
      `      <property name="run_id" value="${attribute(run.run_id)}" />`,
      `      <property name="prompt_name" value="${attribute(run.prompt_name)}" />`,
      `      <property name="model" value="${attribute(run.model)}" />`,
      `      <property name="pass_rate" value="${attribute(formatPercent(summary.pass_rate))}" />`,
      `      <property name="evaluation_threshold" value="${run.config.evaluation_threshold}" />`,
      "    </properties>",
    );
    for (const result of run.results) {
      out.push(
        `    <testcase name="${attribute(resultLabel(result, repeated))}" classname="${attribute(className)}" time="${seconds(result.latency_ms / 1000)}">`,
      );
      if (result.error !== null) {
        out.push(`      <error message="${attribute(result.error)}" type="error">${htmlText(result.error)}</error>`);
      } else if (!result.passed) {
        const reasons = failureReasons(result, run.config);
        out.push(`      <failure message="${attribute(reasons.join("; "))}" type="threshold">${htmlText(reasons.join("\n"))}</failure>`);
      }
      if (result.output !== "") out.push(`      <system-out>${htmlText(result.output)}</system-out>`);
      out.push("    </testcase>");
    }
    out.push("  </testsuite>");
  });
  out.push("</testsuites>", "");
  return out.join("\n");
}

function latencySeconds(run: EvalRun): number {
  return run.results.reduce((sum, result) => sum + result.latency_ms, 0) / 1000;
}

function seconds(value: number): string {
  return Number.isFinite(value) ? value.toFixed(3) : "0.000";
}

/** An attribute value: escaped, and its line breaks and tabs as character references, which
 * XML's attribute normalisation would otherwise turn into spaces. */
function attribute(text: string): string {
  return htmlText(text).replaceAll("\n", "&#10;").replaceAll("\r", "&#13;").replaceAll("\t", "&#9;");
}
