import { describe, expect, it } from "vitest";
import { cellMetric, describeCell, describeManualGrade } from "@/components/results/cell-metric";
import { makeCell } from "./grid-cell-factory";

describe("cellMetric", () => {
  it("shows the grader's grade to two decimals, and a hand grade instead when there is one", () => {
    expect(cellMetric(makeCell({ grade: 0.8 }), "grade", "grader")).toMatchObject({ text: "0.80", label: "grade 0.80" });
    expect(cellMetric(makeCell({ grade: 0.8, manualGrade: 0 }), "grade", "grader")).toMatchObject({
      text: "0.00",
      label: "grade 0.00 (graded by hand)",
    });
  });

  it("counts a malformed answer as grade 0", () => {
    expect(cellMetric(makeCell({ status: "malformed" }), "grade", "grader")?.label).toBe("grade 0.00 (malformed counts as 0)");
  });

  it("says when the grader is still working or failed", () => {
    expect(cellMetric(makeCell({ graderStatus: "running" }), "grade", "grader")?.text).toBe("grading…");
    expect(cellMetric(makeCell({ graderStatus: "error", graderError: "429 from grader" }), "grade", "grader")).toEqual({
      text: "grader error",
      label: "grader error",
      title: "429 from grader",
    });
  });

  it("has no grade in manual mode until a person grades", () => {
    expect(cellMetric(makeCell({ grade: 0.5 }), "grade", "manual")).toBeNull();
    expect(cellMetric(makeCell({ manualGrade: 1 }), "grade", "manual")?.text).toBe("1.00");
  });

  it("shows tokens as in | out, marking estimates", () => {
    expect(cellMetric(makeCell({ tokensIn: 12_000, tokensOut: 500 }), "tokens", "manual")?.text).toBe("12k | 0.5k");
    expect(cellMetric(makeCell({ tokensIn: 40, tokensOut: 7, tokensEstimated: true }), "tokens", "manual")).toMatchObject({
      text: "~40 | ~7",
      label: "tokens about 40 in, 7 out",
    });
  });

  it("shows cost, a dash for a call without a price, and nothing for a failed call without tokens", () => {
    expect(cellMetric(makeCell({ costUsd: 0.00012 }), "cost", "manual")?.text).toBe("$0.00012");
    expect(cellMetric(makeCell({ costUsd: null }), "cost", "manual")).toEqual({ text: "—", label: "no price", title: "No price" });
    expect(cellMetric(makeCell({ status: "error", costUsd: null, tokensIn: null, tokensOut: null }), "cost", "manual")).toBeNull();
  });

  it("shows latency, and nothing for cells that made no call", () => {
    expect(cellMetric(makeCell({ latencyMs: 850 }), "latency", "manual")?.text).toBe("850 ms");
    expect(cellMetric(makeCell({ status: "skipped" }), "latency", "manual")).toBeNull();
    expect(cellMetric(makeCell({ status: "running" }), "tokens", "manual")).toBeNull();
  });
});

describe("describeCell", () => {
  it("names the row, column, status and the metric value", () => {
    const cell = makeCell({ grade: 0.8 });
    expect(describeCell({ row: 2, columnName: "openai / gpt-4o", cell, metric: "grade", gradeMode: "grader" })).toBe(
      "Row 3, openai / gpt-4o: ok, grade 0.80",
    );
  });

  it("stays 'Row 1, mock / echo: ok' for an ungraded cell in manual mode", () => {
    expect(describeCell({ row: 0, columnName: "mock / echo", cell: makeCell(), metric: "grade", gradeMode: "manual" })).toBe(
      "Row 1, mock / echo: ok",
    );
  });

  it("adds warnings and says not run for a missing cell", () => {
    const cell = makeCell({ warnings: ["maxTokens ignored"] });
    expect(describeCell({ row: 0, columnName: "m", cell, metric: "latency", gradeMode: "manual" })).toBe(
      "Row 1, m: ok, latency 800 ms, warning: maxTokens ignored",
    );
    expect(describeCell({ row: 4, columnName: "m", cell: undefined, metric: "grade", gradeMode: "manual" })).toBe("Row 5, m: not run");
  });
});

describe("describeManualGrade", () => {
  it("names the three states", () => {
    expect([describeManualGrade(null), describeManualGrade(1), describeManualGrade(0)]).toEqual(["not graded", "pass", "fail"]);
  });
});
