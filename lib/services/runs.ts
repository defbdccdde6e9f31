import type { Cell, Run, RunSummary } from "@/lib/api/types";
import { asUser } from "@/lib/db/as-user";
import type { Database } from "@/lib/db/database";
import { listDatasetRows } from "@/lib/db/runs/insert-dataset";
import { getCell } from "@/lib/db/cells/get-cell";
import type { ColumnModels } from "@/lib/db/cells/column-warnings";
import { listCells } from "@/lib/db/cells/list-cells";
import { getRunPlan } from "@/lib/db/runs/get-run-plan";
import { getRunSummary } from "@/lib/db/runs/get-run-summary";
import { cancelAllOpenCells } from "@/lib/db/runs/cancel-open-cells";
import { applyRunAction, requeueCell, setManualGrade, type RunAction } from "@/lib/db/runs/run-lifecycle";
import { NotFoundError, RunActionError } from "@/lib/engine/errors";

// Creating a run is the engine's (planning, limits, batches); it is served from here with the rest.
export { createRun, estimateRun } from "@/lib/engine/create-run";

/** The run with its rows, cells and plan, as userId may see it; outputs cut to outputChars when given. */
export async function getRun(
  { db }: { db: Database },
  { userId, runId, outputChars = null }: { userId: string; runId: string; outputChars?: number | null },
): Promise<Run> {
  return asUser(db, userId, async (tx) => {
    const summary = await getRunSummary(tx, { id: runId });
    if (!summary) throw new NotFoundError(`Run ${runId} not found.`);
    const rows = summary.datasetId ? (await listDatasetRows(tx, { datasetId: summary.datasetId })).map(rowAsText) : [];
    const cells = await listCells(tx, { runId, outputChars, known: knownShape(summary) });
    return { ...summary, rows, cells, plan: await getRunPlan(tx, { id: runId }) };
  });
}

/**
 * A dataset row as a run's rows are read: column -> text. An uploaded dataset's values are text
 * already; an eval's test case (inputs, expectations, rendered prompts) or another kind's row may
 * hold lists and objects, which are given as their JSON.
 */
function rowAsText(row: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(row).map(([column, value]) => [column, typeof value === "string" ? value : (JSON.stringify(value) ?? "")]),
  );
}

/** One cell of userId's run, with its whole output. */
export async function getRunCell(
  { db }: { db: Database },
  { userId, runId, cellId }: { userId: string; runId: string; cellId: string },
): Promise<Cell> {
  const cell = await asUser(db, userId, (tx) => getCell(tx, { runId, cellId }));
  if (!cell) throw new NotFoundError(`Cell ${cellId} of run ${runId} not found.`);
  return cell;
}

/**
 * Pauses, resumes or cancels a run of userId's. A cancel stops the run's claims in one short
 * transaction, then cancels its waiting cells 10,000 per transaction (cancel-open-cells.ts), so
 * other requests are served meanwhile; it answers once every waiting cell is cancelled.
 */
export async function changeRunStatus(
  { db }: { db: Database },
  { userId, runId, action }: { userId: string; runId: string; action: RunAction },
): Promise<RunSummary> {
  const result = await asUser(db, userId, (tx) => applyRunAction(tx, { id: runId, action }));
  if (!result) throw new NotFoundError(`Run ${runId} not found.`);
  if (!result.applied) throw new RunActionError(`Cannot ${action} a run that is ${result.status}.`);
  if (action === "cancel") await cancelAllOpenCells(db, { runId, userId });
  const summary = await asUser(db, userId, (tx) => getRunSummary(tx, { id: runId }));
  if (!summary) throw new NotFoundError(`Run ${runId} not found.`);
  return summary;
}

/** Runs one cell of userId's run again, bypassing the cache; answers the run without cells. */
export async function rerunCell(
  { db }: { db: Database },
  { userId, runId, cellId }: { userId: string; runId: string; cellId: string },
): Promise<RunSummary> {
  return asUser(db, userId, async (tx) => {
    if (!(await requeueCell(tx, { runId, cellId }))) {
      throw new NotFoundError(`Cell ${cellId} of run ${runId} not found, or it is still queued or running.`);
    }
    return (await getRunSummary(tx, { id: runId }))!;
  });
}

/** Sets a person's grade of a cell of userId's run (null clears it); it overrides the grader's. */
export async function gradeCell(
  { db }: { db: Database },
  { userId, runId, cellId, grade }: { userId: string; runId: string; cellId: string; grade: number | null },
): Promise<{ manualGrade: number | null }> {
  const saved = await asUser(db, userId, (tx) => setManualGrade(tx, { runId, cellId, grade }));
  if (!saved) throw new NotFoundError(`Cell ${cellId} of run ${runId} not found.`);
  return { manualGrade: grade };
}

/**
 * What a workbench run's summary says of its cells, for listCells: every cell of it is in while it
 * is not being planned, one per row, column and trial, and its counts count each once.
 */
function knownShape(summary: RunSummary): { rows: number; cells: number; models: ColumnModels } | undefined {
  if (summary.kind !== "workbench" || summary.planning) return undefined;
  return {
    rows: summary.rowCount,
    cells: Object.values(summary.counts).reduce((sum, n) => sum + n, 0),
    models: new Map(summary.columns.map((column) => [column.index, { provider: column.provider, model: column.model }])),
  };
}
