import type { Queryable } from "../database";
import { MATRIX_RUN_COLUMNS, toStoredMatrixRun, type StoredMatrixRun } from "./get-matrix-run";

/**
 * The calling user's matrix runs, newest first (at most limit), or only those of one batch id
 * (`20251227_143500_matrix`: the command's --resume names a batch by it). One statement.
 */
export async function listMatrixRuns(
  tx: Queryable,
  { batchId = null, limit }: { batchId?: string | null; limit: number },
): Promise<StoredMatrixRun[]> {
  const { rows } = await tx.query<Parameters<typeof toStoredMatrixRun>[0]>(
    `select ${MATRIX_RUN_COLUMNS}
       from runs r
      where r.kind = 'matrix' and ($1::text is null or r.config -> 'matrix' ->> 'batchId' = $1)
      order by r.created_at desc, r.id
      limit $2`,
    [batchId, limit],
  );
  return rows.map(toStoredMatrixRun);
}
