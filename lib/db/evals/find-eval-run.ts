import type { Queryable } from "../database";

/**
 * The eval run of the calling user's that made the EvalRun with this 8-hex run_id, and which of
 * its prompts (variant) and models (column) it is; the newest when two share the 8 characters.
 * A run_id is not stored: it is the first 8 hex characters of SHA-256 over "{eval id}/{variant}/
 * {column}" (evalRunId in lib/services/evals.ts), so it is computed here for every prompt x model
 * of every eval run the caller can see (row-level security keeps the others out).
 */
export async function findEvalRun(
  tx: Queryable,
  { runId }: { runId: string },
): Promise<{ evalId: string; variant: number; column: number } | null> {
  const { rows } = await tx.query<{ id: string; variant: number; column_index: number }>(
    `select r.id, v.variant, c.column_index
       from runs r
      cross join lateral generate_series(0, jsonb_array_length(r.config -> 'eval' -> 'prompts') - 1) as v(variant)
      cross join lateral generate_series(0, jsonb_array_length(r.config -> 'eval' -> 'models') - 1) as c(column_index)
      where r.kind = 'eval'
        and left(encode(sha256(convert_to(r.id::text || '/' || v.variant || '/' || c.column_index, 'UTF8')), 'hex'), 8) = $1
      order by r.created_at desc
      limit 1`,
    [runId],
  );
  const row = rows[0];
  return row ? { evalId: row.id, variant: row.variant, column: row.column_index } : null;
}
