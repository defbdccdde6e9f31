// The dry run of `POST /api/v1/runs?dryRun=true`: what a run would cost before it starts.
import { requestJson } from "./api";
import type { CreateRunInput } from "./run-types";

/** One model's part of a run estimate: its cells, estimated tokens and cost. */
export type ModelEstimate = {
  provider: string;
  model: string;
  cells: number;
  inputTokens: number;
  inputTokensMethod: "tokenizer" | "tokenizer-sample" | "estimate";
  outputTokens: number | null;
  outputTokensSource: "maxTokens" | "history" | "unknown";
  costUsd: number | null;
  costPerCellUsd: number | null;
  priced: boolean;
};

/**
 * What a run would do: its cells, and its cost as far as prices and output estimates allow. The
 * engine's RunPlanEstimate, as the dry run answers it (under "plan").
 */
export type RunEstimate = {
  cells: number;
  models: ModelEstimate[];
  totalCostUsd: number | null;
  /** True when some model's cost is unknown, so the total only counts the others. */
  totalIsLowerBound: boolean;
  /** "provider/model" of each model without a price. */
  unpriced: string[];
};

/** Estimates a run without creating it (the server's estimateRun). */
export async function estimateRun(input: CreateRunInput, signal?: AbortSignal): Promise<RunEstimate> {
  const body = await requestJson<{ plan: RunEstimate }>("/api/v1/runs?dryRun=true", {
    method: "POST",
    body: JSON.stringify(input),
    signal,
  });
  return body.plan;
}
