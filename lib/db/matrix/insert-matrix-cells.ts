import type { Queryable } from "../database";

/**
 * Inserts a matrix's cells as the calling user: one per prompt version (variant, with its prompt
 * version row) x model (column) x input (row), in one statement, in the order the spec runs
 * them (prompt, then model, then input), so the first claimed are the first planned.
 */
export async function insertMatrixCells(
  tx: Queryable,
  { runId, promptVersionIds, inputs }: { runId: string; promptVersionIds: string[]; inputs: number },
): Promise<void> {
  await tx.query(
    `insert into run_cells (run_id, column_id, column_index, row_index, trial, variant, prompt_version_id)
     select $1, c.id, c.column_index, r.row_index, 0, v.ordinality - 1, v.version_id
       from unnest($2::uuid[]) with ordinality as v(version_id, ordinality)
       cross join run_columns c
       cross join generate_series(0, $3::int - 1) as r(row_index)
      where c.run_id = $1
      order by v.ordinality, c.column_index, r.row_index`,
    [runId, promptVersionIds, inputs],
  );
}
