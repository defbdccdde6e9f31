import type { Interval } from "@/lib/core/eval/eval-run";
import { seededRandom } from "@/lib/core/eval/stats/seeded-random";

/** Resamples of a bootstrap interval: the 10,000. */
export const BOOTSTRAP_RESAMPLES = 10_000;

/** The fixed seed, so an interval is the same on every run of the same numbers. */
export const BOOTSTRAP_SEED = 20_240_412;

/**
 * The 95% paired bootstrap percentile interval of a mean difference: the cases (one paired
 * difference each) are drawn with replacement, the mean of each resample is taken, and the
 * interval is the 2.5th and 97.5th percentiles of those means (linear interpolation between
 * order statistics, R's type 7). Resampling cases, not results, keeps a case's trials together.
 */
export function pairedBootstrapInterval(
  differences: readonly number[],
  { resamples = BOOTSTRAP_RESAMPLES, seed = BOOTSTRAP_SEED }: { resamples?: number; seed?: number } = {},
): Interval {
  const n = differences.length;
  if (n === 0) return { low: Number.NaN, high: Number.NaN };
  const random = seededRandom(seed);
  const means = new Float64Array(resamples);
  for (let resample = 0; resample < resamples; resample += 1) {
    let sum = 0;
    for (let draw = 0; draw < n; draw += 1) sum += differences[Math.floor(random() * n)];
    means[resample] = sum / n;
  }
  means.sort();
  return { low: quantile(means, 0.025), high: quantile(means, 0.975) };
}

/** R's type 7 quantile of sorted values. */
export function quantile(sorted: ArrayLike<number>, probability: number): number {
  const position = (sorted.length - 1) * probability;
  const below = Math.floor(position);
  const above = Math.min(below + 1, sorted.length - 1);
  return sorted[below] + (position - below) * (sorted[above] - sorted[below]);
}
