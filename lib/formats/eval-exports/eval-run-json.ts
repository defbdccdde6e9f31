import { summarizeEvalRun, type EvalRun } from "@/lib/core/eval/eval-run";

/**
 * The JSON export: the EvalRun with the spec's field names (run_id, prompt_name, model, config,
 * started_at, completed_at, summary, results, each result's fields as the spec's EvalResult has
 * them) plus pass_rate, avg_latency_ms and cost_usd at the top, and each result's trial, error
 * and cost_usd. Indented by 2 as the spec's json.dump(indent=2) writes it.
 */
export function evalRunToJson(run: EvalRun): string {
  const document = {
    run_id: run.run_id,
    prompt_name: run.prompt_name,
    model: run.model,
    config: run.config,
    started_at: run.started_at,
    completed_at: run.completed_at,
    pass_rate: run.pass_rate,
    avg_latency_ms: run.avg_latency_ms,
    cost_usd: run.cost_usd,
    summary: summarizeEvalRun(run),
    results: run.results.map((result) => ({
      test_case: result.test_case,
      prompt_name: result.prompt_name,
      trial: result.trial,
      system_prompt: result.system_prompt,
      input_text: result.input_text,
      output: result.output,
      metrics: result.metrics,
      passed: result.passed,
      latency_ms: result.latency_ms,
      tokens_in: result.tokens_in,
      tokens_out: result.tokens_out,
      cost_usd: result.cost_usd,
      error: result.error,
    })),
  };
  return JSON.stringify(document, null, 2);
}
