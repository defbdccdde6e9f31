// The shapes /api/v1 answers with, as types: each is z.infer of its schema in ./responses.ts, the
// schema route() checks the answers against, so there is one source for both.
import type { z } from "zod";
import type {
  cellCountsSchema,
  cellSchema,
  cellStatusSchema,
  promptRunHistoryEntrySchema,
  runColumnSchema,
  runSchema,
  runStatusSchema,
  runSummarySchema,
} from "./responses";

/** Statuses of a run, as the API reports them. */
export type RunStatus = z.infer<typeof runStatusSchema>;

/** Statuses of a cell. */
export type CellStatus = z.infer<typeof cellStatusSchema>;

/** The run statuses after which nothing more happens. */
export const finishedRunStatuses: readonly RunStatus[] = ["completed", "cancelled", "failed"];

/** One model column of a run. */
export type RunColumn = z.infer<typeof runColumnSchema>;

/** One cell as the API and the event stream send it. */
export type Cell = z.infer<typeof cellSchema>;

/** Cells per status. */
export type CellCounts = z.infer<typeof cellCountsSchema>;

/** A run without its cells (what the event stream's run events carry). */
export type RunSummary = z.infer<typeof runSummarySchema>;

/** A run with its dataset rows and cells (GET /api/v1/runs/{id}). */
export type Run = z.infer<typeof runSchema>;

/** One earlier run of a prompt, with what each model scored in it (GET /api/v1/prompts/{id}/runs). */
export type PromptRunHistoryEntry = z.infer<typeof promptRunHistoryEntrySchema>;
