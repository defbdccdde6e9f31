"use client";

import { useState } from "react";
import type { RunAction } from "@/lib/client/api";
import { useRunProgress, useRunStore } from "@/lib/client/run-store";
import { isRunActive, type RunStatus } from "@/lib/client/run-types";
import type { ConnectionState } from "@/lib/client/subscribe-to-run";
import { ModalDialog } from "@/components/ui/modal-dialog";
import { SpendMeter } from "./spend-meter";

const STATUS_LABELS: Record<RunStatus, string> = {
  planned: "Starting",
  queued: "Queued",
  running: "Running",
  paused: "Paused",
  completed: "Completed",
  cancelled: "Cancelled",
  failed: "Failed",
};

const STATUS_STYLES: Record<RunStatus, string> = {
  planned: "bg-accent-soft text-accent-strong border-accent-line",
  queued: "bg-accent-soft text-accent-strong border-accent-line",
  running: "bg-accent-soft text-accent-strong border-accent-line",
  paused: "bg-amber-50 text-amber-800 border-amber-200",
  completed: "bg-emerald-50 text-emerald-800 border-emerald-200",
  cancelled: "bg-zinc-100 text-zinc-700 border-zinc-200",
  failed: "bg-red-50 text-red-800 border-red-200",
};

type RunStatusBarProps = {
  busy: boolean;
  connection: ConnectionState | null;
  onAction(action: RunAction): void;
  /** Shown once the run has ended: puts it away for a clean grid (it stays in history). */
  onClear?(): void;
};

/**
 * The run's status, progress ("142 / 200 done"), while it is active Pause/Resume/Cancel, and
 * what it has spent.
 */
export function RunStatusBar({ busy, connection, onAction, onClear }: RunStatusBarProps) {
  const status = useRunStore((state) => state.run?.status ?? null);
  const { finished, cancelled, total } = useRunProgress();
  const [confirmingCancel, setConfirmingCancel] = useState(false);
  if (!status) return null;

  const active = isRunActive(status);
  const percent = total > 0 ? Math.round((finished / total) * 100) : 0;

  return (
    // Wraps in a narrow panel: a control never runs under its neighbour.
    <div className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-2">
      <span
        role="status"
        data-testid="run-status"
        className={`inline-flex h-6 shrink-0 items-center rounded-full border px-2.5 text-xs font-medium ${STATUS_STYLES[status]}`}
      >
        {STATUS_LABELS[status]}
        {connection === "reconnecting" && <span className="ml-1 font-normal">· reconnecting…</span>}
      </span>
      <div
        role="progressbar"
        aria-label="Run progress"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={finished}
        aria-valuetext={`${finished} of ${total} cells done`}
        className="hidden h-1.5 w-20 shrink-0 overflow-hidden rounded-full bg-accent-line @min-[860px]:block"
      >
        {/* Moved, not resized: a transform is animated by the compositor, where a width would
            lay the page out again every frame of a run. */}
        <div
          className="h-full rounded-full bg-accent transition-transform duration-300 motion-reduce:transition-none"
          style={{ transform: `translateX(${percent - 100}%)` }}
        />
      </div>
      <span className="shrink-0 text-sm text-zinc-700 tabular-nums" data-testid="run-progress">
        {finished} / {total} done
        {cancelled > 0 && ` · ${cancelled} cancelled`}
      </span>
      {!active && onClear && (
        // Kept on one line: in a crowded toolbar the button would wrap its label.
        <div className="shrink-0 whitespace-nowrap">
          <ToolbarButton label="Clear results" onClick={onClear} disabled={busy} />
        </div>
      )}
      {active && (
        <div className="flex shrink-0 items-center gap-1.5">
          {status === "paused" ? (
            <ToolbarButton label="Resume" onClick={() => onAction("resume")} disabled={busy} />
          ) : (
            <ToolbarButton label="Pause" onClick={() => onAction("pause")} disabled={busy} />
          )}
          <ToolbarButton label="Cancel" onClick={() => setConfirmingCancel(true)} disabled={busy} tone="danger" />
        </div>
      )}
      {/* A cancel cannot be undone: the cells not yet done are never run. */}
      <ModalDialog
        open={confirmingCancel && active}
        onClose={() => setConfirmingCancel(false)}
        title="Cancel this run?"
        testId="cancel-run-dialog"
        description={`${Math.max(0, total - finished).toLocaleString("en")} of ${total.toLocaleString("en")} cells are not done yet; they will not run. Finished cells stay. This cannot be undone.`}
        footer={
          <>
            <button
              type="button"
              onClick={() => setConfirmingCancel(false)}
              className="h-8 rounded-lg border border-zinc-300 bg-white px-3 text-sm font-medium text-zinc-800 hover:border-accent hover:bg-accent-soft"
            >
              Keep running
            </button>
            <button
              type="button"
              onClick={() => {
                setConfirmingCancel(false);
                onAction("cancel");
              }}
              className="h-8 rounded-lg bg-red-700 px-3 text-sm font-medium text-white hover:bg-red-800"
            >
              Cancel run
            </button>
          </>
        }
      />
      {/* In a narrow results panel (focus mode) the spend waits for more room. */}
      <div className="hidden min-w-0 @min-[680px]:flex">
        <SpendMeter />
      </div>
    </div>
  );
}

function ToolbarButton({
  label,
  onClick,
  disabled,
  tone = "normal",
}: {
  label: string;
  onClick(): void;
  disabled: boolean;
  tone?: "normal" | "danger";
}) {
  const toneClass =
    tone === "danger" ? "text-red-700 hover:border-red-300 hover:bg-red-50" : "text-zinc-800 hover:border-accent hover:bg-accent-soft";
  return (
    <button
      type="button"
      onClick={onClick}
      disabled={disabled}
      className={`h-7 rounded-md border border-zinc-300 bg-white px-2.5 text-xs font-medium disabled:opacity-60 ${toneClass}`}
    >
      {label}
    </button>
  );
}
