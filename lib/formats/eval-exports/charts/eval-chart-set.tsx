import type { ReactElement } from "react";
import type { EvalRun } from "@/lib/core/eval/eval-run";
import { runPoints, type ChartMeasure } from "@/lib/formats/eval-exports/charts/chart-data";
import { CostScoreChart } from "@/lib/formats/eval-exports/charts/cost-score-chart";
import { measureName } from "@/lib/formats/eval-exports/charts/format-chart-value";
import { IntervalBarChart } from "@/lib/formats/eval-exports/charts/interval-bar-chart";

/** One chart of an eval: its title and the element that draws it (the SVG and its table). */
export type EvalChart = { id: string; title: string; element: ReactElement };

/**
 * The charts of an eval's runs, shared by the /evals page and the HTML report: the pass rate (or
 * a metric's mean score) per prompt x model with 95% error bars, and cost against it per model.
 */
export function evalChartSet(runs: readonly EvalRun[], measure: ChartMeasure = { kind: "pass_rate" }): EvalChart[] {
  if (runs.length === 0) return [];
  const points = runPoints(runs, measure);
  const name = measureName(measure);
  const barsTitle = `${name} per prompt and model, with 95% intervals`;
  const costTitle = `Cost against ${name.toLowerCase()}, per model`;
  return [
    { id: "interval-bars", title: barsTitle, element: <IntervalBarChart points={points} measure={measure} title={barsTitle} /> },
    { id: "cost-score", title: costTitle, element: <CostScoreChart points={points} measure={measure} title={costTitle} /> },
  ];
}
