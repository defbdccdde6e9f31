import type { Queryable } from "../database";

/** A run's cell as the grades listing reads it, before the grade rule is applied. */
export type CellGradeRow = {
  provider: string;
  model: string;
  rowIndex: number;
  trial: number;
  status: string;
  grade: number | null;
  manualGrade: number | null;
};

/**
 * A run of the caller's with its dataset, whether a grader graded it, and at most `limit` of its
 * cells in column, row and trial order; null when the run is not the caller's. Callers pass the
 * largest count they accept plus one to learn that there were more.
 */
export async function listRunCellGrades(
  tx: Queryable,
  { runId, limit }: { runId: string; limit: number },
): Promise<{ datasetId: string | null; graderGrades: boolean; cells: CellGradeRow[] } | null> {
  const run = await tx.query<{ dataset_id: string | null; has_grader: boolean }>(
    "select dataset_id, grader_version_id is not null as has_grader from runs where id = $1",
    [runId],
  );
  if (run.rows.length === 0) return null;
  const { rows } = await tx.query<{
    provider: string;
    model: string;
    row_index: number;
    trial: number;
    status: string;
    grade: number | null;
    manual_grade: number | null;
  }>(
    `select col.provider, col.model, c.row_index, c.trial, c.status, c.grade, c.manual_grade
       from run_cells c join run_columns col on col.id = c.column_id
      where c.run_id = $1
      order by c.column_index, c.row_index, c.trial
      limit $2`,
    [runId, limit],
  );
  return {
    datasetId: run.rows[0].dataset_id,
    graderGrades: run.rows[0].has_grader,
    cells: rows.map((row) => ({
      provider: row.provider,
      model: row.model,
      rowIndex: row.row_index,
      trial: row.trial,
      status: row.status,
      grade: row.grade === null ? null : Number(row.grade),
      manualGrade: row.manual_grade === null ? null : Number(row.manual_grade),
    })),
  };
}
