// The dry run of `POST /api/v1/runs?dryRun=true`: what a run would cost before it starts.
import { requestJson } from "./api";
import type { RunPlanEstimate } from "@/lib/api/responses";
import type { CreateRunInput } from "./run-types";

/** What a run would do: its cells, and its cost as far as prices and output estimates allow (the dry run's "plan"). */
export type RunEstimate = RunPlanEstimate;

/** One model's part of a run estimate: its cells, estimated tokens and cost. */
export type ModelEstimate = RunPlanEstimate["models"][number];

/** Estimates a run without creating it (the server's estimateRun). */
export async function estimateRun(input: CreateRunInput, signal?: AbortSignal): Promise<RunEstimate> {
  const body = await requestJson<{ plan: RunEstimate }>("/api/v1/runs?dryRun=true", {
    method: "POST",
    body: JSON.stringify(input),
    signal,
  });
  return body.plan;
}
