// The one rule for a column's average grade, used by the grid's summary row, the history and the
// compare view, so no two views of one run disagree (a run once read 0.20 in the grid and 1.00 in
// the history, which left malformed cells out).

/** Cell statuses that are final and may carry a grade; skipped, cancelled and unfinished cells never count. */
const GRADABLE_STATUSES: ReadonlySet<string> = new Set(["ok", "warning", "error", "malformed"]);

/**
 * Cells of one column that count alike: one status, graded by hand or not, with the sum and the
 * number of their grades (a person's where there is one, else the grader's). A single cell is a
 * group of one; a database sums its cells by status and hand grade into a few groups.
 */
export interface GradeGroup {
  status: string;
  /** True when these cells carry a person's grade, which overrides the grader's and a malformed 0. */
  byHand: boolean;
  cells: number;
  /** Sum of the grades of the cells that have one. */
  gradeSum: number;
  /** How many of the cells have a grade. */
  gradedCells: number;
}

/** A column's average grade and what went into it. */
export interface GradeAverage {
  /** Null when no cell counts. */
  average: number | null;
  /** Cells counted in the average. */
  counted: number;
  /** Of them, graded by a person. */
  byHand: number;
  /** Of them, malformed answers without a person's grade, counted as 0 (the spec's rule). */
  malformed: number;
}

/**
 * The average grade of a column: a person's grade first, then 0 for a malformed answer (the spec
 * counts it as a fail), then the grader's grade when the run's grades come from a grader
 * (graderGrades; without one, only hand grades and malformed zeros count). Cells with no grade
 * (an error, a grader that failed, nobody graded) are left out.
 */
export function averageGrade(groups: Iterable<GradeGroup>, { graderGrades }: { graderGrades: boolean }): GradeAverage {
  let sum = 0;
  let counted = 0;
  let byHand = 0;
  let malformed = 0;
  for (const group of groups) {
    if (!GRADABLE_STATUSES.has(group.status) || group.cells === 0) continue;
    if (group.byHand) {
      sum += group.gradeSum;
      counted += group.gradedCells;
      byHand += group.gradedCells;
    } else if (group.status === "malformed") {
      counted += group.cells;
      malformed += group.cells;
    } else if (graderGrades) {
      sum += group.gradeSum;
      counted += group.gradedCells;
    }
  }
  return { average: counted === 0 ? null : sum / counted, counted, byHand, malformed };
}

/** The group of one cell, from its status, the grader's grade and a person's. */
export function gradeGroupOfCell({
  status,
  grade,
  manualGrade,
}: {
  status: string;
  grade: number | null;
  manualGrade: number | null;
}): GradeGroup {
  const value = manualGrade ?? grade;
  return { status, byHand: manualGrade !== null, cells: 1, gradeSum: value ?? 0, gradedCells: value === null ? 0 : 1 };
}
