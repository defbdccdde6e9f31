import type { Queryable } from "../database";

/**
 * Inserts a dataset and its rows (one statement for the rows) as the calling user.
 * Values must already be strings. rowCount, when given, is the dataset's full size and the rows
 * are only its first ones: insertDatasetRows adds the rest in later transactions. Returns the id.
 */
export async function insertDataset(
  tx: Queryable,
  input: {
    name: string;
    source: "upload" | "manual" | "inline" | "experiment" | "eval" | "batch";
    headers: string[];
    rows: Array<Record<string, string>>;
    rowCount?: number;
  },
): Promise<string> {
  const { rows } = await tx.query<{ id: string }>(
    "insert into datasets (name, source, headers, row_count) values ($1, $2, $3, $4) returning id",
    [input.name, input.source, input.headers, input.rowCount ?? input.rows.length],
  );
  const datasetId = rows[0].id;
  await insertDatasetRows(tx, { datasetId, offset: 0, rows: input.rows });
  return datasetId;
}

/**
 * Inserts rows of a dataset as rows offset, offset + 1, ... (one statement) as the calling user:
 * a dataset's string values, or a matrix's or an eval's rows (any JSON values).
 * Each row's id is the statement's prefix and the row's number in it, and its user the caller,
 * both drawn once (as a run's cells are, insert-run-cells.ts) rather than by each row's defaults:
 * 25,000 rows of a large run went in in ~345 ms instead of ~475 on PGlite (bench/README.md,
 * "Creating a large run's cells without their first entry in the index of changes").
 */
export async function insertDatasetRows(
  tx: Queryable,
  { datasetId, offset, rows }: { datasetId: string; offset: number; rows: readonly unknown[] },
): Promise<void> {
  if (rows.length === 0) return;
  await tx.query(
    `with ids as materialized (select parallaxr_uuid7_prefix() as prefix, auth.uid() as user_id)
     insert into dataset_rows (id, user_id, dataset_id, row_index, data)
     select (ids.prefix || lpad(to_hex(e.ordinality - 1), 8, '0'))::uuid, ids.user_id, $1, $3::int + e.ordinality - 1, e.value
       from ids cross join jsonb_array_elements($2::jsonb) with ordinality as e(value, ordinality)`,
    [datasetId, JSON.stringify(rows), offset],
  );
}

/** All rows of a dataset in order, or only those at rowIndexes (in the order of rowIndexes). */
export async function listDatasetRows(
  tx: Queryable,
  { datasetId, rowIndexes }: { datasetId: string; rowIndexes?: number[] },
): Promise<Array<Record<string, string>>> {
  if (rowIndexes) {
    const { rows } = await tx.query<{ data: Record<string, string> }>(
      `select d.data from unnest($2::int[]) with ordinality as i(row_index, position)
         join dataset_rows d on d.dataset_id = $1 and d.row_index = i.row_index order by i.position`,
      [datasetId, rowIndexes],
    );
    return rows.map((row) => row.data);
  }
  const { rows } = await tx.query<{ data: Record<string, string> }>(
    "select data from dataset_rows where dataset_id = $1 order by row_index",
    [datasetId],
  );
  return rows.map((row) => row.data);
}
