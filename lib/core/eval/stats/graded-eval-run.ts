import type { EvalResult, EvalRun } from "@/lib/core/eval/eval-run";

/** One graded result as the paired statistics read it: its case, trial, scores and pass. */
export type GradedResult = { testCase: string; trial: number; metrics: Record<string, number>; passed: boolean };

/**
 * Graded results as the eval statistics (compareEvalRuns) read a run: a test case per paired
 * unit (the history's dataset row, a matrix's input), a result per trial. Only what the
 * statistics read is filled; the rest is empty.
 */
export function gradedEvalRun(results: readonly GradedResult[]): EvalRun {
  return {
    run_id: "",
    prompt_name: "",
    model: "",
    config: { model: "", max_tokens: 0, temperature: 0, evaluation_threshold: 0 },
    started_at: "",
    completed_at: null,
    results: results.map((result): EvalResult => ({
      test_case: result.testCase,
      prompt_name: "",
      trial: result.trial,
      system_prompt: "",
      input_text: "",
      output: "",
      metrics: result.metrics,
      passed: result.passed,
      latency_ms: 0,
      tokens_in: 0,
      tokens_out: 0,
      cost_usd: null,
      error: null,
    })),
    pass_rate: 0,
    avg_latency_ms: 0,
    cost_usd: null,
  };
}
