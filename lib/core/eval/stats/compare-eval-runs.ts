import type { EvalResult, EvalRun, PairedComparison, PassRateComparison, ScoreComparison } from "@/lib/core/eval/eval-run";
import { casesNeededForMeans, casesNeededForPassRates } from "@/lib/core/eval/stats/cases-needed";
import { clusteredStandardError } from "@/lib/core/eval/stats/clustered-standard-error";
import { isDistinguishable } from "@/lib/core/eval/stats/difference-verdict";
import { exactMcNemarPValue } from "@/lib/core/eval/stats/exact-mcnemar";
import { newcombePairedInterval } from "@/lib/core/eval/stats/newcombe-paired-interval";
import { BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED, pairedBootstrapInterval } from "@/lib/core/eval/stats/paired-bootstrap-interval";
import { pairedTable } from "@/lib/core/eval/stats/paired-table";

/** How the bootstrap is drawn; the defaults are the 10,000 resamples and a fixed seed. */
export type CompareOptions = { resamples?: number; seed?: number };

/**
 * Compares two runs on the test cases both have (by name), candidate minus baseline: the pass
 * rate (Newcombe and McNemar with one trial per case, the paired bootstrap of per-case pass rates
 * with several) and each metric both runs scored (paired bootstrap of per-case mean scores). A
 * result without a metric's score (an error) counts 0 for it, as it counts as not passed.
 */
export function compareEvalRuns(baseline: EvalRun, candidate: EvalRun, options: CompareOptions = {}): PairedComparison {
  const baselineCases = groupByCase(baseline.results);
  const candidateCases = groupByCase(candidate.results);
  const names = [...baselineCases.keys()].filter((name) => candidateCases.has(name));
  const pairs = names.map((name) => ({ baseline: baselineCases.get(name)!, candidate: candidateCases.get(name)! }));
  const metrics = metricNames(baseline).filter((metric) => metricNames(candidate).includes(metric));
  return {
    baseline: { run_id: baseline.run_id, prompt_name: baseline.prompt_name, model: baseline.model },
    candidate: { run_id: candidate.run_id, prompt_name: candidate.prompt_name, model: candidate.model },
    paired_cases: pairs.length,
    pass_rate: comparePassRates(pairs, options),
    scores: metrics.map((metric) => compareScores(metric, pairs, options)),
  };
}

type CasePair = { baseline: EvalResult[]; candidate: EvalResult[] };

function comparePassRates(pairs: CasePair[], options: CompareOptions): PassRateComparison {
  const passes = (results: EvalResult[]) => results.map((result) => (result.passed ? 1 : 0));
  const baselineEstimate = clusteredStandardError(pairs.map((pair) => passes(pair.baseline)));
  const candidateEstimate = clusteredStandardError(pairs.map((pair) => passes(pair.candidate)));
  const singleTrial = pairs.every((pair) => pair.baseline.length === 1 && pair.candidate.length === 1);
  if (singleTrial) {
    const table = pairedTable(pairs.map((pair) => ({ baseline: pair.baseline[0].passed, candidate: pair.candidate[0].passed })));
    const n = pairs.length;
    const difference = n === 0 ? 0 : (table.candidateOnly - table.baselineOnly) / n;
    const interval = newcombePairedInterval(table);
    const pValue = exactMcNemarPValue(table.baselineOnly, table.candidateOnly);
    return {
      baseline: baselineEstimate,
      candidate: candidateEstimate,
      difference,
      method: "newcombe",
      interval,
      discordant: { baseline_only: table.baselineOnly, candidate_only: table.candidateOnly },
      mcnemar_p_value: pValue,
      distinguishable: isDistinguishable(interval, pValue),
      cases_needed: n === 0 ? null : casesNeededForPassRates((table.baselineOnly + table.candidateOnly) / n, difference),
    };
  }
  const differences = pairs.map((pair) => mean(passes(pair.candidate)) - mean(passes(pair.baseline)));
  const interval = pairedBootstrapInterval(differences, options);
  const difference = mean(differences);
  return {
    baseline: baselineEstimate,
    candidate: candidateEstimate,
    difference,
    method: "bootstrap",
    interval,
    discordant: {
      baseline_only: differences.filter((value) => value < 0).length,
      candidate_only: differences.filter((value) => value > 0).length,
    },
    mcnemar_p_value: null,
    distinguishable: isDistinguishable(interval),
    cases_needed: casesNeededForMeans(standardDeviation(differences), difference),
  };
}

function compareScores(metric: string, pairs: CasePair[], options: CompareOptions): ScoreComparison {
  const scores = (results: EvalResult[]) => results.map((result) => result.metrics[metric] ?? 0);
  const differences = pairs.map((pair) => mean(scores(pair.candidate)) - mean(scores(pair.baseline)));
  const interval = pairedBootstrapInterval(differences, options);
  const difference = mean(differences);
  return {
    metric,
    baseline: clusteredStandardError(pairs.map((pair) => scores(pair.baseline))),
    candidate: clusteredStandardError(pairs.map((pair) => scores(pair.candidate))),
    difference,
    interval,
    resamples: options.resamples ?? BOOTSTRAP_RESAMPLES,
    seed: options.seed ?? BOOTSTRAP_SEED,
    distinguishable: isDistinguishable(interval),
    cases_needed: casesNeededForMeans(standardDeviation(differences), difference),
  };
}

function groupByCase(results: readonly EvalResult[]): Map<string, EvalResult[]> {
  const cases = new Map<string, EvalResult[]>();
  for (const result of results) {
    const trials = cases.get(result.test_case);
    if (trials) trials.push(result);
    else cases.set(result.test_case, [result]);
  }
  return cases;
}

function metricNames(run: EvalRun): string[] {
  const names = new Set<string>();
  for (const result of run.results) for (const name of Object.keys(result.metrics)) names.add(name);
  return [...names];
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? Number.NaN : values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** The sample standard deviation (n - 1), 0 for fewer than two values. */
function standardDeviation(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const average = mean(values);
  return Math.sqrt(values.reduce((sum, value) => sum + (value - average) ** 2, 0) / (values.length - 1));
}
