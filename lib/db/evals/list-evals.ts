import type { EvalSummary } from "@/lib/api/evals";
import type { Queryable } from "../database";
import { EVAL_SUMMARY_COLUMNS, type EvalSummaryRow, toEvalSummary } from "./eval-summary-row";

/** How one prompt on one model of a listed eval run stands: its cells, finished results and passes. */
export interface EvalRunTally {
  variant: number;
  column: number;
  cells: number;
  finished: number;
  passed: number;
}

/** One listed eval run: its summary and a tally per prompt x model (those with no cells absent). */
export interface ListedEval {
  summary: EvalSummary;
  tallies: EvalRunTally[];
}

/**
 * The calling user's eval runs, newest first: at most limit of them after skipping offset, and
 * whether more follow. A result passes as the EvalRuns say (lib/services/evals.ts): a finished
 * cell that did not fail and whose metric scores passed.
 */
export async function listEvals(
  tx: Queryable,
  { limit, offset }: { limit: number; offset: number },
): Promise<{ evals: ListedEval[]; more: boolean }> {
  const { rows } = await tx.query<EvalSummaryRow>(
    `select ${EVAL_SUMMARY_COLUMNS}
       from runs r where r.kind = 'eval'
      order by r.created_at desc, r.id
      limit $1 offset $2`,
    [limit + 1, offset],
  );
  const page = rows.slice(0, limit);
  if (page.length === 0) return { evals: [], more: false };
  const { rows: tallies } = await tx.query<{
    run_id: string;
    variant: number;
    column_index: number;
    cells: number;
    finished: number;
    passed: number;
  }>(
    `select c.run_id, c.variant, c.column_index, count(*)::int as cells,
            count(*) filter (where c.status not in ('queued', 'running'))::int as finished,
            count(*) filter (where c.status not in ('queued', 'running', 'error', 'cancelled', 'skipped', 'malformed')
                               and c.metric_scores ->> 'passed' = 'true')::int as passed
       from run_cells c
      where c.run_id = any($1::uuid[])
      group by c.run_id, c.variant, c.column_index`,
    [page.map((row) => row.id)],
  );
  return {
    evals: page.map((row) => ({
      summary: toEvalSummary(row),
      tallies: tallies
        .filter((tally) => tally.run_id === row.id)
        .map((tally) => ({
          variant: tally.variant,
          column: tally.column_index,
          cells: tally.cells,
          finished: tally.finished,
          passed: tally.passed,
        })),
    })),
    more: rows.length > limit,
  };
}
