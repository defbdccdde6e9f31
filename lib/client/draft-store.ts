// What the person is setting up for the next run: prompt text, dataset and model columns.
// Kept apart from the run store, which only ever holds what the server said about a run.
import { create } from "zustand";
import type { RunColumn } from "./run-types";

/** The most model columns a run may have. */
export const MAX_COLUMNS = 4;

/**
 * The active dataset. `id` is its row on the server (null for the rows of a reopened run that
 * had no stored dataset); `rows` holds every row after an upload in this page, or only the first
 * rows when it was loaded from the server, so `rowCount` is the true size.
 */
export type LoadedDataset = { id: string | null; name: string; headers: string[]; rowCount: number; rows: Record<string, string>[] };

/** A model column in the grid header. */
export type DraftColumn = {
  /** Stable across removals, for React keys. */
  id: string;
  provider: string;
  model: string;
  /** The run column whose cells show under this header, or null for a column not yet run. */
  runColumn: number | null;
  /** Model parameters sent with the run (temperature, maxTokens, topP, stopSequences, system). */
  params: ColumnParams;
};

/** A column's model parameters; a missing key means the provider's default. */
export type ColumnParams = {
  temperature?: number;
  maxTokens?: number;
  topP?: number;
  stopSequences?: string[];
  system?: string;
};

/** How a budget stops a run: estimate (skip cells once the estimate passes it) or strict. */
export type BudgetMode = "estimate" | "strict";

type DraftState = {
  prompt: string;
  dataset: LoadedDataset | null;
  columns: DraftColumn[];
  /** The budget in dollars as typed; empty means none. */
  budgetText: string;
  budgetMode: BudgetMode;
};

type DraftActions = {
  setPrompt(prompt: string): void;
  setDataset(dataset: LoadedDataset | null): void;
  addColumn(model: { provider: string; model: string }): void;
  removeColumn(id: string): void;
  /** Points a column at another model; its old results no longer show under it. */
  editColumn(id: string, model: { provider: string; model: string }): void;
  /** Replaces the columns (the setup kept on the server, on first load). */
  setColumns(columns: Array<{ provider: string; model: string; params?: ColumnParams }>): void;
  setColumnParams(id: string, params: ColumnParams): void;
  setBudget(budget: { text?: string; mode?: BudgetMode }): void;
  /** Points the columns at a run's columns, in order (after starting or restoring a run). */
  adoptRunColumns(columns: RunColumn[]): void;
  /**
   * Shows a reopened run's cells under the columns set up now: each column takes the first unused
   * run column with the same model and parameters, so a column added or changed after the run (and
   * kept by the autosave) stays. Without columns yet, takes the run's.
   */
  linkRunColumns(columns: RunColumn[]): void;
};

let nextColumnId = 1;
function newColumnId(): string {
  return `column-${nextColumnId++}`;
}

export const DEFAULT_PROMPT = "";

/** The store of the next run's setup. */
export const useDraftStore = create<DraftState & DraftActions>()((set) => ({
  prompt: DEFAULT_PROMPT,
  dataset: null,
  columns: [],
  budgetText: "",
  budgetMode: "estimate",

  setPrompt(prompt) {
    set({ prompt });
  },

  setDataset(dataset) {
    set({ dataset });
  },

  addColumn({ provider, model }) {
    set((state) =>
      state.columns.length >= MAX_COLUMNS
        ? state
        : { columns: [...state.columns, { id: newColumnId(), provider, model, runColumn: null, params: {} }] },
    );
  },

  removeColumn(id) {
    set((state) => (state.columns.length <= 1 ? state : { columns: state.columns.filter((column) => column.id !== id) }));
  },

  editColumn(id, { provider, model }) {
    set((state) => ({
      columns: state.columns.map((column) =>
        column.id === id ? { ...column, id: newColumnId(), provider, model, runColumn: null } : column,
      ),
    }));
  },

  setColumns(columns) {
    set({
      columns: columns
        .slice(0, MAX_COLUMNS)
        .map(({ provider, model, params }) => ({ id: newColumnId(), provider, model, runColumn: null, params: params ?? {} })),
    });
  },

  setColumnParams(id, params) {
    set((state) => ({
      columns: state.columns.map((column) => (column.id === id ? { ...column, params } : column)),
    }));
  },

  setBudget({ text, mode }) {
    set((state) => ({ budgetText: text ?? state.budgetText, budgetMode: mode ?? state.budgetMode }));
  },

  adoptRunColumns(columns) {
    set({
      columns: [...columns]
        .sort((a, b) => a.index - b.index)
        .map((column) => ({
          id: newColumnId(),
          provider: column.provider,
          model: column.model,
          runColumn: column.index,
          params: (column.params ?? {}) as ColumnParams,
        })),
    });
  },

  linkRunColumns(runColumns) {
    const { columns, adoptRunColumns } = useDraftStore.getState();
    if (columns.length === 0) {
      adoptRunColumns(runColumns);
      return;
    }
    const unused = [...runColumns].sort((a, b) => a.index - b.index);
    set({
      columns: columns.map((column) => {
        const match = unused.findIndex(
          (run) => run.provider === column.provider && run.model === column.model && sameParams(run.params ?? {}, column.params),
        );
        if (match === -1) return { ...column, runColumn: null };
        const [run] = unused.splice(match, 1);
        return { ...column, runColumn: run.index };
      }),
    });
  },
}));

/** Whether two parameter sets say the same, whatever the order of their keys. */
function sameParams(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = (value: Record<string, unknown>) => Object.keys(value).filter((key) => value[key] !== undefined);
  const aKeys = keys(a);
  return aKeys.length === keys(b).length && aKeys.every((key) => JSON.stringify(a[key]) === JSON.stringify(b[key]));
}
