import type { Queryable } from "../database";

/** A model a user names in their registry, with the label the picker shows. */
export interface ModelEntry {
  provider: string;
  model: string;
  label: string;
}

/**
 * Adds models to the calling user's registry, leaving any already there as they are. Answers how
 * many were new: 0 when every one was there (or another transaction added them first).
 */
export async function insertModels(tx: Queryable, { models }: { models: ModelEntry[] }): Promise<number> {
  if (models.length === 0) return 0;
  const { rowCount } = await tx.query(
    `insert into models (provider, model, label)
     select * from unnest($1::text[], $2::text[], $3::text[])
     on conflict (user_id, provider, model) do nothing`,
    [models.map((entry) => entry.provider), models.map((entry) => entry.model), models.map((entry) => entry.label)],
  );
  return rowCount;
}
