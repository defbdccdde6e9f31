// The browser's calls to /api/v1/matrix (types from lib/api/matrix.ts, the schemas the routes
// check their answers against). Every call throws an ApiError with the server's message.
import type { CreateMatrixRequest, MatrixDetail, MatrixList, MatrixPlanResponse, MatrixSummary } from "@/lib/api/matrix";
import { requestJson } from "@/lib/client/api";
import type { PromptRunHistoryEntry } from "@/lib/api/responses";

/** The plan and estimate of a matrix: nothing is stored or sent (dryRun). */
export async function planMatrixRequest(request: CreateMatrixRequest): Promise<MatrixPlanResponse> {
  const answer = await requestJson<{ dryRun: true; plan: MatrixPlanResponse }>("/api/v1/matrix", {
    method: "POST",
    body: JSON.stringify({ ...request, dryRun: true }),
  });
  return answer.plan;
}

/** Starts a matrix; the server's workers run it, 3 calls at a time by default. */
export async function createMatrix(request: CreateMatrixRequest): Promise<MatrixSummary> {
  const answer = await requestJson<{ matrix: MatrixSummary }>("/api/v1/matrix", {
    method: "POST",
    body: JSON.stringify({ ...request, dryRun: false }),
  });
  return answer.matrix;
}

/** The caller's matrices, newest first. */
export async function listMatrices({ limit = 20 }: { limit?: number } = {}): Promise<MatrixList["matrices"]> {
  return (await requestJson<MatrixList>(`/api/v1/matrix?limit=${limit}`)).matrices;
}

/** One matrix: its summary, every eval of its grid so far and its comparisons' names. */
export function getMatrix(id: string): Promise<MatrixDetail> {
  return requestJson<MatrixDetail>(`/api/v1/matrix/${encodeURIComponent(id)}`);
}

/** Where a comparison's markdown (or index.md, name "index") is read and downloaded. */
export function matrixComparisonUrl(id: string, name: string): string {
  return `/api/v1/matrix/${encodeURIComponent(id)}/comparisons/${encodeURIComponent(name)}.md`;
}

/** Where the batch folder is downloaded as a zip. */
export function matrixZipUrl(id: string): string {
  return `/api/v1/matrix/${encodeURIComponent(id)}/download.zip`;
}

/** Where the batch's summary.json is downloaded. */
export function matrixSummaryUrl(id: string): string {
  return `/api/v1/matrix/${encodeURIComponent(id)}/summary.json`;
}

/** The text of a comparison's markdown; throws with the server's message when it is not there. */
export async function readComparison(id: string, name: string): Promise<string> {
  const response = await fetch(matrixComparisonUrl(id, name), { cache: "no-store", headers: { accept: "text/markdown" } });
  const text = await response.text();
  if (!response.ok) {
    let message = `The server answered ${response.status}`;
    try {
      message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? message;
    } catch {
      // Not JSON: the status says it.
    }
    throw new Error(message);
  }
  return text;
}

/** A saved prompt's run history: the versions it ran with (what name@vN names). */
export async function listPromptRuns(promptId: string): Promise<PromptRunHistoryEntry[]> {
  return (await requestJson<{ runs: PromptRunHistoryEntry[] }>(`/api/v1/prompts/${encodeURIComponent(promptId)}/runs`)).runs;
}
