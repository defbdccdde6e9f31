"use client";

import { useState } from "react";
import { ClockIcon } from "@/components/ui/icons";
import { RunHistoryDialog } from "./run-history-dialog";

type RunHistoryButtonProps = {
  /** The prompt whose runs to list; null before the prompt is saved (the button is disabled). */
  promptId: string | null;
  /** The run the workbench shows, marked in the list. */
  currentRunId: string | null;
  /** Shows a run in the workbench (read-only), as `?run=<id>` does. */
  onOpenRun(runId: string): void;
};

/** A quiet "History" button that opens the prompt's earlier runs and the comparison of two. */
export function RunHistoryButton({ promptId, currentRunId, onOpenRun }: RunHistoryButtonProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        data-testid="history-button"
        onClick={() => setOpen(true)}
        disabled={promptId === null}
        aria-haspopup="dialog"
        title={
          promptId === null ? "The history starts with the prompt's first run" : "Earlier runs of this prompt, and what changed between two"
        }
        className="inline-flex h-7 items-center gap-1.5 rounded-md px-2 text-xs font-medium text-zinc-700 hover:bg-zinc-100 hover:text-zinc-900 disabled:cursor-not-allowed disabled:text-zinc-400 disabled:hover:bg-transparent"
      >
        <ClockIcon aria-hidden="true" className="size-3.5" />
        History
      </button>
      {promptId !== null && (
        <RunHistoryDialog
          open={open}
          promptId={promptId}
          currentRunId={currentRunId}
          onClose={() => setOpen(false)}
          onOpenRun={onOpenRun}
        />
      )}
    </>
  );
}
