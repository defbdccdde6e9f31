// The dry run of `POST /api/v1/runs?dryRun=true`: what a run would cost before it starts.
import { requestJson } from "./api";
import type { CreateRunInput } from "./run-types";

/** One model's part of a planned run: its cells, estimated tokens and cost. */
export type PlannedModel = {
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

/** What a run would do: its cells, and its cost as far as prices and output estimates allow. */
export type RunPlan = {
  cells: number;
  models: PlannedModel[];
  totalCostUsd: number | null;
  /** True when some model's cost is unknown, so the total only counts the others. */
  totalIsLowerBound: boolean;
  /** "provider/model" of each model without a price. */
  unpriced: string[];
};

/** Plans a run without creating it. */
export async function planRun(input: CreateRunInput, signal?: AbortSignal): Promise<RunPlan> {
  const body = await requestJson<{ plan: RunPlan }>("/api/v1/runs?dryRun=true", {
    method: "POST",
    body: JSON.stringify(input),
    signal,
  });
  return body.plan;
}
