import type { Cell } from "@/lib/api/types";
import type { Queryable } from "../database";
import { cellColumns, toCell, type CellRow } from "./cell-columns";

/**
 * Every cell of a run in grid order, outputs cut to outputChars characters when given. The cells
 * come back as one JSON text: PGlite turns 40,000 rows of this many columns into objects in about
 * twice the time json_agg and JSON.parse take (bench/run-read.ts).
 */
export async function listCells(
  tx: Queryable,
  { runId, outputChars = null }: { runId: string; outputChars?: number | null },
): Promise<Cell[]> {
  const { rows } = await tx.query<{ cells: string | null }>(
    `select json_agg(c order by c.row_index, c.column_index, c.variant, c.trial)::text as cells
       from (select ${cellColumns(outputChars)}, variant from run_cells where run_id = $1) c`,
    [runId],
  );
  return rows[0]?.cells ? (JSON.parse(rows[0].cells) as CellRow[]).map((row) => toCell(row, outputChars)) : [];
}
