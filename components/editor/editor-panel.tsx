"use client";

import { useCallback, useMemo, useRef } from "react";
import { detectVariables } from "@/lib/core/template";
import { datasetFit, graderFit } from "@/lib/client/dataset-fit";
import { draftRunInput } from "@/lib/client/draft-run-input";
import { useDraftStore, type LoadedDataset } from "@/lib/client/draft-store";
import { OUTPUT_VARIABLE } from "@/lib/client/find-run-problem";
import {
  clearPromptError,
  createNewPrompt,
  deletePromptForGood,
  noteTextEdited,
  renameActivePrompt,
  saveActiveText,
  switchPrompt,
  useActivePrompt,
  usePromptStore,
} from "@/lib/client/prompt-store";
import { runGate } from "@/lib/client/run-gate";
import { useRunStore } from "@/lib/client/run-store";
import { isRunActive, type CreateRunInput } from "@/lib/client/run-types";
import type { RunSession } from "@/lib/client/use-run-session";
import type { WorkbenchSetupState } from "@/lib/client/use-workbench-setup";
import { afterPointerRelease, useTrackPointer, useViewMode } from "@/lib/client/view-mode";
import type { PromptItem } from "@/lib/client/workbench-types";
import { DatasetSummary } from "@/components/dataset/dataset-summary";
import { RunHistoryButton } from "@/components/history/run-history-button";
import { BudgetField } from "@/components/run/budget-field";
import { RunButton } from "@/components/run/run-button";
import { RunPlanSummary } from "@/components/run/run-plan-summary";
import { ErrorAlert } from "@/components/ui/error-alert";
import { DatasetFitNote } from "./dataset-fit-note";
import { PromptEditor } from "./prompt-editor";
import { PromptHeader } from "./prompt-header";
import { VariableChips } from "./variable-chips";

type EditorPanelProps = {
  session: RunSession;
  setup: WorkbenchSetupState;
  /** The grader chosen for the run, if any: its variables count as used dataset columns. */
  grader: PromptItem | null;
  startRun(): void;
  /** Focus mode: the editor takes most of the width. */
  focus: boolean;
  /** Whether width changes spring (not on the first render, when the stored view mode is applied). */
  animate: boolean;
};

/** The workbench's left panel: the prompt's name and editor, Run, its variables, dataset, plan and budget. */
export function EditorPanel({ session, setup, grader, startRun, focus, animate }: EditorPanelProps) {
  const { prompt, dataset, columns, budgetText, budgetMode, setPrompt, setBudget } = useDraftStore();
  const prompts = usePromptStore((state) => state.prompts);
  const saveState = usePromptStore((state) => state.saveState);
  const promptError = usePromptStore((state) => state.error);
  const graderModel = usePromptStore((state) => state.graderModel);
  const activePrompt = useActivePrompt();
  const run = useRunStore((state) => state.run);
  const runRows = useRunStore((state) => state.rows);
  const runActive = run ? isRunActive(run.status) : false;
  const runPlan = useRunStore((state) => state.plan);
  const setViewMode = useViewMode((state) => state.setMode);
  const readOnly = session.readOnly;

  // A history view shows the earlier version's text, its variables, and the dataset it ran on.
  const shownText = readOnly && run ? run.prompt : prompt;
  const runDataset = useMemo<LoadedDataset | null>(
    () =>
      run && run.datasetId !== null
        ? {
            id: run.datasetId,
            name: run.datasetName ?? "Rows of this run",
            headers: Object.keys(runRows.find((row) => Object.keys(row).length > 0) ?? {}),
            rowCount: run.rowCount,
            rows: runRows.slice(0, 50),
          }
        : null,
    [run, runRows],
  );
  const variables = useMemo(() => detectVariables(shownText), [shownText]);

  // What the plan summary asks the server about: the text as typed, before it is saved.
  const planInput = useMemo<CreateRunInput | null>(() => {
    if (prompt.trim() === "" || columns.length === 0) return null;
    return { prompt, ...draftRunInput({ dataset, variableCount: variables.length, columns, graderId: grader?.id ?? null, graderModel }) };
  }, [prompt, columns, dataset, variables.length, grader, graderModel]);

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

  const runPaused = run?.status === "paused";
  const runDisabledReason = runGate({
    readOnly,
    loading: setup.loading || session.restoring,
    columnCount: columns.length,
    runActive,
    runPaused,
  });
  const headers = dataset?.headers ?? null;
  // Columns the grader reads are used too, so they are not listed as unused.
  const fitVariables = useMemo(
    () => (grader ? [...new Set([...variables, ...detectVariables(grader.text).filter((name) => name !== OUTPUT_VARIABLE)])] : variables),
    [grader, variables],
  );
  const fit = activePrompt?.type === "grader" ? graderFit(variables, headers, OUTPUT_VARIABLE) : datasetFit(variables, headers);

  return (
    <section
      aria-labelledby="prompt-heading"
      data-testid="editor-panel"
      style={{ width: focus ? "65%" : "30%" }}
      className={`${animate ? "panel-spring" : ""} flex min-w-[320px] shrink-0 flex-col gap-3 overflow-y-auto border-r border-zinc-200 p-4`}
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
            onRun={startRun}
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
              onRun={startRun}
              disabled={runDisabledReason !== null}
              running={runActive || (session.busy && !readOnly)}
              paused={runPaused && !readOnly}
              disabledReason={runDisabledReason}
            />
          </div>
        </div>
      </div>
      <ErrorAlert
        message={session.error ?? setup.error}
        onDismiss={session.clearError}
        action={session.error && session.activeRunId ? { label: "Open that run", onClick: () => void session.openActiveRun() } : undefined}
      />

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
        <DatasetSummary dataset={readOnly && run ? runDataset : dataset} loading={setup.loading} />
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
            <RunPlanSummary input={planInput} frozen={runActive} runPlan={run?.id && runActive ? runPlan : null} />
            <BudgetField text={budgetText} mode={budgetMode} disabled={runActive} onChange={setBudget} />
          </div>
        </details>
      )}
    </section>
  );
}
