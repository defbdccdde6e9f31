import type { UserPrice } from "@/lib/api/responses";
import type { Price } from "@/lib/core/cost";
import type { Queryable } from "../database";

/** A price the user set, per million tokens (and per image): the shape GET /api/v1/prices answers. */
export type PriceRow = UserPrice;

/** A model's price as the pricing table has it. */
interface PriceColumns {
  provider: string;
  model: string;
  input_per_mtok: number | null;
  output_per_mtok: number | null;
  per_image: number | null;
}

/** The caller's own prices (not the ones fetched from a vendor's list). */
export async function listUserPrices(tx: Queryable): Promise<PriceRow[]> {
  const { rows } = await tx.query<PriceColumns & { checked_at: Date | null; source: string }>(
    "select provider, model, input_per_mtok, output_per_mtok, per_image, checked_at, source from pricing where source = 'user' order by provider, model",
  );
  return rows.map((row) => ({
    provider: row.provider,
    model: row.model,
    inputPerMTok: row.input_per_mtok,
    outputPerMTok: row.output_per_mtok,
    perImage: row.per_image,
    checkedAt: row.checked_at ? new Date(row.checked_at).toISOString().slice(0, 10) : null,
    source: row.source,
  }));
}

/** Sets the caller's price of a model (replacing any). */
export async function upsertUserPrice(
  tx: Queryable,
  price: Omit<PriceRow, "source" | "checkedAt"> & { checkedAt?: string | null },
): Promise<void> {
  await tx.query(
    `insert into pricing (provider, model, input_per_mtok, output_per_mtok, per_image, checked_at, source)
     values ($1, $2, $3, $4, $5, coalesce($6::date, current_date), 'user')
     on conflict (user_id, provider, model) do update
        set input_per_mtok = excluded.input_per_mtok, output_per_mtok = excluded.output_per_mtok,
            per_image = excluded.per_image, checked_at = excluded.checked_at, source = 'user', updated_at = now()`,
    [price.provider, price.model, price.inputPerMTok, price.outputPerMTok, price.perImage, price.checkedAt ?? null],
  );
}

/** Removes the caller's price of a model (the reference price, if any, applies again). */
export async function deleteUserPrice(tx: Queryable, { provider, model }: { provider: string; model: string }): Promise<boolean> {
  return (await tx.query("delete from pricing where provider = $1 and model = $2", [provider, model])).rowCount > 0;
}

/** What a plan reads of one model: the caller's price, and the mean output of its recent answers when asked for. */
export interface ModelHistory {
  price: Price | null;
  /** Null when not asked for, or when the model has no recent answers. */
  averageOutputTokens: number | null;
}

/**
 * How many of the latest columns of a model the output estimate reads, at most how many answers of
 * each, and at most how many of each column's cells it looks at to find them.
 */
export const OUTPUT_HISTORY = { columns: 20, cellsPerColumn: 50, cellsLookedAt: 500 };

/**
 * The caller's price of each model, and for those with `history` the mean output tokens of the
 * caller's recent answered (not cached) cells of the model, in one statement: on PGlite each
 * statement costs ~0.5-1 ms before it reads a row, and a plan of 4 models asked 8 of them.
 *
 * Recent: up to OUTPUT_HISTORY.cellsPerColumn answers among the first OUTPUT_HISTORY.cellsLookedAt
 * cells (by row) of each of the model's latest OUTPUT_HISTORY.columns columns (by their run's
 * creation), of the run's first prompt (variant 0: every kind of run has one). Averaging over
 * every cell ever answered read the whole cells table each time. Each column's cells are read in
 * the order of the run's grid key (run, variant, column, row), so a column is found without
 * reading its run's other cells, and looking at a bounded number of them keeps a column of few
 * answers (a large run cancelled early) from being read whole: 100,000 such cells made each new
 * run's plan ~0.5 s slower on PGlite. The latest runs also say more about the answers of the
 * prompts written now.
 */
export async function readModelHistories(
  tx: Queryable,
  models: ReadonlyArray<{ provider: string; model: string; history: boolean }>,
): Promise<Map<string, ModelHistory>> {
  const histories = new Map<string, ModelHistory>();
  if (models.length === 0) return histories;
  const { rows } = await tx.query<PriceColumns & { priced: boolean; average: number | null }>(
    `select m.provider, m.model, price.input_per_mtok, price.output_per_mtok, price.per_image, price.provider is not null as priced,
            case when m.history then (
              select avg(answered.tokens_out)::double precision
                from (select col.run_id, col.column_index
                        from run_columns col join runs r on r.id = col.run_id
                       where col.provider = m.provider and col.model = m.model
                       order by r.created_at desc limit $4) recent
                cross join lateral (
                      select seen.tokens_out
                        from (select c.status, c.cached, c.tokens_out
                                from run_cells c
                               where c.run_id = recent.run_id and c.variant = 0 and c.column_index = recent.column_index
                               order by c.row_index, c.trial
                               limit $6) seen
                       where seen.status in ('ok', 'warning', 'malformed') and not seen.cached and seen.tokens_out is not null
                       limit $5) answered
            ) end as average
       from unnest($1::text[], $2::text[], $3::boolean[]) as m(provider, model, history)
       left join lateral (select p.provider, p.input_per_mtok, p.output_per_mtok, p.per_image
                            from pricing p where p.provider = m.provider and p.model = m.model limit 1) price on true`,
    [
      models.map((entry) => entry.provider),
      models.map((entry) => entry.model),
      models.map((entry) => entry.history),
      OUTPUT_HISTORY.columns,
      OUTPUT_HISTORY.cellsPerColumn,
      OUTPUT_HISTORY.cellsLookedAt,
    ],
  );
  for (const row of rows) {
    const key = modelKey(row);
    const known = histories.get(key);
    histories.set(key, {
      price:
        known?.price ??
        (row.priced ? { inputPerMTok: row.input_per_mtok, outputPerMTok: row.output_per_mtok, perImage: row.per_image } : null),
      averageOutputTokens: known?.averageOutputTokens ?? row.average,
    });
  }
  return histories;
}

/** The key of a model in readModelHistories' answer. */
export function modelKey({ provider, model }: { provider: string; model: string }): string {
  return `${provider}\u0000${model}`;
}

/** The mean output tokens of the caller's recent answers of a model, or null (see readModelHistories). */
export async function averageOutputTokens(tx: Queryable, model: { provider: string; model: string }): Promise<number | null> {
  return (await readModelHistories(tx, [{ ...model, history: true }])).get(modelKey(model))?.averageOutputTokens ?? null;
}

/**
 * Records prices a vendor lists (OpenRouter's models list) for the caller, dated today, so runs
 * are priced by them; a price the user set themselves is never replaced.
 */
export async function recordFetchedPrices(
  tx: Queryable,
  {
    source,
    prices,
  }: { source: string; prices: Array<{ provider: string; model: string; inputPerMTok: number | null; outputPerMTok: number | null }> },
): Promise<void> {
  if (prices.length === 0) return;
  await tx.query(
    `insert into pricing (provider, model, input_per_mtok, output_per_mtok, checked_at, source)
     select p.provider, p.model, p.input, p.output, current_date, $2
       from jsonb_to_recordset($1::jsonb) as p(provider text, model text, input double precision, output double precision)
     on conflict (user_id, provider, model) do update
        set input_per_mtok = excluded.input_per_mtok, output_per_mtok = excluded.output_per_mtok,
            checked_at = excluded.checked_at, source = excluded.source, updated_at = now()
      where pricing.source <> 'user'`,
    [
      JSON.stringify(
        prices.map((price) => ({ provider: price.provider, model: price.model, input: price.inputPerMTok, output: price.outputPerMTok })),
      ),
      source,
    ],
  );
}

/** Every price row of the caller (their own and fetched ones), keyed provider/model. */
export async function priceBook(tx: Queryable): Promise<Map<string, Price>> {
  const { rows } = await tx.query<{
    provider: string;
    model: string;
    input_per_mtok: number | null;
    output_per_mtok: number | null;
    per_image: number | null;
  }>("select provider, model, input_per_mtok, output_per_mtok, per_image from pricing");
  return new Map(
    rows.map((row) => [
      `${row.provider}/${row.model}`,
      { inputPerMTok: row.input_per_mtok, outputPerMTok: row.output_per_mtok, perImage: row.per_image },
    ]),
  );
}
