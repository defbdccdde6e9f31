// The browser's copy of the run on screen: its summary, columns, rows and cells. Live updates
// from subscribeToRun and snapshots from GET /api/v1/runs/{id} both land here.
import { create } from "zustand";
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
  cells: Record<string, Cell>;
  /** For each grid position, the key of the cell the grid shows there (the lowest trial). */
  shownCellKeys: Record<string, string>;
  /** How many cells have reached a final status, kept in step with `cells`. */
  finishedCount: number;
};

type RunActions = {
  /** Replaces everything with a full snapshot of a run. */
  loadRun(run: Run): void;
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

const EMPTY: RunState = { run: null, columns: [], rows: [], cells: {}, shownCellKeys: {}, finishedCount: 0 };

function indexCells(cells: Cell[]): Pick<RunState, "cells" | "shownCellKeys" | "finishedCount"> {
  const byKey: Record<string, Cell> = {};
  for (const cell of cells) {
    const key = cellKey(cell);
    const existing = byKey[key];
    if (!existing || cell.seq > existing.seq) byKey[key] = cell;
  }
  const shownCellKeys: Record<string, string> = {};
  let finishedCount = 0;
  for (const [key, cell] of Object.entries(byKey)) {
    if (isCellFinished(cell.status)) finishedCount += 1;
    const position = positionKey(cell.row, cell.column);
    const shownKey = shownCellKeys[position];
    if (shownKey === undefined || cell.trial < byKey[shownKey].trial) shownCellKeys[position] = key;
  }
  return { cells: byKey, shownCellKeys, finishedCount };
}

/** The store of the run on screen. */
export const useRunStore = create<RunState & RunActions>()((set) => ({
  ...EMPTY,

  loadRun(run) {
    const { cells, rows, ...summary } = run;
    // Without the rows, the grid still needs one line per row to show the cells in.
    const shownRows = rows && rows.length > 0 ? rows : Array.from({ length: summary.rowCount }, () => ({}));
    set({ run: summary, columns: summary.columns, rows: shownRows, ...indexCells(cells ?? []) });
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
      let cells = state.cells;
      let shownCellKeys = state.shownCellKeys;
      let finishedCount = state.finishedCount;
      for (const cell of incoming) {
        const key = cellKey(cell);
        const existing = cells[key];
        if (existing && existing.seq >= cell.seq) continue;
        // Copy each map once per batch, on its first change.
        if (cells === state.cells) cells = { ...state.cells };
        cells[key] = cell;
        finishedCount += Number(isCellFinished(cell.status)) - Number(existing ? isCellFinished(existing.status) : false);
        const position = positionKey(cell.row, cell.column);
        const shownKey = shownCellKeys[position];
        if (shownKey === undefined || cell.trial < cells[shownKey].trial) {
          if (shownCellKeys === state.shownCellKeys) shownCellKeys = { ...state.shownCellKeys };
          shownCellKeys[position] = key;
        }
      }
      return cells === state.cells ? state : { cells, shownCellKeys, finishedCount };
    });
  },

  patchCell(key, patch, expectedSeq) {
    set((state) => {
      const existing = state.cells[key];
      if (!existing || (expectedSeq !== undefined && existing.seq !== expectedSeq)) return state;
      const cell = { ...existing, ...patch };
      const finishedCount =
        state.finishedCount + Number(isCellFinished(cell.status)) - Number(isCellFinished(existing.status));
      return { cells: { ...state.cells, [key]: cell }, finishedCount };
    });
  },

  reset() {
    set(EMPTY);
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

/** How far the run on screen has got: finished cells out of all its cells. */
export function useRunProgress(): { finished: number; total: number } {
  const finished = useRunStore((state) => state.finishedCount);
  const total = useRunStore((state) => {
    const fromCounts = state.run ? Object.values(state.run.counts ?? {}).reduce((sum, n) => sum + n, 0) : 0;
    const planned = state.run ? state.run.rowCount * state.columns.length : 0;
    return Math.max(fromCounts, planned, Object.keys(state.cells).length);
  });
  return { finished: Math.min(finished, total), total };
}
