import type { EvalRun } from "@/lib/core/eval/eval-run";
import { pythonFloatRepr } from "@/lib/core/eval/format-template";
import { writeCsv, type CsvValue } from "@/lib/formats/write-csv";

/** The columns before the metrics, in the spec's order (trial and cost_usd added). */
export const EVAL_CSV_COLUMNS = [
  "run_id",
  "prompt_name",
  "test_case",
  "trial",
  "passed",
  "latency_ms",
  "tokens_in",
  "tokens_out",
  "cost_usd",
  "error",
] as const;

/**
 * The CSV export: one row per result, then a `metric_{name}` column per metric in the order the
 * results first name them (a result without that metric, an error, leaves it empty). Values as
 * the spec's pandas writes them: True/False, floats as Python prints them (1.0, 245.3), None as
 * an empty field. Verbatim: the user's data, so no formula neutralising (DESIGN.md).
 */
export function evalRunToCsv(run: EvalRun): string {
  const metricNames: string[] = [];
  for (const result of run.results) {
    for (const name of Object.keys(result.metrics)) if (!metricNames.includes(name)) metricNames.push(name);
  }
  const header = [...EVAL_CSV_COLUMNS, ...metricNames.map((name) => `metric_${name}`)];
  const rows = run.results.map((result): CsvValue[] => [
    run.run_id,
    result.prompt_name,
    result.test_case,
    String(result.trial),
    result.passed ? "True" : "False",
    pythonFloatRepr(result.latency_ms),
    String(result.tokens_in),
    String(result.tokens_out),
    result.cost_usd === null ? "" : pythonFloatRepr(result.cost_usd),
    result.error ?? "",
    ...metricNames.map((name) => (name in result.metrics ? pythonFloatRepr(result.metrics[name]) : "")),
  ]);
  return writeCsv([header, ...rows]);
}
