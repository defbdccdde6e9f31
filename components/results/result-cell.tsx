"use client";

import { memo, useState } from "react";
import { useShownCell } from "@/lib/client/run-store";
import { isCellFinished, type Cell, type CellStatus } from "@/lib/client/run-types";
import { previewText } from "@/lib/client/format-metrics";
import { BoltIcon, RerunIcon, WarningIcon } from "@/components/ui/icons";
import { CellBadge } from "./cell-badge";
import { describeCell } from "./cell-metric";
import { CellSkeleton } from "./cell-skeleton";
import type { GridView } from "./grid-view";
import { useCellActions } from "./use-cell-actions";
import { useMetricFade } from "./use-metric-fade";

/** The card's look for each state, per the workbench spec. */
const CARD_STYLES: Record<CellStatus | "not-run", string> = {
  "not-run": "border-dashed border-zinc-200 bg-white",
  queued: "border-zinc-200 bg-white",
  running: "border-accent-line bg-accent-soft",
  ok: "border-zinc-200 bg-white",
  warning: "border-amber-200 bg-white",
  error: "border-2 border-red-500 bg-white",
  malformed: "border-amber-300 bg-amber-50",
  skipped: "border-zinc-200 bg-zinc-100",
  cancelled: "border-zinc-200 bg-zinc-100",
};

const DOT_STYLES: Record<CellStatus, string> = {
  queued: "bg-zinc-400",
  running: "bg-accent",
  ok: "bg-emerald-500",
  warning: "bg-amber-500",
  error: "bg-red-600",
  malformed: "bg-amber-500",
  skipped: "bg-zinc-400",
  cancelled: "bg-zinc-400",
};

type ResultCellProps = {
  rowIndex: number;
  /** The run column shown here, or null for a column added since the run. */
  runColumn: number | null;
  columnName: string;
  columnPosition: number;
  /** True for the grid's one Tab stop (roving tabindex). */
  focusable: boolean;
  view: GridView;
  onFocusCell(row: number, column: number): void;
  /** Opens the cell's detail modal. */
  onOpenCell(row: number, column: number): void;
};

/**
 * One result in the grid: the first 200 characters of the output (as text), the status, and a
 * badge for the metric on screen. A click, Enter or Space opens the full output; while a run is
 * active, a re-run button shows on hover or focus.
 */
export const ResultCell = memo(function ResultCell({
  rowIndex,
  runColumn,
  columnName,
  columnPosition,
  focusable,
  view,
  onFocusCell,
  onOpenCell,
}: ResultCellProps) {
  const stored = useShownCell(rowIndex, runColumn);
  // A live run is followed from its creation on, without its queued cells replayed: a cell not
  // heard of yet is one still waiting in the queue.
  const cell = stored ?? (view.runActive && runColumn !== null && view.runId !== null ? queuedCell(rowIndex, runColumn) : undefined);
  const actions = useCellActions(cell, view.runId);
  const [overlayOpen, setOverlayOpen] = useState(false);
  const fade = useMetricFade(view.metric);
  const state = cell?.status ?? "not-run";
  const target = `row ${rowIndex + 1}, ${columnName}`;
  const showOverlay = overlayOpen && view.metric === "grade" && view.gradeMode === "grader" && !!cell?.graderOutput;
  const canRerun = !!cell && view.runActive && !view.readOnly && view.runId !== null && isCellFinished(cell.status);
  const tabIndex = focusable ? 0 : -1;
  const compact = view.density === "compact";
  const badge = cell && isCellFinished(cell.status) && (
    <span key={view.metric} data-testid="cell-badge" data-metric={view.metric} className={`ml-auto flex shrink-0 items-center ${fade}`}>
      <CellBadge
        cell={cell}
        view={view}
        target={target}
        tabIndex={tabIndex}
        overlayOpen={showOverlay}
        onToggleOverlay={() => setOverlayOpen((open) => !open)}
        actions={actions}
      />
    </span>
  );

  return (
    <td className={`border-r border-b border-zinc-200 ${compact ? "p-1" : "p-1.5"} align-top`}>
      <div
        role="group"
        tabIndex={tabIndex}
        aria-label={describeCell({ row: rowIndex, columnName, cell, metric: view.metric, gradeMode: view.gradeMode })}
        data-testid="result-cell"
        data-grid-row={rowIndex}
        data-grid-column={columnPosition}
        data-status={state}
        title={cell ? cellTooltip(cell) : undefined}
        onFocus={(event) => {
          onFocusCell(rowIndex, columnPosition);
          // focus() leaves a cell half under the sticky Row column; bring all of it into view.
          if (event.target === event.currentTarget) event.currentTarget.scrollIntoView({ block: "nearest", inline: "nearest" });
        }}
        onClick={() => {
          if (stored) onOpenCell(rowIndex, columnPosition);
        }}
        onKeyDown={(event) => {
          if (event.key === "Escape" && overlayOpen) {
            // From inside the overlay, which goes away, focus returns to the cell.
            if ((event.target as HTMLElement).closest("[data-testid=grader-overlay]")) event.currentTarget.focus();
            setOverlayOpen(false);
            event.stopPropagation();
            event.preventDefault();
          } else if (stored && (event.key === "Enter" || event.key === " ") && event.target === event.currentTarget) {
            event.preventDefault();
            onOpenCell(rowIndex, columnPosition);
          }
        }}
        onMouseLeave={() => setOverlayOpen(false)}
        className={`group/cell relative flex ${compact ? "h-7 items-center gap-2 px-2" : "h-[136px] flex-col px-2.5 pt-2 pb-1.5"} ${stored ? "cursor-pointer" : ""} rounded-md border ${CARD_STYLES[state]}`}
      >
        {compact ? (
          <>
            <div className="min-w-0 flex-1 truncate text-[12.5px] leading-7">
              <CompactBody cell={cell} />
            </div>
            {/* One line: the status only when it is not ok, then the metric. */}
            {cell && cell.status !== "ok" && (
              <span className="flex max-w-[45%] shrink-0 items-center text-[11px] text-zinc-600">
                <CellStatusLine cell={cell} />
              </span>
            )}
            {badge}
            {showOverlay && cell && (
              <div className="absolute top-full right-0 left-0 z-20 mt-1 h-48 shadow-lg">
                <GraderOverlay output={cell.graderOutput ?? ""} />
              </div>
            )}
          </>
        ) : (
          <div className="min-h-0 flex-1 overflow-hidden">
            {showOverlay && cell ? <GraderOverlay output={cell.graderOutput ?? ""} /> : <CellBody cell={cell} />}
          </div>
        )}
        {actions.error && !compact && (
          <p role="alert" title={actions.error} className="mt-1 truncate text-[11px] text-red-700">
            {actions.error}
          </p>
        )}
        {cell && !compact && (
          <div className="mt-1 flex h-5 items-center gap-2 text-[11px] text-zinc-600">
            <CellStatusLine cell={cell} />
            {badge}
          </div>
        )}
        {canRerun && (
          <button
            type="button"
            tabIndex={tabIndex}
            data-testid="rerun-button"
            aria-label={`Re-run ${target}`}
            title="Re-run this cell (skips the cache)"
            disabled={actions.pending === "rerun"}
            onClick={(event) => {
              event.stopPropagation();
              actions.rerun();
            }}
            className={`absolute ${compact ? "top-0 right-0 size-[26px]" : "top-1.5 right-1.5 size-7"} grid place-items-center rounded-md border border-zinc-200 bg-white text-zinc-600 opacity-0 shadow-sm group-focus-within/cell:opacity-100 group-hover/cell:opacity-100 hover:border-accent hover:text-accent-strong focus-visible:opacity-100 disabled:opacity-100`}
          >
            <RerunIcon aria-hidden="true" className={`size-3.5 ${actions.pending === "rerun" ? "motion-safe:animate-spin" : ""}`} />
          </button>
        )}
      </div>
    </td>
  );
});

/** A stand-in for a queued cell of a live run that no update has mentioned yet. */
function queuedCell(row: number, column: number): Cell {
  return {
    id: "",
    row,
    column,
    trial: 0,
    status: "queued",
    output: null,
    outputParsed: null,
    outputTruncated: false,
    tokensIn: null,
    tokensOut: null,
    tokensEstimated: false,
    latencyMs: null,
    costUsd: null,
    finishReason: null,
    error: null,
    errorCode: null,
    warnings: [],
    attempts: 0,
    cached: false,
    graderStatus: null,
    graderOutput: null,
    graderError: null,
    graderCostUsd: null,
    grade: null,
    manualGrade: null,
    seq: 0,
    updatedAt: "",
  };
}

function CellBody({ cell }: { cell: Cell | undefined }) {
  if (!cell) return <p className="pt-0.5 text-xs text-zinc-500">Not run</p>;
  switch (cell.status) {
    case "queued":
    case "running":
      return <CellSkeleton pulsing={cell.status === "running"} />;
    case "error":
      return (
        <p className="line-clamp-5 text-[13px] leading-[1.45] break-words text-red-800" data-testid="cell-error">
          {cell.error ? previewText(cell.error) : "The call failed."}
        </p>
      );
    case "skipped":
    case "cancelled":
      return (
        <p className="line-clamp-6 text-xs leading-[1.45] break-words text-zinc-700" data-testid="cell-reason">
          <span className="font-medium text-zinc-800">{cell.status === "skipped" ? "Skipped" : "Cancelled"}</span>
          {/* The engine's reasons often start with "Skipped:" already. */}
          {cell.error ? `: ${previewText(cell.error.replace(/^(Skipped|Cancelled):\s*/i, ""), 220)}` : ""}
        </p>
      );
    default:
      // Model output is text, never HTML: React escapes it, and nothing here sets innerHTML.
      return (
        <>
          {cell.status === "malformed" && cell.error && (
            <p className="mb-1 line-clamp-2 text-[11.5px] leading-[1.35] font-medium text-amber-900" data-testid="cell-malformed-reason">
              {cell.error}
            </p>
          )}
          <p
            className={`${cell.status === "malformed" && cell.error ? "line-clamp-3" : "line-clamp-5"} text-[13px] leading-[1.45] break-words whitespace-pre-wrap text-zinc-900`}
            data-testid="cell-output"
          >
            {cell.output ? previewText(cell.output) : <span className="text-zinc-500 italic">(empty output)</span>}
          </p>
        </>
      );
  }
}

/** The compact density's one line: the start of the output, or of the error or reason. */
function CompactBody({ cell }: { cell: Cell | undefined }) {
  if (!cell) return <span className="text-xs text-zinc-500">Not run</span>;
  switch (cell.status) {
    case "queued":
    case "running":
      return (
        <span
          aria-hidden="true"
          className={`block h-2 w-3/4 rounded bg-zinc-200 ${cell.status === "running" ? "motion-safe:animate-pulse" : ""}`}
        />
      );
    case "error":
      return (
        <span className="text-red-800" data-testid="cell-error">
          {cell.error ? previewText(cell.error, 120) : "The call failed."}
        </span>
      );
    case "skipped":
    case "cancelled":
      return (
        <span className="text-xs text-zinc-700" data-testid="cell-reason">
          {cell.status === "skipped" ? "Skipped" : "Cancelled"}
        </span>
      );
    default:
      return (
        <span className="text-zinc-900" data-testid="cell-output">
          {cell.output ? previewText(cell.output.replace(/\s+/g, " "), 120) : <span className="text-zinc-500 italic">(empty output)</span>}
        </span>
      );
  }
}

/**
 * The cell's tooltip, where the spec asks for one: a failed call's whole message with its code
 * and attempts, and why an answer is malformed (the format the prompt asked for).
 */
function cellTooltip(cell: Cell): string | undefined {
  if (cell.status === "error") {
    const details = [cell.errorCode ? `Code: ${cell.errorCode}` : null, cell.attempts > 1 ? `${cell.attempts} attempts` : null];
    return [cell.error ?? "The call failed.", details.filter(Boolean).join(" · ")].filter(Boolean).join("\n");
  }
  if (cell.status === "malformed" && cell.error) return `Malformed: ${cell.error}`;
  return undefined;
}

/** The grader's full output in place of the cell's, scrollable, until the pointer leaves the cell. */
function GraderOverlay({ output }: { output: string }) {
  return (
    <div
      data-testid="grader-overlay"
      role="region"
      aria-label="Grader output"
      // A Tab stop while open, so the keyboard can scroll a long answer too (WCAG 2.1.1; axe's
      // scrollable-region-focusable); Escape in it closes it.
      tabIndex={0}
      // Scrolling or selecting text in the overlay is not a click on the cell.
      onClick={(event) => event.stopPropagation()}
      className="h-full overflow-y-auto rounded bg-accent-soft px-1.5 py-1 text-[12.5px] leading-[1.45] break-words whitespace-pre-wrap text-zinc-800 ring-1 ring-accent-line"
    >
      <span className="block text-[10px] font-semibold tracking-wide text-accent-strong uppercase">Grader output</span>
      {output}
    </div>
  );
}

function CellStatusLine({ cell }: { cell: Cell }) {
  return (
    <span className="inline-flex min-w-0 items-center gap-1.5">
      <span aria-hidden="true" className={`size-1.5 shrink-0 rounded-full ${DOT_STYLES[cell.status]}`} />
      <span className="truncate">
        {cell.status}
        {cell.errorCode && (cell.status === "error" || cell.status === "skipped") ? ` · ${cell.errorCode}` : ""}
      </span>
      {cell.warnings.length > 0 && <WarningMark warnings={cell.warnings} />}
      {cell.cached && <CachedMark />}
    </span>
  );
}

/** A small bolt: this answer was served from the response cache, not a new call. */
function CachedMark() {
  return (
    <span
      role="img"
      aria-label="answered from cache"
      title="Answered from cache: no new call was made"
      className="inline-flex h-4 shrink-0 items-center gap-0.5 rounded border border-accent-line bg-accent-soft px-1 text-[10px] font-medium text-accent-strong"
    >
      <BoltIcon aria-hidden="true" className="size-2.5" />
      cached
    </span>
  );
}

/** A warning triangle; the messages are in its title (and in the cell's accessible name). */
function WarningMark({ warnings }: { warnings: string[] }) {
  return (
    <span title={warnings.join("\n")} aria-hidden="true" className="inline-flex shrink-0 text-amber-600" data-testid="cell-warning">
      <WarningIcon className="size-3.5" />
    </span>
  );
}
