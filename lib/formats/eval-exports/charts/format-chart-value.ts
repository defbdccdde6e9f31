import type { ChartMeasure } from "@/lib/formats/eval-exports/charts/chart-data";

/** A value of the measure as the charts print it: a pass rate as "66.7%", a mean score as "0.67". */
export function formatChartValue(value: number, measure: ChartMeasure): string {
  if (!Number.isFinite(value)) return "n/a";
  return measure.kind === "pass_rate" ? `${(value * 100).toFixed(1)}%` : value.toFixed(2);
}

/** The measure's name in titles and axis labels. */
export function measureName(measure: ChartMeasure): string {
  return measure.kind === "pass_rate" ? "Pass rate" : `Mean ${measure.metric} score`;
}

/** Dollars as the charts print them: 4 decimals, more for fractions of a cent. */
export function formatChartCost(cost: number | null): string {
  if (cost === null) return "no price";
  if (cost !== 0 && Math.abs(cost) < 0.0001) return `$${cost.toPrecision(2)}`;
  return `$${cost.toFixed(4)}`;
}
