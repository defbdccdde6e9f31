import type { Queryable } from "../database";

/** Stores an immutable snapshot of a prompt's text and returns its id. */
export async function insertPromptVersion(
  tx: Queryable,
  input: { promptId: string | null; version: number; name: string; type: "generator" | "grader"; text: string; textHash: string },
): Promise<string> {
  const { rows } = await tx.query<{ id: string }>(
    `insert into prompt_versions (prompt_id, version, name, type, text, text_hash)
     values ($1, $2, $3, $4, $5, $6) returning id`,
    [input.promptId, input.version, input.name, input.type, input.text, input.textHash],
  );
  return rows[0].id;
}
