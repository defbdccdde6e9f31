// The workbench history's compare of two runs on one dataset, paired by dataset row: each model's
// grades handed to the eval suites' tested statistics (compareEvalRuns), so the history and
// comparison.md never compute an interval two ways.
import type { Estimate, Interval } from "@/lib/core/eval/eval-run";
import { compareEvalRuns, type CompareOptions } from "@/lib/core/eval/stats/compare-eval-runs";
import type { EvalRun } from "@/lib/core/eval/eval-run";
import { gradedEvalRun } from "@/lib/core/eval/stats/graded-eval-run";

/** One graded cell of a run: its model, dataset row, trial and grade (a person's first, else the grader's). */
export type GradedCell = { provider: string; model: string; rowIndex: number; trial: number; grade: number };

/** One side of a paired compare: the run's dataset and its graded cells. */
export type RunGrades = { datasetId: string | null; cells: readonly GradedCell[] };

/** How one model compares across the two runs, after minus before. */
export type PairedModelComparison = {
  provider: string;
  model: string;
  /** pass/fail grades (every grade 0 or 1: thumbs, a grader's pass) or numeric grades. */
  kind: "pass rate" | "mean grade";
  /** Dataset rows graded in both runs. */
  pairedRows: number;
  before: Estimate;
  after: Estimate;
  difference: number;
  interval: Interval;
  /** "newcombe" with one trial a row, "bootstrap" (10,000 resamples, fixed seed) otherwise or for numeric grades. */
  method: "newcombe" | "bootstrap";
  /** The exact McNemar p for pass/fail with one trial a row; null otherwise. */
  mcnemarP: number | null;
  /** Paired rows a difference of this size needs at 80% power; null for no difference. */
  casesNeeded: number | null;
  distinguishable: boolean;
};

/** The compare of two runs: paired per model, or why it cannot be. */
export type PairedRunComparison = { paired: true; models: PairedModelComparison[] } | { paired: false; reason: string };

/**
 * Pairs the cells of two runs by dataset row and model (models both runs graded, in the later
 * run's order) and compares each model's grades: the pass rate when every grade of both sides is
 * 0 or 1, else the mean grade. Rows graded in only one run are left out.
 */
export function comparePairedRuns(before: RunGrades, after: RunGrades, options: CompareOptions = {}): PairedRunComparison {
  if (!before.datasetId || !after.datasetId) {
    return { paired: false, reason: "Paired statistics need both runs on a dataset; at least one of these runs had none." };
  }
  if (before.datasetId !== after.datasetId) {
    return {
      paired: false,
      reason: "These runs used different datasets, so their rows cannot be paired: compare two runs on the same dataset.",
    };
  }
  const beforeByModel = byModel(before.cells);
  const afterByModel = byModel(after.cells);
  const models: PairedModelComparison[] = [];
  for (const [key, afterCells] of afterByModel) {
    const beforeCells = beforeByModel.get(key);
    if (!beforeCells) continue;
    const rows = new Set(afterCells.map((cell) => cell.rowIndex));
    const shared = new Set(beforeCells.map((cell) => cell.rowIndex).filter((row) => rows.has(row)));
    if (shared.size === 0) continue;
    const beforeShared = beforeCells.filter((cell) => shared.has(cell.rowIndex));
    const afterShared = afterCells.filter((cell) => shared.has(cell.rowIndex));
    const passFail = [...beforeShared, ...afterShared].every((cell) => cell.grade === 0 || cell.grade === 1);
    const comparison = compareEvalRuns(asEvalRun(beforeShared), asEvalRun(afterShared), options);
    const { provider, model } = afterCells[0];
    if (passFail) {
      const rate = comparison.pass_rate;
      models.push({
        provider,
        model,
        kind: "pass rate",
        pairedRows: comparison.paired_cases,
        before: rate.baseline,
        after: rate.candidate,
        difference: rate.difference,
        interval: rate.interval,
        method: rate.method,
        mcnemarP: rate.mcnemar_p_value,
        casesNeeded: rate.cases_needed,
        distinguishable: rate.distinguishable,
      });
    } else {
      const score = comparison.scores.find((entry) => entry.metric === GRADE)!;
      models.push({
        provider,
        model,
        kind: "mean grade",
        pairedRows: comparison.paired_cases,
        before: score.baseline,
        after: score.candidate,
        difference: score.difference,
        interval: score.interval,
        method: "bootstrap",
        mcnemarP: null,
        casesNeeded: score.cases_needed,
        distinguishable: score.distinguishable,
      });
    }
  }
  return { paired: true, models };
}

const GRADE = "grade";

function byModel(cells: readonly GradedCell[]): Map<string, GradedCell[]> {
  const models = new Map<string, GradedCell[]>();
  for (const cell of cells) {
    const key = `${cell.provider}\u0000${cell.model}`;
    models.set(key, [...(models.get(key) ?? []), cell]);
  }
  return models;
}

/** A model's cells as the eval statistics read a run: a test case per dataset row, a result per trial. */
function asEvalRun(cells: readonly GradedCell[]): EvalRun {
  return gradedEvalRun(
    [...cells]
      .sort((left, right) => left.rowIndex - right.rowIndex || left.trial - right.trial)
      .map((cell) => ({
        testCase: String(cell.rowIndex),
        trial: cell.trial + 1,
        metrics: { [GRADE]: cell.grade },
        passed: cell.grade === 1,
      })),
  );
}
