import type { Interval } from "@/lib/core/eval/eval-run";
import type { PairedTable } from "@/lib/core/eval/stats/paired-table";
import { Z_95 } from "@/lib/core/eval/stats/standard-normal";
import { wilsonInterval } from "@/lib/core/eval/stats/wilson-interval";

/**
 * The 95% interval for the difference of two paired proportions, candidate minus baseline, by
 * Newcombe's square-and-add of the two Wilson intervals (Newcombe 1998, "Improved confidence
 * intervals for the difference between binomial proportions based on paired data", Statistics
 * in Medicine 17:2635-2650, method 10). The correlation phi is Newcombe's: the cross-product
 * ad - bc, pulled towards 0 by n/2 when it is positive and 0 when that crosses 0. Chosen over a
 * Wald interval because it stays inside [-1, 1] and keeps its coverage near 95% at the small n
 * of eval suites (Newcombe's Table I; Wald's is far below at n = 20).
 */
export function newcombePairedInterval(table: PairedTable, z: number = Z_95): Interval {
  const { bothPassed: a, baselineOnly: b, candidateOnly: c, neitherPassed: d } = table;
  const n = a + b + c + d;
  if (n === 0) return { low: -1, high: 1 };
  // Newcombe writes p1 - p2 for the first measurement minus the second; here the candidate is
  // the first, so that a positive difference means the candidate passes more often.
  const candidatePassed = a + c;
  const baselinePassed = a + b;
  const p1 = candidatePassed / n;
  const p2 = baselinePassed / n;
  const first = wilsonInterval(candidatePassed, n, z);
  const second = wilsonInterval(baselinePassed, n, z);
  const marginals = candidatePassed * (n - candidatePassed) * baselinePassed * (n - baselinePassed);
  let phi = 0;
  if (marginals > 0) {
    const crossProduct = a * d - b * c;
    const adjusted = crossProduct > n / 2 ? crossProduct - n / 2 : crossProduct >= 0 ? 0 : crossProduct;
    phi = adjusted / Math.sqrt(marginals);
  }
  const difference = p1 - p2;
  const lowerDistance = squareAndAdd(p1 - first.low, second.high - p2, phi);
  const upperDistance = squareAndAdd(first.high - p1, p2 - second.low, phi);
  return { low: Math.max(-1, difference - lowerDistance), high: Math.min(1, difference + upperDistance) };
}

function squareAndAdd(x: number, y: number, phi: number): number {
  return Math.sqrt(Math.max(0, x * x - 2 * phi * x * y + y * y));
}
