import { describe, expect, it } from "vitest";
import { comparePairedRuns, type GradedCell } from "@/lib/core/history/paired-run-comparison";

// The numbers below are worked by hand from the formulas (Wilson, Newcombe's method 10, the exact
// McNemar test, Connor's sample size, the clustered standard error), not read off the code.

const cells = (model: string, grades: ReadonlyArray<number | readonly number[]>): GradedCell[] =>
  grades.flatMap((grade, rowIndex) =>
    (typeof grade === "number" ? [grade] : grade).map((value, trial) => ({ provider: "mock", model, rowIndex, trial, grade: value })),
  );

describe("comparePairedRuns", () => {
  it("pairs pass/fail grades by row: Newcombe's interval, the exact McNemar p, each side's rate and error, the cases needed", () => {
    // 10 rows: both pass 6, only after 3, neither 1 (a=6, b=0, c=3, d=1).
    const before = cells("fast", [1, 1, 1, 1, 1, 1, 0, 0, 0, 0]);
    const after = cells("fast", [1, 1, 1, 1, 1, 1, 1, 1, 1, 0]);
    const result = comparePairedRuns({ datasetId: "d", cells: before }, { datasetId: "d", cells: after });
    if (!result.paired) throw new Error(result.reason);
    const [fast] = result.models;
    expect(fast).toMatchObject({ provider: "mock", model: "fast", kind: "pass rate", pairedRows: 10, method: "newcombe" });
    expect(fast.before.value).toBeCloseTo(0.6, 12);
    expect(fast.before.standard_error).toBeCloseTo(Math.sqrt((0.6 * 0.4) / 10), 12);
    expect(fast.after.value).toBeCloseTo(0.9, 12);
    expect(fast.after.standard_error).toBeCloseTo(Math.sqrt((0.9 * 0.1) / 10), 12);
    expect(fast.difference).toBeCloseTo(0.3, 12);
    // Wilson 9/10 = [0.5958, 0.9821], 6/10 = [0.3127, 0.8318]; phi = (6 - 5) / sqrt(9 * 1 * 6 * 4).
    expect(fast.interval.low).toBeCloseTo(-0.0696656, 6);
    expect(fast.interval.high).toBeCloseTo(0.5934103, 6);
    // Three discordant rows all one way: 2 x 0.5^3.
    expect(fast.mcnemarP).toBeCloseTo(0.25, 12);
    // Connor: psi = 0.3, (1.96 sqrt(0.3) + 0.8416 sqrt(0.3 - 0.09))^2 / 0.09 = 23.66.
    expect(fast.casesNeeded).toBe(24);
    expect(fast.distinguishable).toBe(false);
  });

  it("calls a clear pass-rate difference distinguishable", () => {
    const before = cells("fast", [...Array(5).fill(1), ...Array(15).fill(0)]);
    const after = cells("fast", Array(20).fill(1));
    const result = comparePairedRuns({ datasetId: "d", cells: before }, { datasetId: "d", cells: after });
    if (!result.paired) throw new Error(result.reason);
    const [fast] = result.models;
    expect(fast.difference).toBeCloseTo(0.75, 12);
    expect(fast.interval.low).toBeCloseTo(0.4783543, 6);
    expect(fast.interval.high).toBeCloseTo(0.8881383, 6);
    expect(fast.mcnemarP).toBeCloseTo(2 * 0.5 ** 15, 15);
    expect(fast.distinguishable).toBe(true);
  });

  it("compares numeric grades by the mean paired difference with the paired bootstrap", () => {
    // Differences 1, 0, 1, 0: a resampled mean is k/4, and 1/16 of resamples (6.25%, above 2.5%)
    // are all 0 and as many all 1, so the percentile interval is [0, 1].
    const result = comparePairedRuns(
      { datasetId: "d", cells: cells("fast", [3, 4, 2, 5]) },
      { datasetId: "d", cells: cells("fast", [4, 4, 3, 5]) },
    );
    if (!result.paired) throw new Error(result.reason);
    const [fast] = result.models;
    expect(fast).toMatchObject({ kind: "mean grade", method: "bootstrap", mcnemarP: null, pairedRows: 4 });
    expect(fast.before.value).toBe(3.5);
    expect(fast.before.standard_error).toBeCloseTo(Math.sqrt(5) / 4, 12);
    expect(fast.after.value).toBe(4);
    expect(fast.after.standard_error).toBeCloseTo(Math.sqrt(2) / 4, 12);
    expect(fast.difference).toBe(0.5);
    expect(fast.interval).toEqual({ low: 0, high: 1 });
    // sd of the differences sqrt(1/3); ((1.96 + 0.8416) sqrt(1/3) / 0.5)^2 = 10.46.
    expect(fast.casesNeeded).toBe(11);
    expect(fast.distinguishable).toBe(false);
  });

  it("clusters the standard error by row when there are several trials, and bootstraps the pass rate", () => {
    const result = comparePairedRuns(
      {
        datasetId: "d",
        cells: cells("fast", [
          [1, 1],
          [0, 0],
          [1, 0],
        ]),
      },
      {
        datasetId: "d",
        cells: cells("fast", [
          [1, 1],
          [1, 1],
          [1, 0],
        ]),
      },
    );
    if (!result.paired) throw new Error(result.reason);
    const [fast] = result.models;
    expect(fast).toMatchObject({ kind: "pass rate", method: "bootstrap", mcnemarP: null, pairedRows: 3 });
    // Mean 0.5; row residual sums 1, -1, 0: sqrt(2) / 6 (unclustered it would be sqrt(0.25 / 6)).
    expect(fast.before.value).toBe(0.5);
    expect(fast.before.standard_error).toBeCloseTo(Math.sqrt(2) / 6, 12);
    expect(fast.difference).toBeCloseTo(1 / 3, 12);
  });

  it("pairs only rows and models both runs graded, in the later run's order", () => {
    const before = [...cells("fast", [1, 0, 1]), ...cells("echo", [1, 1]), ...cells("gone", [1])];
    const after = [...cells("echo", [0, 1, 1]), ...cells("fast", [1, 1]), ...cells("new", [1])];
    const result = comparePairedRuns({ datasetId: "d", cells: before }, { datasetId: "d", cells: after });
    if (!result.paired) throw new Error(result.reason);
    expect(result.models.map((model) => [model.model, model.pairedRows, model.difference])).toEqual([
      ["echo", 2, -0.5],
      ["fast", 2, 0.5],
    ]);
  });

  it("says why two runs cannot be paired: different datasets, or no dataset", () => {
    expect(comparePairedRuns({ datasetId: "a", cells: [] }, { datasetId: "b", cells: [] })).toEqual({
      paired: false,
      reason: "These runs used different datasets, so their rows cannot be paired: compare two runs on the same dataset.",
    });
    expect(comparePairedRuns({ datasetId: null, cells: [] }, { datasetId: "b", cells: [] })).toMatchObject({ paired: false });
  });
});
