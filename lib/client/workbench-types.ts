// Shapes shared by the workbench's panels: what the toolbar, editor, grid and history exchange.

/** What every cell badge and the summary row show; cycles Grade -> Tokens -> Cost -> Latency. */
export type MetricView = "grade" | "tokens" | "cost" | "latency";

export const METRIC_VIEWS: readonly MetricView[] = ["grade", "tokens", "cost", "latency"];

/** Focus: the editor takes 65% of the width; balanced: 30%. */
export type ViewMode = "focus" | "balanced";

/** The results grid's rows: 136 px cards, or one line per cell for long comparisons. */
export type GridDensity = "comfortable" | "compact";

export type PromptType = "generator" | "grader";

/** A stored prompt as GET /api/v1/prompts lists it. */
export type PromptItem = {
  id: string;
  name: string;
  type: PromptType;
  text: string;
  versionCounter: number;
  createdAt: string;
  updatedAt: string;
};

/** Whether the editor's text is on the server yet. */
export type SaveState = { status: "saved" | "saving" | "unsaved" } | { status: "error"; message: string };

/** A dataset stored on the server, as GET /api/v1/datasets lists it. */
export type { DatasetItem } from "@/lib/api/responses";
