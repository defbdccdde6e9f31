"use client";

import { useRef, useState } from "react";
import { rerunCell, setManualGrade } from "@/lib/client/cells-api";
import { cellKey, useRunStore, type CellPatch } from "@/lib/client/run-store";
import type { Cell } from "@/lib/client/run-types";

/** What a cell can do on the server: grade by hand (optimistically) and re-run. */
export type CellActions = {
  pending: "grade" | "rerun" | null;
  /** The last action's failure, for the cell to show; cleared by the next action. */
  error: string | null;
  grade(next: number | null): void;
  rerun(): void;
};

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Patches the cell only if the store still holds this run's cell (a new run may have loaded since). */
function patchIfCurrent(runId: string, cell: Cell, patch: CellPatch, expectedSeq?: number) {
  const store = useRunStore.getState();
  const key = cellKey(cell);
  if (store.run?.id !== runId || store.cells[key]?.id !== cell.id) return;
  store.patchCell(key, patch, expectedSeq);
}

/** The grade and re-run actions of one cell, with their pending state and error. */
export function useCellActions(cell: Cell | undefined, runId: string | null): CellActions {
  const [pending, setPending] = useState<CellActions["pending"]>(null);
  const [error, setError] = useState<string | null>(null);
  // Grades given quickly one after another (two presses of Space) are all kept: each shows at
  // once, the saves go to the server in order, and only the last one's answer or failure counts.
  const lastGrade = useRef(0);
  const gradeSaves = useRef<Promise<unknown>>(Promise.resolve());

  async function grade(next: number | null) {
    if (!cell || !runId || pending === "rerun") return;
    const request = ++lastGrade.current;
    const previous = cell.manualGrade;
    // The thumbs change at once; the server's answer confirms it, a failure puts it back.
    patchIfCurrent(runId, cell, { manualGrade: next });
    setPending("grade");
    setError(null);
    const save = gradeSaves.current.then(() => setManualGrade({ runId, cellId: cell.id, manualGrade: next }));
    gradeSaves.current = save.catch(() => undefined);
    try {
      const saved = await save;
      if (request === lastGrade.current) patchIfCurrent(runId, cell, { manualGrade: saved.manualGrade });
    } catch (failure) {
      if (request !== lastGrade.current) return;
      // Put the old grade back unless something newer (an event from the server) replaced ours.
      if (useRunStore.getState().cells[cellKey(cell)]?.manualGrade === next) patchIfCurrent(runId, cell, { manualGrade: previous });
      setError(`The grade was not saved: ${messageOf(failure)}`);
    } finally {
      if (request === lastGrade.current) setPending(null);
    }
  }

  async function rerun() {
    if (!cell || !runId || pending) return;
    const seq = cell.seq;
    setPending("rerun");
    setError(null);
    try {
      const summary = await rerunCell({ runId, cellId: cell.id });
      if (useRunStore.getState().run?.id !== runId) return;
      useRunStore.getState().applyRun(summary);
      // Queued at once, unless the event stream already brought a newer state of the cell.
      patchIfCurrent(runId, cell, { status: "queued" }, seq);
    } catch (failure) {
      setError(`The cell was not re-run: ${messageOf(failure)}`);
    } finally {
      setPending(null);
    }
  }

  return {
    pending,
    error,
    grade: (next) => void grade(next),
    rerun: () => void rerun(),
  };
}
