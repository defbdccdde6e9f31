import type { Queryable } from "../database";

/**
 * Inserts an experiment's cells as the calling user: one per CSV row from row index fromRow up to
 * (not including) toRow, each in the column of its row's provider and model (columnOfRow[i] is
 * row i's column index). One statement however many rows there are.
 */
export async function insertExperimentCells(
  tx: Queryable,
  {
    runId,
    columnOfRow,
    fromRow = 0,
    toRow = columnOfRow.length,
  }: { runId: string; columnOfRow: number[]; fromRow?: number; toRow?: number },
): Promise<void> {
  if (toRow <= fromRow) return;
  await tx.query(
    `insert into run_cells (run_id, column_id, column_index, row_index, trial)
     select $1, c.id, c.column_index, $3::int + r.ordinality - 1, 0
       from unnest($2::int[]) with ordinality as r(column_index, ordinality)
       join run_columns c on c.run_id = $1 and c.column_index = r.column_index
      order by r.ordinality`,
    [runId, columnOfRow.slice(fromRow, toRow), fromRow],
  );
}
