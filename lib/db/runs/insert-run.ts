import type { RunPlanEstimate } from "@/lib/api/responses";
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
  /** The plan the run was created with, kept in its config: a page reloaded during the run shows it again. */
  plan?: RunPlanEstimate;
  /** Settings of the run's kind, kept in its config beside the cache flag (an experiment's files and header). */
  kindConfig?: Record<string, unknown>;
}

/**
 * Inserts the run and its columns as the calling user, in status 'planned': workers claim only
 * from queued and running runs (parallaxr_claim_cells), so none takes a cell of it until
 * queuePlannedRun. Its cells follow with insertRunCells. Returns the run id.
 */
export async function insertRun(tx: Queryable, run: NewRun): Promise<string> {
  const { rows } = await tx.query<{ id: string }>(
    `insert into runs (kind, prompt_id, prompt_version_id, dataset_id, row_count, trials, concurrency,
                       provider_concurrency, max_attempts, timeout_ms, config, budget_usd, budget_mode,
                       grader_prompt_id, grader_version_id, status)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, 'planned')
     returning id`,
    [
      run.kind,
      run.promptId,
      run.promptVersionId,
      run.datasetId,
      run.rowCount,
      run.trials,
      run.concurrency,
      JSON.stringify(run.providerConcurrency),
      run.maxAttempts,
      run.timeoutMs,
      JSON.stringify({
        ...run.kindConfig,
        cache: run.cache,
        ...(run.graderModel ? { graderModel: run.graderModel } : {}),
        ...(run.plan ? { plan: run.plan } : {}),
      }),
      run.budgetUsd,
      run.budgetMode,
      run.graderPromptId,
      run.graderVersionId,
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
  return runId;
}
