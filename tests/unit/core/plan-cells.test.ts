import { describe, it, expect } from "vitest";
import { planCells } from "@/lib/core/plan-cells";

describe("planCells", () => {
  it("lists cells row by row, one trial each by default", () => {
    expect(planCells({ rowCount: 2, columnCount: 3 })).toEqual([
      { rowIndex: 0, columnIndex: 0, trial: 0 },
      { rowIndex: 0, columnIndex: 1, trial: 0 },
      { rowIndex: 0, columnIndex: 2, trial: 0 },
      { rowIndex: 1, columnIndex: 0, trial: 0 },
      { rowIndex: 1, columnIndex: 1, trial: 0 },
      { rowIndex: 1, columnIndex: 2, trial: 0 },
    ]);
  });

  it("repeats each cell for every trial, numbered from 0, before moving on", () => {
    expect(planCells({ rowCount: 1, columnCount: 2, trials: 3 })).toEqual([
      { rowIndex: 0, columnIndex: 0, trial: 0 },
      { rowIndex: 0, columnIndex: 0, trial: 1 },
      { rowIndex: 0, columnIndex: 0, trial: 2 },
      { rowIndex: 0, columnIndex: 1, trial: 0 },
      { rowIndex: 0, columnIndex: 1, trial: 1 },
      { rowIndex: 0, columnIndex: 1, trial: 2 },
    ]);
  });

  it("plans rows × columns × trials unique cells", () => {
    const cells = planCells({ rowCount: 50, columnCount: 4, trials: 2 });
    expect(cells).toHaveLength(400);
    expect(new Set(cells.map((cell) => `${cell.rowIndex}:${cell.columnIndex}:${cell.trial}`)).size).toBe(400);
    expect(cells.at(-1)).toEqual({ rowIndex: 49, columnIndex: 3, trial: 1 });
  });

  it("plans nothing for an empty dataset or no models", () => {
    expect(planCells({ rowCount: 0, columnCount: 4 })).toEqual([]);
    expect(planCells({ rowCount: 10, columnCount: 0 })).toEqual([]);
  });

  it("rejects negative or fractional counts", () => {
    expect(() => planCells({ rowCount: -1, columnCount: 1 })).toThrow(RangeError);
    expect(() => planCells({ rowCount: 1.5, columnCount: 1 })).toThrow(RangeError);
    expect(() => planCells({ rowCount: 1, columnCount: -2 })).toThrow(RangeError);
    expect(() => planCells({ rowCount: 1, columnCount: Number.NaN })).toThrow(RangeError);
    expect(() => planCells({ rowCount: Infinity, columnCount: 1 })).toThrow(RangeError);
    expect(() => planCells({ rowCount: 1, columnCount: 1, trials: 1.5 })).toThrow(RangeError);
    expect(() => planCells({ rowCount: 1, columnCount: 1, trials: -1 })).toThrow(RangeError);
  });

  it("rejects zero trials, which would plan a run with no calls", () => {
    expect(() => planCells({ rowCount: 1, columnCount: 1, trials: 0 })).toThrow(/trials/);
  });
});
