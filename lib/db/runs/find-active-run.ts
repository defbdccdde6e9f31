import type { Queryable } from "../database";

/**
 * The id of the prompt's unfinished run (planned, queued, running or paused), or null; the
 * newest when there are several (runs from before one active run per prompt was enforced).
 *
 * Locking: takes a lock on the prompt until the transaction ends first, so of two runs of one
 * prompt created at once (two tabs, two requests) the second waits for the first to commit and
 * then finds it; a plain read would let both see no run and both insert one. The lock is an
 * advisory one, as countQueuedCells's, so a person editing the prompt is never held by it.
 */
export async function findActiveRun(tx: Queryable, { promptId }: { promptId: string }): Promise<string | null> {
  await tx.query("select pg_advisory_xact_lock(hashtext('parallaxr.active_run'), hashtext($1))", [promptId]);
  // A statement of its own after the lock: under READ COMMITTED it sees a run committed meanwhile.
  const { rows } = await tx.query<{ id: string }>(
    `select id from runs
      where prompt_id = $1 and status in ('planned', 'queued', 'running', 'paused')
      order by created_at desc
      limit 1`,
    [promptId],
  );
  return rows[0]?.id ?? null;
}
