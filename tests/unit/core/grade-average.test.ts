import { describe, expect, it } from "vitest";
import { averageGrade, gradeGroupOfCell } from "@/lib/core/grade-average";

const cell = (status: string, grade: number | null, manualGrade: number | null = null) => gradeGroupOfCell({ status, grade, manualGrade });

describe("averageGrade", () => {
  it("counts a malformed answer as 0 unless a person graded it, and a person's grade before the grader's", () => {
    const cells = [cell("ok", 0.9), cell("malformed", 0), cell("malformed", null), cell("ok", 0.2, 1), cell("malformed", null, 1)];
    expect(averageGrade(cells, { graderGrades: true })).toEqual({
      average: (0.9 + 0 + 0 + 1 + 1) / 5,
      counted: 5,
      byHand: 2,
      malformed: 2,
    });
  });

  it("leaves out cells without a grade, unfinished, skipped and cancelled ones, and the grader's grades without a grader", () => {
    const cells = [cell("error", null), cell("queued", null), cell("skipped", null, 1), cell("cancelled", null), cell("ok", 0.7)];
    expect(averageGrade(cells, { graderGrades: true })).toEqual({ average: 0.7, counted: 1, byHand: 0, malformed: 0 });
    expect(averageGrade(cells, { graderGrades: false })).toEqual({ average: null, counted: 0, byHand: 0, malformed: 0 });
  });

  it("gives the same average for cells one by one and summed into groups, as a database sums them", () => {
    const cells = [cell("ok", 0.5), cell("ok", 1), cell("malformed", null), cell("malformed", null, 1), cell("ok", 0, 1)];
    const groups = [
      { status: "ok", byHand: false, cells: 2, gradeSum: 1.5, gradedCells: 2 },
      { status: "malformed", byHand: false, cells: 1, gradeSum: 0, gradedCells: 0 },
      { status: "malformed", byHand: true, cells: 1, gradeSum: 1, gradedCells: 1 },
      { status: "ok", byHand: true, cells: 1, gradeSum: 1, gradedCells: 1 },
    ];
    expect(averageGrade(groups, { graderGrades: true })).toEqual(averageGrade(cells, { graderGrades: true }));
  });
});
