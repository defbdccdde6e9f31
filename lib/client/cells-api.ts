// Browser helpers for one cell of a run: a person's grade and a re-run.
import type { GradeCellRequest } from "@/lib/api/schemas";
import { requestJson } from "./api";
import type { Cell, RunSummary } from "./run-types";

/** One cell with its whole output (the grid holds only the start of each: see PREVIEW_CHARS). */
export function getCell({ runId, cellId }: { runId: string; cellId: string }): Promise<Cell> {
  return requestJson(`/api/v1/runs/${encodeURIComponent(runId)}/cells/${encodeURIComponent(cellId)}`);
}

/** Sets (1 pass, 0 fail) or clears (null) a person's grade of a cell; answers the stored grade. */
export function setManualGrade({
  runId,
  cellId,
  manualGrade,
}: { runId: string; cellId: string } & GradeCellRequest): Promise<{ manualGrade: number | null }> {
  const body: GradeCellRequest = { manualGrade };
  return requestJson(`/api/v1/runs/${encodeURIComponent(runId)}/cells/${encodeURIComponent(cellId)}`, {
    method: "PATCH",
    body: JSON.stringify(body),
  });
}

/** Queues a finished cell again, bypassing the cache; its new result arrives over the event stream. */
export function rerunCell({ runId, cellId }: { runId: string; cellId: string }): Promise<RunSummary> {
  return requestJson(`/api/v1/runs/${encodeURIComponent(runId)}/cells/${encodeURIComponent(cellId)}/rerun`, {
    method: "POST",
  });
}
