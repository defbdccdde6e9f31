"use client";

import { effectiveGrade } from "@/lib/client/column-summary";
import { gradeColor } from "@/lib/client/grade-color";
import type { Cell } from "@/lib/client/run-types";
import { HandIcon } from "@/components/ui/icons";
import { cellMetric, isGradable } from "./cell-metric";
import type { GridView } from "./grid-view";
import { ManualGradeMark, ThumbsButton } from "./thumbs-button";
import type { CellActions } from "./use-cell-actions";

type CellBadgeProps = {
  cell: Cell;
  view: GridView;
  /** "row 3, openai / gpt-4o", for the names of the badge's controls. */
  target: string;
  /** The cell's controls are in the Tab order only while the cell is the grid's Tab stop. */
  tabIndex: number;
  overlayOpen: boolean;
  onToggleOverlay(): void;
  actions: CellActions;
};

const PLAIN = "inline-flex h-5 items-center rounded px-1.5 text-[11px] font-medium tabular-nums";

/**
 * The bottom-right badge of a finished cell, for the metric on screen: a coloured grade (a button
 * that shows the grader's output in the cell), thumbs to grade by hand, or tokens, cost, latency.
 */
export function CellBadge({ cell, view, target, tabIndex, overlayOpen, onToggleOverlay, actions }: CellBadgeProps) {
  if (view.metric === "grade" && view.gradeMode === "manual") {
    if (!isGradable(cell)) return null;
    if (view.readOnly) return cell.manualGrade === null ? null : <ManualGradeMark manualGrade={cell.manualGrade} />;
    return (
      <ThumbsButton
        manualGrade={cell.manualGrade}
        malformed={cell.status === "malformed"}
        target={target}
        pending={actions.pending === "grade"}
        error={actions.error}
        tabIndex={tabIndex}
        onGrade={actions.grade}
      />
    );
  }

  const metric = cellMetric(cell, view.metric, view.gradeMode);
  if (!metric) return null;
  if (view.metric !== "grade") {
    return (
      <span role="img" aria-label={metric.label} title={metric.title} className={`${PLAIN} bg-zinc-100 text-zinc-700`}>
        {metric.text}
      </span>
    );
  }

  const grade = effectiveGrade(cell, "grader");
  const canShowOutput = cell.graderOutput !== null && cell.graderOutput !== "";
  if (grade === null) {
    // Still grading, or the grader failed: no number to colour.
    const looks =
      cell.graderStatus === "error"
        ? "border border-red-500 bg-white text-red-700"
        : cell.graderStatus === "malformed"
          ? "border border-amber-400 bg-white text-amber-800"
          : "bg-accent-soft text-accent-strong ring-1 ring-accent-line motion-safe:animate-pulse";
    if (cell.graderStatus === "malformed" && canShowOutput) {
      return (
        <OverlayToggle
          className={`${PLAIN} ${looks}`}
          label={`${metric.title} for ${target}`}
          {...{ tabIndex, overlayOpen, onToggleOverlay }}
        >
          {metric.text}
        </OverlayToggle>
      );
    }
    return (
      <span role="img" aria-label={metric.label} title={metric.title} data-testid="grader-status-badge" className={`${PLAIN} ${looks}`}>
        {metric.text}
      </span>
    );
  }

  const colors = gradeColor(grade);
  const byHand = cell.manualGrade !== null;
  const style = { background: colors.background, color: colors.text, borderColor: colors.border };
  const content = (
    <>
      {byHand && <HandIcon aria-hidden="true" className="size-3" />}
      {metric.text}
    </>
  );
  const className = `${PLAIN} gap-1 border`;
  if (canShowOutput) {
    return (
      <OverlayToggle
        className={className}
        style={style}
        grade={metric.text}
        label={`${metric.label} for ${target}`}
        {...{ tabIndex, overlayOpen, onToggleOverlay }}
      >
        {content}
      </OverlayToggle>
    );
  }
  return (
    <span
      role="img"
      aria-label={metric.label}
      title={metric.title}
      data-testid="grade-badge"
      data-grade={metric.text}
      className={className}
      style={style}
    >
      {content}
    </span>
  );
}

function OverlayToggle({
  className,
  style,
  grade,
  label,
  tabIndex,
  overlayOpen,
  onToggleOverlay,
  children,
}: {
  className: string;
  style?: React.CSSProperties;
  grade?: string;
  label: string;
  tabIndex: number;
  overlayOpen: boolean;
  onToggleOverlay(): void;
  children: React.ReactNode;
}) {
  return (
    <button
      type="button"
      tabIndex={tabIndex}
      data-testid="grade-badge"
      data-grade={grade}
      aria-expanded={overlayOpen}
      aria-label={`${label}: ${overlayOpen ? "hide" : "show"} the grader's output`}
      title={overlayOpen ? "Hide the grader's output" : "Show the grader's output"}
      onClick={(event) => {
        event.stopPropagation();
        onToggleOverlay();
      }}
      className={`${className} cursor-pointer hover:brightness-95`}
      style={style}
    >
      {children}
    </button>
  );
}
