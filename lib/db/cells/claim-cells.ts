import type { Database } from "../database";
import { resultsPayload, saveResultsStatement, type CellResult } from "./save-cell-results";

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
  /** False for a cell claimed ahead, to be held until a slot frees (marked held until then). */
  started?: boolean;
}

/** What a claim took, and whether the run had nothing more to give right now. */
export interface ClaimResult {
  cells: ClaimedCell[];
  /** True when the run has no runnable cell left now: a good moment to check if it is finished. */
  exhausted: boolean;
}

/**
 * Claims up to limit runnable cells of one run for workerId, within the run's concurrency cap
 * and its per-provider caps, counted over every worker; first saves the results in save, if any,
 * in the same call (a slot that frees costs one round trip, not two). One round trip: the locking and counting
 * are in parallaxr_claim_cells (supabase/migrations/0005_queue.sql), which says how it
 * locks and why the count is a statement of its own. ahead: cells beyond the run's cap the
 * worker may hold ready (at most the cap again); only for a worker that is alone on its
 * database (0018_claim_ahead.sql).
 */
export async function claimCells(
  db: Database,
  {
    runId,
    workerId,
    leaseMs,
    limit,
    ahead = 0,
    start = limit,
    save = [],
    started = [],
  }: {
    runId: string;
    workerId: string;
    leaseMs: number;
    limit: number;
    ahead?: number;
    /** How many of the cells claimed the worker starts at once (the rest it holds); all by default. */
    start?: number;
    save?: CellResult[];
    /** Held cells whose calls started since the worker's last statement (marked started first). */
    started?: string[];
  },
): Promise<ClaimResult> {
  if (limit <= 0 && save.length === 0 && started.length === 0) return { cells: [], exhausted: false };
  const { rows } = await db.query<{ claim: { cells: Array<Omit<ClaimedCell, "runId">>; exhausted: boolean } }>(
    save.length > 0 || started.length > 0
      ? "select parallaxr_save_and_claim($2, $7::jsonb, $1, $3, $4, $5, $6, $8::uuid[]) as claim"
      : "select parallaxr_claim_cells($1, $2, $3, $4, $5, $6) as claim",
    save.length > 0 || started.length > 0
      ? [runId, workerId, leaseMs, limit, ahead, start, resultsPayload(save), started]
      : [runId, workerId, leaseMs, limit, ahead, start],
  );
  const claim = rows[0].claim;
  return {
    cells: claim.cells.map((cell) => ({ ...cell, runId, params: cell.params ?? {}, started: cell.started !== false })),
    exhausted: claim.exhausted,
  };
}

/**
 * Records that the calls of held cells (claimed ahead, marked held) have started, then saves
 * results, in one transaction sent at once (db.batch): what a tick writes when it claims nothing.
 * Marked first, as parallaxr_save_and_claim does: a held cell that started and ended since the
 * last statement is among both.
 */
export async function saveAndMarkStarted(
  db: Database,
  { workerId, results, started }: { workerId: string; results: CellResult[]; started: string[] },
): Promise<void> {
  const statements = [];
  if (started.length > 0) statements.push({ sql: "select parallaxr_mark_started($1, $2::uuid[])", params: [workerId, started] });
  if (results.length > 0) statements.push(saveResultsStatement(workerId, results));
  if (statements.length === 1) await db.query(statements[0].sql, statements[0].params);
  else if (statements.length > 1) await db.batch(statements);
}
