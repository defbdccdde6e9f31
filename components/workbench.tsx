"use client";

import { useEffect, useMemo, useState } from "react";
import { detectVariables } from "@/lib/core/template";
import { MAX_COLUMNS, useDraftStore } from "@/lib/client/draft-store";
import { getModelCatalog } from "@/lib/client/models-api";
import { findMissingVariables, type MissingVariables } from "@/lib/client/find-missing-variables";
import { useRunStore } from "@/lib/client/run-store";
import { isRunActive, type CreateRunInput, type ModelOption } from "@/lib/client/run-types";
import { useRunSession } from "@/lib/client/use-run-session";
import { DatasetSummary } from "./dataset/dataset-summary";
import { DatasetUploadButton } from "./dataset/dataset-upload-button";
import { PromptEditor } from "./editor/prompt-editor";
import { VariableChips } from "./editor/variable-chips";
import { ResultsGrid } from "./results/results-grid";
import { BudgetField, parseBudget } from "./run/budget-field";
import { RunButton } from "./run/run-button";
import { RunPlanSummary } from "./run/run-plan-summary";
import { RunStatusBar } from "./run/run-status-bar";
import { ValidationDialog } from "./run/validation-dialog";
import { ErrorAlert } from "./ui/error-alert";
import { AppHeader } from "./layout/app-header";

type WorkbenchProps = { initialRunId: string | null };

/** The workbench page: the prompt editor on the left, the results grid on the right. */
export function Workbench({ initialRunId }: WorkbenchProps) {
  const session = useRunSession(initialRunId);
  const { prompt, dataset, columns, budgetText, budgetMode, setPrompt, setDataset, addColumn, removeColumn, setBudget } =
    useDraftStore();
  const run = useRunStore((state) => state.run);
  const runRows = useRunStore((state) => state.rows);
  const runActive = run ? isRunActive(run.status) : false;

  const [models, setModels] = useState<ModelOption[] | null>(null);
  const [modelsError, setModelsError] = useState<string | null>(null);
  const [datasetError, setDatasetError] = useState<string | null>(null);
  const [validationProblem, setValidationProblem] = useState<MissingVariables | null>(null);

  const variables = useMemo(() => detectVariables(prompt), [prompt]);

  useEffect(() => {
    getModelCatalog()
      .then((catalog) => setModels(catalog.models))
      .catch((error: unknown) => setModelsError(error instanceof Error ? error.message : String(error)));
  }, []);

  // A first visit starts with one column of the first model, so the grid is never empty.
  useEffect(() => {
    if (models && models.length > 0 && !session.restoring && useDraftStore.getState().columns.length === 0) {
      addColumn(models[0]);
    }
  }, [models, session.restoring, addColumn]);

  // What Run sends, without the budget: the plan summary asks the server about the same run.
  const runInput = useMemo<CreateRunInput | null>(() => {
    if (prompt.trim() === "" || columns.length === 0) return null;
    return {
      prompt,
      rows: variables.length === 0 && !dataset ? [{}] : (dataset?.rows ?? [{}]),
      models: columns.map(({ provider, model, params }) =>
        Object.keys(params).length > 0 ? { provider, model, params } : { provider, model },
      ),
      datasetName: dataset?.name,
    };
  }, [prompt, columns, dataset, variables.length]);
  const budget = parseBudget(budgetText);

  function handleRun() {
    if (runActive || session.busy || columns.length === 0) return;
    if (prompt.trim() === "") {
      session.showError("Write a prompt first: the editor is empty.");
      return;
    }
    const problem = findMissingVariables(variables, dataset);
    if (problem) {
      setValidationProblem(problem);
      return;
    }
    if (Number.isNaN(budget)) {
      session.showError("The budget is a positive number of dollars, like 0.50; empty means no budget.");
      return;
    }
    if (!runInput) return;
    void session.start(budget === null ? runInput : { ...runInput, budgetUsd: budget, budgetMode });
  }

  const gridRows = run ? runRows : (dataset?.rows ?? []);
  const addDisabledReason = runActive
    ? "Columns can't change while a run is active"
    : columns.length >= MAX_COLUMNS
      ? `A run can compare up to ${MAX_COLUMNS} models`
      : null;

  return (
    <div className="flex h-screen min-h-[560px] flex-col">
      <AppHeader />
      <h1 className="sr-only">Prompt workbench</h1>

      <main className="flex min-h-0 flex-1">
        <section
          aria-labelledby="prompt-heading"
          className="flex w-[35%] min-w-[340px] shrink-0 flex-col gap-4 overflow-y-auto border-r border-zinc-200 p-5"
        >
          <div className="flex min-h-[260px] flex-1 flex-col gap-2">
            <h2 id="prompt-heading" className="text-xs font-semibold tracking-wide text-zinc-600 uppercase">
              Prompt
            </h2>
            <div className="relative min-h-0 flex-1 overflow-hidden rounded-lg border border-zinc-200 bg-white focus-within:border-accent focus-within:ring-2 focus-within:ring-accent/25">
              <PromptEditor value={prompt} onChange={setPrompt} onRun={handleRun} />
              <div className="pointer-events-none absolute right-3 bottom-3">
                <div className="pointer-events-auto">
                  <RunButton
                    onRun={handleRun}
                    disabled={runActive || session.busy || columns.length === 0}
                    starting={session.busy && !run}
                  />
                </div>
              </div>
            </div>
            <div className="flex flex-col gap-2 rounded-lg border border-zinc-200 bg-white px-3 py-2">
              <RunPlanSummary input={runInput} frozen={runActive} />
              <BudgetField text={budgetText} mode={budgetMode} disabled={runActive} onChange={setBudget} />
            </div>
            <ErrorAlert message={session.error} onDismiss={session.clearError} />
          </div>

          <section aria-labelledby="variables-heading" className="flex flex-col gap-2">
            <h2 id="variables-heading" className="text-xs font-semibold tracking-wide text-zinc-600 uppercase">
              Variables
            </h2>
            <VariableChips names={variables} />
          </section>

          <section aria-labelledby="dataset-heading" className="flex flex-col gap-2">
            <h2 id="dataset-heading" className="text-xs font-semibold tracking-wide text-zinc-600 uppercase">
              Dataset
            </h2>
            <DatasetSummary dataset={dataset} />
            <ErrorAlert message={datasetError} onDismiss={() => setDatasetError(null)} />
          </section>
        </section>

        <section aria-labelledby="results-heading" className="flex min-w-0 flex-1 flex-col">
          <div className="flex h-14 shrink-0 items-center gap-4 border-b border-zinc-200 px-5">
            <h2 id="results-heading" className="text-xs font-semibold tracking-wide text-zinc-600 uppercase">
              Results
            </h2>
            <RunStatusBar busy={session.busy} connection={session.connection} onAction={(action) => void session.act(action)} />
            <div className="ml-auto shrink-0">
              <DatasetUploadButton
                onLoaded={(loaded) => {
                  setDataset(loaded);
                  setDatasetError(null);
                }}
                onError={setDatasetError}
              />
            </div>
          </div>

          {/* Padding goes inside the scroll box, so sticky headers stick to its very edge; scroll
              padding keeps a focused cell from hiding under the sticky Row column and header row. */}
          <div className="min-h-0 flex-1 overflow-auto [scroll-padding-top:48px] [scroll-padding-left:64px]">
            <div className="w-max min-w-full p-5">
              {columns.length === 0 && !modelsError ? (
                <p className="text-sm text-zinc-600">{session.restoring ? "Opening the run…" : "Loading models…"}</p>
              ) : (
                <ResultsGrid
                  columns={columns}
                  rows={gridRows}
                  preview={!run}
                  models={models}
                  modelsError={modelsError}
                  addDisabledReason={addDisabledReason}
                  removeDisabled={runActive}
                  onAddColumn={addColumn}
                  onRemoveColumn={removeColumn}
                />
              )}
              {!run && gridRows.length === 0 && columns.length > 0 && <EmptyResults />}
            </div>
          </div>
        </section>
      </main>

      <ValidationDialog
        problem={validationProblem}
        datasetName={dataset?.name ?? null}
        datasetHeaders={dataset?.headers ?? []}
        onClose={() => setValidationProblem(null)}
      />
    </div>
  );
}

function EmptyResults() {
  return (
    <div className="mt-4 max-w-[620px] rounded-lg border border-dashed border-accent-line bg-white px-5 py-4 text-sm text-zinc-700">
      <p className="font-medium text-zinc-900">Results appear here, cell by cell, as each call finishes.</p>
      <ol className="mt-2 list-decimal space-y-1 pl-5">
        <li>
          Write a prompt; <code className="font-mono text-accent-strong">{"{{variables}}"}</code> are filled from each
          dataset row.
        </li>
        <li>Upload a CSV or JSON dataset whose columns match the variables.</li>
        <li>Add up to {MAX_COLUMNS} models with +, then press Run (Ctrl+Enter).</li>
      </ol>
    </div>
  );
}
