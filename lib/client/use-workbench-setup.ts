"use client";

import { useEffect, useState } from "react";
import { getDataset } from "./datasets-api";
import { useDraftStore, type DraftColumn, type LoadedDataset } from "./draft-store";
import { getModelCatalog } from "./models-api";
import { loadPrompts } from "./prompt-store";
import { saveWorkbenchSetup } from "./prompts-api";
import type { ModelOption } from "./run-types";
import { useViewMode } from "./view-mode";

/** Rows fetched for the grid's preview of a stored dataset before a run. */
const PREVIEW_ROWS = 50;
/** Column changes are saved once they settle. */
const SAVE_COLUMNS_DELAY_MS = 500;

export type WorkbenchSetupState = {
  /** True until the prompts, dataset and columns have been loaded. */
  loading: boolean;
  error: string | null;
  models: ModelOption[] | null;
  modelsError: string | null;
};

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function loadDataset(datasetId: string | null): Promise<LoadedDataset | null> {
  if (!datasetId) return null;
  const dataset = await getDataset(datasetId, { limit: PREVIEW_ROWS });
  return { id: dataset.id, name: dataset.name, headers: dataset.headers, rowCount: dataset.rowCount, rows: dataset.rows };
}

function columnsForServer(columns: DraftColumn[]) {
  return columns.map(({ provider, model, params }) => ({ provider, model, params: params as Record<string, unknown> }));
}

/**
 * First load of the workbench: seeds the examples once, then opens what the server kept from the
 * last visit (prompt, dataset, grader, columns), or the first model so the grid is never empty.
 * Afterwards, keeps the columns and the dataset choice on the server as they change.
 */
export function useWorkbenchSetup({ restoringRun }: { restoringRun: boolean }): WorkbenchSetupState {
  const [state, setState] = useState<WorkbenchSetupState>({ loading: true, error: null, models: null, modelsError: null });

  useEffect(() => {
    useViewMode.getState().restore();
    let cancelled = false;
    const catalog = getModelCatalog()
      .then((loaded) => {
        if (!cancelled) setState((current) => ({ ...current, models: loaded.models }));
        return loaded.models;
      })
      .catch((error: unknown) => {
        if (!cancelled) setState((current) => ({ ...current, modelsError: messageOf(error) }));
        return [] as ModelOption[];
      });

    (async () => {
      const setup = await loadPrompts();
      const dataset = await loadDataset(setup.datasetId).catch(() => null);
      if (cancelled) return;
      const draft = useDraftStore.getState();
      if (dataset && !draft.dataset) draft.setDataset(dataset);
      // A reopened run brings its own columns; otherwise the kept ones, or the first model.
      if (!restoringRun && useDraftStore.getState().columns.length === 0) {
        if (setup.columns.length > 0) {
          draft.setColumns(setup.columns);
        } else {
          const models = await catalog;
          if (!cancelled && models.length > 0 && useDraftStore.getState().columns.length === 0) draft.addColumn(models[0]);
        }
      }
      if (!cancelled) setState((current) => ({ ...current, loading: false }));
    })().catch((error: unknown) => {
      if (!cancelled) setState((current) => ({ ...current, loading: false, error: `The workbench did not load: ${messageOf(error)}` }));
    });
    return () => {
      cancelled = true;
    };
    // restoringRun is read once, at first load.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Keep the column setup and the dataset choice on the server once loading is over.
  useEffect(() => {
    if (state.loading) return;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let lastColumns = JSON.stringify(columnsForServer(useDraftStore.getState().columns));
    let lastDatasetId = useDraftStore.getState().dataset?.id ?? null;
    const unsubscribe = useDraftStore.subscribe((draft) => {
      const datasetId = draft.dataset?.id ?? null;
      if (datasetId && datasetId !== lastDatasetId) {
        lastDatasetId = datasetId;
        void saveWorkbenchSetup({ datasetId }).catch(() => {});
      }
      const columns = JSON.stringify(columnsForServer(draft.columns));
      if (columns === lastColumns) return;
      lastColumns = columns;
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        void saveWorkbenchSetup({ columns: JSON.parse(columns) }).catch(() => {});
      }, SAVE_COLUMNS_DELAY_MS);
    });
    return () => {
      unsubscribe();
      if (timer) clearTimeout(timer);
    };
  }, [state.loading]);

  return state;
}
