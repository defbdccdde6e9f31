import type { EvalRun } from "@/lib/core/eval/eval-run";
import { evalChartSet } from "@/lib/formats/eval-exports/charts/eval-chart-set";
import { staticMarkup } from "@/lib/formats/eval-exports/charts/static-markup";
import type { ReportChart } from "@/lib/formats/eval-exports/eval-run-html";

/**
 * The eval's charts as markup for the HTML report: the same components as the /evals page,
 * rendered statically (static-markup.ts says why not react-dom/server), every text and attribute
 * escaped, prompt and model names included. No script and no event handler: each SVG is drawn
 * complete, with its numbers in a visually hidden table.
 */
export function reportCharts(runs: readonly EvalRun[]): ReportChart[] {
  return evalChartSet(runs).map((chart) => ({ title: chart.title, svg: staticMarkup(chart.element) }));
}
