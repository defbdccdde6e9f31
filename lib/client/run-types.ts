// The shapes the browser receives from /api/v1. They come from lib/api/types.ts, the same
// module the route handlers answer with; it holds types only, so no server code reaches the bundle.
import type { CellStatus, RunStatus } from "@/lib/api/types";

export type { Cell, CellCounts, CellStatus, Run, RunColumn, RunStatus, RunSummary } from "@/lib/api/types";

/** A model the server can call, as listed by `GET /api/v1/models`. */
export type ModelOption = { provider: string; model: string; label: string; description?: string };

/** The body of `POST /api/v1/runs` that the workbench sends. */
export type CreateRunInput = {
  /** The text inline (plans, the API), or the stored prompt to version and run. */
  prompt?: string;
  promptId?: string;
  /** The rows inline, or a stored dataset. */
  rows?: Record<string, string>[];
  datasetId?: string;
  /** A stored grader prompt that grades each cell once the model has answered. */
  graderPromptId?: string;
  models: { provider: string; model: string; params?: Record<string, unknown> }[];
  concurrency?: number;
  datasetName?: string;
  /** Dollars the run may spend; cells past it are skipped. */
  budgetUsd?: number;
  budgetMode?: "estimate" | "strict" | "off";
};

const ACTIVE_RUN_STATUSES: ReadonlySet<RunStatus> = new Set(["planned", "queued", "running", "paused"]);
const FINISHED_CELL_STATUSES: ReadonlySet<CellStatus> = new Set([
  "ok",
  "warning",
  "error",
  "malformed",
  "skipped",
  "cancelled",
]);

/** True while a run may still change: planned, queued, running or paused. */
export function isRunActive(status: RunStatus): boolean {
  return ACTIVE_RUN_STATUSES.has(status);
}

/** True once a cell will not change again (unless a person re-runs it). */
export function isCellFinished(status: CellStatus): boolean {
  return FINISHED_CELL_STATUSES.has(status);
}
