import type { Queryable } from "../database";

/**
 * A cursor for a run's changes as of now: every cell change already made has a seq at most this,
 * every later one a greater seq (run_cells_seq, 0004_realtime.sql). It reads the sequence, not
 * max(seq) over the run's cells: on PGlite, which never analyzes, that max over a fresh
 * 200,000-cell run was once planned as a bitmap scan that took 114 s.
 */
export async function getChangeCursor(tx: Queryable): Promise<number> {
  const { rows } = await tx.query<{ cursor: string }>("select case when is_called then last_value else 0 end as cursor from run_cells_seq");
  return Number(rows[0].cursor);
}
