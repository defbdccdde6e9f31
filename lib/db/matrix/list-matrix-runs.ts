import type { Queryable } from "../database";
import { getMatrixRun, type StoredMatrixRun } from "./get-matrix-run";

/**
 * The calling user's matrix runs, newest first (at most limit), or only those of one batch id
 * (`20251227_143500_matrix`: the command's --resume names a batch by it).
 */
export async function listMatrixRuns(
  tx: Queryable,
  { batchId = null, limit }: { batchId?: string | null; limit: number },
): Promise<StoredMatrixRun[]> {
  const { rows } = await tx.query<{ id: string }>(
    `select id from runs
      where kind = 'matrix' and ($1::text is null or config -> 'matrix' ->> 'batchId' = $1)
      order by created_at desc, id
      limit $2`,
    [batchId, limit],
  );
  const runs: StoredMatrixRun[] = [];
  for (const row of rows) {
    const run = await getMatrixRun(tx, { id: row.id });
    if (run) runs.push(run);
  }
  return runs;
}
