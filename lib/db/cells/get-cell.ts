import type { Cell } from "@/lib/api/types";
import type { Queryable } from "../database";
import { cellColumns, toCells, type CellRow } from "./cell-columns";
import { columnModelsOf } from "./column-warnings";

/** One cell of a run, in full; null when there is none (or it is not the caller's). */
export async function getCell(tx: Queryable, { runId, cellId }: { runId: string; cellId: string }): Promise<Cell | null> {
  const { rows } = await tx.query<CellRow>(`select ${cellColumns()} from run_cells where run_id = $1 and id = $2`, [runId, cellId]);
  const [cell] = await toCells(rows, null, columnModelsOf(tx, runId));
  return cell ?? null;
}
