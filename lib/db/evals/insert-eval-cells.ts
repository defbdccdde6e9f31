import type { Queryable } from "../database";

/**
 * Inserts an eval's cells as the calling user: one per prompt (variant, with its prompt version)
 * x model (column) x test case (row) x trial, in one statement.
 */
export async function insertEvalCells(
  tx: Queryable,
  { runId, promptVersionIds, testCases, trials }: { runId: string; promptVersionIds: string[]; testCases: number; trials: number },
): Promise<void> {
  await tx.query(
    `insert into run_cells (run_id, column_id, column_index, row_index, trial, variant, prompt_version_id)
     select $1, c.id, c.column_index, r.row_index, t.trial, v.ordinality - 1, v.version_id
       from unnest($2::uuid[]) with ordinality as v(version_id, ordinality)
       cross join run_columns c
       cross join generate_series(0, $3::int - 1) as r(row_index)
       cross join generate_series(0, $4::int - 1) as t(trial)
      where c.run_id = $1
      order by r.row_index, c.column_index, v.ordinality, t.trial`,
    [runId, promptVersionIds, testCases, trials],
  );
}
