import type { Estimate, EvalResult, EvalRun, Interval } from "@/lib/core/eval/eval-run";
import { clusteredStandardError } from "@/lib/core/eval/stats/clustered-standard-error";
import { Z_95 } from "@/lib/core/eval/stats/standard-normal";
import { wilsonInterval } from "@/lib/core/eval/stats/wilson-interval";

/** What a chart plots for each run: its pass rate, or one metric's mean score. */
export type ChartMeasure = { kind: "pass_rate" } | { kind: "metric"; metric: string };

/**
 * How a point's 95% interval was drawn: Wilson's score interval when every test case ran once
 * (it stays honest at 0% and 100%, where value +- 1.96 SE collapses to a point), else the value
 * +- 1.96 standard errors clustered by case, clipped to 0..1.
 */
export type IntervalMethod = "wilson" | "clustered";

/** One EvalRun (a prompt on a model) as the charts and their tables show it. */
export type RunPoint = {
  run_id: string;
  /** The prompt when the models agree, the model when the prompts do, else both. */
  label: string;
  prompt_name: string;
  model: string;
  /** Test cases the run has results for. */
  cases: number;
  /** Results (test cases x trials). */
  results: number;
  /** The pass rate or mean score with its standard error, clustered by case with trials. */
  estimate: Estimate;
  interval: Interval;
  method: IntervalMethod;
  /** The run's cost in US dollars; null when no result of it is priced. */
  cost_usd: number | null;
};

/** Each run's point for a measure, in the order of the runs. */
export function runPoints(runs: readonly EvalRun[], measure: ChartMeasure = { kind: "pass_rate" }): RunPoint[] {
  const labels = runLabels(runs);
  return runs.map((run, index) => {
    const cases = groupByCase(run.results);
    const observations = [...cases.values()].map((results) => results.map((result) => observe(result, measure)));
    const estimate = clusteredStandardError(observations);
    const { interval, method } = intervalOf(observations, estimate, measure);
    const priced = run.results.filter((result) => result.cost_usd !== null);
    return {
      run_id: run.run_id,
      label: labels[index],
      prompt_name: run.prompt_name,
      model: run.model,
      cases: cases.size,
      results: run.results.length,
      estimate,
      interval,
      method,
      cost_usd: priced.length === 0 ? null : priced.reduce((sum, result) => sum + (result.cost_usd ?? 0), 0),
    };
  });
}

/** Every metric some run scored, in the order first seen. */
export function metricNamesOf(runs: readonly EvalRun[]): string[] {
  const names = new Set<string>();
  for (const run of runs) for (const result of run.results) for (const name of Object.keys(result.metrics)) names.add(name);
  return [...names];
}

/** Each run's name, as comparison.md names its columns: the prompt when the models agree, the model when the prompts do, else both. */
export function runLabels(runs: readonly Pick<EvalRun, "prompt_name" | "model" | "run_id">[]): string[] {
  const oneModel = new Set(runs.map((run) => run.model)).size === 1;
  const onePrompt = new Set(runs.map((run) => run.prompt_name)).size === 1;
  const labels = runs.map((run) => (oneModel ? run.prompt_name : onePrompt ? run.model : `${run.prompt_name} (${run.model})`));
  // Two runs of the same prompt and model are told apart by their run ids.
  return labels.map((label, index) => (labels.indexOf(label) !== labels.lastIndexOf(label) ? `${label} [${runs[index].run_id}]` : label));
}

/** A pass as 1 and a fail as 0; a metric's score, 0 when the result has none (an error), as comparisons count it. */
function observe(result: EvalResult, measure: ChartMeasure): number {
  if (measure.kind === "pass_rate") return result.passed ? 1 : 0;
  return result.metrics[measure.metric] ?? 0;
}

function intervalOf(observations: number[][], estimate: Estimate, measure: ChartMeasure): { interval: Interval; method: IntervalMethod } {
  const total = observations.reduce((sum, values) => sum + values.length, 0);
  if (total === 0) return { interval: { low: Number.NaN, high: Number.NaN }, method: "clustered" };
  const singleTrial = observations.every((values) => values.length === 1);
  const binary = measure.kind === "pass_rate" || observations.every((values) => values.every((value) => value === 0 || value === 1));
  if (binary && singleTrial) {
    const successes = observations.reduce((sum, values) => sum + values[0], 0);
    return { interval: wilsonInterval(successes, total), method: "wilson" };
  }
  if (binary && estimate.standard_error === 0) {
    // Every trial of every case agrees: the cases, not the trials, are the independent draws.
    return { interval: wilsonInterval(estimate.value * observations.length, observations.length), method: "wilson" };
  }
  const spread = Z_95 * estimate.standard_error;
  return {
    interval: { low: Math.max(0, estimate.value - spread), high: Math.min(1, estimate.value + spread) },
    method: "clustered",
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
