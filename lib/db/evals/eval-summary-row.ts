import type { EvalSummary } from "@/lib/api/evals";
import type { EvalPlan } from "./eval-plan";

/**
 * The columns of an eval run's summary, for `select ${EVAL_SUMMARY_COLUMNS} from runs r ...`:
 * its plan and its cells counted by status, the way the EvalRuns count them (pending while queued
 * or running; error for every other status that is neither ok nor warning).
 */
export const EVAL_SUMMARY_COLUMNS = `r.id, r.status, r.config -> 'eval' as eval, r.created_at, r.finished_at,
            (select count(*)::int from run_cells c where c.run_id = r.id) as cells,
            (select json_build_object(
                      'pending', count(*) filter (where c.status in ('queued', 'running')),
                      'ok', count(*) filter (where c.status = 'ok'),
                      'warning', count(*) filter (where c.status = 'warning'),
                      'error', count(*) filter (where c.status not in ('queued', 'running', 'ok', 'warning')))
               from run_cells c where c.run_id = r.id) as counts`;

/** A row of EVAL_SUMMARY_COLUMNS. */
export type EvalSummaryRow = {
  id: string;
  status: EvalSummary["status"];
  eval: EvalPlan;
  cells: number;
  counts: EvalSummary["counts"];
  created_at: Date | string;
  finished_at: Date | string | null;
};

export function toEvalSummary(row: EvalSummaryRow): EvalSummary {
  return {
    id: row.id,
    status: row.status,
    configName: row.eval.configName,
    prompts: row.eval.prompts.map((prompt) => prompt.name),
    models: row.eval.models,
    testCases: row.eval.testCases,
    repeat: row.eval.repeat,
    cells: row.cells,
    warnings: row.eval.warnings,
    counts: row.counts,
    createdAt: new Date(row.created_at).toISOString(),
    finishedAt: row.finished_at === null ? null : new Date(row.finished_at).toISOString(),
  };
}
