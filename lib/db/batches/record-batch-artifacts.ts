import type { Database } from "../database";
import type { BatchArtifacts } from "./batch-config";

/**
 * Records a job's files on its cell while this claim of it still holds it (status running, the
 * attempt it was claimed with), before the worker saves the cell as done: a worker killed after
 * this leaves the files known, and the next claim reuses them instead of calling again. False
 * when the claim was lost (the lease expired and another worker took the cell).
 */
export async function recordBatchArtifacts(
  db: Database,
  { cellId, attempts, artifacts }: { cellId: string; attempts: number; artifacts: BatchArtifacts },
): Promise<boolean> {
  const { rowCount } = await db.query("update run_cells set artifacts = $3::jsonb where id = $1 and status = 'running' and attempts = $2", [
    cellId,
    attempts,
    JSON.stringify(artifacts),
  ]);
  return rowCount > 0;
}

/** The artifacts a cell has recorded (by an earlier claim of it), or null. */
export async function readBatchArtifacts(db: Database, { cellId }: { cellId: string }): Promise<BatchArtifacts | null> {
  const { rows } = await db.query<{ artifacts: BatchArtifacts | null }>("select artifacts from run_cells where id = $1", [cellId]);
  return rows[0]?.artifacts ?? null;
}
