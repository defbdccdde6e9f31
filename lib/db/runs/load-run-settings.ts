import type { Price } from "@/lib/core/cost";
import type { Database } from "../database";
import type { EvalPlan } from "../evals/eval-plan";

/** What a worker needs to know about a run to execute its cells. */
export interface RunSettings {
  id: string;
  userId: string;
  promptText: string;
  maxAttempts: number;
  timeoutMs: number;
  /** The run's cap of calls in flight over all workers. */
  concurrency: number;
  /** Whether answers are taken from and stored in the response cache. */
  cache: boolean;
  /** Price of each provider/model of the run: the user's own, else the fallback's. */
  prices: Map<string, Price | null>;
  /** The grader prompt's text, when the run has a grader. */
  graderText: string | null;
  /** The model that grades; null: each column's own model grades its cells. */
  graderModel: { provider: string; model: string } | null;
  /** What kind of run this is: an experiment's cells follow the experiments spec's rules (execute-cell.ts). */
  kind: "workbench" | "experiment" | "eval" | "matrix" | "batch";
  /** An experiment's CSV header, in order: its rows' variables are read in this order. */
  experimentColumns: string[] | null;
  /** An eval's checked config (runs.config.eval): its prompts, metrics and judges. */
  evalPlan?: EvalPlan | null;
}

/** The key of a model in RunSettings.prices. */
export const priceKey = (provider: string, model: string) => `${provider}/${model}`;

/**
 * Loads the execution settings of a run (the worker keeps them for the run's lifetime). The worker
 * reads past RLS, so the prompt and grader versions are read only when they are the run owner's
 * (0009_ownership_checks.sql refuses other runs; older rows may still name another user's).
 * priceOf decides each column's price from the one stored for the user (null when none): which
 * price applies then (the shipped reference) is the engine's policy, not the database's.
 */
export async function loadRunSettings(
  db: Database,
  { runId, priceOf }: { runId: string; priceOf: (column: { provider: string; model: string; stored: Price | null }) => Price | null },
): Promise<RunSettings | null> {
  const { rows } = await db.query<{
    id: string;
    user_id: string;
    text: string | null;
    max_attempts: number;
    timeout_ms: number;
    concurrency: number;
    cache: boolean;
    grader_text: string | null;
    grader_model: { provider: string; model: string } | null;
    kind: RunSettings["kind"];
    experiment_columns: string[] | null;
    eval_plan: EvalPlan | null;
    columns: Array<{ provider: string; model: string; input: number | null; output: number | null; image: number | null; priced: boolean }>;
  }>(
    `select r.id, r.user_id, v.text, r.max_attempts, r.timeout_ms, r.concurrency,
            coalesce((r.config ->> 'cache')::boolean, true) as cache,
            g.text as grader_text, r.config -> 'graderModel' as grader_model,
            r.kind, r.config -> 'experiment' -> 'columns' as experiment_columns,
            r.config -> 'eval' as eval_plan,
            (select coalesce(json_agg(json_build_object(
                      'provider', c.provider, 'model', c.model, 'priced', p.id is not null,
                      'input', p.input_per_mtok, 'output', p.output_per_mtok, 'image', p.per_image)), '[]')
               from (select provider, model from run_columns where run_id = r.id
                     union select r.config -> 'graderModel' ->> 'provider', r.config -> 'graderModel' ->> 'model'
                      where r.config ? 'graderModel'
                     union select j.value ->> 'provider', j.value ->> 'model'
                       from jsonb_each(coalesce(r.config -> 'eval' -> 'judges', '{}')) j) c
               left join pricing p on p.user_id = r.user_id and p.provider = c.provider and p.model = c.model) as columns
       from runs r left join prompt_versions v on v.id = r.prompt_version_id and v.user_id = r.user_id
                   left join prompt_versions g on g.id = r.grader_version_id and g.user_id = r.user_id
      where r.id = $1`,
    [runId],
  );
  const row = rows[0];
  if (!row) return null;
  const prices = new Map<string, Price | null>();
  for (const column of row.columns) {
    prices.set(
      priceKey(column.provider, column.model),
      priceOf({
        provider: column.provider,
        model: column.model,
        stored: column.priced ? { inputPerMTok: column.input, outputPerMTok: column.output, perImage: column.image } : null,
      }),
    );
  }
  return {
    id: row.id,
    userId: row.user_id,
    promptText: row.text ?? "",
    maxAttempts: row.max_attempts,
    timeoutMs: row.timeout_ms,
    concurrency: row.concurrency,
    cache: row.cache,
    prices,
    graderText: row.grader_text,
    graderModel: row.grader_model,
    kind: row.kind,
    experimentColumns: row.experiment_columns,
    evalPlan: row.eval_plan,
  };
}
