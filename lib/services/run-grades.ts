import { MAX_RUN_GRADES, type RunGrades } from "@/lib/api/run-grades";
import { averageGrade, gradeGroupOfCell } from "@/lib/core/grade-average";
import { asUser } from "@/lib/db/as-user";
import type { Database } from "@/lib/db/database";
import { listRunCellGrades } from "@/lib/db/runs/list-run-cell-grades";
import { NotFoundError } from "@/lib/engine/errors";

/**
 * Each graded cell of a run of userId's, by model, dataset row and trial, for the history's paired
 * compare. A cell's grade is the one the grid and the history average (a person's first, 0 for a
 * malformed answer, else the grader's); cells without one are left out. A run of more than
 * MAX_RUN_GRADES cells lists none and says so.
 */
export async function getRunGrades({ db }: { db: Database }, { userId, runId }: { userId: string; runId: string }): Promise<RunGrades> {
  const run = await asUser(db, userId, (tx) => listRunCellGrades(tx, { runId, limit: MAX_RUN_GRADES + 1 }));
  if (!run) throw new NotFoundError(`Run ${runId} not found.`);
  if (run.cells.length > MAX_RUN_GRADES) return { runId, datasetId: run.datasetId, tooMany: true, cells: [] };
  const cells: RunGrades["cells"] = [];
  for (const cell of run.cells) {
    const { average } = averageGrade([gradeGroupOfCell(cell)], { graderGrades: run.graderGrades });
    if (average !== null)
      cells.push({ provider: cell.provider, model: cell.model, rowIndex: cell.rowIndex, trial: cell.trial, grade: average });
  }
  return { runId, datasetId: run.datasetId, tooMany: false, cells };
}
