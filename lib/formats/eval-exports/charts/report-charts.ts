import { renderToStaticMarkup } from "react-dom/server";
import type { EvalRun } from "@/lib/core/eval/eval-run";
import { evalChartSet } from "@/lib/formats/eval-exports/charts/eval-chart-set";
import type { ReportChart } from "@/lib/formats/eval-exports/eval-run-html";

/**
 * The eval's charts as markup for the HTML report: the same components as the /evals page,
 * rendered by react-dom/server, which escapes every text and attribute (prompt and model names
 * included). No script and no event handler: the SVG is drawn complete.
 */
export function reportCharts(runs: readonly EvalRun[]): ReportChart[] {
  return evalChartSet(runs).map((chart) => ({ title: chart.title, svg: renderToStaticMarkup(chart.element) }));
}
