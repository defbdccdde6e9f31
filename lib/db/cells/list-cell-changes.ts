import type { Cell } from "@/lib/api/types";
import type { Queryable } from "../database";
import { cellColumns, toCells, type CellRow } from "./cell-columns";
import { columnModelsOf } from "./column-warnings";

/** Cells of a run changed after the cursor seq, oldest change first, at most limit of them. */
export async function listCellChanges(
  tx: Queryable,
  { runId, afterSeq, limit = 1000, outputChars = null }: { runId: string; afterSeq: number; limit?: number; outputChars?: number | null },
): Promise<Cell[]> {
  // Both statements are asked for at once: the events stream sends them to the database together
  // (readAsUser), which refuses one asked for after the others; the columns' models spell out the
  // warnings the cells store as codes (column-warnings.ts).
  const models = columnModelsOf(tx, runId);
  const [{ rows }] = await Promise.all([
    tx.query<CellRow>(`select ${cellColumns(outputChars)} from run_cells where run_id = $1 and seq > $2 order by seq limit $3`, [
      runId,
      afterSeq,
      limit,
    ]),
    models(),
  ]);
  return toCells(rows, outputChars, models);
}
