"use client";

import { METRIC_VIEWS, type MetricView } from "@/lib/client/workbench-types";
import { ChartIcon } from "@/components/ui/icons";
import { pillClassName } from "./pill-class-name";

const LABELS: Record<MetricView, string> = { grade: "Grade", tokens: "Tokens", cost: "Cost", latency: "Latency" };

type MetricPillProps = { metric: MetricView; onChange(metric: MetricView): void };

/** The key that cycles the metric from anywhere on the page outside a text field (the pill's tooltip says so). */
export const METRIC_SHORTCUT = "m";

/** The metric after this one: Grade -> Tokens -> Cost -> Latency -> Grade. */
export function nextMetric(metric: MetricView): MetricView {
  return METRIC_VIEWS[(METRIC_VIEWS.indexOf(metric) + 1) % METRIC_VIEWS.length];
}

/** The metric every badge shows; each press (or M) moves on: Grade -> Tokens -> Cost -> Latency -> Grade. */
export function MetricPill({ metric, onChange }: MetricPillProps) {
  const next = nextMetric(metric);
  return (
    <button
      type="button"
      data-testid="metric-pill"
      aria-label={`Metric: ${LABELS[metric]}. Press to show ${LABELS[next]}`}
      aria-keyshortcuts="M"
      title={`Show ${LABELS[next]} (M)`}
      onClick={() => onChange(next)}
      className={pillClassName}
    >
      <ChartIcon aria-hidden="true" className="size-4" />
      {/* Every label sits in one grid cell, so the pill keeps the widest label's width and the
          labels cross-fade in 150 ms instead of the pill jumping in size. */}
      <span aria-hidden="true" className="inline-grid">
        {METRIC_VIEWS.map((view) => (
          <span
            key={view}
            className={`col-start-1 row-start-1 text-left transition-opacity duration-150 motion-reduce:transition-none ${
              view === metric ? "opacity-100" : "opacity-0"
            }`}
          >
            {LABELS[view]}
          </span>
        ))}
      </span>
    </button>
  );
}
