import { describe, expect, it } from "vitest";
import { runGate, type RunGateState } from "@/lib/client/run-gate";

const ready: RunGateState = { readOnly: false, loading: false, columnCount: 2, runActive: false };

describe("runGate", () => {
  it("lets a loaded workbench with a model and no active run start", () => {
    expect(runGate(ready)).toBeNull();
  });

  it("blocks an earlier run opened from history", () => {
    expect(runGate({ ...ready, readOnly: true })).toBe("This is an earlier run, shown read-only");
  });

  it("blocks while the workbench is loading", () => {
    expect(runGate({ ...ready, loading: true })).toBe("The workbench is still loading");
  });

  it("blocks without a model column", () => {
    expect(runGate({ ...ready, columnCount: 0 })).toBe("Add a model first");
  });

  it("blocks while a run is active", () => {
    expect(runGate({ ...ready, runActive: true })).toBe("A run is active: one run at a time");
  });

  it("says a paused run is paused, not running, and how to go on", () => {
    expect(runGate({ ...ready, runActive: true, runPaused: true })).toBe("The run is paused: resume or cancel it to start another");
  });

  it("gives the first reason when several apply, in the order the tooltip has always used", () => {
    expect(runGate({ readOnly: true, loading: true, columnCount: 0, runActive: true })).toBe("This is an earlier run, shown read-only");
    expect(runGate({ readOnly: false, loading: true, columnCount: 0, runActive: true })).toBe("The workbench is still loading");
    expect(runGate({ readOnly: false, loading: false, columnCount: 0, runActive: true })).toBe("Add a model first");
  });
});
