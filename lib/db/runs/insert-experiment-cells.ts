import type { Queryable } from "../database";

/**
 * Inserts an experiment's cells as the calling user: one per CSV row, each in the column of its
 * row's provider and model (columnOfRow[i] is row i's column index), from row index fromRow on
 * (the rows before are in the output already). One statement however many rows there are.
 */
export async function insertExperimentCells(
  tx: Queryable,
  { runId, columnOfRow, fromRow = 0 }: { runId: string; columnOfRow: number[]; fromRow?: number },
): Promise<void> {
  await tx.query(
    `insert into run_cells (run_id, column_id, column_index, row_index, trial)
     select $1, c.id, c.column_index, r.ordinality - 1, 0
       from unnest($2::int[]) with ordinality as r(column_index, ordinality)
       join run_columns c on c.run_id = $1 and c.column_index = r.column_index
      where r.ordinality > $3
      order by r.ordinality`,
    [runId, columnOfRow, fromRow],
  );
}
