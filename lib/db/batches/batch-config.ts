import type { BatchLimits, BatchPlan } from "@/lib/api/batches";
import type { JobParams } from "@/lib/core/batch/matrix";

/** What a batch run keeps in runs.config -> 'batch' (0017_batch_runs.sql): its folder, inputs, limits and plan. */
export interface BatchConfig {
  /** run.json's run_id: the folder's base name. */
  runId: string;
  /** The run folder, absolute. */
  outDir: string;
  promptsFile: string;
  matrixFile: string;
  promptCount: number;
  matrixBlocks: number;
  /** Expanded matrix entries: the run's columns, so job k (from 0) is row floor(k / combinations), column k % combinations. */
  combinations: number;
  limits: BatchLimits;
  plan: BatchPlan;
  /** Each column's estimate of one job in USD (null: unknown price), for run.json. */
  estimates: Array<number | null>;
  /** The prompt range the batch was made with ("3-10"), when one was given: job ids count from its first prompt. */
  promptRange?: string;
  /** run.json's created_at when the run was made again from a run.json (resume on another database). */
  createdAt?: string;
}

/** A job's files and what its provider said it cost, as a cell's artifacts keep them. */
export interface BatchArtifacts {
  image_paths: string[];
  receipt_paths: string[];
  actual_cost_usd: number | null;
}

/** The prompt of a dataset row of a batch (one row per prompt). */
export interface BatchPromptRow {
  prompt_id: string;
  prompt: string;
}

/** A column of a batch: one expanded matrix entry. */
export interface BatchColumn {
  provider: string;
  model: string;
  params: JobParams;
}

/** Job ids follow the plan: row (prompt) by row, column (matrix entry) by column. */
export function jobIndex(config: Pick<BatchConfig, "combinations">, cell: { rowIndex: number; columnIndex: number }): number {
  return cell.rowIndex * config.combinations + cell.columnIndex;
}
