/**
 * The pass rule of specs/eval-config.md: a result passes when every metric's score reaches the
 * evaluation_threshold (default 0.5; a metric's own `threshold` overrides it for that metric),
 * scores compared as they are (2/3 = 0.6666... passes 0.5 and fails 0.667). A result with an
 * error does not pass, nor one that lacks a configured metric's score (a judge that could not be
 * read): a score that is not there never counts as reached.
 */
import type { MetricConfig } from "@/lib/core/eval/metrics";

/** Whether a result passed, and the metrics that kept it from passing. */
export interface PassVerdict {
  passed: boolean;
  /** Names of the metrics below their threshold or without a score, in config order. */
  failing: string[];
}

/** The threshold a metric's score must reach. */
export function metricThreshold(metric: Pick<MetricConfig, "threshold">, evaluationThreshold: number): number {
  return metric.threshold ?? evaluationThreshold;
}

/** Applies the pass rule to one result's scores (keyed by metric name) and error. */
export function judgeResult(
  result: { metrics: Record<string, number>; error: string | null },
  metrics: ReadonlyArray<Pick<MetricConfig, "name" | "threshold">>,
  evaluationThreshold: number,
): PassVerdict {
  const failing = metrics
    .filter((metric) => {
      const score = Object.prototype.hasOwnProperty.call(result.metrics, metric.name) ? result.metrics[metric.name] : undefined;
      return !(typeof score === "number" && score >= metricThreshold(metric, evaluationThreshold));
    })
    .map((metric) => metric.name);
  return { passed: result.error === null && failing.length === 0, failing };
}

/** The metrics that have their own threshold, by name: an EvalRun config's metric_thresholds. */
export function metricThresholds(metrics: ReadonlyArray<Pick<MetricConfig, "name" | "threshold">>): Record<string, number> {
  const thresholds: Record<string, number> = {};
  for (const metric of metrics) if (metric.threshold !== null) thresholds[metric.name] = metric.threshold;
  return thresholds;
}
