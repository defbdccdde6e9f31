import type { Queryable } from "../database";

/**
 * The text of version `version` of the calling user's saved prompt called name (a matrix's
 * `name@vN`), or null. A version is the text a run of the prompt used (prompt_versions); a prompt
 * never run has only its v1, its current text. Two prompts of one name: the one edited last.
 * Grader prompts are not prompt versions of a matrix.
 */
export async function findSavedPromptVersion(
  tx: Queryable,
  { name, version }: { name: string; version: number },
): Promise<{ text: string } | null> {
  const { rows } = await tx.query<{ text: string }>(
    `select text from (
       select v.text, p.updated_at, 0 as preference
         from prompts p join prompt_versions v on v.prompt_id = p.id
        where p.name = $1 and v.version = $2 and p.type = 'generator'
       union all
       select p.text, p.updated_at, 1
         from prompts p
        where p.name = $1 and $2 = 1 and p.type = 'generator' and p.last_run_text_hash is null
     ) found
     order by preference, updated_at desc
     limit 1`,
    [name, version],
  );
  return rows[0] ?? null;
}
