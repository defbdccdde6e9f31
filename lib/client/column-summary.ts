// The summary row's arithmetic: one number per model column for the metric on screen, and which
// grade a cell counts with. Pure, so the grid, its cells and the tests agree.
import { averageGrade, gradeGroupOfCell } from "@/lib/core/grade-average";
import { formatLatency, formatTokenCount } from "./format-metrics";
import { formatUsd } from "./format-money";
import { isCellFinished, type Cell } from "./run-types";
import type { MetricView } from "./workbench-types";

/** Grader: the run on screen has a grader prompt; manual: people grade with thumbs. */
export type GradeMode = "grader" | "manual";

/** One column's summary for the current metric. */
export type ColumnSummary = {
  /** The average as shown ("0.80", "1.2k | 0.3k", "$0.0012", "850 ms"), or "—" when nothing counts. */
  value: string;
  /** Small muted text under it: "3 graded", "12 cells". */
  detail: string;
  /** A longer explanation for the tooltip (totals, what counts). */
  title: string;
  /** The average as a number (grade, tokens in, dollars, milliseconds), or null. */
  numeric: number | null;
};

/**
 * The grade a cell counts with: a person's grade first (it overrides the grader's), then 0 for a
 * malformed answer (the spec counts it as a fail), then the grader's grade in grader mode. Null
 * when the cell has no grade (unfinished, not graded yet, or graded by nobody).
 */
export function effectiveGrade(cell: Cell, gradeMode: GradeMode): number | null {
  if (!isCellFinished(cell.status)) return null;
  if (cell.manualGrade !== null) return cell.manualGrade;
  if (cell.status === "malformed") return 0;
  return gradeMode === "grader" ? cell.grade : null;
}

/** The cells the grid shows (one per row) grouped by run column, from the run store's maps. */
export function shownCellsByColumn(cells: Record<string, Cell>, shownCellKeys: Record<string, string>): Map<number, Cell[]> {
  const byColumn = new Map<number, Cell[]>();
  for (const key of Object.values(shownCellKeys)) {
    const cell = cells[key];
    if (!cell) continue;
    const list = byColumn.get(cell.column);
    if (list) list.push(cell);
    else byColumn.set(cell.column, [cell]);
  }
  return byColumn;
}

const NOTHING = "—";

function average(values: number[]): number | null {
  return values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length;
}

function cellCount(count: number): string {
  return `${count} ${count === 1 ? "cell" : "cells"}`;
}

/** The average of the metric over a column's finished cells that have a value for it. */
export function summarizeColumn(cells: Cell[], metric: MetricView, gradeMode: GradeMode): ColumnSummary {
  const finished = cells.filter((cell) => isCellFinished(cell.status));
  switch (metric) {
    case "grade": {
      const {
        average: mean,
        counted,
        byHand,
        malformed,
      } = averageGrade(cells.map(gradeGroupOfCell), {
        graderGrades: gradeMode === "grader",
      });
      const parts = [`Average grade over ${cellCount(counted)}`];
      if (byHand > 0) parts.push(`${byHand} graded by hand (a hand grade overrides the grader's)`);
      if (malformed > 0) parts.push(`${malformed} malformed, counted as 0`);
      return {
        value: mean === null ? NOTHING : mean.toFixed(2),
        detail: `${counted} graded`,
        title: parts.join("; "),
        numeric: mean,
      };
    }
    case "tokens": {
      const counted = finished.filter((cell) => cell.tokensIn !== null || cell.tokensOut !== null);
      const meanIn = average(counted.flatMap((cell) => (cell.tokensIn === null ? [] : [cell.tokensIn])));
      const meanOut = average(counted.flatMap((cell) => (cell.tokensOut === null ? [] : [cell.tokensOut])));
      const estimated = counted.some((cell) => cell.tokensEstimated) ? "~" : "";
      const totalIn = counted.reduce((sum, cell) => sum + (cell.tokensIn ?? 0), 0);
      const totalOut = counted.reduce((sum, cell) => sum + (cell.tokensOut ?? 0), 0);
      return {
        value: counted.length === 0 ? NOTHING : `${estimated}${formatTokenCount(meanIn)} | ${estimated}${formatTokenCount(meanOut)}`,
        detail: cellCount(counted.length),
        title:
          counted.length === 0
            ? "No token counts yet"
            : `Average tokens in | out per cell${estimated ? " (some estimated)" : ""}; total ${totalIn.toLocaleString("en")} in, ${totalOut.toLocaleString("en")} out`,
        numeric: meanIn,
      };
    }
    case "cost": {
      const priced = finished.flatMap((cell) => (cell.costUsd === null ? [] : [cell.costUsd]));
      // A cell that called a model but has no price is unknown, not free: say how many there are.
      const unpriced = finished.filter((cell) => cell.costUsd === null && (cell.tokensIn !== null || cell.tokensOut !== null)).length;
      const mean = average(priced);
      const total = priced.reduce((sum, value) => sum + value, 0);
      const parts =
        priced.length === 0 ? ["No priced cells"] : [`Average cost per cell; total ${formatUsd(total)} over ${cellCount(priced.length)}`];
      if (unpriced > 0) parts.push(`${cellCount(unpriced)} without a price`);
      return {
        value: mean === null ? NOTHING : formatUsd(mean),
        detail: priced.length === 0 && unpriced > 0 ? "no price" : cellCount(priced.length),
        title: parts.join("; "),
        numeric: mean,
      };
    }
    case "latency": {
      const latencies = finished.flatMap((cell) => (cell.latencyMs === null ? [] : [cell.latencyMs]));
      const mean = average(latencies);
      return {
        value: mean === null ? NOTHING : formatLatency(mean),
        detail: cellCount(latencies.length),
        title: latencies.length === 0 ? "No latencies yet" : `Average latency over ${cellCount(latencies.length)}`,
        numeric: mean,
      };
    }
  }
}
