import { describe, expect, it } from "vitest";
import type { PromptRunHistoryEntry } from "@/lib/api/types";
import { describeRun, formatRunDate, formatVersionLabel } from "@/components/history/describe-run";
import { defaultSelection, selectedPair, toggleSelection } from "@/components/history/compare-selection";

const NOW = new Date("2025-12-01T09:00:00Z");

function run(id: string, createdAt: string, values: Partial<PromptRunHistoryEntry> = {}): PromptRunHistoryEntry {
  return {
    id,
    status: "completed",
    version: 6,
    versionName: null,
    versionSince: null,
    promptVersionId: `version-${id}`,
    createdAt,
    rowCount: 24,
    graderName: null,
    graderModel: null,
    models: [],
    ...values,
  };
}

describe("formatVersionLabel", () => {
  it("names the version with the prompt's name it ran under and the date it first ran", () => {
    const since = "2025-11-26T12:20:00.000Z";
    const before = run("a", since, { version: 1, versionName: "summary", versionSince: since });
    const after = run("b", "2025-11-26T12:41:00.000Z", {
      version: 1,
      versionName: "summary-short",
      versionSince: "2025-11-26T12:41:00.000Z",
    });
    expect(formatVersionLabel(before, { timeZone: "UTC", now: NOW })).toBe("summary v1, 26 Nov 12:20");
    expect(formatVersionLabel(after, { timeZone: "UTC", now: NOW })).toBe("summary-short v1, 26 Nov 12:41");
    expect(describeRun(before, { timeZone: "UTC", now: NOW })).toBe("summary v1, 26 Nov 12:20 · 26 Nov 12:20 · completed · 24 rows");
  });

  it("falls back to the number alone for a run without a kept name, and says when there is no version", () => {
    expect(formatVersionLabel(run("a", "2025-11-26T12:20:00.000Z"))).toBe("v6");
    expect(formatVersionLabel(run("a", "2025-11-26T12:20:00.000Z", { version: null, versionName: "x", versionSince: null }))).toBe(
      "no version",
    );
  });
});

describe("describeRun", () => {
  it("names a run by version, start time, status and rows", () => {
    expect(describeRun(run("a", "2025-11-26T14:02:00.000Z"), { timeZone: "UTC", now: NOW })).toBe(
      "v6 · 26 Nov 14:02 · completed · 24 rows",
    );
  });

  it("shows the time in the reader's zone, the year only for another year, and one row in the singular", () => {
    expect(
      describeRun(run("a", "2024-03-05T23:30:00.000Z", { version: null, status: "failed", rowCount: 1 }), {
        timeZone: "Europe/Berlin",
        now: NOW,
      }),
    ).toBe("no version · 6 Mar 2024 00:30 · failed · 1 row");
    expect(formatRunDate("2025-01-09T07:05:00.000Z", { timeZone: "America/New_York", now: NOW })).toBe("9 Jan 02:05");
  });
});

describe("compare selection", () => {
  const runs = [run("c", "2025-11-26T14:02:00Z"), run("b", "2025-11-26T13:00:00Z"), run("a", "2025-11-25T10:00:00Z")];

  it("starts with the newest two runs, or what there is", () => {
    expect(defaultSelection(runs)).toEqual(["c", "b"]);
    expect(defaultSelection(runs.slice(2))).toEqual(["a"]);
    expect(defaultSelection([])).toEqual([]);
  });

  it("keeps at most two runs ticked, dropping the one picked longest ago", () => {
    expect(toggleSelection(["c", "b"], "a")).toEqual(["b", "a"]);
    expect(toggleSelection(["c", "b"], "c")).toEqual(["b"]);
    expect(toggleSelection(["b"], "c")).toEqual(["b", "c"]);
  });

  it("orders the pair earlier first, whatever order they were picked in", () => {
    expect(selectedPair(runs, ["a", "c"])?.map((entry) => entry.id)).toEqual(["a", "c"]);
    expect(selectedPair(runs, ["c", "a"])?.map((entry) => entry.id)).toEqual(["a", "c"]);
    expect(selectedPair(runs, ["c"])).toBeNull();
    expect(selectedPair(runs, ["c", "gone"])).toBeNull();
  });
});
