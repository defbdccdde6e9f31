import type { Interval } from "@/lib/core/eval/eval-run";

/** What an interval of candidate minus baseline says. */
export type DifferenceVerdict = "not distinguishable" | "candidate higher" | "baseline higher";

/**
 * "not distinguishable" when the 95% interval covers 0 (or is not a number): the evidence does
 * not tell the two runs apart, whatever the point estimate says.
 */
export function differenceVerdict(interval: Interval): DifferenceVerdict {
  if (interval.low > 0) return "candidate higher";
  if (interval.high < 0) return "baseline higher";
  return "not distinguishable";
}

/** True when the interval excludes 0. */
export function isDistinguishable(interval: Interval): boolean {
  return differenceVerdict(interval) !== "not distinguishable";
}
