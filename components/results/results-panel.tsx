"use client";

import { useEffect, useMemo, useState } from "react";
import { MAX_COLUMNS, useDraftStore, type DraftColumn } from "@/lib/client/draft-store";
import { chooseGrader, usePromptStore } from "@/lib/client/prompt-store";
import { useRunStore } from "@/lib/client/run-store";
import { isRunActive } from "@/lib/client/run-types";
import type { RunSession } from "@/lib/client/use-run-session";
import type { WorkbenchSetupState } from "@/lib/client/use-workbench-setup";
import type { MetricView, PromptItem } from "@/lib/client/workbench-types";
import { DatasetUploadButton } from "@/components/dataset/dataset-upload-button";
import { RunStatusBar } from "@/components/run/run-status-bar";
import { GraderSelect } from "@/components/toolbar/grader-select";
import { DensityToggle } from "@/components/toolbar/density-toggle";
import { METRIC_SHORTCUT, MetricPill, nextMetric } from "@/components/toolbar/metric-pill";
import { useViewMode } from "@/lib/client/view-mode";
import { isTypingTarget } from "@/lib/client/keyboard-target";
import { ExportRunMenu } from "./export-run-menu";
import { ResultsGrid } from "./results-grid";

type ResultsPanelProps = {
  session: RunSession;
  setup: WorkbenchSetupState;
  /** The grader prompts to choose from, and the one chosen, if any. */
  graders: PromptItem[];
  grader: PromptItem | null;
};

/** The workbench's right panel: the results toolbar, the banner of a history view, and the results grid. */
export function ResultsPanel({ session, setup, graders, grader }: ResultsPanelProps) {
  const { dataset, columns, setDataset, addColumn, editColumn, removeColumn } = useDraftStore();
  const graderId = usePromptStore((state) => state.graderId);
  const run = useRunStore((state) => state.run);
  const runRows = useRunStore((state) => state.rows);
  const runActive = run ? isRunActive(run.status) : false;
  const readOnly = session.readOnly;
  const [metric, setMetric] = useState<MetricView>("grade");
  const density = useViewMode((state) => state.density);
  const setDensity = useViewMode((state) => state.setDensity);

  // M cycles the metric from anywhere on the page, except where it is typed as text.
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.key.toLowerCase() !== METRIC_SHORTCUT || event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
      if (event.defaultPrevented || isTypingTarget(event.target) || document.querySelector("[role=dialog], dialog[open], [role=menu]"))
        return;
      event.preventDefault();
      setMetric(nextMetric);
    }
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);

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

  return (
    <section aria-labelledby="results-heading" className="flex min-w-0 flex-1 flex-col">
      <h2 id="results-heading" className="sr-only">
        Results
      </h2>
      {/* Two lines when there is a run: the view and setup pills, then the run's own line (status,
          progress, Pause and Cancel, spend, Export). Each wraps rather than overlap in a narrow
          panel (focus mode, 1280 px): in one line the run's controls ran under Export and Upload. */}
      <div role="toolbar" aria-label="Results" className="@container flex shrink-0 flex-col border-b border-zinc-200 px-4">
        <div className="flex min-h-14 flex-wrap items-center gap-2 py-2.5">
          <MetricPill metric={metric} onChange={setMetric} />
          <DensityToggle density={density} onChange={setDensity} />
          <GraderSelect graders={graders} value={graderId} disabled={runActive || readOnly} onChange={(id) => void chooseGrader(id)} />
          <div className="ml-auto shrink-0">
            <DatasetUploadButton onLoaded={setDataset} />
          </div>
        </div>
        {run && (
          <div className="-mt-1 flex min-w-0 flex-wrap items-center gap-x-3 gap-y-2 pb-2.5" data-testid="run-line">
            <RunStatusBar
              busy={session.busy}
              connection={session.connection}
              onAction={(action) => void session.act(action)}
              onClear={readOnly ? undefined : session.clearRun}
            />
            <div className="ml-auto shrink-0">
              <ExportRunMenu runId={run.id} look="pill" />
            </div>
          </div>
        )}
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
            density={density}
            gradeMode={gradeMode}
            runActive={runActive}
            readOnly={readOnly}
            emptyState={!run && gridRows.length === 0 ? <EmptyResults /> : null}
          />
        )}
      </div>
    </section>
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
        <li>Add up to {MAX_COLUMNS} models with +, then press Run (Ctrl+Enter, from anywhere on the page). M switches the metric.</li>
      </ol>
    </div>
  );
}

function formatWhen(iso: string): string {
  return new Date(iso).toLocaleString("en-GB", { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
}
