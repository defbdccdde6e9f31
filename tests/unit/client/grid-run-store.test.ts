import { beforeEach, describe, expect, it } from "vitest";
import { useRunStore } from "@/lib/client/run-store";
import type { Run } from "@/lib/api/types";
import { makeCell } from "./grid-cell-factory";

function loadRunWith(cells: Run["cells"]) {
  const run = {
    id: "run-1",
    kind: "prompt",
    status: "running" as const,
    prompt: "p",
    promptVersionId: null,
    promptId: null,
    datasetId: null,
    datasetName: null,
    columns: [{ index: 0, provider: "mock", model: "echo", params: {} }],
    rowCount: 2,
    trials: 1,
    concurrency: 4,
    counts: {} as Run["counts"],
    spentUsd: 0,
    budgetUsd: null,
    budgetMode: "off",
    error: null,
    createdAt: "",
    startedAt: null,
    finishedAt: null,
    rows: [{}, {}],
    cells,
  } as Partial<Run> as Run;
  useRunStore.getState().loadRun(run);
}

beforeEach(() => useRunStore.getState().reset());

describe("patchCell", () => {
  it("sets a grade ahead of the server; a repeated event with the same seq keeps it, a newer one replaces it", () => {
    loadRunWith([makeCell({ row: 0, seq: 5 })]);
    const store = useRunStore.getState();
    store.patchCell("0:0:0", { manualGrade: 1 });
    expect(useRunStore.getState().cells["0:0:0"].manualGrade).toBe(1);
    expect(useRunStore.getState().cells["0:0:0"].seq).toBe(5);

    store.applyCell(makeCell({ row: 0, seq: 5, manualGrade: null }));
    expect(useRunStore.getState().cells["0:0:0"].manualGrade).toBe(1);
    store.applyCell(makeCell({ row: 0, seq: 6, manualGrade: 0 }));
    expect(useRunStore.getState().cells["0:0:0"].manualGrade).toBe(0);
  });

  it("keeps the finished count in step with a status change", () => {
    loadRunWith([makeCell({ row: 0, seq: 1 }), makeCell({ row: 1, seq: 1 })]);
    expect(useRunStore.getState().finishedCount).toBe(2);
    useRunStore.getState().patchCell("1:0:0", { status: "queued" });
    expect(useRunStore.getState().finishedCount).toBe(1);
    expect(useRunStore.getState().cells["1:0:0"].status).toBe("queued");
  });

  it("does nothing when a newer event arrived than the one expected, or for an unknown cell", () => {
    loadRunWith([makeCell({ row: 0, seq: 1 })]);
    useRunStore.getState().applyCell(makeCell({ row: 0, seq: 3, status: "running" }));
    useRunStore.getState().patchCell("0:0:0", { status: "queued" }, 1);
    expect(useRunStore.getState().cells["0:0:0"].status).toBe("running");
    const before = useRunStore.getState().cells;
    useRunStore.getState().patchCell("9:9:0", { manualGrade: 1 });
    expect(useRunStore.getState().cells).toBe(before);
  });
});

describe("cancelled cells", () => {
  it("are not counted as done, in a snapshot or as they arrive", () => {
    loadRunWith([makeCell({ row: 0, seq: 1 }), makeCell({ row: 1, seq: 1, status: "cancelled" })]);
    expect(useRunStore.getState()).toMatchObject({ finishedCount: 1, cancelledCount: 1 });
    useRunStore.getState().applyCell(makeCell({ row: 0, seq: 2, status: "cancelled" }));
    expect(useRunStore.getState()).toMatchObject({ finishedCount: 0, cancelledCount: 2 });
  });
});
