"use client";

import { memo, useCallback, useState } from "react";
import type { DraftColumn } from "@/lib/client/draft-store";
import type { ModelOption } from "@/lib/client/run-types";
import { AddModelButton } from "./add-model-button";
import { ModelColumnHeader } from "./model-column-header";
import { ResultCell } from "./result-cell";

type ResultsGridProps = {
  columns: DraftColumn[];
  /** The rows to show: the run's rows once there is a run, else the loaded dataset's. */
  rows: Record<string, string>[];
  /** True when the rows are only a preview of a dataset that has not been run. */
  preview: boolean;
  models: ModelOption[] | null;
  modelsError: string | null;
  addDisabledReason: string | null;
  removeDisabled: boolean;
  onAddColumn(model: ModelOption): void;
  onRemoveColumn(id: string): void;
};

// The workbench spec's widths: a 56px Row column and 310px model columns.
const ROW_HEADER_WIDTH = 56;
const COLUMN_WIDTH = 310;
const ADD_COLUMN_WIDTH = 56;

/** Before a run, a large dataset is previewed only in part; a run shows every row. */
const PREVIEW_ROW_LIMIT = 50;

const NAVIGATION_KEYS = new Set(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown"]);

/** Short text of a row's values, for the row header's tooltip. */
function describeRow(row: Record<string, string>): string {
  return Object.entries(row)
    .map(([name, value]) => `${name}: ${value.length > 80 ? `${value.slice(0, 80)}…` : value}`)
    .join("\n");
}

/**
 * The results table: a Row column and one column per model. Cells are one Tab stop together
 * (roving tabindex); the arrow keys, Home, End and Page Up/Down move between them.
 */
export const ResultsGrid = memo(function ResultsGrid(props: ResultsGridProps) {
  const { columns, rows, preview, removeDisabled, onRemoveColumn } = props;
  const [active, setActive] = useState({ row: 0, column: 0 });
  const shownRows = preview ? rows.slice(0, PREVIEW_ROW_LIMIT) : rows;

  const onFocusCell = useCallback((row: number, column: number) => {
    setActive((current) => (current.row === row && current.column === column ? current : { row, column }));
  }, []);

  function onKeyDown(event: React.KeyboardEvent<HTMLTableElement>) {
    if (!NAVIGATION_KEYS.has(event.key)) return;
    const target = event.target as HTMLElement;
    if (target.dataset.gridRow === undefined) return;
    const row = Number(target.dataset.gridRow);
    const column = Number(target.dataset.gridColumn);
    const lastRow = shownRows.length - 1;
    const lastColumn = columns.length - 1;
    const next = { row, column };
    if (event.key === "ArrowUp") next.row = Math.max(0, row - 1);
    if (event.key === "ArrowDown") next.row = Math.min(lastRow, row + 1);
    if (event.key === "ArrowLeft") next.column = Math.max(0, column - 1);
    if (event.key === "ArrowRight") next.column = Math.min(lastColumn, column + 1);
    if (event.key === "PageUp") next.row = Math.max(0, row - 5);
    if (event.key === "PageDown") next.row = Math.min(lastRow, row + 5);
    if (event.key === "Home") Object.assign(next, event.ctrlKey ? { row: 0, column: 0 } : { column: 0 });
    if (event.key === "End") Object.assign(next, event.ctrlKey ? { row: lastRow, column: lastColumn } : { column: lastColumn });
    event.preventDefault();
    const element = event.currentTarget.querySelector<HTMLElement>(
      `[data-grid-row="${next.row}"][data-grid-column="${next.column}"]`,
    );
    element?.focus();
  }

  // Keep the one Tab stop inside the grid after rows or columns are removed.
  const activeRow = Math.min(active.row, Math.max(0, shownRows.length - 1));
  const activeColumn = Math.min(active.column, Math.max(0, columns.length - 1));

  return (
    <table
      className="border-separate border-spacing-0 text-left"
      style={{ tableLayout: "fixed", width: ROW_HEADER_WIDTH + columns.length * COLUMN_WIDTH + ADD_COLUMN_WIDTH }}
      onKeyDown={onKeyDown}
      aria-describedby="results-grid-help"
    >
      <caption className="sr-only">
        Results: one row per dataset row, one column per model.
        <span id="results-grid-help"> Use the arrow keys to move between cells.</span>
      </caption>
      <colgroup>
        <col style={{ width: ROW_HEADER_WIDTH }} />
        {columns.map((column) => (
          <col key={column.id} style={{ width: COLUMN_WIDTH }} />
        ))}
        <col style={{ width: ADD_COLUMN_WIDTH }} />
      </colgroup>
      <thead>
        <tr>
          <th
            scope="col"
            className="sticky top-0 left-0 z-20 h-10 w-14 rounded-tl-lg border border-zinc-200 bg-zinc-50 px-2 text-center text-xs font-medium text-zinc-600"
          >
            Row
          </th>
          {columns.map((column, index) => (
            <ModelColumnHeader
              key={column.id}
              columnId={column.id}
              position={index + 1}
              name={`${column.provider} / ${column.model}`}
              canRemove={columns.length > 1 && !removeDisabled}
              onRemove={() => onRemoveColumn(column.id)}
            />
          ))}
          <td className="sticky top-0 z-10 border-b border-zinc-200 bg-canvas px-3 align-middle">
            <AddModelButton
              models={props.models}
              loadError={props.modelsError}
              disabledReason={props.addDisabledReason}
              onPick={props.onAddColumn}
            />
          </td>
        </tr>
      </thead>
      <tbody>
        {shownRows.map((row, rowIndex) => (
          <tr key={rowIndex}>
            <th
              scope="row"
              title={describeRow(row) || undefined}
              className="sticky left-0 z-[5] border-x border-b border-zinc-200 bg-zinc-50 px-2 pt-3 text-center align-top text-xs font-medium text-zinc-600 tabular-nums"
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
                focusable={rowIndex === activeRow && columnIndex === activeColumn}
                onFocusCell={onFocusCell}
              />
            ))}
            <td className="border-b border-transparent bg-canvas" />
          </tr>
        ))}
        {preview && rows.length > shownRows.length && (
          <tr>
            <td colSpan={columns.length + 2} className="bg-canvas px-3 py-2 text-xs text-zinc-600">
              Showing the first {shownRows.length} of {rows.length.toLocaleString("en")} rows; Run uses them all.
            </td>
          </tr>
        )}
      </tbody>
    </table>
  );
});
