"use client";

import { useId, useMemo, useState } from "react";
import type { EvalDetail } from "@/lib/api/evals";
import { metricNamesOf, type ChartMeasure } from "@/lib/formats/eval-exports/charts/chart-data";
import { evalChartSet } from "@/lib/formats/eval-exports/charts/eval-chart-set";
import { measureName } from "@/lib/formats/eval-exports/charts/format-chart-value";

const PASS_RATE = "pass_rate";

/**
 * The eval's charts: pass rate (or a metric's mean score, chosen above them) per prompt x model
 * with 95% error bars, and cost against it per model. The same components draw the HTML report's
 * charts; each SVG has a summary for screen readers and its numbers in a table.
 */
export function EvalCharts({ detail }: { detail: EvalDetail }) {
  const metrics = useMemo(() => metricNamesOf(detail.runs), [detail.runs]);
  const [chosen, setChosen] = useState<string>(PASS_RATE);
  // A metric the runs no longer have (another eval opened) falls back to the pass rate.
  const metric = chosen !== PASS_RATE && metrics.includes(chosen) ? chosen : null;
  const measure: ChartMeasure = metric === null ? { kind: "pass_rate" } : { kind: "metric", metric };
  const charts = useMemo(
    () => evalChartSet(detail.runs, metric === null ? { kind: "pass_rate" } : { kind: "metric", metric }),
    [detail.runs, metric],
  );
  const selectId = useId();
  if (detail.runs.length === 0 || detail.runs.every((run) => run.results.length === 0)) {
    return (
      <section aria-label="Charts" className="text-sm text-zinc-600">
        <p>No result has finished yet: the charts appear as soon as one does.</p>
      </section>
    );
  }
  return (
    <section aria-label="Charts" className="flex flex-col gap-4">
      {metrics.length > 0 && (
        <div className="flex items-center gap-2 text-sm">
          <label htmlFor={selectId} className="text-zinc-700">
            Charts show
          </label>
          <select
            id={selectId}
            value={measure.kind === "pass_rate" ? PASS_RATE : measure.metric}
            onChange={(event) => setChosen(event.target.value)}
            className="rounded border border-zinc-300 bg-white px-2 py-1 text-sm"
          >
            <option value={PASS_RATE}>{measureName({ kind: "pass_rate" })}</option>
            {metrics.map((metric) => (
              <option key={metric} value={metric}>
                {measureName({ kind: "metric", metric })}
              </option>
            ))}
          </select>
        </div>
      )}
      {charts.map((chart) => (
        <figure
          key={chart.id}
          className="relative m-0 rounded-lg border border-zinc-200 bg-white p-3 [&_svg]:h-auto [&_svg]:max-w-full"
          data-chart-figure={chart.id}
        >
          <figcaption className="mb-2 text-sm font-medium text-zinc-800">{chart.title}</figcaption>
          {chart.element}
        </figure>
      ))}
    </section>
  );
}
