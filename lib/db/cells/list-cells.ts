import type { Cell } from "@/lib/api/types";
import type { Queryable } from "../database";
import { cellColumns, cellsAsArrays, rowsFromArrays, toCells } from "./cell-columns";
import { columnModelsOf, type ColumnModels } from "./column-warnings";

/**
 * About how many cells one statement reads. PGlite's WebAssembly memory only grows: a statement
 * that builds the JSON of a whole 10,000-cell run grew it by ~55 MB, kept for as long as the
 * process ran (a 100,000-cell run's by ~0.5 GB). Read in parts, it grows by one part's worth.
 */
export const CELLS_PER_READ = 2_000;

/**
 * Every cell of a run in grid order, outputs cut to outputChars characters when given. The cells
 * come back as JSON text, a range of rows per statement (about CELLS_PER_READ cells): PGlite turns
 * 40,000 rows of this many columns into objects in about twice the time json_agg and JSON.parse
 * take (bench/run-read.ts). The caller's transaction makes the parts one snapshot on PGlite and
 * under repeatable read; under read committed a cell may change between two parts, each cell is
 * still read once.
 */
export async function listCells(
  tx: Queryable,
  {
    runId,
    outputChars = null,
    cellsPerRead = CELLS_PER_READ,
    known,
  }: {
    runId: string;
    outputChars?: number | null;
    cellsPerRead?: number;
    /**
     * What the caller read of the run in this transaction already (its summary): how many rows
     * and cells it has, and its columns' models. Each is then not read again (a statement each).
     */
    known?: { rows: number; cells: number; models: ColumnModels };
  },
): Promise<Cell[]> {
  const shape = known ? { lastRow: known.rows > 0 ? known.rows - 1 : null, cells: known.cells } : await readShape(tx, runId);
  if (shape.lastRow === null) return [];
  const lastRow = shape.lastRow;
  const cellsPerRow = shape.cells / (lastRow + 1);
  const rowsPerRead = Math.max(1, Math.floor(cellsPerRead / Math.max(1, cellsPerRow)));
  const cells: Cell[] = [];
  const models = known ? () => Promise.resolve(known.models) : columnModelsOf(tx, runId);
  for (let fromRow = 0; fromRow <= lastRow; fromRow += rowsPerRead) {
    const { rows } = await tx.query<{ cells: string | null }>(
      `select ${cellsAsArrays("c", "c.row_index, c.column_index, c.variant, c.trial")}::text as cells
         from (select ${cellColumns(outputChars)}, variant from run_cells
                where run_id = $1 and row_index >= $2 and row_index < $3) c`,
      [runId, fromRow, fromRow + rowsPerRead],
    );
    if (rows[0]?.cells) cells.push(...(await toCells(rowsFromArrays(rows[0].cells), outputChars, models)));
  }
  return cells;
}

/** The last row a run's cells are in (null without cells), and how many cells it has. */
async function readShape(tx: Queryable, runId: string): Promise<{ lastRow: number | null; cells: number }> {
  const { rows } = await tx.query<{ last_row: number | null; cells: string }>(
    "select max(row_index) as last_row, count(*)::text as cells from run_cells where run_id = $1",
    [runId],
  );
  return { lastRow: rows[0]?.last_row ?? null, cells: Number(rows[0]?.cells ?? 0) };
}
