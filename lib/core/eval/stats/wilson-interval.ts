import type { Interval } from "@/lib/core/eval/eval-run";
import { Z_95 } from "@/lib/core/eval/stats/standard-normal";

/** Wilson's score interval for a proportion of successes out of total (no continuity correction). */
export function wilsonInterval(successes: number, total: number, z: number = Z_95): Interval {
  if (total <= 0) return { low: 0, high: 1 };
  const proportion = successes / total;
  const zSquared = z * z;
  const centre = proportion + zSquared / (2 * total);
  const spread = z * Math.sqrt((proportion * (1 - proportion)) / total + zSquared / (4 * total * total));
  const denominator = 1 + zSquared / total;
  return { low: Math.max(0, (centre - spread) / denominator), high: Math.min(1, (centre + spread) / denominator) };
}
