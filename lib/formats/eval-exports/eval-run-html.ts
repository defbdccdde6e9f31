import { summarizeEvalRun, type EvalRun } from "@/lib/core/eval/eval-run";
import { htmlText } from "@/lib/formats/eval-exports/html-text";
import {
  failureReasons,
  formatCost,
  formatDateTime,
  formatMetrics,
  formatNumber,
  formatPercent,
  hasTrials,
  passRateEstimate,
  resultLabel,
} from "@/lib/formats/eval-exports/report-text";

/**
 * A chart for the report: SVG markup made by the project's own chart code, every text in it
 * escaped there. It is placed as it is, so never pass text a model or a config wrote.
 */
export type ReportChart = { title: string; svg: string };

/** What the HTML report shows besides the run. */
export type EvalHtmlOptions = {
  /** Charts for the charts section; none leaves only its marker comment. */
  charts?: ReportChart[];
};

// The spec's report styles, plus a printable width and visible focus. No script, no external
// file: the report opens from disk, offline, in any browser.
const STYLE = `
    body { font-family: -apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, sans-serif; margin: 40px; color: #1f2937; }
    h1 { color: #333; }
    .summary { background: #f5f5f5; padding: 20px; border-radius: 8px; margin: 20px 0; }
    .summary-grid { display: grid; grid-template-columns: repeat(4, 1fr); gap: 20px; }
    .metric { text-align: center; }
    .metric-value { font-size: 2em; font-weight: bold; color: #1d4ed8; }
    .metric-detail { color: #4b5563; }
    .metric-label { color: #4b5563; }
    table { width: 100%; border-collapse: collapse; margin: 20px 0; }
    th, td { padding: 12px; text-align: left; border-bottom: 1px solid #ddd; vertical-align: top; }
    th { background: #f9fafb; }
    .pass { color: #15803d; }
    .fail { color: #b91c1c; }
    .details { background: #fefefe; border: 1px solid #e5e7eb; padding: 15px; margin: 10px 0; border-radius: 4px; }
    pre { background: #f3f4f6; padding: 10px; border-radius: 4px; white-space: pre-wrap; word-wrap: break-word; overflow-wrap: break-word; }
    .charts figure { margin: 20px 0; }
    .charts svg { max-width: 100%; height: auto; }
    .table-wrap { overflow-x: auto; }
    @media (max-width: 700px) {
        body { margin: 16px; }
        .summary-grid { grid-template-columns: repeat(2, 1fr); }
        th, td { padding: 8px; }
    }
`;

/**
 * The self-contained HTML report, laid out as the spec's: summary figures (the pass rate with
 * its standard error), a place for charts, the results table and each result's details. Every
 * text is escaped (a model's `<script>` shows as text) and the markup is well-formed XML, every
 * element closed, so a strict parser reads it as a browser does.
 */
export function evalRunToHtml(run: EvalRun, options: EvalHtmlOptions = {}): string {
  const summary = summarizeEvalRun(run);
  const repeated = hasTrials(run);
  const passRate = passRateEstimate(run);
  const out: string[] = [];
  out.push(
    "<!DOCTYPE html>",
    '<html lang="en">',
    "<head>",
    '    <meta charset="utf-8" />',
    '    <meta name="viewport" content="width=device-width, initial-scale=1" />',
    `    <title>Eval Report: ${htmlText(run.prompt_name)}</title>`,
    `    <style>${STYLE}    </style>`,
    "</head>",
    "<body>",
    `    <h1>Evaluation Report: ${htmlText(run.prompt_name)}</h1>`,
    `    <p><strong>Run ID:</strong> ${htmlText(run.run_id)} | <strong>Model:</strong> ${htmlText(run.model)} | <strong>Date:</strong> ${htmlText(formatDateTime(run.started_at))} UTC</p>`,
    "",
    '    <div class="summary">',
    '        <div class="summary-grid">',
    summaryFigure(formatPercent(passRate.value), "Pass Rate", `SE ${formatPercent(passRate.standard_error)}`),
    summaryFigure(`${summary.passed}/${summary.total_tests}`, "Tests Passed"),
    summaryFigure(`${formatNumber(summary.avg_latency_ms, 1)} ms`, "Avg Latency"),
    summaryFigure(formatCost(summary.cost_usd), "Cost"),
    "        </div>",
    "    </div>",
    "",
  );
  const charts = options.charts ?? [];
  if (charts.length === 0) {
    out.push("    <!-- charts: pass rate per prompt x model with 95% error bars, cost against score (EvalHtmlOptions.charts) -->");
  } else {
    out.push('    <section class="charts" id="charts" aria-label="Charts">', "        <h2>Charts</h2>");
    for (const chart of charts) {
      out.push(`        <figure>${chart.svg}<figcaption>${htmlText(chart.title)}</figcaption></figure>`);
    }
    out.push("    </section>");
  }
  out.push(
    "",
    "    <h2>Results</h2>",
    '    <div class="table-wrap">',
    "    <table>",
    "        <thead>",
    "            <tr>",
    ...["Test Case", "Status", "Latency", "Tokens In", "Tokens Out", "Cost", "Metrics"].map(
      (heading) => `                <th scope="col">${heading}</th>`,
    ),
    "            </tr>",
    "        </thead>",
    "        <tbody>",
  );
  for (const result of run.results) {
    out.push(
      "            <tr>",
      `                <td>${htmlText(resultLabel(result, repeated))}</td>`,
      `                <td class="${result.passed ? "pass" : "fail"}">${statusText(result.passed)}</td>`,
      `                <td>${formatNumber(result.latency_ms, 0)} ms</td>`,
      `                <td>${result.tokens_in}</td>`,
      `                <td>${result.tokens_out}</td>`,
      `                <td>${formatCost(result.cost_usd)}</td>`,
      `                <td>${htmlText(formatMetrics(result.metrics))}</td>`,
      "            </tr>",
    );
  }
  out.push("        </tbody>", "    </table>", "    </div>", "", "    <h2>Test Details</h2>");
  for (const result of run.results) {
    out.push(
      '    <div class="details">',
      `        <h3>${htmlText(resultLabel(result, repeated))} <span class="${result.passed ? "pass" : "fail"}">${statusText(result.passed)}</span></h3>`,
      "        <p><strong>System Prompt:</strong></p>",
      `        <pre>${htmlText(result.system_prompt)}</pre>`,
      "        <p><strong>Input:</strong></p>",
      `        <pre>${htmlText(result.input_text)}</pre>`,
      "        <p><strong>Output:</strong></p>",
      `        <pre>${htmlText(result.output)}</pre>`,
      `        <p><strong>Metrics:</strong> ${htmlText(formatMetrics(result.metrics))}</p>`,
    );
    if (!result.passed) {
      const label = result.error ? "Error" : "Failed";
      out.push(`        <p><strong>${label}:</strong> ${htmlText(failureReasons(result, run.config).join("; "))}</p>`);
    }
    out.push("    </div>");
  }
  out.push("</body>", "</html>", "");
  return out.join("\n");
}

function summaryFigure(value: string, label: string, detail?: string): string {
  return [
    '            <div class="metric">',
    `                <div class="metric-value">${htmlText(value)}</div>`,
    ...(detail ? [`                <div class="metric-detail">${htmlText(detail)}</div>`] : []),
    `                <div class="metric-label">${htmlText(label)}</div>`,
    "            </div>",
  ].join("\n");
}

/** The spec's mark, with a word for those who cannot see it. */
function statusText(passed: boolean): string {
  return passed ? '✅ <span class="status-word">pass</span>' : '❌ <span class="status-word">fail</span>';
}
