"use client";

import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import type { GradeMode } from "@/lib/client/column-summary";
import type { DraftColumn } from "@/lib/client/draft-store";
import { useRunStore } from "@/lib/client/run-store";
import type { ModelOption } from "@/lib/client/run-types";
import type { GridDensity, MetricView } from "@/lib/client/workbench-types";
import { AddModelButton } from "./add-model-button";
import { CellDialog } from "./cell-dialog";
import { GridRow } from "./grid-row";
import type { GridView } from "./grid-view";
import { ModelColumnHeader } from "./model-column-header";
import { ModelPickerDialog } from "./model-picker-dialog";
import { rowWindow, rowsPerPage, scrollTopToReveal, type RowWindow } from "./row-window";
import { SummaryRow } from "./summary-row";

type ResultsGridProps = {
  columns: DraftColumn[];
  /** The run's rows once there is a run, else the loaded dataset's (a preview). */
  rows: Record<string, string>[];
  /** All rows: a previewed dataset may have more than `rows` holds. */
  rowCount: number;
  /** True before a run: the first 50 rows show, with a note that Run uses them all. */
  preview: boolean;
  models: ModelOption[] | null;
  modelsError: string | null;
  /** Why "+" is disabled (a run is active, 4 columns), or null. */
  addDisabledReason: string | null;
  /** No header edits or removals (a run is active, or a past run is on screen). */
  editDisabled: boolean;
  onAddColumn(model: ModelOption): void;
  onEditColumn(id: string, model: ModelOption): void;
  onRemoveColumn(id: string): void;
  metric: MetricView;
  /** Cards (136 px) or one line per cell. */
  density: GridDensity;
  /** Grader when the run on screen has a grader, else manual thumbs. */
  gradeMode: GradeMode;
  /** Re-run buttons only during an active run. */
  runActive: boolean;
  /** A past run: no re-run, no grading by hand, no column edits. */
  readOnly: boolean;
  /** Shown under the table inside the scroll box (the workbench's "how to start" note). */
  emptyState?: React.ReactNode;
};

// The workbench spec's widths: a 56px Row column and 310px model columns.
const ROW_HEADER_WIDTH = 56;
const COLUMN_WIDTH = 310;
const ADD_COLUMN_WIDTH = 56;
/** The padding around the table inside the scroll box (Tailwind's p-5). */
const GRID_PADDING = 20;
/**
 * A body row's height, which the windowing arithmetic relies on: the 136px card (or the 28px line
 * of the compact density), the cell padding above and below (6px, 4px compact) and the 1px border.
 */
const ROW_HEIGHTS: Record<GridDensity, number> = { comfortable: 136 + 12 + 1, compact: 28 + 8 + 1 };

/** Before a run, a large dataset is previewed only in part; a run shows every row. */
const PREVIEW_ROW_LIMIT = 50;
/**
 * Up to this many rows every row is in the DOM (find-in-page sees them all, and 400 cells render
 * fast); above it only the rows in view plus OVERSCAN rows each side are, so 10,000 rows scroll
 * like 20.
 */
const WINDOW_ROWS_ABOVE = 100;
const OVERSCAN = 6;

const NAVIGATION_KEYS = new Set(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown"]);

type GridPosition = { row: number; column: number };
type PickerState = { kind: "add" } | { kind: "edit"; columnId: string; position: number; current: { provider: string; model: string } };

/**
 * The results table in its own scroll box: a Row column, one column per model, a sticky header
 * and a sticky summary row. Long runs render only the rows in view. Cells are one Tab stop
 * together (roving tabindex); the arrow keys, Home, End, Page Up/Down and Ctrl+Home/End move
 * between them, scrolling rows that are not rendered yet into view first.
 */
export const ResultsGrid = memo(function ResultsGrid(props: ResultsGridProps) {
  const { columns, rows, rowCount, preview, editDisabled, readOnly, runActive, metric, density, gradeMode, onRemoveColumn } = props;
  const runId = useRunStore((state) => state.run?.id ?? null);
  const view = useMemo<GridView>(
    () => ({ metric, gradeMode, runActive, readOnly, runId, density }),
    [metric, gradeMode, runActive, readOnly, runId, density],
  );
  const rowHeight = ROW_HEIGHTS[density];

  const shownCount = preview ? Math.min(rows.length, PREVIEW_ROW_LIMIT) : Math.max(rows.length, rowCount);
  const windowed = shownCount > WINDOW_ROWS_ABOVE;

  const scrollerRef = useRef<HTMLDivElement>(null);
  const tableRef = useRef<HTMLTableElement>(null);
  const headRef = useRef<HTMLTableSectionElement>(null);
  const footRef = useRef<HTMLTableSectionElement>(null);
  const pendingFocus = useRef<GridPosition | null>(null);

  const [active, setActive] = useState<GridPosition>({ row: 0, column: 0 });
  const [rowRange, setRowRange] = useState<RowWindow>({ start: 0, end: 24, firstVisible: 0 });
  const [openCell, setOpenCell] = useState<GridPosition | null>(null);
  const [picker, setPicker] = useState<PickerState | null>(null);

  /** The scroll box's geometry, read from the DOM (rows have a fixed height, so nothing else is measured). */
  const geometry = useCallback(() => {
    const scroller = scrollerRef.current;
    const table = tableRef.current;
    const head = headRef.current;
    if (!scroller || !table || !head) return null;
    return {
      scrollTop: scroller.scrollTop,
      viewportHeight: scroller.clientHeight,
      // The scroll box is the table's offsetParent (it is positioned), so this ignores scrolling.
      bodyTop: table.offsetTop + head.offsetHeight,
      headerHeight: head.offsetHeight,
      footerHeight: footRef.current?.offsetHeight ?? 0,
    };
  }, []);

  const updateRowRange = useCallback(() => {
    if (!windowed) return;
    const current = geometry();
    if (!current) return;
    const next = rowWindow({ ...current, rowHeight: rowHeight, rowCount: shownCount, overscan: OVERSCAN });
    setRowRange((previous) =>
      previous.start === next.start && previous.end === next.end && previous.firstVisible === next.firstVisible ? previous : next,
    );
  }, [windowed, geometry, shownCount, rowHeight]);

  // A switch of density keeps the same row at the top of the view instead of the same pixel offset.
  const shownRowHeight = useRef(rowHeight);
  useLayoutEffect(() => {
    const previous = shownRowHeight.current;
    shownRowHeight.current = rowHeight;
    const scroller = scrollerRef.current;
    const current = geometry();
    if (previous === rowHeight || !scroller || !current || current.scrollTop <= current.bodyTop) return;
    scroller.scrollTop = current.bodyTop + ((current.scrollTop - current.bodyTop) / previous) * rowHeight;
  }, [rowHeight, geometry]);

  useLayoutEffect(updateRowRange, [updateRowRange]);

  // Sideways, the grid rests only where no model column sits half under the sticky Row column:
  // at 0 to GRID_PADDING, or with a column's left edge right after the Row column. Scroll snapping
  // keeps a person's scrolling there; the width after the table makes the farthest scroll one of
  // those places too (a scroll clamped to the end left column 1 half hidden after a column was
  // removed), and realignColumns puts the grid back on one after the columns or the run change.
  const [trailingSpace, setTrailingSpace] = useState(0);
  const columnKey = columns.map((column) => column.id).join(" ");
  const realignColumns = useCallback(() => {
    const scroller = scrollerRef.current;
    const table = tableRef.current;
    if (!scroller || !table) return;
    const overflow = table.offsetWidth + 2 * GRID_PADDING - scroller.clientWidth;
    const space = overflow <= GRID_PADDING ? 0 : (COLUMN_WIDTH - ((overflow - GRID_PADDING) % COLUMN_WIDTH)) % COLUMN_WIDTH;
    setTrailingSpace(space);
    const farthest = Math.max(0, overflow + space);
    const left = Math.min(scroller.scrollLeft, farthest);
    const aligned = left <= GRID_PADDING ? left : GRID_PADDING + Math.round((left - GRID_PADDING) / COLUMN_WIDTH) * COLUMN_WIDTH;
    const target = Math.min(aligned, farthest);
    if (Math.abs(scroller.scrollLeft - target) > 0.5) scroller.scrollLeft = target;
  }, []);
  useLayoutEffect(realignColumns, [realignColumns, columnKey, runId, shownCount, density, trailingSpace]);
  useEffect(() => {
    const scroller = scrollerRef.current;
    if (!scroller) return;
    // The panels change width (view modes, the window): the farthest scroll moves with them.
    const observer = new ResizeObserver(realignColumns);
    observer.observe(scroller);
    return () => observer.disconnect();
  }, [realignColumns]);

  useEffect(() => {
    const scroller = scrollerRef.current;
    if (!scroller || !windowed) return;
    const observer = new ResizeObserver(updateRowRange);
    observer.observe(scroller);
    return () => observer.disconnect();
  }, [windowed, updateRowRange]);

  const start = windowed ? Math.min(rowRange.start, shownCount) : 0;
  const end = windowed ? Math.min(rowRange.end, shownCount) : shownCount;

  // Keep the one Tab stop inside the grid: on the active cell when it is rendered, else on the
  // first row in view (after rows or columns are removed, or the active row scrolled away).
  const activeRow = Math.min(active.row, Math.max(0, shownCount - 1));
  const activeColumn = Math.min(active.column, Math.max(0, columns.length - 1));
  const tabStopRow =
    activeRow >= start && activeRow < end ? activeRow : Math.min(Math.max(rowRange.firstVisible, start), Math.max(0, end - 1));

  const onFocusCell = useCallback((row: number, column: number) => {
    setActive((current) => (current.row === row && current.column === column ? current : { row, column }));
  }, []);
  const onOpenCell = useCallback((row: number, column: number) => setOpenCell({ row, column }), []);

  function findCell({ row, column }: GridPosition): HTMLElement | null {
    return scrollerRef.current?.querySelector<HTMLElement>(`[data-grid-row="${row}"][data-grid-column="${column}"]`) ?? null;
  }

  // A cell that was not rendered when a key asked for it gets the focus once its row is.
  useLayoutEffect(() => {
    const pending = pendingFocus.current;
    if (!pending) return;
    const element = findCell(pending);
    if (element) {
      pendingFocus.current = null;
      element.focus();
    }
  });

  function moveFocus(next: GridPosition) {
    const element = findCell(next);
    if (element) {
      element.focus();
      return;
    }
    const scroller = scrollerRef.current;
    const current = geometry();
    if (scroller && current) scroller.scrollTop = scrollTopToReveal({ ...current, row: next.row, rowHeight: rowHeight });
    pendingFocus.current = next;
    setActive(next);
    updateRowRange();
  }

  function onKeyDown(event: React.KeyboardEvent<HTMLTableElement>) {
    if (!NAVIGATION_KEYS.has(event.key)) return;
    const target = event.target as HTMLElement;
    if (target.dataset.gridRow === undefined) return;
    const row = Number(target.dataset.gridRow);
    const column = Number(target.dataset.gridColumn);
    const lastRow = shownCount - 1;
    const lastColumn = columns.length - 1;
    const current = geometry();
    const page = current ? rowsPerPage({ ...current, rowHeight: rowHeight }) : 5;
    const next = { row, column };
    if (event.key === "ArrowUp") next.row = Math.max(0, row - 1);
    if (event.key === "ArrowDown") next.row = Math.min(lastRow, row + 1);
    if (event.key === "ArrowLeft") next.column = Math.max(0, column - 1);
    if (event.key === "ArrowRight") next.column = Math.min(lastColumn, column + 1);
    if (event.key === "PageUp") next.row = Math.max(0, row - page);
    if (event.key === "PageDown") next.row = Math.min(lastRow, row + page);
    const toCorner = event.ctrlKey || event.metaKey;
    if (event.key === "Home") Object.assign(next, toCorner ? { row: 0, column: 0 } : { column: 0 });
    if (event.key === "End") Object.assign(next, toCorner ? { row: lastRow, column: lastColumn } : { column: lastColumn });
    event.preventDefault();
    moveFocus(next);
  }

  const editDisabledReason = !editDisabled
    ? null
    : runActive
      ? "A run is active."
      : readOnly
        ? "This is a past run."
        : "Columns are locked.";
  const openColumn = openCell ? columns[openCell.column] : undefined;
  const pickerTitle = picker?.kind === "edit" ? `Change model of column ${picker.position}` : "Add a model";

  return (
    // Padding goes inside the scroll box, so sticky headers stick to its very edge; scroll padding
    // keeps a focused cell from hiding under the sticky header row, Row column and summary row.
    // Sideways the grid snaps to whole columns: whatever scrolls it (a click on "+" after a column
    // is added, a focused cell, a trackpad) leaves no column half under the sticky Row column
    // (realignColumns above keeps the farthest scroll on a column too).
    <div
      ref={scrollerRef}
      onScroll={windowed ? updateRowRange : undefined}
      className="relative h-full min-h-0 flex-1 overflow-auto [scroll-padding-top:48px] [scroll-padding-bottom:56px] [scroll-padding-left:56px] [scroll-snap-type:x_mandatory]"
    >
      <div className="w-max min-w-full p-5" style={{ paddingRight: GRID_PADDING + trailingSpace }}>
        <table
          ref={tableRef}
          className="border-separate border-spacing-0 text-left [&_thead_th]:[scroll-snap-align:start]"
          style={{ tableLayout: "fixed", width: ROW_HEADER_WIDTH + columns.length * COLUMN_WIDTH + ADD_COLUMN_WIDTH }}
          onKeyDown={onKeyDown}
          aria-describedby="results-grid-help"
          aria-rowcount={shownCount + 1 + (preview ? 0 : 1)}
        >
          <caption className="sr-only">
            Results: one row per dataset row, one column per model.
            <span id="results-grid-help"> Use the arrow keys to move between cells; Enter opens a cell&apos;s full output.</span>
          </caption>
          <colgroup>
            <col style={{ width: ROW_HEADER_WIDTH }} />
            {columns.map((column) => (
              <col key={column.id} style={{ width: COLUMN_WIDTH }} />
            ))}
            <col style={{ width: ADD_COLUMN_WIDTH }} />
          </colgroup>
          <thead ref={headRef}>
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
                  editDisabledReason={editDisabledReason}
                  removable={columns.length > 1}
                  onEdit={() =>
                    setPicker({
                      kind: "edit",
                      columnId: column.id,
                      position: index + 1,
                      current: { provider: column.provider, model: column.model },
                    })
                  }
                  onRemove={() => onRemoveColumn(column.id)}
                />
              ))}
              <td className="sticky top-0 z-10 border-b border-zinc-200 bg-canvas px-3 align-middle">
                <AddModelButton disabledReason={props.addDisabledReason} onClick={() => setPicker({ kind: "add" })} />
              </td>
            </tr>
          </thead>
          <tbody>
            {start > 0 && <Spacer height={start * rowHeight} span={columns.length + 2} />}
            {Array.from({ length: end - start }, (_, offset) => {
              const rowIndex = start + offset;
              return (
                <GridRow
                  key={rowIndex}
                  rowIndex={rowIndex}
                  values={rows[rowIndex]}
                  columns={columns}
                  focusableColumn={rowIndex === tabStopRow ? activeColumn : -1}
                  view={view}
                  height={rowHeight}
                  onFocusCell={onFocusCell}
                  onOpenCell={onOpenCell}
                />
              );
            })}
            {end < shownCount && <Spacer height={(shownCount - end) * rowHeight} span={columns.length + 2} />}
          </tbody>
          {!preview && (
            <tfoot ref={footRef}>
              <SummaryRow columns={columns} view={view} rowIndex={shownCount + 2} />
            </tfoot>
          )}
        </table>
        {preview && rowCount > shownCount && (
          <p className="px-1 pt-2 text-xs text-zinc-600">
            Showing the first {shownCount} of {rowCount.toLocaleString("en")} rows; Run uses them all.
          </p>
        )}
        {props.emptyState}
      </div>

      <ModelPickerDialog
        open={picker !== null}
        title={pickerTitle}
        actionLabel={picker?.kind === "edit" ? "Change" : "Add"}
        current={picker?.kind === "edit" ? picker.current : null}
        models={props.models}
        loadError={props.modelsError}
        onPick={(model) => {
          if (picker?.kind === "edit") props.onEditColumn(picker.columnId, model);
          else props.onAddColumn(model);
        }}
        onClose={() => setPicker(null)}
      />
      <CellDialog
        target={
          openCell && openColumn
            ? { row: openCell.row, runColumn: openColumn.runColumn, columnName: `${openColumn.provider} / ${openColumn.model}` }
            : null
        }
        rowValues={openCell ? rows[openCell.row] : undefined}
        view={view}
        onClose={() => setOpenCell(null)}
      />
    </div>
  );
});

/** Stands in for the rows above or below the rendered window, so the scrollbar is true to size. */
function Spacer({ height, span }: { height: number; span: number }) {
  return (
    <tr aria-hidden="true" style={{ height }}>
      <td colSpan={span} className="p-0" />
    </tr>
  );
}
