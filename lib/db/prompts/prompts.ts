import type { Queryable } from "../database";

/** A stored prompt. */
export interface PromptRow {
  id: string;
  name: string;
  type: "generator" | "grader";
  text: string;
  versionCounter: number;
  lastRunTextHash: string | null;
  createdAt: string;
  updatedAt: string;
}

const columns = `id, name, type, text, version_counter as "versionCounter", last_run_text_hash as "lastRunTextHash",
                 created_at as "createdAt", updated_at as "updatedAt"`;

/** Inserts a prompt for the calling user. */
export async function insertPrompt(tx: Queryable, input: { name: string; text: string; type: "generator" | "grader" }): Promise<PromptRow> {
  const { rows } = await tx.query<PromptRow>(`insert into prompts (name, text, type) values ($1, $2, $3) returning ${columns}`, [
    input.name,
    input.text,
    input.type,
  ]);
  return rows[0];
}

/** The caller's prompt with this id, or null (RLS hides other users' prompts). */
export async function getPromptById(tx: Queryable, { id }: { id: string }): Promise<PromptRow | null> {
  const { rows } = await tx.query<PromptRow>(`select ${columns} from prompts where id = $1`, [id]);
  return rows[0] ?? null;
}

/**
 * Records that the prompt is about to run with text of textHash: the version counter goes up by
 * one when the text changed since the last run (not on the first run). Locks the prompt's row so
 * two runs started together bump it once. Returns the version to label the run with.
 */
export async function markPromptRun(tx: Queryable, { id, textHash }: { id: string; textHash: string }): Promise<number> {
  const { rows } = await tx.query<{ version_counter: number }>(
    `update prompts
        set version_counter = case when last_run_text_hash is not null and last_run_text_hash <> $2
                                   then version_counter + 1 else version_counter end,
            last_run_text_hash = $2
      where id = $1
      returning version_counter`,
    [id, textHash],
  );
  return rows[0].version_counter;
}

/** The caller's prompts, most recently changed first. */
export async function listPrompts(tx: Queryable): Promise<PromptRow[]> {
  const { rows } = await tx.query<PromptRow>(`select ${columns} from prompts order by updated_at desc`);
  return rows;
}

/**
 * Changes a prompt. New text is saved as it is (autosave never bumps the version: that happens
 * on Run, when the text changed since the last run); a new name starts the version count again at 1.
 * Returns the prompt, or null when it is not the caller's.
 */
export async function updatePrompt(
  tx: Queryable,
  { id, name, text, type }: { id: string; name?: string; text?: string; type?: "generator" | "grader" },
): Promise<PromptRow | null> {
  const { rows } = await tx.query<PromptRow>(
    `update prompts
        set text = coalesce($3, text),
            type = coalesce($4, type),
            version_counter = case when $2::text is not null and $2 <> name then 1 else version_counter end,
            last_run_text_hash = case when $2::text is not null and $2 <> name then null else last_run_text_hash end,
            name = coalesce($2, name),
            updated_at = now()
      where id = $1
      returning ${columns}`,
    [id, name ?? null, text ?? null, type ?? null],
  );
  return rows[0] ?? null;
}

/** Deletes a prompt for good; its runs keep their immutable versions. True when it was there. */
export async function deletePrompt(tx: Queryable, { id }: { id: string }): Promise<boolean> {
  return (await tx.query("delete from prompts where id = $1", [id])).rowCount > 0;
}
