// What a cell's badge and accessible name say for the metric on screen. Pure, beside the cell.
import { effectiveGrade, type GradeMode } from "@/lib/client/column-summary";
import { formatLatency, formatTokenCount } from "@/lib/client/format-metrics";
import { formatUsd } from "@/lib/client/format-money";
import type { Cell, CellStatus } from "@/lib/client/run-types";
import type { MetricView } from "@/lib/client/workbench-types";

/** A metric as a badge shows it (`text`), as a screen reader hears it (`label`) and its tooltip. */
export type CellMetric = { text: string; label: string; title: string };

/** Statuses of a cell that called a model: only these have tokens, cost, latency and a grade. */
const CALLED: ReadonlySet<CellStatus> = new Set(["ok", "warning", "malformed", "error"]);

/** True when the cell made a model call whose result can be shown and graded. */
export function hasCallResult(cell: Cell): boolean {
  return CALLED.has(cell.status);
}

/** True when a person may grade the cell with thumbs: it has an answer to judge. */
export function isGradable(cell: Cell): boolean {
  return cell.status === "ok" || cell.status === "warning" || cell.status === "malformed";
}

/** "pass", "fail" or "not graded" for a person's grade. */
export function describeManualGrade(grade: number | null): string {
  return grade === null ? "not graded" : grade >= 0.5 ? "pass" : "fail";
}

/** The cell's value for a metric, or null when it has none (not called, not graded, no numbers). */
export function cellMetric(cell: Cell, metric: MetricView, gradeMode: GradeMode): CellMetric | null {
  if (!hasCallResult(cell)) return null;
  switch (metric) {
    case "grade": {
      const grade = effectiveGrade(cell, gradeMode);
      if (grade !== null) {
        const source =
          cell.manualGrade !== null ? "graded by hand" : cell.status === "malformed" && cell.grade === null ? "malformed counts as 0" : "";
        return {
          text: grade.toFixed(2),
          label: `grade ${grade.toFixed(2)}${source ? ` (${source})` : ""}`,
          title: source ? `Grade ${grade.toFixed(2)}: ${source}` : `Grade ${grade.toFixed(2)}`,
        };
      }
      if (gradeMode !== "grader") return null;
      if (cell.graderStatus === "queued" || cell.graderStatus === "running") {
        return { text: "grading…", label: "grading", title: "The grader is working on this cell" };
      }
      if (cell.graderStatus === "error") {
        return { text: "grader error", label: "grader error", title: cell.graderError ?? "The grader's call failed" };
      }
      if (cell.graderStatus === "malformed") {
        return { text: "no grade", label: "grader gave no grade", title: "The grader's answer had no readable grade" };
      }
      return null;
    }
    case "tokens": {
      if (cell.tokensIn === null && cell.tokensOut === null) return null;
      const mark = cell.tokensEstimated ? "~" : "";
      const tokensIn = formatTokenCount(cell.tokensIn);
      const tokensOut = formatTokenCount(cell.tokensOut);
      return {
        text: `${mark}${tokensIn} | ${mark}${tokensOut}`,
        label: `tokens ${cell.tokensEstimated ? "about " : ""}${tokensIn} in, ${tokensOut} out`,
        title: `Tokens in | out${cell.tokensEstimated ? " (estimated)" : ""}`,
      };
    }
    case "cost": {
      if (cell.costUsd === null) {
        // A failed call with no tokens cost nothing we know of; a call with tokens but no price is unknown.
        if (cell.tokensIn === null && cell.tokensOut === null) return null;
        return { text: "—", label: "no price", title: "No price" };
      }
      const cost = formatUsd(cell.costUsd);
      return { text: cost, label: `cost ${cost}`, title: cell.cached ? "Cost (answered from the cache)" : "Cost" };
    }
    case "latency": {
      if (cell.latencyMs === null) return null;
      const latency = formatLatency(cell.latencyMs);
      return { text: latency, label: `latency ${latency}`, title: "Latency" };
    }
  }
}

/** The cell's accessible name: "Row 3, openai / gpt-4o: ok, grade 0.80". */
export function describeCell({
  row,
  columnName,
  cell,
  metric,
  gradeMode,
}: {
  row: number;
  columnName: string;
  cell: Cell | undefined;
  metric: MetricView;
  gradeMode: GradeMode;
}): string {
  if (!cell) return `Row ${row + 1}, ${columnName}: not run`;
  const value = cellMetric(cell, metric, gradeMode);
  // Warnings are part of the name, so a screen reader hears them with the cell, not only on hover.
  const warnings =
    cell.warnings.length === 0
      ? ""
      : `, ${cell.warnings.length === 1 ? "warning" : `${cell.warnings.length} warnings`}: ${cell.warnings.join(" ")}`;
  return `Row ${row + 1}, ${columnName}: ${cell.status}${value ? `, ${value.label}` : ""}${warnings}`;
}
