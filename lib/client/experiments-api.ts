// The browser's calls to /api/v1/experiments (types from lib/api/experiments.ts, the schemas the
// routes check their answers against).
import type { CreateExperimentRequest, Experiment, ExperimentPlan, ExperimentSummary } from "@/lib/api/experiments";
import { requestJson } from "./api";

/** Starts an experiment run from its files; the workers run it row by row. */
export async function createExperiment(request: CreateExperimentRequest): Promise<ExperimentSummary> {
  const answer = await requestJson<{ experiment: ExperimentSummary }>("/api/v1/experiments", {
    method: "POST",
    body: JSON.stringify(request),
  });
  return answer.experiment;
}

/** What a run of these files would send: rows, input tokens and cost per model; nothing is stored. */
export async function planExperiment(request: CreateExperimentRequest): Promise<ExperimentPlan> {
  const answer = await requestJson<{ plan: ExperimentPlan }>("/api/v1/experiments", {
    method: "POST",
    body: JSON.stringify({ ...request, dryRun: true }),
  });
  return answer.plan;
}

/** The past experiment runs, newest first. */
export async function listExperiments(): Promise<ExperimentSummary[]> {
  return (await requestJson<{ experiments: ExperimentSummary[] }>("/api/v1/experiments?limit=50")).experiments;
}

/** One experiment run with its document and rows. */
export function getExperiment(id: string): Promise<Experiment> {
  return requestJson<Experiment>(`/api/v1/experiments/${encodeURIComponent(id)}`);
}

/** Where the output CSV of an experiment is downloaded (the rows finished so far, in input order). */
export function experimentOutputUrl(id: string): string {
  return `/api/v1/experiments/${encodeURIComponent(id)}/output.csv`;
}
