import type { Queryable } from "../database";

/** The text of the prompt version a run of the calling user's sends (an experiment's document), or null. */
export async function getRunPromptText(tx: Queryable, { runId }: { runId: string }): Promise<string | null> {
  const { rows } = await tx.query<{ text: string }>(
    "select v.text from runs r join prompt_versions v on v.id = r.prompt_version_id where r.id = $1",
    [runId],
  );
  return rows[0]?.text ?? null;
}
