import type { Cell, RunStatus } from "@/lib/api/types";
import type { Queryable } from "../database";
import { cellColumns, cellsAsArrays, rowsFromArrays, toCells } from "./cell-columns";
import { columnModelsOf, type ColumnModels } from "./column-warnings";

/** Cells of a run changed after the cursor seq, oldest change first, at most limit of them. */
export async function listCellChanges(
  tx: Queryable,
  { runId, afterSeq, limit = 1000, outputChars = null }: { runId: string; afterSeq: number; limit?: number; outputChars?: number | null },
): Promise<Cell[]> {
  // Both statements are asked for at once: readAsUser refuses one asked for after the others were
  // sent, and the columns' models spell out the warnings the cells store as codes (column-warnings.ts).
  const models = columnModelsOf(tx, runId);
  const [{ cells }] = await Promise.all([readRunChanges(tx, { runId, afterSeq, limit, outputChars, models }), models()]);
  return cells;
}

/**
 * What a follower of a run reads each time it is told of changes (the events stream): the run's
 * status and whether it is still being planned, and its cells changed after the cursor seq (as
 * listCellChanges), in one statement and so one snapshot; null and no cells when the run is not
 * the caller's. The cells come back as one JSON text, as listCells reads a run: on PGlite turning
 * each row's 28 columns into JavaScript values took most of each read, and each statement of a
 * read costs its own round of parsing and planning (bench/README.md, "The work per call on the
 * embedded database"). models() is asked only for cells that store column warnings
 * (column-warnings.ts); the events stream reads a run's once. "seq > 0" is implied by the cursor
 * (never negative) and says so to a plan made without its value: the index of changes holds only
 * cells that changed (0029_seq_index_of_changed_cells.sql).
 */
export async function readRunChanges(
  tx: Queryable,
  {
    runId,
    afterSeq,
    limit,
    outputChars,
    models,
  }: { runId: string; afterSeq: number; limit: number; outputChars: number | null; models: () => Promise<ColumnModels> },
): Promise<{ state: { status: RunStatus; planning: boolean } | null; cells: Cell[] }> {
  const { rows } = await tx.query<{ status: RunStatus; planning: boolean; cells: string | null }>(
    `select r.status, r.planning,
            (select ${cellsAsArrays("c", "c.seq")}::text
               from (select ${cellColumns(outputChars)} from run_cells
                      where run_id = $1 and seq > $2 and seq > 0 order by seq limit $3) c) as cells
       from runs r where r.id = $1`,
    [runId, afterSeq, limit],
  );
  const row = rows[0];
  if (!row) return { state: null, cells: [] };
  const cells = row.cells ? await toCells(rowsFromArrays(row.cells), outputChars, models) : [];
  return { state: { status: row.status, planning: row.planning }, cells };
}
