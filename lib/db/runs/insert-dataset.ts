import type { Queryable } from "../database";

/**
 * Inserts a dataset and all its rows (one statement for the rows) as the calling user.
 * Values must already be strings. Returns the dataset id.
 */
export async function insertDataset(
  tx: Queryable,
  input: { name: string; source: "upload" | "manual" | "inline" | "experiment" | "eval" | "batch"; headers: string[]; rows: Array<Record<string, string>> },
): Promise<string> {
  const { rows } = await tx.query<{ id: string }>(
    "insert into datasets (name, source, headers, row_count) values ($1, $2, $3, $4) returning id",
    [input.name, input.source, input.headers, input.rows.length],
  );
  const datasetId = rows[0].id;
  await tx.query(
    `insert into dataset_rows (dataset_id, row_index, data)
     select $1, e.ordinality - 1, e.value from jsonb_array_elements($2::jsonb) with ordinality as e(value, ordinality)`,
    [datasetId, JSON.stringify(input.rows)],
  );
  return datasetId;
}

/** All rows of a dataset in order. */
export async function listDatasetRows(tx: Queryable, { datasetId }: { datasetId: string }): Promise<Array<Record<string, string>>> {
  const { rows } = await tx.query<{ data: Record<string, string> }>(
    "select data from dataset_rows where dataset_id = $1 order by row_index",
    [datasetId],
  );
  return rows.map((row) => row.data);
}
