"use client";

import { useEffect, useState } from "react";
import { sendAsPageLeaves } from "./api";
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
  /** The active prompt's latest run when the setup loaded, which the page reopens; null for none. */
  latestRunId: string | null;
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
 * Afterwards, keeps the columns and the dataset choice on the server as they change, and sends a
 * change still waiting when the page is left.
 */
export function useWorkbenchSetup(): WorkbenchSetupState {
  const [state, setState] = useState<WorkbenchSetupState>({
    loading: true,
    error: null,
    models: null,
    modelsError: null,
    latestRunId: null,
  });

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
      // The kept columns, or the first model; a run reopened afterwards shows its cells under them.
      if (useDraftStore.getState().columns.length === 0) {
        if (setup.columns.length > 0) {
          draft.setColumns(setup.columns);
        } else {
          const models = await catalog;
          if (!cancelled && models.length > 0 && useDraftStore.getState().columns.length === 0) draft.addColumn(models[0]);
        }
      }
      if (!cancelled) setState((current) => ({ ...current, loading: false, latestRunId: setup.latestRunId }));
    })().catch((error: unknown) => {
      if (!cancelled) setState((current) => ({ ...current, loading: false, error: `The workbench did not load: ${messageOf(error)}` }));
    });
    return () => {
      cancelled = true;
    };
  }, []);

  // Keep the column setup and the dataset choice on the server once loading is over.
  useEffect(() => {
    if (state.loading) return;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let lastColumns = JSON.stringify(columnsForServer(useDraftStore.getState().columns));
    let lastDatasetId = useDraftStore.getState().dataset?.id ?? null;
    const unsubscribe = useDraftStore.subscribe((draft) => {
      const datasetId = draft.dataset?.id ?? null;
      // A stored dataset chosen, or none (Detach); a reopened run's rows without one change nothing.
      if (datasetId !== lastDatasetId && (datasetId !== null || draft.dataset === null)) {
        lastDatasetId = datasetId;
        void saveWorkbenchSetup({ datasetId }).catch(() => {});
      }
      const columns = JSON.stringify(columnsForServer(draft.columns));
      if (columns === lastColumns) return;
      lastColumns = columns;
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = null;
        void saveWorkbenchSetup({ columns: JSON.parse(columns) }).catch(() => {});
      }, SAVE_COLUMNS_DELAY_MS);
    });
    // A column added just before the page is left would wait out the delay with no page left.
    const sendPendingColumns = () => {
      if (!timer) return;
      clearTimeout(timer);
      timer = null;
      sendAsPageLeaves("/api/v1/workbench", "PATCH", { columns: JSON.parse(lastColumns) });
    };
    window.addEventListener("pagehide", sendPendingColumns);
    return () => {
      unsubscribe();
      window.removeEventListener("pagehide", sendPendingColumns);
      if (timer) clearTimeout(timer);
    };
  }, [state.loading]);

  return state;
}
