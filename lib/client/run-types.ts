// The shapes the browser receives from and sends to /api/v1. They come from lib/api, the schemas
// the route handlers parse and answer with; lib/api imports zod and lib/core only, so no server
// code reaches the bundle.
import type { CellStatus, RunStatus } from "@/lib/api/types";

export type { Cell, CellCounts, CellStatus, Run, RunColumn, RunStatus, RunSummary } from "@/lib/api/types";

/** A model the server can call, as listed by `GET /api/v1/models`. */
export type ModelOption = { provider: string; model: string; label: string; description?: string };

/** The body of `POST /api/v1/runs`, as createRunSchema takes it. */
export type { CreateRunInput } from "@/lib/api/schemas";

const ACTIVE_RUN_STATUSES: ReadonlySet<RunStatus> = new Set(["planned", "queued", "running", "paused"]);
const FINISHED_CELL_STATUSES: ReadonlySet<CellStatus> = new Set(["ok", "warning", "error", "malformed", "skipped", "cancelled"]);

/** True while a run may still change: planned, queued, running or paused. */
export function isRunActive(status: RunStatus): boolean {
  return ACTIVE_RUN_STATUSES.has(status);
}

/** True once a cell will not change again (unless a person re-runs it). */
export function isCellFinished(status: CellStatus): boolean {
  return FINISHED_CELL_STATUSES.has(status);
}
