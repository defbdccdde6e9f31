import type { Queryable } from "../database";
import { insertDatasetRows } from "../runs/insert-dataset";
import type { EvalTestCaseRow } from "./eval-plan";

/**
 * Inserts an eval's test cases as a dataset of the calling user (source 'eval', kept out of the
 * datasets list), one row per test case in config order, each row the case and its rendered
 * inputs. Two statements however many cases there are. Returns the dataset's id.
 */
export async function insertEvalTestCases(
  tx: Queryable,
  { name, testCases }: { name: string; testCases: EvalTestCaseRow[] },
): Promise<string> {
  const { rows } = await tx.query<{ id: string }>(
    "insert into datasets (name, source, headers, row_count) values ($1, 'eval', $2, $3) returning id",
    [name, ["name"], testCases.length],
  );
  const datasetId = rows[0].id;
  await insertDatasetRows(tx, { datasetId, offset: 0, rows: testCases });
  return datasetId;
}
