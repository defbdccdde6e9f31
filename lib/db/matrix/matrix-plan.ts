import type { MetricConfig } from "@/lib/core/eval/metrics";
import type { MatrixModel } from "@/lib/core/matrix/model-aliases";

export type { MatrixModel };

/** A prompt version of a matrix as its run keeps it: the version (its file name without extension, or name@vN). */
export interface StoredMatrixPrompt {
  /** As the spec names it: v1, v2, or name@vN for a prompt saved in the app. */
  version: string;
  /** The prompt's own name when its file has one (a YAML prompt's name), shown beside the version. */
  name: string | null;
  /** The file it came from (v1.txt, v2.yaml), or name@vN. */
  fileName: string;
  /** A YAML prompt's system text, sent with each call. */
  system: string | null;
}

/** An input of a matrix: its id (the file name without extension) and title (its first `# ` heading, else its id). */
export interface MatrixInput {
  id: string;
  title: string;
}

/** The estimate of a matrix before it runs: per model, the tokens its calls send and the cost where a price is known. */
export interface MatrixEstimate {
  models: Array<{
    model: string;
    evals: number;
    inputTokens: number;
    outputTokens: number;
    /** Null when the model has no price: unknown, never $0. */
    costUsd: number | null;
  }>;
  inputTokens: number;
  outputTokens: number;
  /** The priced models' cost; unpricedModels names the models left out of it. */
  costUsd: number;
  unpricedModels: string[];
}

/**
 * What a matrix run keeps in runs.config.matrix: the batch's id and time, the prompt versions
 * (a cell's variant), models (its column) and inputs (its row) in the order of the request, the
 * subset as asked, and the estimate shown before it ran. The worker needs none of it: each
 * input's dataset row holds what is sent (MatrixInputRow).
 */
export interface MatrixPlan {
  batchId: string;
  /** When the batch started, ISO 8601 to the second: the ids and comparisons are dated by it. */
  timestamp: string;
  prompts: StoredMatrixPrompt[];
  models: MatrixModel[];
  inputs: MatrixInput[];
  /** Whether comparisons are made (the command's --no-comparisons turns them off). */
  comparisons: boolean;
  /** The grader's model as the request named it (null: each eval's own model grades it); null without a grader. */
  grader?: { model: string | null } | null;
  /** The metrics' names and types, when it scores by metrics. */
  metrics?: Array<{ name: string; type: string }> | null;
  estimate: MatrixEstimate;
}

/**
 * One input as its dataset row holds it (what a claimed cell receives as its variables): its id,
 * title and text, and per prompt version (a cell's variant) the prompt rendered with it and the
 * version's system text.
 */
export interface MatrixInputRow {
  id: string;
  title: string;
  text: string;
  rendered: Array<{ input: string; system: string | null }>;
  /** The matrix's metrics, when it scores by them (the worker reads them here, with the input). */
  metrics?: MatrixMetrics | null;
}

/** The eval metrics a matrix scores each output by, and where each llm_judge with its own model is sent. */
export interface MatrixMetrics {
  configs: MetricConfig[];
  judges: Record<string, { provider: string; model: string }>;
}
