import { Z_95, Z_POWER_80 } from "@/lib/core/eval/stats/standard-normal";

/**
 * Paired cases a pass-rate difference needs to be found by the McNemar test at 80% power and
 * two-sided alpha 0.05 (Connor 1987, "Sample size for testing differences in proportions for the
 * paired-sample design", Biometrics 43:207-211): n = (z(a/2) sqrt(psi) + z(b) sqrt(psi -
 * delta^2))^2 / delta^2, psi the share of discordant cases, delta the difference. Null when the
 * difference is 0: no number of cases finds a difference that is not there.
 */
export function casesNeededForPassRates(discordantShare: number, difference: number): number | null {
  if (difference === 0 || !Number.isFinite(difference)) return null;
  const psi = Math.max(discordantShare, Math.abs(difference));
  const root = Z_95 * Math.sqrt(psi) + Z_POWER_80 * Math.sqrt(Math.max(0, psi - difference * difference));
  return Math.ceil((root * root) / (difference * difference));
}

/**
 * Paired cases a mean score difference needs at 80% power and two-sided alpha 0.05, by the
 * normal approximation for paired means: n = ((z(a/2) + z(b)) sd / delta)^2, sd the standard
 * deviation of the per-case differences. At least 2 (one case has no spread to judge by); null
 * when the difference is 0.
 */
export function casesNeededForMeans(differenceStandardDeviation: number, difference: number): number | null {
  if (difference === 0 || !Number.isFinite(difference)) return null;
  const ratio = ((Z_95 + Z_POWER_80) * differenceStandardDeviation) / difference;
  return Math.max(2, Math.ceil(ratio * ratio));
}
