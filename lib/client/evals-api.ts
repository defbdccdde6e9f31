// The browser's calls to /api/v1/evals (types from lib/api/evals.ts, the schemas the routes check
// their answers against).
import type { CreateEvalRequest, EvalDetail, EvalList, EvalSummary } from "@/lib/api/evals";
import type { evalExportFormatSchema } from "@/lib/api/evals";
import type { z } from "zod";
import { requestJson } from "./api";

export type EvalExportFormat = z.infer<typeof evalExportFormatSchema>;

/** Starts an eval run from its config and the prompt files it names; the workers run it. */
export async function createEval(request: CreateEvalRequest): Promise<EvalSummary> {
  const answer = await requestJson<{ eval: EvalSummary }>("/api/v1/evals", { method: "POST", body: JSON.stringify(request) });
  return answer.eval;
}

/** A page of the past eval runs, newest first. */
export function listEvals({ limit = 20, offset = 0 }: { limit?: number; offset?: number } = {}): Promise<EvalList> {
  return requestJson<EvalList>(`/api/v1/evals?limit=${limit}&offset=${offset}`);
}

/** One eval run with its EvalRuns and the results finished so far. */
export function getEval(id: string): Promise<EvalDetail> {
  return requestJson<EvalDetail>(`/api/v1/evals/${encodeURIComponent(id)}`);
}

/** Where an export of an eval is downloaded: one EvalRun's (run), or JUnit XML of them all. */
export function evalExportUrl(id: string, format: EvalExportFormat, run?: string): string {
  return `/api/v1/evals/${encodeURIComponent(id)}/export/${format}${run ? `?run=${run}` : ""}`;
}

/** Where comparison.md of an eval with two or more EvalRuns is downloaded. */
export function evalComparisonUrl(id: string): string {
  return `/api/v1/evals/${encodeURIComponent(id)}/comparison.md`;
}
