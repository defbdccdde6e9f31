import type { Estimate, Interval, PairedComparison } from "@/lib/core/eval/eval-run";
import { differenceVerdict, type DifferenceVerdict } from "@/lib/core/eval/stats/difference-verdict";

/** One measure of a paired comparison as the /evals page shows it: figures and a sentence. */
export type ComparisonRow = {
  /** "Pass rate" or "Mean contains score". */
  measure: string;
  baseline: string;
  candidate: string;
  /** Candidate minus baseline, signed ("+20.0 points", "-0.15"). */
  difference: string;
  /** The 95% interval of the difference, signed. */
  interval: string;
  /** "not distinguishable", or which run is higher ("summarizer_v2 higher"). */
  verdict: string;
  distinguishable: boolean;
  /** Test cases a difference of the observed size would need at 80% power and alpha 0.05, or "n/a". */
  casesNeeded: string;
  /** The finding in plain words, for someone who writes prompts rather than statistics. */
  sentence: string;
  /** How the interval and the p value were computed. */
  method: string;
};

/** A paired comparison in words: a heading, what was paired, and one row per measure. */
export type ComparisonText = {
  heading: string;
  baselineLabel: string;
  candidateLabel: string;
  pairedOn: string;
  rows: ComparisonRow[];
};

/**
 * Puts a paired comparison (lib/core/eval/stats/compare-eval-runs.ts) into words: each rate and
 * mean with its standard error, the difference with its 95% interval, "not distinguishable" when
 * the interval covers 0, McNemar's p, and how many test cases a difference of the observed size
 * would need to be found 4 times in 5.
 */
export function comparisonText(comparison: PairedComparison, candidateLabel: string, baselineLabel: string): ComparisonText {
  const passRate = comparison.pass_rate;
  const n = comparison.paired_cases;
  const rows: ComparisonRow[] = [];
  const passVerdict = differenceVerdict(passRate.interval, passRate.mcnemar_p_value);
  const passMethod =
    passRate.method === "newcombe"
      ? `Newcombe's score interval for paired proportions; exact McNemar test p = ${formatP(passRate.mcnemar_p_value)} (${countOf(passRate.discordant.candidate_only, "case")} passed only with ${candidateLabel}, ${passRate.discordant.baseline_only} only with ${baselineLabel}).`
      : `Paired bootstrap of each test case's pass rate over its trials; standard errors clustered by test case (${countOf(passRate.discordant.candidate_only, "case")} better with ${candidateLabel}, ${passRate.discordant.baseline_only} with ${baselineLabel}).`;
  rows.push({
    measure: "Pass rate",
    baseline: withError(passRate.baseline, percent),
    candidate: withError(passRate.candidate, percent),
    difference: signedPoints(passRate.difference),
    interval: `${signedPoints(passRate.interval.low)} to ${signedPoints(passRate.interval.high)}`,
    verdict: verdictLabel(passVerdict, candidateLabel, baselineLabel),
    distinguishable: passVerdict !== "not distinguishable",
    casesNeeded: passRate.cases_needed === null ? "n/a" : String(passRate.cases_needed),
    sentence: verdictSentence({
      what: "pass rate",
      interval: passRate.interval,
      mcnemarP: passRate.mcnemar_p_value,
      difference: passRate.difference,
      differenceText: signedPoints(passRate.difference),
      intervalText: `${signedPoints(passRate.interval.low)} to ${signedPoints(passRate.interval.high)}`,
      casesNeeded: passRate.cases_needed,
      cases: n,
      candidateLabel,
      baselineLabel,
    }),
    method: passMethod,
  });
  for (const score of comparison.scores) {
    const verdict = differenceVerdict(score.interval);
    rows.push({
      measure: `Mean ${score.metric} score`,
      baseline: withError(score.baseline, decimal),
      candidate: withError(score.candidate, decimal),
      difference: signedScore(score.difference),
      interval: `${signedScore(score.interval.low)} to ${signedScore(score.interval.high)}`,
      verdict: verdictLabel(verdict, candidateLabel, baselineLabel),
      distinguishable: verdict !== "not distinguishable",
      casesNeeded: score.cases_needed === null ? "n/a" : String(score.cases_needed),
      sentence: verdictSentence({
        what: `mean ${score.metric} score`,
        interval: score.interval,
        difference: score.difference,
        differenceText: signedScore(score.difference),
        intervalText: `${signedScore(score.interval.low)} to ${signedScore(score.interval.high)}`,
        casesNeeded: score.cases_needed,
        cases: n,
        candidateLabel,
        baselineLabel,
      }),
      method: `Paired bootstrap percentile interval of the per-case differences, ${score.resamples.toLocaleString("en-US")} resamples, seed ${score.seed}.`,
    });
  }
  return {
    heading: `${candidateLabel} vs ${baselineLabel}`,
    baselineLabel,
    candidateLabel,
    pairedOn: `${candidateLabel} minus ${baselineLabel}, paired on the ${countOf(n, "test case")} both ran, with 95% intervals.`,
    rows,
  };
}

type VerdictInput = {
  what: string;
  interval: Interval;
  /** The exact McNemar p of a pass-rate comparison, which must be under 0.05 too. */
  mcnemarP?: number | null;
  difference: number;
  differenceText: string;
  intervalText: string;
  casesNeeded: number | null;
  cases: number;
  candidateLabel: string;
  baselineLabel: string;
};

function verdictSentence(input: VerdictInput): string {
  const { what, interval, difference, differenceText, intervalText, casesNeeded, cases, candidateLabel, baselineLabel } = input;
  const verdict = differenceVerdict(interval, input.mcnemarP ?? null);
  if (cases === 0) return `Not distinguishable: no test case has a result from both, so there is nothing to pair.`;
  if (verdict !== "not distinguishable") {
    const higher = verdict === "candidate higher" ? candidateLabel : baselineLabel;
    return `${higher} has the higher ${what}: ${differenceText} (95% interval ${intervalText}), and the whole interval is on one side of zero, so the difference is unlikely to be chance on these ${countOf(cases, "test case")}.`;
  }
  if (difference === 0 || casesNeeded === null) {
    return `Not distinguishable: ${candidateLabel} and ${baselineLabel} have the same ${what} on these ${countOf(cases, "test case")} (95% interval of the difference ${intervalText}), so there is no difference to plan more test cases for.`;
  }
  if (interval.low > 0 || interval.high < 0) {
    return `Not distinguishable: the ${what} differs by ${differenceText} (95% interval ${intervalText}), but the exact McNemar test gives p = ${formatP(input.mcnemarP ?? null)}, not under 0.05: too few test cases came out differently to tell ${candidateLabel} and ${baselineLabel} apart, and the difference may be chance.`;
  }
  const base = `Not distinguishable: the ${what} differs by ${differenceText}, but the 95% interval (${intervalText}) includes zero, so these ${countOf(cases, "test case")} cannot tell ${candidateLabel} and ${baselineLabel} apart: the difference may be chance.`;
  if (casesNeeded > cases) {
    return `${base} A real difference of this size would need about ${countOf(casesNeeded, "test case")} to show up 4 times in 5 (80% power, alpha 0.05).`;
  }
  return `${base} A difference of this size would usually show with ${countOf(casesNeeded, "test case")} (80% power, alpha 0.05); this one did not.`;
}

function verdictLabel(verdict: DifferenceVerdict, candidateLabel: string, baselineLabel: string): string {
  if (verdict === "not distinguishable") return verdict;
  return `${verdict === "candidate higher" ? candidateLabel : baselineLabel} higher`;
}

function withError(estimate: Estimate, format: (value: number) => string): string {
  return `${format(estimate.value)} (SE ${format(estimate.standard_error)})`;
}

function percent(value: number): string {
  return Number.isFinite(value) ? `${(value * 100).toFixed(1)}%` : "n/a";
}

function decimal(value: number): string {
  return Number.isFinite(value) ? value.toFixed(2) : "n/a";
}

/** A difference of rates in percentage points, signed: "+20.0 points". */
function signedPoints(value: number): string {
  if (!Number.isFinite(value)) return "n/a";
  return `${sign(value, 1, 100)}${Math.abs(value * 100).toFixed(1)} points`;
}

function signedScore(value: number): string {
  if (!Number.isFinite(value)) return "n/a";
  return `${sign(value, 2)}${Math.abs(value).toFixed(2)}`;
}

/** "+" or "−" (a minus sign), none when the value rounds to 0 at the decimals shown. */
function sign(value: number, decimals: number, scale: number = 1): string {
  if (Number((Math.abs(value) * scale).toFixed(decimals)) === 0) return "";
  return value > 0 ? "+" : "−";
}

function formatP(value: number | null): string {
  if (value === null || !Number.isFinite(value)) return "n/a";
  return value < 0.0001 ? "< 0.0001" : value.toFixed(4);
}

function countOf(count: number, noun: string): string {
  return `${count.toLocaleString("en-US")} ${noun}${count === 1 ? "" : "s"}`;
}
