"use client";

import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { detectVariables } from "@/lib/core/template";
import { MAX_COLUMNS, useDraftStore, type DraftColumn } from "@/lib/client/draft-store";
import { datasetFit, graderFit } from "@/lib/client/dataset-fit";
import { findRunProblem, OUTPUT_VARIABLE, type RunValidationProblem } from "@/lib/client/find-run-problem";
import {
  chooseGrader,
  clearPromptError,
  createNewPrompt,
  deletePromptForGood,
  noteTextEdited,
  refreshActivePrompt,
  renameActivePrompt,
  saveActiveText,
  switchPrompt,
  useActivePrompt,
  usePromptStore,
} from "@/lib/client/prompt-store";
import { useRunStore } from "@/lib/client/run-store";
import { isRunActive, type CreateRunInput } from "@/lib/client/run-types";
import { useRunSession } from "@/lib/client/use-run-session";
import { useWorkbenchSetup } from "@/lib/client/use-workbench-setup";
import { afterPointerRelease, useTrackPointer, useViewMode } from "@/lib/client/view-mode";
import type { MetricView } from "@/lib/client/workbench-types";
import { DatasetSummary } from "./dataset/dataset-summary";
import { DatasetUploadButton } from "./dataset/dataset-upload-button";
import { DatasetFitNote } from "./editor/dataset-fit-note";
import { PromptEditor } from "./editor/prompt-editor";
import { PromptHeader } from "./editor/prompt-header";
import { VariableChips } from "./editor/variable-chips";
import { RunHistoryButton } from "./history/run-history-button";
import { AppHeader } from "./layout/app-header";
import { ResultsGrid } from "./results/results-grid";
import { BudgetField, parseBudget } from "./run/budget-field";
import { RunButton } from "./run/run-button";
import { RunPlanSummary } from "./run/run-plan-summary";
import { RunStatusBar } from "./run/run-status-bar";
import { ValidationDialog } from "./run/validation-dialog";
import { GraderSelect } from "./toolbar/grader-select";
import { MetricPill } from "./toolbar/metric-pill";
import { ErrorAlert } from "./ui/error-alert";
import { Toaster } from "./ui/toast";

type WorkbenchProps = { initialRunId: string | null; initialReadOnly?: boolean };

/** The workbench page: the prompt editor on the left, the toolbar and results grid on the right. */
export function Workbench({ initialRunId, initialReadOnly = false }: WorkbenchProps) {
  const session = useRunSession(initialRunId, initialReadOnly);
  const setup = useWorkbenchSetup({ restoringRun: initialRunId !== null });
  const viewMode = useViewMode((state) => state.mode);
  const setViewMode = useViewMode((state) => state.setMode);

  const { prompt, dataset, columns, budgetText, budgetMode, setPrompt, setDataset, addColumn, editColumn, removeColumn, setBudget } =
    useDraftStore();
  const prompts = usePromptStore((state) => state.prompts);
  const saveState = usePromptStore((state) => state.saveState);
  const graderId = usePromptStore((state) => state.graderId);
  const promptError = usePromptStore((state) => state.error);
  const activePrompt = useActivePrompt();
  const run = useRunStore((state) => state.run);
  const runRows = useRunStore((state) => state.rows);
  const runActive = run ? isRunActive(run.status) : false;
  const readOnly = session.readOnly;

  const [metric, setMetric] = useState<MetricView>("grade");
  // The stored view mode is applied after the first render; animate only changes after that.
  const [animatePanels, setAnimatePanels] = useState(false);
  useEffect(() => {
    const frame = requestAnimationFrame(() => setAnimatePanels(true));
    return () => cancelAnimationFrame(frame);
  }, []);
  const [validationProblem, setValidationProblem] = useState<RunValidationProblem | null>(null);

  // A history view shows the earlier version's text, and its variables.
  const shownText = readOnly && run ? run.prompt : prompt;
  const variables = useMemo(() => detectVariables(shownText), [shownText]);
  const graders = useMemo(() => prompts.filter((item) => item.type === "grader"), [prompts]);
  const grader = graders.find((item) => item.id === graderId) ?? null;

  // What the plan summary asks the server about: the text as typed, before it is saved.
  const planInput = useMemo<CreateRunInput | null>(() => {
    if (prompt.trim() === "" || columns.length === 0) return null;
    return {
      prompt,
      ...datasetSource(dataset, variables.length),
      models: columns.map(modelOfColumn),
      ...(grader ? { graderPromptId: grader.id } : {}),
    };
  }, [prompt, columns, dataset, variables.length, grader]);
  const budget = parseBudget(budgetText);

  const handleRun = useCallback(async () => {
    setViewMode("balanced");
    // Until the dataset and columns have loaded, a run would be checked against none of them.
    if (setup.loading || runActive || session.busy || columns.length === 0 || readOnly) return;
    if (!activePrompt) return;
    if (prompt.trim() === "") {
      session.showError("Write a prompt first: the editor is empty.");
      return;
    }
    const problem = findRunProblem(variables, dataset, grader ? { name: grader.name, variables: detectVariables(grader.text) } : null);
    if (problem) {
      setValidationProblem(problem);
      return;
    }
    if (Number.isNaN(budget)) {
      session.showError("The budget is a positive number of dollars, like 0.50; empty means no budget.");
      return;
    }
    // Autosave before the run: the server versions and runs the text it has.
    if (!(await saveActiveText())) {
      session.showError("The prompt could not be saved, so the run did not start. Try again.");
      return;
    }
    const input: CreateRunInput = {
      promptId: activePrompt.id,
      ...datasetSource(dataset, variables.length),
      models: columns.map(modelOfColumn),
      ...(grader ? { graderPromptId: grader.id } : {}),
      ...(budget === null ? {} : { budgetUsd: budget, budgetMode }),
    };
    await session.start(input, dataset && dataset.rows.length === dataset.rowCount ? dataset.rows : undefined);
    void refreshActivePrompt();
  }, [
    setup.loading,
    runActive,
    session,
    columns,
    readOnly,
    activePrompt,
    prompt,
    variables,
    dataset,
    grader,
    budget,
    budgetMode,
    setViewMode,
  ]);

  const handleEditorChange = useCallback(
    (text: string) => {
      setPrompt(text);
      noteTextEdited(text);
    },
    [setPrompt],
  );
  // The editor's focus, read when a switch to balanced that waited for a click comes due.
  const editorFocused = useRef(false);
  useTrackPointer();
  const handleEditorBlur = useCallback(() => {
    editorFocused.current = false;
    void saveActiveText();
    afterPointerRelease(() => {
      if (!editorFocused.current) setViewMode("balanced");
    });
  }, [setViewMode]);
  const handleEditorFocus = useCallback(() => {
    editorFocused.current = true;
    setViewMode("focus");
  }, [setViewMode]);

  // A history view shows the run's own columns; otherwise the columns being set up.
  const gridColumns = useMemo<DraftColumn[]>(
    () =>
      readOnly && run
        ? run.columns.map((column) => ({
            id: `history-${column.index}`,
            provider: column.provider,
            model: column.model,
            runColumn: column.index,
            params: {},
          }))
        : columns,
    [readOnly, run, columns],
  );
  const gridRows = run ? runRows : (dataset?.rows ?? []);
  const addDisabledReason = readOnly
    ? "This is an earlier run: go back to the current prompt to change models"
    : runActive
      ? "Columns can't change while a run is active"
      : columns.length >= MAX_COLUMNS
        ? `A run can compare up to ${MAX_COLUMNS} models`
        : null;
  const gradeMode = (run ? run.hasGrader : grader !== null) ? "grader" : "manual";
  const runDisabledReason = readOnly
    ? "This is an earlier run, shown read-only"
    : setup.loading
      ? "The workbench is still loading"
      : columns.length === 0
        ? "Add a model first"
        : runActive
          ? "A run is active: one run at a time"
          : null;
  const headers = dataset?.headers ?? null;
  // Columns the grader reads are used too, so they are not listed as unused.
  const fitVariables = useMemo(
    () => (grader ? [...new Set([...variables, ...detectVariables(grader.text).filter((name) => name !== OUTPUT_VARIABLE)])] : variables),
    [grader, variables],
  );
  const fit = activePrompt?.type === "grader" ? graderFit(variables, headers, OUTPUT_VARIABLE) : datasetFit(variables, headers);
  const focus = viewMode === "focus";

  return (
    <div className="flex h-screen min-h-[560px] flex-col">
      <AppHeader />
      <h1 className="sr-only">Prompt workbench</h1>

      <main className="flex min-h-0 flex-1" data-view-mode={viewMode} aria-busy={setup.loading}>
        <section
          aria-labelledby="prompt-heading"
          data-testid="editor-panel"
          style={{ width: focus ? "65%" : "30%" }}
          className={`${animatePanels ? "panel-spring" : ""} flex min-w-[320px] shrink-0 flex-col gap-3 overflow-y-auto border-r border-zinc-200 p-4`}
        >
          <h2 id="prompt-heading" className="sr-only">
            Prompt
          </h2>
          <div className="flex items-center gap-2">
            <div className="min-w-0 flex-1">
              <PromptHeader
                prompts={prompts}
                // An earlier run shows the version it ran, as the editor shows that version's text.
                active={
                  readOnly && run && activePrompt && run.promptVersion !== null
                    ? { ...activePrompt, versionCounter: run.promptVersion }
                    : activePrompt
                }
                saveState={saveState}
                disabled={readOnly}
                onSwitch={(id) => void switchPrompt(id)}
                onCreate={(type) => void createNewPrompt(type)}
                onRename={(name) => void renameActivePrompt(name)}
                onDelete={(id) => void deletePromptForGood(id)}
              />
            </div>
            <RunHistoryButton
              promptId={activePrompt?.id ?? null}
              currentRunId={run?.id ?? null}
              onOpenRun={(runId) => void session.openHistory(runId)}
            />
          </div>
          <ErrorAlert message={promptError} onDismiss={clearPromptError} />

          <div className="relative flex min-h-[240px] flex-1 flex-col overflow-hidden rounded-lg border border-zinc-200 bg-white focus-within:border-accent focus-within:ring-2 focus-within:ring-accent/25">
            {readOnly && run ? (
              <PromptEditor
                value={run.prompt}
                onChange={() => {}}
                onRun={() => {}}
                readOnly
                documentKey={`run-${run.id}`}
                ariaLabel={`Prompt of the earlier run, version ${run.promptVersion ?? "?"} (read-only)`}
              />
            ) : (
              <PromptEditor
                value={prompt}
                onChange={handleEditorChange}
                onRun={() => void handleRun()}
                onFocus={handleEditorFocus}
                onBlur={handleEditorBlur}
                knownColumns={headers}
                datasetName={dataset?.name}
                documentKey={activePrompt?.id}
              />
            )}
            <div className="pointer-events-none absolute right-3 bottom-3 z-10">
              <div className="pointer-events-auto">
                <RunButton
                  onRun={() => void handleRun()}
                  disabled={runDisabledReason !== null}
                  running={runActive || (session.busy && !readOnly)}
                  disabledReason={runDisabledReason}
                />
              </div>
            </div>
          </div>
          <ErrorAlert message={session.error ?? setup.error} onDismiss={session.clearError} />

          <section aria-labelledby="variables-heading" className="flex flex-col gap-1.5">
            <h2 id="variables-heading" className="text-xs font-semibold tracking-wide text-zinc-600 uppercase">
              Variables
            </h2>
            <VariableChips names={variables} missing={fit.missing} />
            {dataset && (
              <DatasetFitNote
                variables={fitVariables}
                headers={dataset.headers}
                datasetName={dataset.name}
                outputName={activePrompt?.type === "grader" ? OUTPUT_VARIABLE : undefined}
              />
            )}
          </section>

          <section aria-labelledby="dataset-heading" className="flex flex-col gap-1.5">
            <h2 id="dataset-heading" className="text-xs font-semibold tracking-wide text-zinc-600 uppercase">
              Dataset
            </h2>
            <DatasetSummary dataset={dataset} loading={setup.loading} />
          </section>

          {!readOnly && (
            <details
              open
              aria-label="Plan and budget"
              className="group rounded-lg border border-zinc-200 bg-white px-3 py-2"
              data-testid="plan-details"
            >
              <summary className="cursor-pointer text-xs font-semibold tracking-wide text-zinc-600 uppercase">Plan and budget</summary>
              <div className="mt-2 flex flex-col gap-2">
                <RunPlanSummary input={planInput} frozen={runActive} />
                <BudgetField text={budgetText} mode={budgetMode} disabled={runActive} onChange={setBudget} />
              </div>
            </details>
          )}
        </section>

        <section aria-labelledby="results-heading" className="flex min-w-0 flex-1 flex-col">
          <h2 id="results-heading" className="sr-only">
            Results
          </h2>
          <div
            role="toolbar"
            aria-label="Results"
            className="@container flex h-14 shrink-0 items-center gap-2 border-b border-zinc-200 px-4"
          >
            <MetricPill metric={metric} onChange={setMetric} />
            <GraderSelect graders={graders} value={graderId} disabled={runActive || readOnly} onChange={(id) => void chooseGrader(id)} />
            <div className="ml-2 min-w-0 flex-1">
              <RunStatusBar busy={session.busy} connection={session.connection} onAction={(action) => void session.act(action)} />
            </div>
            <div className="shrink-0">
              <DatasetUploadButton onLoaded={setDataset} />
            </div>
          </div>

          {readOnly && run && (
            <div
              role="status"
              data-testid="history-banner"
              className="flex shrink-0 items-center gap-3 border-b border-accent-line bg-accent-soft px-4 py-2 text-sm text-zinc-800"
            >
              <span className="min-w-0 flex-1 truncate">
                Earlier run{run.promptVersion !== null ? ` of v${run.promptVersion}` : ""}, {formatWhen(run.createdAt)}: read-only.
              </span>
              <button
                type="button"
                onClick={() => void session.closeHistory()}
                className="h-7 shrink-0 rounded-lg border border-accent-line bg-white px-3 text-xs font-medium text-accent-strong hover:border-accent"
              >
                Back to the current run
              </button>
            </div>
          )}

          <div className="flex min-h-0 flex-1 flex-col">
            {gridColumns.length === 0 && !setup.modelsError ? (
              <p className="p-5 text-sm text-zinc-600">{session.restoring ? "Opening the run…" : "Loading…"}</p>
            ) : (
              <ResultsGrid
                columns={gridColumns}
                rows={gridRows}
                rowCount={run ? run.rowCount : (dataset?.rowCount ?? 0)}
                preview={!run}
                models={setup.models}
                modelsError={setup.modelsError}
                addDisabledReason={addDisabledReason}
                editDisabled={runActive || readOnly}
                onAddColumn={addColumn}
                onEditColumn={editColumn}
                onRemoveColumn={removeColumn}
                metric={metric}
                gradeMode={gradeMode}
                runActive={runActive}
                readOnly={readOnly}
                emptyState={!run && gridRows.length === 0 ? <EmptyResults /> : null}
              />
            )}
          </div>
        </section>
      </main>

      <ValidationDialog
        problem={validationProblem}
        datasetName={dataset?.name ?? null}
        datasetHeaders={dataset?.headers ?? []}
        onClose={() => setValidationProblem(null)}
      />
      <Toaster />
    </div>
  );
}

function EmptyResults() {
  return (
    <div className="mt-4 max-w-[620px] rounded-lg border border-dashed border-accent-line bg-white px-5 py-4 text-sm text-zinc-700">
      <p className="font-medium text-zinc-900">Results appear here, cell by cell, as each call finishes.</p>
      <ol className="mt-2 list-decimal space-y-1 pl-5">
        <li>
          Write a prompt; <code className="font-mono text-accent-strong">{"{{variables}}"}</code> are filled from each dataset row.
        </li>
        <li>Upload a CSV or JSON dataset whose columns match the variables (a prompt without variables runs once).</li>
        <li>Add up to {MAX_COLUMNS} models with +, then press Run (Ctrl+Enter).</li>
      </ol>
    </div>
  );
}

/** Where a run's rows come from: the stored dataset, or one empty row for a prompt without variables. */
function datasetSource(
  dataset: { id: string | null; rows: Record<string, string>[] } | null,
  variableCount: number,
): Pick<CreateRunInput, "datasetId" | "rows"> {
  if (dataset?.id) return { datasetId: dataset.id };
  if (dataset) return { rows: dataset.rows };
  return variableCount === 0 ? { rows: [{}] } : { rows: [] };
}

function modelOfColumn({ provider, model, params }: DraftColumn) {
  return Object.keys(params).length > 0 ? { provider, model, params } : { provider, model };
}

function formatWhen(iso: string): string {
  return new Date(iso).toLocaleString("en-GB", { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
}
