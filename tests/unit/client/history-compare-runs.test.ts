import { describe, expect, it } from "vitest";
import type { PromptRunHistoryEntry } from "@/lib/api/types";
import {
  compareRuns,
  formatCostChange,
  formatGrade,
  formatGradeChange,
  formatLatencyChange,
  type RunModelStats,
} from "@/lib/client/compare-runs";

function stats(column: number, provider: string, model: string, values: Partial<RunModelStats> = {}): RunModelStats {
  return {
    column,
    provider,
    model,
    averageGrade: 0.5,
    gradedCells: 4,
    averageLatencyMs: 300,
    totalCostUsd: 0.01,
    graderCostUsd: null,
    ...values,
  };
}

function run(id: string, models: RunModelStats[]): PromptRunHistoryEntry {
  return {
    id,
    status: "completed",
    version: 1,
    versionName: null,
    versionSince: null,
    promptVersionId: null,
    createdAt: "2025-11-26T14:02:00.000Z",
    rowCount: 4,
    graderName: null,
    graderModel: null,
    models,
  };
}

describe("compareRuns", () => {
  it("matches models by provider and model, whatever their column, and computes after - before", () => {
    const before = run("a", [stats(0, "openai", "gpt-4o", { averageGrade: 0.71 }), stats(1, "anthropic", "claude", { averageGrade: 0.9 })]);
    const after = run("b", [
      stats(0, "anthropic", "claude", { averageGrade: 0.85, averageLatencyMs: 250, totalCostUsd: 0.02 }),
      stats(1, "openai", "gpt-4o", { averageGrade: 0.83, averageLatencyMs: 420, totalCostUsd: 0.004 }),
    ]);
    const changes = compareRuns(before, after);
    expect(changes.map((change) => [change.model, change.before?.column, change.after?.column])).toEqual([
      ["claude", 1, 0],
      ["gpt-4o", 0, 1],
    ]);
    expect(changes[0].gradeChange).toBeCloseTo(-0.05, 10);
    expect(changes[0].latencyChangeMs).toBe(-50);
    expect(changes[0].costChangeUsd).toBeCloseTo(0.01, 10);
    expect(changes[1].gradeChange).toBeCloseTo(0.12, 10);
    expect(changes[1].latencyChangeMs).toBe(120);
    expect(changes[1].costChangeUsd).toBeCloseTo(-0.006, 10);
  });

  it("does not match the same model name from another provider", () => {
    const changes = compareRuns(run("a", [stats(0, "groq", "llama-3")]), run("b", [stats(0, "openrouter", "llama-3")]));
    expect(changes.map((change) => [change.provider, change.before !== null, change.after !== null])).toEqual([
      ["openrouter", false, true],
      ["groq", true, false],
    ]);
    expect(changes.every((change) => change.gradeChange === null && change.costChangeUsd === null)).toBe(true);
  });

  it("matches a model in several columns by column order and numbers its occurrences", () => {
    const before = run("a", [
      stats(2, "openai", "gpt-4o", { averageGrade: 0.3 }),
      stats(0, "openai", "gpt-4o", { averageGrade: 0.1 }),
      stats(1, "mock", "echo", { averageGrade: 0.2 }),
    ]);
    const after = run("b", [stats(0, "openai", "gpt-4o", { averageGrade: 0.4 }), stats(1, "openai", "gpt-4o", { averageGrade: 0.6 })]);
    const changes = compareRuns(before, after);
    expect(changes.map((change) => [change.model, change.occurrence, change.before?.column ?? null, change.after?.column ?? null])).toEqual(
      [
        ["gpt-4o", 1, 0, 0],
        ["gpt-4o", 2, 2, 1],
        ["echo", 1, 1, null],
      ],
    );
    expect(changes[0].gradeChange).toBeCloseTo(0.3, 10);
    expect(changes[1].gradeChange).toBeCloseTo(0.3, 10);
  });

  it("lists a model only the earlier run had after the later run's models, with its later occurrences", () => {
    const before = run("a", [stats(0, "openai", "gpt-4o"), stats(1, "openai", "gpt-4o")]);
    const after = run("b", [stats(0, "openai", "gpt-4o")]);
    const changes = compareRuns(before, after);
    expect(changes.map((change) => [change.occurrence, change.before?.column ?? null, change.after?.column ?? null])).toEqual([
      [1, 0, 0],
      [2, 1, null],
    ]);
  });

  it("has no grade change when either side has no graded cells", () => {
    const before = run("a", [stats(0, "openai", "gpt-4o", { averageGrade: null, gradedCells: 0 })]);
    const after = run("b", [stats(0, "openai", "gpt-4o", { averageGrade: 0.8 })]);
    expect(compareRuns(before, after)[0].gradeChange).toBeNull();
    expect(compareRuns(after, before)[0].gradeChange).toBeNull();
    expect(compareRuns(before, after)[0].latencyChangeMs).toBe(0);
  });

  it("has no cost or latency change when a side's is unknown", () => {
    const before = run("a", [stats(0, "openai", "gpt-4o", { totalCostUsd: null, averageLatencyMs: null })]);
    const after = run("b", [stats(0, "openai", "gpt-4o")]);
    expect(compareRuns(before, after)[0]).toMatchObject({ costChangeUsd: null, latencyChangeMs: null, gradeChange: 0 });
  });
});

describe("change formatting", () => {
  it("shows grades with two decimals, or a dash when there are none", () => {
    expect(formatGrade(0.8349)).toBe("0.83");
    expect(formatGrade(1)).toBe("1.00");
    expect(formatGrade(null)).toBe("\u2014");
  });

  it("signs grade changes with + or a true minus; a rise is better", () => {
    expect(formatGradeChange(0.12)).toEqual({ text: "+0.12", tone: "better" });
    expect(formatGradeChange(-0.05)).toEqual({ text: "\u22120.05", tone: "worse" });
    expect(formatGradeChange(0.004)).toEqual({ text: "0.00", tone: "flat" });
    expect(formatGradeChange(-0.0049)).toEqual({ text: "0.00", tone: "flat" });
    expect(formatGradeChange(null)).toEqual({ text: "\u2014", tone: "unknown" });
  });

  it("calls slower and dearer worse, faster and cheaper better", () => {
    expect(formatLatencyChange(120)).toEqual({ text: "+120 ms", tone: "worse" });
    expect(formatLatencyChange(-1234)).toEqual({ text: "\u22121.2 s", tone: "better" });
    expect(formatLatencyChange(0)).toEqual({ text: "0 ms", tone: "flat" });
    expect(formatLatencyChange(null)).toEqual({ text: "\u2014", tone: "unknown" });
    expect(formatCostChange(0.012)).toEqual({ text: "+$0.012", tone: "worse" });
    expect(formatCostChange(-0.0031)).toEqual({ text: "\u2212$0.0031", tone: "better" });
    expect(formatCostChange(0.1 + 0.2 - 0.3)).toEqual({ text: "$0.00", tone: "flat" });
    expect(formatCostChange(null)).toEqual({ text: "\u2014", tone: "unknown" });
  });
});
