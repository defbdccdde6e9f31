import type { z } from "zod";
import type { PromptRunHistoryEntry } from "@/lib/api/types";
import type { createPromptSchema, updatePromptSchema } from "@/lib/api/schemas";
import { asUser } from "@/lib/db/as-user";
import type { Database } from "@/lib/db/database";
import {
  deletePrompt as deletePromptRow,
  getPromptById,
  insertPrompt,
  listPrompts as listPromptRows,
  updatePrompt as updatePromptRow,
  type PromptRow,
} from "@/lib/db/prompts/prompts";
import { getPromptVersionText, listPromptRuns as listPromptRunRows } from "@/lib/db/runs/list-prompt-runs";
import { NotFoundError } from "@/lib/engine/errors";

/** Stores a prompt of userId's. */
export function createPrompt(
  { db }: { db: Database },
  { userId, prompt }: { userId: string; prompt: z.infer<typeof createPromptSchema> },
): Promise<PromptRow> {
  return asUser(db, userId, (tx) => insertPrompt(tx, prompt));
}

/** userId's prompts, most recently changed first. */
export async function listPrompts({ db }: { db: Database }, { userId }: { userId: string }): Promise<{ prompts: PromptRow[] }> {
  return { prompts: await asUser(db, userId, (tx) => listPromptRows(tx)) };
}

/** One prompt of userId's. */
export async function getPrompt({ db }: { db: Database }, { userId, promptId }: { userId: string; promptId: string }): Promise<PromptRow> {
  const prompt = await asUser(db, userId, (tx) => getPromptById(tx, { id: promptId }));
  if (!prompt) throw new NotFoundError(`Prompt ${promptId} not found.`);
  return prompt;
}

/** Saves text (no version bump), renames (the version starts again at 1) or changes the type. */
export async function updatePrompt(
  { db }: { db: Database },
  { userId, promptId, change }: { userId: string; promptId: string; change: z.infer<typeof updatePromptSchema> },
): Promise<PromptRow> {
  const prompt = await asUser(db, userId, (tx) => updatePromptRow(tx, { id: promptId, ...change }));
  if (!prompt) throw new NotFoundError(`Prompt ${promptId} not found.`);
  return prompt;
}

/** Deletes a prompt of userId's for good (its runs keep their versions). */
export async function deletePrompt(
  { db }: { db: Database },
  { userId, promptId }: { userId: string; promptId: string },
): Promise<{ deleted: true }> {
  const deleted = await asUser(db, userId, (tx) => deletePromptRow(tx, { id: promptId }));
  if (!deleted) throw new NotFoundError(`Prompt ${promptId} not found.`);
  return { deleted: true };
}

/** Run history of a prompt of userId's, newest first: version, status and each model's average grade. */
export async function listPromptRuns(
  { db }: { db: Database },
  { userId, promptId }: { userId: string; promptId: string },
): Promise<{ runs: PromptRunHistoryEntry[] }> {
  return { runs: await asUser(db, userId, (tx) => listPromptRunRows(tx, { promptId })) };
}

/** The immutable text of a prompt version of userId's. */
export async function getPromptVersion({ db }: { db: Database }, { userId, versionId }: { userId: string; versionId: string }) {
  const version = await asUser(db, userId, (tx) => getPromptVersionText(tx, { id: versionId }));
  if (!version) throw new NotFoundError(`Prompt version ${versionId} not found.`);
  return version;
}
