import { beforeEach, describe, expect, it } from "vitest";
import { useDraftStore } from "@/lib/client/draft-store";
import type { RunColumn } from "@/lib/client/run-types";

const runColumns: RunColumn[] = [
  { index: 0, provider: "mock", model: "echo", params: {} },
  { index: 1, provider: "mock", model: "fast", params: { temperature: 0.2 } },
];

beforeEach(() => useDraftStore.setState({ columns: [] }));

describe("linkRunColumns", () => {
  it("takes the run's columns when none are set up", () => {
    useDraftStore.getState().linkRunColumns(runColumns);
    expect(useDraftStore.getState().columns.map((column) => [column.model, column.runColumn])).toEqual([
      ["echo", 0],
      ["fast", 1],
    ]);
  });

  it("keeps the columns set up now, showing the run's cells under those with the same model and parameters", () => {
    useDraftStore.getState().setColumns([
      { provider: "mock", model: "fast", params: { temperature: 0.2 } },
      { provider: "mock", model: "echo" },
      // Added after the run: kept, with no cells of it.
      { provider: "mock", model: "slow" },
      // The same model with other parameters is not the run's column.
      { provider: "mock", model: "fast", params: { temperature: 0.9 } },
    ]);
    useDraftStore.getState().linkRunColumns(runColumns);
    expect(useDraftStore.getState().columns.map((column) => [column.model, column.runColumn])).toEqual([
      ["fast", 1],
      ["echo", 0],
      ["slow", null],
      ["fast", null],
    ]);
  });
});
