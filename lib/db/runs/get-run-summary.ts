import type { CellCounts, RunSummary } from "@/lib/api/types";
import { shownStatusSql } from "../cells/shown-status";
import type { Queryable } from "../database";
import { isStreaming } from "./takes-cells";

const emptyCounts = (): CellCounts => ({
  queued: 0,
  running: 0,
  ok: 0,
  warning: 0,
  error: 0,
  malformed: 0,
  skipped: 0,
  cancelled: 0,
});

const iso = (value: Date | string | null): string | null => (value == null ? null : new Date(value).toISOString());

/** The run without cells, or null when it is not the caller's. */
export async function getRunSummary(tx: Queryable, { id }: { id: string }): Promise<RunSummary | null> {
  const { rows } = await tx.query<{
    id: string;
    kind: string;
    status: RunSummary["status"];
    planning: boolean;
    text: string | null;
    prompt_version_id: string | null;
    prompt_id: string | null;
    dataset_id: string | null;
    dataset_name: string | null;
    row_count: number;
    trials: number;
    concurrency: number;
    error: string | null;
    created_at: Date;
    started_at: Date | null;
    finished_at: Date | null;
    columns: RunSummary["columns"];
    counts: Record<string, number> | null;
    generator_spent_usd: number | null;
    grader_spent_usd: number | null;
    grader_model: { provider: string; model: string } | null;
    budget_usd: number | null;
    budget_mode: RunSummary["budgetMode"];
    prompt_version: number | null;
    grader_prompt_id: string | null;
    grader_version_id: string | null;
    grader_name: string | null;
  }>(
    `select r.id, r.kind, r.status, r.planning, v.text, v.version as prompt_version, r.grader_prompt_id, r.grader_version_id, gv.name as grader_name,
            r.prompt_version_id, r.prompt_id, r.dataset_id, d.name as dataset_name, r.row_count, r.trials,
            r.concurrency, r.error, r.created_at, r.started_at, r.finished_at, r.budget_usd, r.budget_mode,
            s.generator_spent_usd, s.grader_spent_usd,
            case when r.grader_version_id is not null then r.config -> 'graderModel' end as grader_model,
            (select coalesce(json_agg(json_build_object('index', c.column_index, 'provider', c.provider,
                    'model', c.model, 'params', c.params) order by c.column_index), '[]')
               from run_columns c where c.run_id = r.id) as columns,
            s.counts
       from runs r left join prompt_versions v on v.id = r.prompt_version_id left join datasets d on d.id = r.dataset_id
            left join prompt_versions gv on gv.id = r.grader_version_id
            -- the counts and the sums in one pass over the run's cells (a 100,000-cell run: ~2 x 150 ms on PGlite as two);
            -- a cell held ahead counts as queued while the run runs (shown-status.ts)
            cross join lateral (select json_object_agg(g.status, g.n) as counts,
                                       coalesce(sum(g.cost), 0) as generator_spent_usd,
                                       coalesce(sum(g.grader_cost), 0) as grader_spent_usd
                                  from (select ${shownStatusSql("", "r.status")} as status, count(*)::int as n, sum(cost_usd) as cost,
                                               sum(grader_cost_usd) as grader_cost
                                          from run_cells where run_id = r.id group by 1) g) s
      where r.id = $1`,
    [id],
  );
  const row = rows[0];
  if (!row) return null;
  const counts = { ...emptyCounts(), ...(row.counts ?? {}) };
  // A workbench run being planned (create-run.ts, streamRest) has every row x column x trial
  // coming: those not in yet are queued as far as anyone reading this is concerned. Not once it is
  // cancelled or failed (its planner stops at its next batch): they will never be.
  if (row.kind === "workbench" && isStreaming(row)) {
    const cellsIn = Object.values(counts).reduce((sum, n) => sum + n, 0);
    counts.queued += Math.max(0, row.row_count * row.columns.length * row.trials - cellsIn);
  }
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    prompt: row.text ?? "",
    promptVersionId: row.prompt_version_id,
    promptId: row.prompt_id,
    promptVersion: row.prompt_version,
    hasGrader: row.grader_version_id !== null,
    graderPromptId: row.grader_prompt_id,
    graderName: row.grader_name,
    graderModel: row.grader_model,
    datasetId: row.dataset_id,
    datasetName: row.dataset_name,
    columns: row.columns,
    rowCount: row.row_count,
    trials: row.trials,
    concurrency: row.concurrency,
    counts,
    planning: row.planning,
    spentUsd: Number(row.generator_spent_usd ?? 0) + Number(row.grader_spent_usd ?? 0),
    generatorSpentUsd: Number(row.generator_spent_usd ?? 0),
    graderSpentUsd: Number(row.grader_spent_usd ?? 0),
    budgetUsd: row.budget_usd,
    budgetMode: row.budget_mode,
    error: row.error,
    createdAt: iso(row.created_at)!,
    startedAt: iso(row.started_at),
    finishedAt: iso(row.finished_at),
  };
}
