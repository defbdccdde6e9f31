// The run history of a prompt and the prompt versions it ran, for the history dialog.
import type { PromptVersion } from "@/lib/api/responses";
import type { PromptRunHistoryEntry } from "@/lib/api/types";
import type { RunGrades } from "@/lib/api/run-grades";
import { requestJson } from "./api";

export type { PromptRunHistoryEntry, PromptVersion, RunGrades };

/** The caller's runs of a prompt, newest first, with each model's averages. */
export async function listPromptRuns({ promptId }: { promptId: string }): Promise<PromptRunHistoryEntry[]> {
  const body = await requestJson<{ runs: PromptRunHistoryEntry[] }>(`/api/v1/prompts/${encodeURIComponent(promptId)}/runs`);
  return body.runs;
}

/** The text of a prompt version that a run used. */
export function getPromptVersion({ id }: { id: string }): Promise<PromptVersion> {
  return requestJson<PromptVersion>(`/api/v1/prompt-versions/${encodeURIComponent(id)}`);
}

/** Each graded cell of a run by model, dataset row and trial, to pair two runs by row. */
export function getRunGrades({ runId }: { runId: string }): Promise<RunGrades> {
  return requestJson<RunGrades>(`/api/v1/runs/${encodeURIComponent(runId)}/grades`);
}
