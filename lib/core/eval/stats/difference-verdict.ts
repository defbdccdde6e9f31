import type { Interval } from "@/lib/core/eval/eval-run";

/** What an interval of candidate minus baseline says. */
export type DifferenceVerdict = "not distinguishable" | "candidate higher" | "baseline higher";

/**
 * "not distinguishable" when the 95% interval covers 0 (or is not a number): the evidence does
 * not tell the two runs apart, whatever the point estimate says. For pass/fail with one trial per
 * case, also when the exact McNemar test's p (mcnemarP) is 0.05 or more: with a handful of
 * discordant cases Newcombe's interval can exclude 0 while the exact test cannot reject (2 of 2
 * discordant cases one way: interval -100 to -7 points, p = 0.5), and a verdict must not claim a
 * difference its own p value denies.
 */
export function differenceVerdict(interval: Interval, mcnemarP: number | null = null): DifferenceVerdict {
  if (mcnemarP !== null && !(mcnemarP < 0.05)) return "not distinguishable";
  if (interval.low > 0) return "candidate higher";
  if (interval.high < 0) return "baseline higher";
  return "not distinguishable";
}

/** True when the interval excludes 0 (and the exact McNemar p, when given, is under 0.05). */
export function isDistinguishable(interval: Interval, mcnemarP: number | null = null): boolean {
  return differenceVerdict(interval, mcnemarP) !== "not distinguishable";
}
