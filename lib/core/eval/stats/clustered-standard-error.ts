import type { Estimate } from "@/lib/core/eval/eval-run";

/**
 * The mean of every observation (a pass as 1, a fail as 0, or a score) and its standard error
 * clustered by case: SE = sqrt(sum over cases of (sum of the case's residuals)^2) / n, n the
 * number of observations (Miller 2024, "Adding Error Bars to Evals: A Statistical Approach to
 * Language Model Evaluations", arXiv:2411.00640, section 2.2). Trials of one case are not
 * independent, so treating them as such would shrink the error; with one trial per case it is
 * sqrt(p(1 - p) / n) for a pass rate.
 */
export function clusteredStandardError(cases: ReadonlyArray<readonly number[]>): Estimate {
  let count = 0;
  let sum = 0;
  for (const values of cases) {
    for (const value of values) {
      count += 1;
      sum += value;
    }
  }
  if (count === 0) return { value: Number.NaN, standard_error: Number.NaN };
  const mean = sum / count;
  let squares = 0;
  for (const values of cases) {
    let residuals = 0;
    for (const value of values) residuals += value - mean;
    squares += residuals * residuals;
  }
  return { value: mean, standard_error: Math.sqrt(squares) / count };
}
