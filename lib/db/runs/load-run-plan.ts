import type { Price } from "@/lib/core/cost";
import { referencePrice } from "@/lib/providers/pricing-reference";
import type { Database } from "../database";

/** What a worker needs to know about a run to execute its cells. */
export interface RunPlan {
  id: string;
  userId: string;
  promptText: string;
  maxAttempts: number;
  timeoutMs: number;
  /** The run's cap of calls in flight over all workers. */
  concurrency: number;
  /** Whether answers are taken from and stored in the response cache. */
  cache: boolean;
  /** Price of each provider/model of the run: the user's own, else the shipped reference. */
  prices: Map<string, Price | null>;
}

/** The key of a model in RunPlan.prices. */
export const priceKey = (provider: string, model: string) => `${provider}/${model}`;

/** Loads the execution settings of a run (the worker keeps them for the run's lifetime). */
export async function loadRunPlan(db: Database, { runId }: { runId: string }): Promise<RunPlan | null> {
  const { rows } = await db.query<{
    id: string; user_id: string; text: string | null; max_attempts: number; timeout_ms: number; concurrency: number;
    cache: boolean; columns: Array<{ provider: string; model: string; input: number | null; output: number | null; image: number | null; priced: boolean }>;
  }>(
    `select r.id, r.user_id, v.text, r.max_attempts, r.timeout_ms, r.concurrency,
            coalesce((r.config ->> 'cache')::boolean, true) as cache,
            (select coalesce(json_agg(json_build_object(
                      'provider', c.provider, 'model', c.model, 'priced', p.id is not null,
                      'input', p.input_per_mtok, 'output', p.output_per_mtok, 'image', p.per_image)), '[]')
               from (select distinct provider, model from run_columns where run_id = r.id) c
               left join pricing p on p.user_id = r.user_id and p.provider = c.provider and p.model = c.model) as columns
       from runs r left join prompt_versions v on v.id = r.prompt_version_id
      where r.id = $1`,
    [runId],
  );
  const row = rows[0];
  if (!row) return null;
  const prices = new Map<string, Price | null>();
  for (const column of row.columns) {
    prices.set(
      priceKey(column.provider, column.model),
      column.priced ? { inputPerMTok: column.input, outputPerMTok: column.output, perImage: column.image } : referencePrice(column.provider, column.model),
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
  };
}
