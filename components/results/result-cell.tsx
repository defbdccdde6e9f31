"use client";

import { memo } from "react";
import { useShownCell } from "@/lib/client/run-store";
import type { Cell, CellStatus } from "@/lib/client/run-types";
import { formatLatency, formatTokenCount, previewText } from "@/lib/client/format-metrics";
import { formatUsd } from "@/lib/client/format-money";
import { CellSkeleton } from "./cell-skeleton";

/** The card's look for each state, per the workbench spec. */
const CARD_STYLES: Record<CellStatus | "not-run", string> = {
  "not-run": "border-dashed border-zinc-200 bg-white",
  queued: "border-zinc-200 bg-white",
  running: "border-accent-line bg-accent-soft",
  ok: "border-zinc-200 bg-white",
  warning: "border-amber-200 bg-white",
  error: "border-red-500 bg-white",
  malformed: "border-amber-300 bg-amber-50",
  skipped: "border-zinc-200 bg-zinc-100",
  cancelled: "border-zinc-200 bg-zinc-100",
};

const DOT_STYLES: Record<CellStatus, string> = {
  queued: "bg-zinc-400",
  running: "bg-accent motion-safe:animate-pulse",
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
  focusable: boolean;
  onFocusCell(row: number, column: number): void;
};

/** One result in the grid: status, output as text, tokens and latency. */
export const ResultCell = memo(function ResultCell({
  rowIndex,
  runColumn,
  columnName,
  columnPosition,
  focusable,
  onFocusCell,
}: ResultCellProps) {
  const cell = useShownCell(rowIndex, runColumn);
  const state = cell?.status ?? "not-run";
  const stateLabel = state === "not-run" ? "not run" : state;
  // Warnings are part of the name, so a screen reader hears them with the cell, not only on hover.
  const warnings = cell?.warnings ?? [];
  const warningLabel =
    warnings.length === 0 ? "" : `, ${warnings.length === 1 ? "warning" : `${warnings.length} warnings`}: ${warnings.join(" ")}`;

  return (
    <td className="border-r border-b border-zinc-200 p-1.5 align-top">
      <div
        role="group"
        tabIndex={focusable ? 0 : -1}
        aria-label={`Row ${rowIndex + 1}, ${columnName}: ${stateLabel}${warningLabel}`}
        data-grid-row={rowIndex}
        data-grid-column={columnPosition}
        data-status={state}
        onFocus={(event) => {
          onFocusCell(rowIndex, columnPosition);
          // focus() leaves a cell half under the sticky Row column; bring all of it into view.
          event.currentTarget.scrollIntoView({ block: "nearest", inline: "nearest" });
        }}
        className={`flex h-[136px] flex-col rounded-md border px-2.5 pt-2 pb-1.5 ${state === "error" ? "border-2" : ""} ${CARD_STYLES[state]}`}
      >
        <div className="min-h-0 flex-1 overflow-hidden">
          <CellBody cell={cell} />
        </div>
        {cell && <CellFooter cell={cell} />}
      </div>
    </td>
  );
});

function CellBody({ cell }: { cell: Cell | undefined }) {
  if (!cell) return <p className="pt-0.5 text-xs text-zinc-500">Not run</p>;
  switch (cell.status) {
    case "queued":
    case "running":
      return <CellSkeleton />;
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
        <p className="line-clamp-5 text-[13px] leading-[1.45] break-words whitespace-pre-wrap text-zinc-900" data-testid="cell-output">
          {cell.output ? previewText(cell.output) : <span className="text-zinc-500 italic">(empty output)</span>}
        </p>
      );
  }
}

function CellFooter({ cell }: { cell: Cell }) {
  const finished = cell.status !== "queued" && cell.status !== "running";
  const hasTokens = finished && (cell.tokensIn !== null || cell.tokensOut !== null);
  const hasLatency = finished && cell.latencyMs !== null;
  // A null cost is unknown (no price): show nothing rather than a $0 nobody measured.
  const hasCost = finished && cell.costUsd !== null && cell.costUsd !== undefined;
  const estimated = cell.tokensEstimated ? "~" : "";
  return (
    <div className="mt-1 flex h-5 items-center gap-2 text-[11px] text-zinc-600 tabular-nums">
      <span className="inline-flex min-w-0 items-center gap-1.5">
        <span aria-hidden="true" className={`size-1.5 shrink-0 rounded-full ${DOT_STYLES[cell.status]}`} />
        <span className="truncate">
          {cell.status}
          {cell.errorCode && (cell.status === "error" || cell.status === "skipped") ? ` · ${cell.errorCode}` : ""}
        </span>
        {cell.warnings.length > 0 && <WarningMark warnings={cell.warnings} />}
        {cell.cached && <CachedMark />}
      </span>
      <span className="ml-auto flex shrink-0 items-center gap-2">
        {hasTokens && (
          <span title={`Tokens in | out${cell.tokensEstimated ? " (estimated)" : ""}`}>
            {estimated}
            {formatTokenCount(cell.tokensIn)} | {estimated}
            {formatTokenCount(cell.tokensOut)}
          </span>
        )}
        {hasCost && (
          <>
            <Separator />
            <span title={cell.cached ? "Cost of this cell (answered from the cache)" : "Cost"}>
              {formatUsd(cell.costUsd)}
            </span>
          </>
        )}
        {(hasTokens || hasCost) && hasLatency && <Separator />}
        {hasLatency && <span title="Latency">{formatLatency(cell.latencyMs)}</span>}
      </span>
    </div>
  );
}

function Separator() {
  return (
    <span aria-hidden="true" className="text-zinc-300">
      ·
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
      <svg aria-hidden="true" viewBox="0 0 16 16" className="size-2.5" fill="currentColor">
        <path d="M9.5 1 3 9h4l-1 6 6.5-8h-4z" />
      </svg>
      cached
    </span>
  );
}

/** A warning triangle; the messages are in its title (and in the cell's accessible name). */
function WarningMark({ warnings }: { warnings: string[] }) {
  return (
    <span title={warnings.join("\n")} aria-hidden="true" className="inline-flex shrink-0 text-amber-600" data-testid="cell-warning">
      <svg viewBox="0 0 16 16" className="size-3.5" fill="none" stroke="currentColor" strokeWidth="1.6">
        <path d="M8 2.2 14.5 13.5h-13z" strokeLinejoin="round" />
        <path d="M8 6.5v3.2M8 11.6v.1" strokeLinecap="round" />
      </svg>
    </span>
  );
}
