import type { Queryable } from "../database";
import { insertDatasetRows } from "../runs/insert-dataset";
import type { MatrixInputRow } from "./matrix-plan";

/**
 * Inserts a matrix's inputs as a dataset of the calling user (source 'matrix', kept out of the
 * datasets list), one row per input in the request's order, each with its rendered prompts. Two
 * statements however many inputs there are. Returns the dataset's id.
 */
export async function insertMatrixInputs(tx: Queryable, { name, inputs }: { name: string; inputs: MatrixInputRow[] }): Promise<string> {
  const { rows } = await tx.query<{ id: string }>(
    "insert into datasets (name, source, headers, row_count) values ($1, 'matrix', $2, $3) returning id",
    [name, ["id", "title", "text"], inputs.length],
  );
  const datasetId = rows[0].id;
  await insertDatasetRows(tx, { datasetId, offset: 0, rows: inputs });
  return datasetId;
}
