/**
 * `batches/{batch_id}/summary.json` (specs/matrix-comparisons.md, "Batch Summary Schema"): the
 * spec's keys in the spec's order, the inputs still under config.transcripts, then what the spec
 * leaves out and the matrix needs: errors ([{run_id, message}], which the all-failed message
 * points to), and how many runs and which models had no price.
 *
 * total_cost_usd sums the runs whose cost is known; an unpriced model's runs are counted in
 * unpriced_runs instead of adding $0. It is null when no run has a known cost but some were
 * unpriced, so an all-unpriced batch never reads as free. Costs are rounded to a millionth of a
 * dollar, durations to a millisecond: a sum of floats would otherwise end in ...0000000001.
 * With a grader or metrics, "grading" is added last (BatchGrading); the spec's keys stay as they are.
 */
import { roundTo } from "@/lib/formats/matrix/run-file";
import { inputGrade, succeeded, unpriced, type MatrixRunRecord } from "@/lib/formats/matrix/matrix-run-record";

/** The summary as written. */
export interface BatchSummaryDocument {
  batch_id: string;
  timestamp: string;
  total_runs: number;
  successful_runs: number;
  failed_runs: number;
  total_tokens_input: number;
  total_tokens_output: number;
  total_cost_usd: number | null;
  duration_seconds: number;
  config: { prompts: string[]; models: string[]; transcripts: string[] };
  runs: string[];
  errors: Array<{ run_id: string; message: string }>;
  unpriced_runs: number;
  unpriced_models: string[];
  /** Added with a grader or metrics (never in place of a spec key): see batchGrading. */
  grading?: BatchGrading;
}

/**
 * How the batch's evals were graded: how many have a grade (a grader's) or a verdict (the
 * metrics'), how many have none (failed evals, failed graders), and the mean grade, or the runs
 * that passed and each metric's mean score over the runs that have it. A mean of nothing is null.
 */
export type BatchGrading =
  | { by: "grader"; graded_runs: number; ungraded_runs: number; mean_grade: number | null }
  | { by: "metrics"; graded_runs: number; ungraded_runs: number; passed_runs: number; mean_scores: Record<string, number | null> };

/**
 * The summary of a batch. runs are the finished evals in the plan's order; config is the matrix
 * as planned (prompt versions, models as written, input ids); durationSeconds is the batch's
 * wall-clock time.
 */
export function batchSummary({
  batchId,
  timestamp,
  config,
  runs,
  durationSeconds,
}: {
  batchId: string;
  timestamp: string;
  config: { prompts: readonly string[]; models: readonly string[]; inputs: readonly string[] };
  runs: readonly MatrixRunRecord[];
  durationSeconds: number;
}): BatchSummaryDocument {
  const successful = runs.filter(succeeded).length;
  const costs = runs.map((run) => run.costUsd).filter((cost): cost is number => cost !== null);
  const unpricedRuns = runs.filter(unpriced);
  const unpricedModels = [...new Set(unpricedRuns.map((run) => run.model.name))];
  return {
    batch_id: batchId,
    timestamp,
    total_runs: runs.length,
    successful_runs: successful,
    failed_runs: runs.length - successful,
    total_tokens_input: sum(runs.map((run) => run.tokens.input ?? 0)),
    total_tokens_output: sum(runs.map((run) => run.tokens.output ?? 0)),
    total_cost_usd: costs.length === 0 && unpricedRuns.length > 0 ? null : roundTo(sum(costs), 6),
    duration_seconds: roundTo(durationSeconds, 3),
    config: { prompts: [...config.prompts], models: [...config.models], transcripts: [...config.inputs] },
    runs: runs.map((run) => run.runId),
    errors: runs
      .filter((run) => !succeeded(run))
      .map((run) => ({ run_id: run.runId, message: run.error ?? "The model returned no output" })),
    unpriced_runs: unpricedRuns.length,
    unpriced_models: unpricedModels,
    ...(runs.some((run) => run.grading) ? { grading: batchGrading(runs) } : {}),
  };
}

function batchGrading(runs: readonly MatrixRunRecord[]): BatchGrading {
  const grades = runs.map(inputGrade).filter((grade) => grade !== null);
  const mean = (values: number[]) => (values.length === 0 ? null : roundTo(sum(values) / values.length, 6));
  const ungraded = runs.length - grades.length;
  if (runs.some((run) => run.grading?.by === "grader")) {
    return {
      by: "grader",
      graded_runs: grades.length,
      ungraded_runs: ungraded,
      mean_grade: mean(grades.map((grade) => ("grade" in grade ? grade.grade : 0))),
    };
  }
  const names = runs.find((run) => run.grading?.by === "metrics")?.grading;
  const metrics = names?.by === "metrics" ? names.metrics : [];
  const scored = grades.filter((grade) => "passed" in grade);
  return {
    by: "metrics",
    graded_runs: grades.length,
    ungraded_runs: ungraded,
    passed_runs: scored.filter((grade) => grade.passed).length,
    mean_scores: Object.fromEntries(
      metrics.map((name) => [name, mean(scored.flatMap((grade) => (name in grade.scores ? [grade.scores[name]] : [])))]),
    ),
  };
}

/** The summary's text: two-space JSON with a final newline. */
export function batchSummaryJson(summary: BatchSummaryDocument): string {
  return `${JSON.stringify(summary, null, 2)}\n`;
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
