import type { Queryable } from "../database";

/** What a new run is made of, once its prompt and dataset are resolved. */
export interface NewRun {
  kind: "workbench" | "experiment" | "eval" | "matrix" | "batch";
  promptId: string | null;
  promptVersionId: string;
  graderPromptId: string | null;
  graderVersionId: string | null;
  graderModel: { provider: string; model: string } | null;
  datasetId: string | null;
  rowCount: number;
  trials: number;
  concurrency: number;
  providerConcurrency: Record<string, number>;
  maxAttempts: number;
  timeoutMs: number;
  cache: boolean;
  budgetUsd: number | null;
  budgetMode: "estimate" | "strict" | "off";
  columns: Array<{ provider: string; model: string; params: Record<string, unknown>; estimatedCostPerCell: number | null }>;
}

/**
 * Inserts the run, its columns and every cell (rows x columns x trials, planned by Postgres in
 * one statement) as the calling user. Cells start queued, so workers may take them as soon as
 * the transaction commits. Returns the run id.
 */
export async function insertRun(tx: Queryable, run: NewRun): Promise<string> {
  const { rows } = await tx.query<{ id: string }>(
    `insert into runs (kind, prompt_id, prompt_version_id, dataset_id, row_count, trials, concurrency,
                       provider_concurrency, max_attempts, timeout_ms, config, budget_usd, budget_mode,
                       grader_prompt_id, grader_version_id, status)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, 'queued')
     returning id`,
    [
      run.kind, run.promptId, run.promptVersionId, run.datasetId, run.rowCount, run.trials, run.concurrency,
      JSON.stringify(run.providerConcurrency), run.maxAttempts, run.timeoutMs, JSON.stringify(run.graderModel ? { cache: run.cache, graderModel: run.graderModel } : { cache: run.cache }),
      run.budgetUsd, run.budgetMode, run.graderPromptId, run.graderVersionId,
    ],
  );
  const runId = rows[0].id;
  await tx.query(
    `insert into run_columns (run_id, column_index, provider, model, params, estimated_cost_per_cell)
     select $1, c.ordinality - 1, c.value ->> 'provider', c.value ->> 'model', coalesce(c.value -> 'params', '{}'),
            (c.value ->> 'estimatedCostPerCell')::double precision
       from jsonb_array_elements($2::jsonb) with ordinality as c(value, ordinality)`,
    [runId, JSON.stringify(run.columns)],
  );
  await tx.query(
    `insert into run_cells (run_id, column_id, column_index, row_index, trial)
     select $1, col.id, col.column_index, r.i, t.i
       from run_columns col, generate_series(0, $2::int - 1) as r(i), generate_series(0, $3::int - 1) as t(i)
      where col.run_id = $1
      order by r.i, col.column_index, t.i`,
    [runId, run.rowCount, run.trials],
  );
  if (run.budgetMode === "strict" && run.budgetUsd != null) {
    // strict: a model whose cost cannot be estimated is not run at all
    await tx.query(
      `update run_cells c
          set status = 'skipped', finished_at = now(), error_code = 'budget',
              error_message = format('Skipped: budget mode strict, and %s/%s has no price or no output estimate. Set a price in Settings -> Prices, or maxTokens.', col.provider, col.model)
         from run_columns col
        where col.id = c.column_id and c.run_id = $1 and col.estimated_cost_per_cell is null`,
      [runId],
    );
  }
  if (run.rowCount === 0) {
    await tx.query("update runs set status = 'completed', started_at = now(), finished_at = now() where id = $1", [runId]);
  }
  return runId;
}
