"use client";

import { memo, useEffect, useMemo, useRef, useState } from "react";
import { shownCellsByColumn, summarizeColumn, type ColumnSummary } from "@/lib/client/column-summary";
import type { DraftColumn } from "@/lib/client/draft-store";
import { gradeColor } from "@/lib/client/grade-color";
import { useRunStore } from "@/lib/client/run-store";
import type { GridView } from "./grid-view";
import { useMetricFade } from "./use-metric-fade";

const METRIC_NAMES: Record<GridView["metric"], string> = {
  grade: "Average grade",
  tokens: "Average tokens in | out",
  cost: "Average cost",
  latency: "Average latency",
};

const SUMMARY_REFRESH_MS = 500;

/** value, passed on at most once per `ms` (the latest value always arrives, at most `ms` late). */
function useThrottled<T>(value: T, ms: number): T {
  const [shown, setShown] = useState(value);
  const lastRef = useRef(0);
  useEffect(() => {
    const wait = lastRef.current + ms - Date.now();
    const show = () => {
      lastRef.current = Date.now();
      setShown(value);
    };
    if (wait <= 0) {
      show();
      return;
    }
    const timer = setTimeout(show, wait);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return shown;
}

/** The sticky last row: per model column, the average of the metric on screen. */
export const SummaryRow = memo(function SummaryRow({
  columns,
  view,
  rowIndex,
}: {
  columns: DraftColumn[];
  view: GridView;
  rowIndex: number;
}) {
  // The cells change in place; `version` says when. Averages over every cell are recomputed at
  // most a few times a second, so a run streaming thousands of cells does not redo them per frame.
  const version = useThrottled(
    useRunStore((state) => state.version),
    SUMMARY_REFRESH_MS,
  );
  const fade = useMetricFade(view.metric);
  const byColumn = useMemo(() => {
    const { cells, shownCellKeys } = useRunStore.getState();
    return shownCellsByColumn(cells, shownCellKeys);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- version is the cells' change marker
  }, [version]);
  const summaries = useMemo(
    () =>
      columns.map((column) =>
        column.runColumn === null ? null : summarizeColumn(byColumn.get(column.runColumn) ?? [], view.metric, view.gradeMode),
      ),
    [byColumn, columns, view.metric, view.gradeMode],
  );

  return (
    <tr data-testid="summary-row" aria-rowindex={rowIndex}>
      <th
        scope="row"
        title={METRIC_NAMES[view.metric]}
        className="sticky bottom-0 left-0 z-20 h-12 border-x border-y border-zinc-200 bg-zinc-50 px-1 text-center text-[11px] font-medium text-zinc-600"
      >
        Avg
      </th>
      {columns.map((column, index) => (
        <td
          key={column.id}
          data-testid="summary-cell"
          data-metric={view.metric}
          aria-label={`${METRIC_NAMES[view.metric]}, column ${index + 1}: ${describe(summaries[index])}`}
          title={summaries[index]?.title ?? "This column has not run yet"}
          className="sticky bottom-0 z-10 h-12 border-y border-r border-zinc-200 bg-white px-3"
        >
          <span key={view.metric} className={`flex items-center gap-2 ${fade}`}>
            <SummaryValue summary={summaries[index]} metric={view.metric} />
          </span>
        </td>
      ))}
      <td className="sticky bottom-0 z-10 border-t border-zinc-200 bg-canvas" />
    </tr>
  );
});

function describe(summary: ColumnSummary | null): string {
  if (!summary) return "not run";
  return `${summary.value}, ${summary.detail}`;
}

function SummaryValue({ summary, metric }: { summary: ColumnSummary | null; metric: GridView["metric"] }) {
  if (!summary) return <span className="text-xs text-zinc-500">Not run</span>;
  const colors = metric === "grade" && summary.numeric !== null ? gradeColor(summary.numeric) : null;
  return (
    <>
      <span
        className={`inline-flex h-6 items-center rounded px-2 text-[13px] font-semibold tabular-nums ${colors ? "border" : "text-zinc-900"}`}
        style={colors ? { background: colors.background, color: colors.text, borderColor: colors.border } : undefined}
      >
        {summary.value}
      </span>
      <span className="truncate text-[11px] text-zinc-500">{summary.detail}</span>
    </>
  );
}
