import { describe, expect, it } from "vitest";
import { effectiveGrade, shownCellsByColumn, summarizeColumn } from "@/lib/client/column-summary";
import { makeCell } from "./grid-cell-factory";

describe("effectiveGrade", () => {
  it("prefers a person's grade over the grader's", () => {
    expect(effectiveGrade(makeCell({ grade: 0.3, manualGrade: 1 }), "grader")).toBe(1);
    expect(effectiveGrade(makeCell({ grade: 0.9, manualGrade: 0 }), "grader")).toBe(0);
  });

  it("counts a malformed answer as 0 unless a person graded it", () => {
    expect(effectiveGrade(makeCell({ status: "malformed", grade: null }), "grader")).toBe(0);
    expect(effectiveGrade(makeCell({ status: "malformed", grade: null }), "manual")).toBe(0);
    expect(effectiveGrade(makeCell({ status: "malformed", manualGrade: 1 }), "manual")).toBe(1);
  });

  it("uses the grader's grade only in grader mode, and nothing for unfinished cells", () => {
    expect(effectiveGrade(makeCell({ grade: 0.7 }), "grader")).toBe(0.7);
    expect(effectiveGrade(makeCell({ grade: 0.7 }), "manual")).toBeNull();
    expect(effectiveGrade(makeCell({ status: "running", manualGrade: 1 }), "manual")).toBeNull();
  });
});

describe("summarizeColumn", () => {
  it("averages grades with hand grades overriding and malformed counting as 0", () => {
    const cells = [
      makeCell({ grade: 1 }),
      makeCell({ grade: 0.2, manualGrade: 1 }),
      makeCell({ status: "malformed", grade: null }),
      makeCell({ graderStatus: "running", grade: null }),
      makeCell({ status: "queued", grade: null }),
    ];
    const summary = summarizeColumn(cells, "grade", "grader");
    expect(summary.value).toBe("0.67");
    expect(summary.numeric).toBeCloseTo(2 / 3);
    expect(summary.detail).toBe("3 graded");
    expect(summary.title).toContain("1 graded by hand");
    expect(summary.title).toContain("1 malformed, counted as 0");
  });

  it("averages only hand grades (and malformed cells) in manual mode", () => {
    const cells = [makeCell({ grade: 0.9 }), makeCell({ manualGrade: 1 }), makeCell({ manualGrade: 0 }), makeCell({ manualGrade: 1 })];
    const summary = summarizeColumn(cells, "grade", "manual");
    expect(summary.value).toBe("0.67");
    expect(summary.detail).toBe("3 graded");
  });

  it("shows a dash when no cell is graded", () => {
    const summary = summarizeColumn([makeCell(), makeCell()], "grade", "manual");
    expect(summary).toMatchObject({ value: "—", detail: "0 graded", numeric: null });
  });

  it("averages tokens in | out, marking estimates", () => {
    const cells = [
      makeCell({ tokensIn: 12_000, tokensOut: 400 }),
      makeCell({ tokensIn: 12_000, tokensOut: 600, tokensEstimated: true }),
      makeCell({ status: "error", tokensIn: null, tokensOut: null }),
    ];
    const summary = summarizeColumn(cells, "tokens", "manual");
    expect(summary.value).toBe("~12k | ~0.5k");
    expect(summary.detail).toBe("2 cells");
    expect(summary.title).toContain("total 24,000 in, 1,000 out");
  });

  it("averages cost per priced cell, gives the total, and counts cells without a price", () => {
    const cells = [makeCell({ costUsd: 0.002 }), makeCell({ costUsd: 0.004 }), makeCell({ costUsd: null })];
    const summary = summarizeColumn(cells, "cost", "manual");
    expect(summary.value).toBe("$0.003");
    expect(summary.numeric).toBeCloseTo(0.003);
    expect(summary.detail).toBe("2 cells");
    expect(summary.title).toBe("Average cost per cell; total $0.006 over 2 cells; 1 cell without a price");
  });

  it("says no price when no cell has one", () => {
    const summary = summarizeColumn([makeCell({ costUsd: null })], "cost", "manual");
    expect(summary).toMatchObject({ value: "—", detail: "no price", numeric: null });
  });

  it("averages latency over finished cells", () => {
    const cells = [makeCell({ latencyMs: 800 }), makeCell({ latencyMs: 1600 }), makeCell({ status: "running", latencyMs: 99_000 })];
    const summary = summarizeColumn(cells, "latency", "manual");
    expect(summary.value).toBe("1.2 s");
    expect(summary.numeric).toBe(1200);
    expect(summary.detail).toBe("2 cells");
  });
});

describe("shownCellsByColumn", () => {
  it("groups the shown cells by column and skips other trials", () => {
    const a = makeCell({ row: 0, column: 0, trial: 0 });
    const b = makeCell({ row: 1, column: 0, trial: 0 });
    const c = makeCell({ row: 0, column: 1, trial: 0 });
    const hidden = makeCell({ row: 0, column: 1, trial: 1 });
    const cells = { "0:0:0": a, "1:0:0": b, "0:1:0": c, "0:1:1": hidden };
    const grouped = shownCellsByColumn(cells, { "0:0": "0:0:0", "1:0": "1:0:0", "0:1": "0:1:0" });
    expect(grouped.get(0)).toEqual([a, b]);
    expect(grouped.get(1)).toEqual([c]);
    expect(grouped.has(2)).toBe(false);
  });
});
