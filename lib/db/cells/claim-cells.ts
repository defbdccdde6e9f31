import type { Database } from "../database";

/** A cell a worker now holds the lease on, with what it needs to execute it. */
export interface ClaimedCell {
  id: string;
  runId: string;
  columnIndex: number;
  rowIndex: number;
  trial: number;
  variant: number;
  attempts: number;
  bypassCache: boolean;
  provider: string;
  model: string;
  params: Record<string, unknown>;
  variables: Record<string, string>;
}

/** What a claim took, and whether the run had nothing more to give right now. */
export interface ClaimResult {
  cells: ClaimedCell[];
  /** True when the run has no runnable cell left now: a good moment to check if it is finished. */
  exhausted: boolean;
}

const openStates = ["queued", "running"];

/**
 * Claims up to limit runnable cells of one run for workerId, within the run's concurrency cap
 * and its per-provider caps, counted over every worker.
 *
 * Locking: the run's row is locked FOR UPDATE for the length of this short transaction, so the
 * claimers of one run take turns and each sees the others' in-flight counts; cells are then taken
 * with FOR UPDATE SKIP LOCKED, so a cell that a worker is completing at that moment is passed
 * over rather than waited for. Runnable means queued and due, or running with an expired lease
 * (its worker died): that one is taken back and its attempt counted.
 */
export async function claimCells(
  db: Database,
  { runId, workerId, leaseMs, limit }: { runId: string; workerId: string; leaseMs: number; limit: number },
): Promise<ClaimResult> {
  if (limit <= 0) return { cells: [], exhausted: false };
  return db.transaction(async (tx) => {
    const run = (
      await tx.query<{ status: string; concurrency: number; provider_concurrency: Record<string, number>; dataset_id: string | null }>(
        "select status, concurrency, provider_concurrency, dataset_id from runs where id = $1 for update",
        [runId],
      )
    ).rows[0];
    if (!run || !openStates.includes(run.status)) return { cells: [], exhausted: !run || run.status !== "paused" };

    // Counted in a statement of its own, after the lock is granted: under READ COMMITTED each
    // statement takes a new snapshot, so this one sees every claim committed before ours. (Folded
    // into the locking statement as a subquery, it used the snapshot from before the wait, and
    // two workers together put 6 calls in flight under a cap of 3.)
    const inFlight = (
      await tx.query<{ provider: string; n: number }>(
        `select col.provider, count(*)::int as n
           from run_cells c join run_columns col on col.id = c.column_id
          where c.run_id = $1 and c.status = 'running' and c.lease_expires_at > now()
          group by col.provider`,
        [runId],
      )
    ).rows;
    const inFlightByProvider = new Map(inFlight.map((row) => [row.provider, row.n]));
    const inFlightTotal = inFlight.reduce((sum, row) => sum + row.n, 0);
    const room = Math.min(limit, run.concurrency - inFlightTotal);
    if (room <= 0) return { cells: [], exhausted: false };
    let free = room;

    // Capped providers are claimed one by one within their own room; the rest together.
    const caps = Object.entries(run.provider_concurrency ?? {});
    const claimed: ClaimedCell[] = [];
    for (const [provider, cap] of caps) {
      const providerRoom = Math.min(free, cap - (inFlightByProvider.get(provider) ?? 0));
      if (providerRoom <= 0) continue;
      const cells = await claimBatch(tx, { runId, workerId, leaseMs, limit: providerRoom, datasetId: run.dataset_id, only: [provider], except: null });
      claimed.push(...cells);
      free -= cells.length;
      if (free <= 0) break;
    }
    if (free > 0) {
      const except = caps.map(([provider]) => provider);
      claimed.push(
        ...(await claimBatch(tx, { runId, workerId, leaseMs, limit: free, datasetId: run.dataset_id, only: null, except })),
      );
    }
    if (claimed.length > 0 && run.status === "queued") {
      await tx.query("update runs set status = 'running', started_at = coalesce(started_at, now()) where id = $1", [runId]);
    }
    // Fewer than there was room for: nothing more is runnable now (done, or waiting on retries).
    return { cells: claimed, exhausted: claimed.length < room };
  });
}

async function claimBatch(
  tx: Pick<Database, "query">,
  input: { runId: string; workerId: string; leaseMs: number; limit: number; datasetId: string | null; only: string[] | null; except: string[] | null },
): Promise<ClaimedCell[]> {
  const { rows } = await tx.query<{
    id: string; column_index: number; row_index: number; trial: number; variant: number; attempts: number;
    bypass_cache: boolean; provider: string; model: string; params: Record<string, unknown>; data: Record<string, string> | null;
  }>(
    `with picked as (
       select c.id, c.row_index, col.provider, col.model, col.params
         from run_cells c join run_columns col on col.id = c.column_id
        where c.run_id = $1
          and ((c.status = 'queued' and c.not_before <= now())
               or (c.status = 'running' and c.lease_expires_at <= now()))
          and ($4::text[] is null or col.provider = any($4::text[]))
          and ($5::text[] is null or col.provider <> all($5::text[]))
        order by c.row_index, c.column_index, c.variant, c.trial
        limit $2
        for update of c skip locked
     )
     update run_cells c
        set status = 'running', attempts = c.attempts + 1, lease_owner = $3,
            lease_expires_at = now() + make_interval(secs => $6::double precision / 1000),
            started_at = now()
       from picked left join dataset_rows r on r.dataset_id = $7 and r.row_index = picked.row_index
      where c.id = picked.id
      returning c.id, c.column_index, c.row_index, c.trial, c.variant, c.attempts, c.bypass_cache,
                picked.provider, picked.model, picked.params, r.data`,
    [input.runId, input.limit, input.workerId, input.only, input.except, input.leaseMs, input.datasetId],
  );
  return rows.map((row) => ({
    id: row.id,
    runId: input.runId,
    columnIndex: row.column_index,
    rowIndex: row.row_index,
    trial: row.trial,
    variant: row.variant,
    attempts: row.attempts,
    bypassCache: row.bypass_cache,
    provider: row.provider,
    model: row.model,
    params: row.params ?? {},
    variables: row.data ?? {},
  }));
}
