import type { Queryable } from "../database";

/**
 * The mean output tokens of the caller's earlier grader calls on a model (runs that name it as
 * their grading model), or null before the first: a grade is short, but how short depends on
 * the grader prompt and the model, so only what was seen is used.
 */
export async function averageGraderOutputTokens(
  tx: Queryable,
  { provider, model }: { provider: string; model: string },
): Promise<number | null> {
  const { rows } = await tx.query<{ average: number | null }>(
    `select avg(c.grader_tokens_out)::double precision as average
       from run_cells c join runs r on r.id = c.run_id
      where r.config -> 'graderModel' ->> 'provider' = $1 and r.config -> 'graderModel' ->> 'model' = $2
        and c.grader_tokens_out is not null`,
    [provider, model],
  );
  return rows[0]?.average ?? null;
}
