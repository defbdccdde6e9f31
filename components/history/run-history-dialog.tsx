"use client";

import { useEffect, useId, useState } from "react";
import { PanelDialog } from "@/components/ui/panel-dialog";
import { listPromptRuns, type PromptRunHistoryEntry } from "@/lib/client/history-api";
import { defaultSelection, selectedPair, toggleSelection } from "./compare-selection";
import { RunComparison } from "./run-comparison";
import { RunHistoryTable } from "./run-history-table";

type RunHistoryDialogProps = {
  open: boolean;
  promptId: string;
  currentRunId: string | null;
  onClose(): void;
  /** Opens a run in the workbench (read-only); the dialog has closed by then. */
  onOpenRun(runId: string): void;
};

type Loaded = { status: "loading" } | { status: "error"; message: string } | { status: "ready"; runs: PromptRunHistoryEntry[] };

/** The prompt's earlier runs, and a comparison of two of them, in a wide panel. */
export function RunHistoryDialog({ open, promptId, currentRunId, onClose, onOpenRun }: RunHistoryDialogProps) {
  const titleId = useId();
  const [loaded, setLoaded] = useState<Loaded>({ status: "loading" });
  const [selected, setSelected] = useState<string[]>([]);

  // Fetched on every opening: a run may have finished since the last look.
  useEffect(() => {
    if (!open) return;
    let current = true;
    setLoaded((previous) => (previous.status === "ready" ? previous : { status: "loading" }));
    listPromptRuns({ promptId }).then(
      (runs) => {
        if (!current) return;
        setLoaded({ status: "ready", runs });
        setSelected(defaultSelection(runs));
      },
      (error: unknown) => current && setLoaded({ status: "error", message: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      current = false;
    };
  }, [open, promptId]);

  const runs = loaded.status === "ready" ? loaded.runs : [];
  const pair = selectedPair(runs, selected);

  return (
    <PanelDialog
      open={open}
      onClose={onClose}
      title="Run history"
      description="Newest first. Open a run to see its results read-only; tick two to compare them."
      closeLabel="Close run history"
      testId="history-dialog"
      widthClassName="w-[min(960px,92vw)] max-w-none"
    >
      <div className="min-h-0 flex-1 overflow-y-auto px-5 pt-3 pb-5">
        {loaded.status === "loading" && <p className="py-6 text-sm text-zinc-600">Loading the runs…</p>}
        {loaded.status === "error" && (
          <p role="alert" className="rounded-lg border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
            Could not load the run history: {loaded.message}
          </p>
        )}
        {loaded.status === "ready" && runs.length === 0 && (
          <p className="py-6 text-sm text-zinc-600">No runs yet. Each Run of this prompt is listed here, with its version and grades.</p>
        )}
        {runs.length > 0 && (
          <>
            <div data-testid="history-list" className="max-h-[min(300px,34vh)] overflow-auto rounded-lg border border-zinc-200">
              <RunHistoryTable
                runs={runs}
                currentRunId={currentRunId}
                selected={selected}
                onToggle={(runId) => setSelected((current) => toggleSelection(current, runId))}
                onOpen={(runId) => {
                  onClose();
                  onOpenRun(runId);
                }}
              />
            </div>
            <section aria-labelledby={`${titleId}-compare`} className="mt-5 flex flex-col gap-3">
              <h3 id={`${titleId}-compare`} className="text-xs font-semibold tracking-wide text-zinc-600 uppercase">
                Compare
              </h3>
              {pair ? (
                <RunComparison before={pair[0]} after={pair[1]} />
              ) : (
                <p className="text-sm text-zinc-600">
                  {runs.length < 2 ? "Run the prompt again to compare two runs." : "Tick two runs above to compare them."}
                </p>
              )}
            </section>
          </>
        )}
      </div>
    </PanelDialog>
  );
}
