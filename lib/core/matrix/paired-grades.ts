// The paired difference between two sides of a matrix comparison (two prompt versions on one
// model, or two models on one prompt version), over the batch's inputs both sides graded: the
// eval suites' tested statistics (compareEvalRuns), so comparison.md of an eval suite, the
// history's compare and a matrix's comparisons never compute an interval two ways. One rule for
// the verdict (differenceVerdict): a pass-rate difference needs Newcombe's interval to exclude 0
// and the exact McNemar p under 0.05; a score's, its paired bootstrap interval to exclude 0.
import type { EvalRun, Interval } from "@/lib/core/eval/eval-run";
import { compareEvalRuns, type CompareOptions } from "@/lib/core/eval/stats/compare-eval-runs";
import { differenceVerdict, type DifferenceVerdict } from "@/lib/core/eval/stats/difference-verdict";
import { gradedEvalRun } from "@/lib/core/eval/stats/graded-eval-run";

/** One graded eval of a side, by its input: a grader's grade from 0 to 1, or the metrics' scores and pass. */
export type InputGrade = { inputId: string; grade: number } | { inputId: string; passed: boolean; scores: Record<string, number> };

/** One measure compared, candidate minus baseline. */
export interface PairedMeasure {
  /** "pass rate", "mean grade" (a grader's grades that are not all 0 or 1), or a metric's name (its mean score). */
  measure: string;
  /** A rate (shown in percent and points) or a mean from 0 to 1. */
  kind: "rate" | "mean";
  baseline: number;
  candidate: number;
  difference: number;
  /** The 95% interval of the difference. */
  interval: Interval;
  /** Newcombe's interval for paired proportions, or the paired bootstrap (10,000 resamples, fixed seed). */
  method: "newcombe" | "bootstrap";
  /** The exact McNemar p of a pass rate; null for a mean. */
  mcnemarP: number | null;
  verdict: DifferenceVerdict;
}

/** Two sides compared: how many inputs both graded, and each measure. */
export interface PairedGrades {
  pairedInputs: number;
  /** Empty when no input was graded on both sides. */
  measures: PairedMeasure[];
}

const GRADE = "grade";

/**
 * Compares two sides' grades paired by input (inputs graded on only one side are left out). A
 * grader's grades: the pass rate when every paired grade is 0 or 1 (pass / fail), else the mean
 * grade. The metrics': the pass rate by the pass rule, then each metric's mean score.
 */
export function pairedGrades(
  baseline: readonly InputGrade[],
  candidate: readonly InputGrade[],
  options: CompareOptions = {},
): PairedGrades {
  const candidateInputs = new Set(candidate.map((grade) => grade.inputId));
  const shared = new Set(baseline.map((grade) => grade.inputId).filter((id) => candidateInputs.has(id)));
  const before = baseline.filter((grade) => shared.has(grade.inputId));
  const after = candidate.filter((grade) => shared.has(grade.inputId));
  if (shared.size === 0) return { pairedInputs: 0, measures: [] };
  const comparison = compareEvalRuns(asEvalRun(before), asEvalRun(after), options);
  const rate = comparison.pass_rate;
  const passRate: PairedMeasure = {
    measure: "pass rate",
    kind: "rate",
    baseline: rate.baseline.value,
    candidate: rate.candidate.value,
    difference: rate.difference,
    interval: rate.interval,
    method: rate.method,
    mcnemarP: rate.mcnemar_p_value,
    verdict: differenceVerdict(rate.interval, rate.mcnemar_p_value),
  };
  const means = comparison.scores.map((score): PairedMeasure => ({
    measure: score.metric,
    kind: "mean",
    baseline: score.baseline.value,
    candidate: score.candidate.value,
    difference: score.difference,
    interval: score.interval,
    method: "bootstrap",
    mcnemarP: null,
    verdict: differenceVerdict(score.interval),
  }));
  const graded = [...before, ...after].every((grade) => "grade" in grade);
  if (!graded) return { pairedInputs: comparison.paired_cases, measures: [passRate, ...means] };
  const passFail = [...before, ...after].every((grade) => "grade" in grade && (grade.grade === 0 || grade.grade === 1));
  const meanGrade = means.find((score) => score.measure === GRADE)!;
  return { pairedInputs: comparison.paired_cases, measures: [passFail ? passRate : { ...meanGrade, measure: "mean grade" }] };
}

/** A side's grades as the eval statistics read a run: a test case per input, one trial each. */
function asEvalRun(grades: readonly InputGrade[]): EvalRun {
  return gradedEvalRun(
    grades.map((grade) => ({
      testCase: grade.inputId,
      trial: 1,
      metrics: "grade" in grade ? { [GRADE]: grade.grade } : grade.scores,
      passed: "grade" in grade ? grade.grade === 1 : grade.passed,
    })),
  );
}
