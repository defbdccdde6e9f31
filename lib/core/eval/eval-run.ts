/**
 * The entities of specs/eval-config.md as the exports write them: an EvalResult per test case (and
 * trial) and an EvalRun per prompt x model, with the spec's field names (snake_case, as its
 * pydantic models serialise) plus cost_usd, and each result's error and trial. Also the paired
 * comparison of two runs on the same test cases (lib/core/eval/stats computes it, comparison.md
 * and the /evals page show it).
 */

/** The settings an EvalRun was made with, as the config gave them (defaults filled in). */
export type EvalRunConfig = {
  model: string;
  max_tokens: number;
  temperature: number;
  evaluation_threshold: number;
  /** Metrics with their own `threshold` (llm_judge's), which overrides evaluation_threshold. */
  metric_thresholds?: Record<string, number>;
};

/** One test case's result for one prompt on one model (one trial of it). */
export type EvalResult = {
  /** The test case's name. */
  test_case: string;
  prompt_name: string;
  /** 1 for the first trial; `repeat: N` makes trials 1..N. */
  trial: number;
  /** The prompt's system text, "" when it has none. */
  system_prompt: string;
  /** The rendered template as sent ("" when it could not render). */
  input_text: string;
  /** The model's answer, "" after an error. Text, never markup. */
  output: string;
  /** Each metric's score from 0 to 1, by metric name (contains, response_length, ...). */
  metrics: Record<string, number>;
  /** Every metric reached its threshold and there was no error. */
  passed: boolean;
  latency_ms: number;
  tokens_in: number;
  tokens_out: number;
  /** The call's cost in US dollars (the judge's calls included); null when no price is known. */
  cost_usd: number | null;
  /**
   * The llm_judge metrics' answers, their reasoning ending in its SCORE line; null when no judge
   * was asked. Shown on the page and in the API; the spec's export files do not carry it.
   */
  judge_reasoning?: string | null;
  /** Why the result has no output or no scores, e.g. "Missing input variable x in test case y". */
  error: string | null;
};

/** Every result of one prompt on one model. */
export type EvalRun = {
  /** 8 hex characters. */
  run_id: string;
  prompt_name: string;
  model: string;
  config: EvalRunConfig;
  /** ISO 8601 in UTC. */
  started_at: string;
  completed_at: string | null;
  results: EvalResult[];
  /** Passed results / all results (an error counts as not passed); 0 with no results. */
  pass_rate: number;
  /** Mean latency of all results, 0 with no results. */
  avg_latency_ms: number;
  /** Sum of the results' costs; null when none of them is priced. */
  cost_usd: number | null;
};

/** The figures of a run's summary tables (the spec's summary()). */
export type EvalRunSummary = {
  total_tests: number;
  passed: number;
  failed: number;
  /** 0 to 1. */
  pass_rate: number;
  avg_latency_ms: number;
  total_tokens: number;
  cost_usd: number | null;
};

/** The summary of a run, computed from its results. */
export function summarizeEvalRun(run: Pick<EvalRun, "results">): EvalRunSummary {
  const total = run.results.length;
  const passed = run.results.filter((result) => result.passed).length;
  const latency = run.results.reduce((sum, result) => sum + result.latency_ms, 0);
  const tokens = run.results.reduce((sum, result) => sum + result.tokens_in + result.tokens_out, 0);
  const priced = run.results.filter((result) => result.cost_usd !== null);
  return {
    total_tests: total,
    passed,
    failed: total - passed,
    pass_rate: total === 0 ? 0 : passed / total,
    avg_latency_ms: total === 0 ? 0 : latency / total,
    total_tokens: tokens,
    cost_usd: priced.length === 0 ? null : priced.reduce((sum, result) => sum + (result.cost_usd ?? 0), 0),
  };
}

/** A pass rate or mean score with its standard error (clustered by case when trials repeat). */
export type Estimate = {
  value: number;
  standard_error: number;
};

/** A two-sided 95% interval. */
export type Interval = {
  low: number;
  high: number;
};

/** Which run a comparison side is. */
export type EvalRunLabel = {
  run_id: string;
  prompt_name: string;
  model: string;
};

/** Pass/fail of two runs paired by test case: candidate minus baseline. */
export type PassRateComparison = {
  baseline: Estimate;
  candidate: Estimate;
  /** Candidate's pass rate minus the baseline's. */
  difference: number;
  /**
   * "newcombe": one trial per case, Newcombe's score interval for paired proportions (1998,
   * method 10) and the exact McNemar test. "bootstrap": several trials, the paired bootstrap of
   * the per-case pass rates (no McNemar: a case is no longer a pass or a fail).
   */
  method: "newcombe" | "bootstrap";
  interval: Interval;
  /** Cases where the baseline did better than the candidate, and the other way round. */
  discordant: { baseline_only: number; candidate_only: number };
  /** Exact McNemar test (two-sided binomial on the discordant pairs); null with several trials. */
  mcnemar_p_value: number | null;
  /** False when the interval covers 0. */
  distinguishable: boolean;
  /** Cases a difference of this size needs at 80% power and alpha 0.05; null when it is 0. */
  cases_needed: number | null;
};

/** One metric's scores of two runs paired by test case: candidate minus baseline. */
export type ScoreComparison = {
  metric: string;
  baseline: Estimate;
  candidate: Estimate;
  /** Mean of the paired differences. */
  difference: number;
  /** Paired bootstrap percentile interval. */
  interval: Interval;
  resamples: number;
  seed: number;
  distinguishable: boolean;
  cases_needed: number | null;
};

/** Two runs compared on the test cases both have (the paired statistics of comparison.md). */
export type PairedComparison = {
  baseline: EvalRunLabel;
  candidate: EvalRunLabel;
  /** Test cases present in both runs. */
  paired_cases: number;
  pass_rate: PassRateComparison;
  scores: ScoreComparison[];
};
