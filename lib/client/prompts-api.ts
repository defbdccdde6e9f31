// The browser's calls to /api/v1/prompts and /api/v1/workbench.
import type { WorkbenchState } from "@/lib/api/responses";
import type { CreatePromptRequest, UpdatePromptRequest, UpdateWorkbenchRequest } from "@/lib/api/schemas";
import { requestJson } from "./api";
import type { PromptItem } from "./workbench-types";

export async function listPrompts(): Promise<PromptItem[]> {
  return (await requestJson<{ prompts: PromptItem[] }>("/api/v1/prompts")).prompts;
}

export function getPrompt(id: string): Promise<PromptItem> {
  return requestJson<PromptItem>(`/api/v1/prompts/${encodeURIComponent(id)}`);
}

export function createPrompt(input: CreatePromptRequest): Promise<PromptItem> {
  return requestJson<PromptItem>("/api/v1/prompts", { method: "POST", body: JSON.stringify(input) });
}

/** Saves text (never bumps the version), renames (the version starts again at 1) or retypes. */
export function updatePrompt(id: string, change: UpdatePromptRequest): Promise<PromptItem> {
  return requestJson<PromptItem>(`/api/v1/prompts/${encodeURIComponent(id)}`, { method: "PATCH", body: JSON.stringify(change) });
}

export function deletePrompt(id: string): Promise<{ deleted: true }> {
  return requestJson(`/api/v1/prompts/${encodeURIComponent(id)}`, { method: "DELETE" });
}

/** First load: the example prompt, grader, dataset and mock models, once per user. */
export function seedExamples(): Promise<{ seeded: boolean }> {
  return requestJson("/api/v1/seed", { method: "POST" });
}

/** The workbench setup the server keeps for the caller. */
export type WorkbenchSetup = WorkbenchState;

export function getWorkbenchSetup(): Promise<WorkbenchSetup> {
  return requestJson<WorkbenchSetup>("/api/v1/workbench");
}

export function saveWorkbenchSetup(change: UpdateWorkbenchRequest): Promise<WorkbenchSetup> {
  return requestJson<WorkbenchSetup>("/api/v1/workbench", { method: "PATCH", body: JSON.stringify(change) });
}
