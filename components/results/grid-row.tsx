"use client";

import { memo } from "react";
import type { DraftColumn } from "@/lib/client/draft-store";
import type { GridView } from "./grid-view";
import { ResultCell } from "./result-cell";

type GridRowProps = {
  rowIndex: number;
  values: Record<string, string> | undefined;
  columns: DraftColumn[];
  /** The column of the grid's Tab stop when it is in this row, else -1 (so other rows stay memoized). */
  focusableColumn: number;
  view: GridView;
  height: number;
  onFocusCell(row: number, column: number): void;
  onOpenCell(row: number, column: number): void;
};

/** Short text of a row's values, for the row header's tooltip. */
function describeRow(row: Record<string, string> | undefined): string {
  return Object.entries(row ?? {})
    .map(([name, value]) => `${name}: ${value.length > 80 ? `${value.slice(0, 80)}…` : value}`)
    .join("\n");
}

/** One dataset row of the grid: its number and one cell per model column. */
export const GridRow = memo(function GridRow({
  rowIndex,
  values,
  columns,
  focusableColumn,
  view,
  height,
  onFocusCell,
  onOpenCell,
}: GridRowProps) {
  return (
    // The header is row 1; with only some rows rendered, the index tells assistive tech where this one is.
    <tr style={{ height }} aria-rowindex={rowIndex + 2}>
      <th
        scope="row"
        title={describeRow(values) || undefined}
        className={`sticky left-0 z-[5] border-x border-b border-zinc-200 bg-zinc-50 px-2 ${view.density === "compact" ? "align-middle" : "pt-3 align-top"} text-center text-xs font-medium text-zinc-600 tabular-nums`}
      >
        {rowIndex + 1}
      </th>
      {columns.map((column, columnIndex) => (
        <ResultCell
          key={column.id}
          rowIndex={rowIndex}
          runColumn={column.runColumn}
          columnName={`${column.provider} / ${column.model}`}
          columnPosition={columnIndex}
          focusable={columnIndex === focusableColumn}
          view={view}
          onFocusCell={onFocusCell}
          onOpenCell={onOpenCell}
        />
      ))}
      <td className="border-b border-transparent bg-canvas" />
    </tr>
  );
});
