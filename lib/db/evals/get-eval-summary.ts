import type { EvalSummary } from "@/lib/api/evals";
import type { Queryable } from "../database";
import type { EvalPlan } from "./eval-plan";

type SummaryRow = {
  id: string;
  status: EvalSummary["status"];
  eval: EvalPlan;
  cells: number;
  counts: EvalSummary["counts"];
  created_at: Date | string;
  finished_at: Date | string | null;
};

/** One eval run of the calling user's with its progress, or null. */
export async function getEvalSummary(tx: Queryable, { id }: { id: string }): Promise<EvalSummary | null> {
  const { rows } = await tx.query<SummaryRow>(
    `select r.id, r.status, r.config -> 'eval' as eval, r.created_at, r.finished_at,
            (select count(*)::int from run_cells c where c.run_id = r.id) as cells,
            (select json_build_object(
                      'pending', count(*) filter (where c.status in ('queued', 'running')),
                      'ok', count(*) filter (where c.status = 'ok'),
                      'warning', count(*) filter (where c.status = 'warning'),
                      'error', count(*) filter (where c.status not in ('queued', 'running', 'ok', 'warning')))
               from run_cells c where c.run_id = r.id) as counts
       from runs r where r.kind = 'eval' and r.id = $1`,
    [id],
  );
  const row = rows[0];
  if (!row) return null;
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
