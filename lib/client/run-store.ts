// The browser's copy of the run on screen: its summary, columns, rows and cells. Live updates
// from subscribeToRun and snapshots from GET /api/v1/runs/{id} both land here.
import { create } from "zustand";
import type { RunPlanEstimate } from "@/lib/api/responses";
import { isCellFinished, isRunActive } from "./run-types";
import type { Cell, Run, RunColumn, RunSummary } from "./run-types";

/** The key of one cell in the store: `${row}:${column}:${trial}`. */
export function cellKey(cell: Pick<Cell, "row" | "column" | "trial">): string {
  return `${cell.row}:${cell.column}:${cell.trial}`;
}

/** The key of one grid position (all trials of a row and column): `${row}:${column}`. */
export function positionKey(row: number, column: number): string {
  return `${row}:${column}`;
}

/** The fields of a cell the browser may change ahead of the server. */
export type CellPatch = Partial<Pick<Cell, "manualGrade" | "status">>;

type RunState = {
  run: RunSummary | null;
  columns: RunColumn[];
  rows: Record<string, string>[];
  /**
   * The cells by key. Live updates change this object IN PLACE and bump `version`: copying a
   * map of 40,000 cells for every frame's batch of events froze the page on large runs. Select
   * single cells (useShownCell), or subscribe to `version` to recompute over all of them.
   */
  cells: Record<string, Cell>;
  /** For each grid position, the key of the cell the grid shows there (the lowest trial). Changed in place too. */
  shownCellKeys: Record<string, string>;
  /** Goes up with every change to `cells` or `shownCellKeys`. */
  version: number;
  /**
   * How many cells there are, how many are done (reached a final status other than cancelled) and
   * how many were cancelled, kept in step with `cells`.
   */
  cellCount: number;
  finishedCount: number;
  cancelledCount: number;
  /** Answered cells whose cost is unknown (no price for their model). */
  unpricedCount: number;
  /** The plan the server made for this run when it was created (kept with the run); null for a run from before plans were kept. */
  plan: RunPlanEstimate | null;
};

type RunActions = {
  /** Replaces everything with a full snapshot of a run, and the plan it was started with when known. */
  loadRun(run: Run, plan?: RunPlanEstimate | null): void;
  /** Takes a newer summary (status, counts) of the run on screen. */
  applyRun(summary: RunSummary): void;
  /** Takes one cell, keeping whichever version has the higher `seq` (events may arrive twice). */
  applyCell(cell: Cell): void;
  /** applyCell for many cells in one store update (one render), as live events arrive in bursts. */
  applyCells(cells: Cell[]): void;
  /**
   * Changes a cell in place, without a new `seq`, for what the browser knows before the server
   * says it (an optimistic grade, a re-run just accepted). The next event for the cell carries the
   * server's values and replaces it. With `expectedSeq`, nothing changes if a newer event already
   * arrived, so a slow answer cannot take a cell back to an older state.
   */
  patchCell(key: string, patch: CellPatch, expectedSeq?: number): void;
  reset(): void;
};

const EMPTY: RunState = {
  run: null,
  columns: [],
  rows: [],
  cells: {},
  shownCellKeys: {},
  version: 0,
  cellCount: 0,
  finishedCount: 0,
  cancelledCount: 0,
  unpricedCount: 0,
  plan: null,
};

const CALLED_STATUSES: ReadonlySet<Cell["status"]> = new Set(["ok", "warning", "malformed"]);

/** 1 when the cell was answered but its cost is unknown, else 0. */
function unpriced(cell: Cell | undefined): number {
  return cell && CALLED_STATUSES.has(cell.status) && cell.costUsd === null ? 1 : 0;
}

/** 1 when the cell is done: a final status, but not cancelled ("Cancelled 48 / 48 done" was not true). */
function finished(cell: Cell | undefined): number {
  return cell && isCellFinished(cell.status) && cell.status !== "cancelled" ? 1 : 0;
}

function cancelled(cell: Cell | undefined): number {
  return cell?.status === "cancelled" ? 1 : 0;
}

function indexCells(
  cells: Cell[],
): Pick<RunState, "cells" | "shownCellKeys" | "cellCount" | "finishedCount" | "cancelledCount" | "unpricedCount"> {
  const byKey: Record<string, Cell> = {};
  for (const cell of cells) {
    const key = cellKey(cell);
    const existing = byKey[key];
    if (!existing || cell.seq > existing.seq) byKey[key] = cell;
  }
  const shownCellKeys: Record<string, string> = {};
  let finishedCount = 0;
  let cancelledCount = 0;
  let unpricedCount = 0;
  let cellCount = 0;
  for (const [key, cell] of Object.entries(byKey)) {
    cellCount += 1;
    finishedCount += finished(cell);
    cancelledCount += cancelled(cell);
    unpricedCount += unpriced(cell);
    const position = positionKey(cell.row, cell.column);
    const shownKey = shownCellKeys[position];
    if (shownKey === undefined || cell.trial < byKey[shownKey].trial) shownCellKeys[position] = key;
  }
  return { cells: byKey, shownCellKeys, cellCount, finishedCount, cancelledCount, unpricedCount };
}

/** The store of the run on screen. */
export const useRunStore = create<RunState & RunActions>()((set) => ({
  ...EMPTY,

  loadRun(run, plan = null) {
    const { cells, rows, plan: storedPlan, ...summary } = run;
    // Without the rows, the grid still needs one line per row to show the cells in.
    const shownRows = rows && rows.length > 0 ? rows : Array.from({ length: summary.rowCount }, () => ({}));
    set((state) => ({
      run: summary,
      columns: summary.columns,
      rows: shownRows,
      ...indexCells(cells ?? []),
      version: state.version + 1,
      // The plan it was started with: the server keeps it with the run (read again after a reload);
      // a snapshot of the same run from before plans were kept keeps the one this page had.
      plan: plan ?? storedPlan ?? (state.run?.id === summary.id ? state.plan : null),
    }));
  },

  applyRun(summary) {
    set((state) => {
      if (!state.run || state.run.id !== summary.id) return state;
      // A late "running" update must not revive a run we already know has ended.
      if (!isRunActive(state.run.status) && isRunActive(summary.status)) return state;
      return {
        run: { ...state.run, ...summary },
        columns: summary.columns ?? state.columns,
      };
    });
  },

  applyCell(cell) {
    useRunStore.getState().applyCells([cell]);
  },

  applyCells(incoming) {
    set((state) => {
      if (!state.run || incoming.length === 0) return state;
      const { cells, shownCellKeys } = state;
      let { cellCount, finishedCount, cancelledCount, unpricedCount } = state;
      let changed = false;
      for (const cell of incoming) {
        const key = cellKey(cell);
        const existing = cells[key];
        if (existing && existing.seq >= cell.seq) continue;
        changed = true;
        cells[key] = cell;
        cellCount += existing ? 0 : 1;
        finishedCount += finished(cell) - finished(existing);
        cancelledCount += cancelled(cell) - cancelled(existing);
        unpricedCount += unpriced(cell) - unpriced(existing);
        const position = positionKey(cell.row, cell.column);
        const shownKey = shownCellKeys[position];
        if (shownKey === undefined || cell.trial < cells[shownKey].trial) shownCellKeys[position] = key;
      }
      return changed ? { version: state.version + 1, cellCount, finishedCount, cancelledCount, unpricedCount } : state;
    });
  },

  patchCell(key, patch, expectedSeq) {
    set((state) => {
      const existing = state.cells[key];
      if (!existing || (expectedSeq !== undefined && existing.seq !== expectedSeq)) return state;
      const cell = { ...existing, ...patch };
      state.cells[key] = cell;
      return {
        version: state.version + 1,
        finishedCount: state.finishedCount + finished(cell) - finished(existing),
        cancelledCount: state.cancelledCount + cancelled(cell) - cancelled(existing),
        unpricedCount: state.unpricedCount + unpriced(cell) - unpriced(existing),
      };
    });
  },

  reset() {
    set((state) => ({ ...EMPTY, cells: {}, shownCellKeys: {}, version: state.version + 1 }));
  },
}));

/** The cell the grid shows at a row and column, or undefined before the run has planned it. */
export function useShownCell(row: number, column: number | null): Cell | undefined {
  return useRunStore((state) => {
    if (column === null) return undefined;
    const key = state.shownCellKeys[positionKey(row, column)];
    return key === undefined ? undefined : state.cells[key];
  });
}

/** How far the run on screen has got: done cells out of all its cells, and how many were cancelled. */
export function useRunProgress(): { finished: number; cancelled: number; total: number } {
  const finished = useRunStore((state) => state.finishedCount);
  const cancelled = useRunStore((state) => state.cancelledCount);
  const total = useRunStore((state) => {
    const fromCounts = state.run ? Object.values(state.run.counts ?? {}).reduce((sum, n) => sum + n, 0) : 0;
    const planned = state.run ? state.run.rowCount * state.columns.length : 0;
    return Math.max(fromCounts, planned, state.cellCount);
  });
  return { finished: Math.min(finished, total), cancelled: Math.min(cancelled, total), total };
}
