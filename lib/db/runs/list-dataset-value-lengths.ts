import type { Queryable } from "../database";

/**
 * For each row of a dataset in order, the length in characters (code points) of each named
 * variable's value, or null when the row has no value for it. The planner bounds a run from
 * these without reading, let alone rendering, the rows themselves.
 */
export async function listDatasetValueLengths(
  tx: Queryable,
  { datasetId, names }: { datasetId: string; names: string[] },
): Promise<Array<Array<number | null>>> {
  if (names.length === 0) {
    const { rows } = await tx.query<{ n: number }>("select count(*)::int as n from dataset_rows where dataset_id = $1", [datasetId]);
    return Array.from({ length: rows[0].n }, () => []);
  }
  const { rows } = await tx.query<{ lengths: Array<number | null> }>(
    `select array(select case when coalesce(jsonb_typeof(d.data -> u.name), 'null') = 'null' then null
                              else length(d.data ->> u.name) end
                    from unnest($2::text[]) with ordinality as u(name, position) order by u.position) as lengths
       from dataset_rows d where d.dataset_id = $1 order by d.row_index`,
    [datasetId, names],
  );
  return rows.map((row) => row.lengths);
}
