/** Statuses of a run, as the API reports them. */
export type RunStatus = "planned" | "queued" | "running" | "paused" | "completed" | "cancelled" | "failed";

/** Statuses of a cell. */
export type CellStatus = "queued" | "running" | "ok" | "warning" | "error" | "malformed" | "skipped" | "cancelled";

/** The run statuses after which nothing more happens. */
export const finishedRunStatuses: readonly RunStatus[] = ["completed", "cancelled", "failed"];

/** One model column of a run. */
export interface RunColumn {
  index: number;
  provider: string;
  model: string;
  params: Record<string, unknown>;
}

/** One cell as the API and the event stream send it. */
export interface Cell {
  id: string;
  row: number;
  column: number;
  trial: number;
  status: CellStatus;
  output: string | null;
  outputParsed: string | null;
  /** True when output or outputParsed was cut to the length asked for (?outputChars=); GET the cell for all of it. */
  outputTruncated: boolean;
  tokensIn: number | null;
  tokensOut: number | null;
  tokensEstimated: boolean;
  latencyMs: number | null;
  costUsd: number | null;
  finishReason: string | null;
  error: string | null;
  errorCode: string | null;
  warnings: string[];
  attempts: number;
  cached: boolean;
  /** The grader's call: null when the run has no grader (or the answer was malformed: grade 0). */
  graderStatus: "queued" | "running" | "ok" | "error" | "malformed" | null;
  graderOutput: string | null;
  graderError: string | null;
  graderCostUsd: number | null;
  grade: number | null;
  manualGrade: number | null;
  seq: number;
  updatedAt: string;
}

/** Cells per status. */
export type CellCounts = Record<CellStatus, number>;

/** A run without its cells (what the event stream's run events carry). */
export interface RunSummary {
  id: string;
  kind: string;
  status: RunStatus;
  prompt: string;
  promptVersionId: string | null;
  promptId: string | null;
  /** The version number of the prompt this run ran (v6), or null for an unversioned run. */
  promptVersion: number | null;
  /** True when a grader grades each cell after the model answers. */
  hasGrader: boolean;
  graderPromptId: string | null;
  graderName: string | null;
  datasetId: string | null;
  datasetName: string | null;
  columns: RunColumn[];
  rowCount: number;
  trials: number;
  concurrency: number;
  counts: CellCounts;
  /** Dollars spent so far (cells whose cost is known). */
  spentUsd: number;
  budgetUsd: number | null;
  budgetMode: "estimate" | "strict" | "off";
  error: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

/** A run with its dataset rows and cells (GET /api/v1/runs/{id}). */
export interface Run extends RunSummary {
  rows: Array<Record<string, string>>;
  cells: Cell[];
}
