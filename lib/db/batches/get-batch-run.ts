import type { Queryable } from "../database";
import type { BatchConfig } from "./batch-config";

/** A batch run as stored: its config, status, budget and times. */
export interface StoredBatchRun {
  id: string;
  userId: string;
  status: "planned" | "queued" | "running" | "paused" | "completed" | "cancelled" | "failed";
  config: BatchConfig;
  datasetId: string;
  budgetUsd: number | null;
  budgetMode: "estimate" | "strict" | "off";
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

type Row = {
  id: string;
  user_id: string;
  status: StoredBatchRun["status"];
  config: BatchConfig;
  dataset_id: string;
  budget_usd: number | null;
  budget_mode: StoredBatchRun["budgetMode"];
  created_at: Date | string;
  started_at: Date | string | null;
  finished_at: Date | string | null;
};

const COLUMNS = `r.id, r.user_id, r.status, r.config -> 'batch' as config, r.dataset_id, r.budget_usd, r.budget_mode,
                 r.created_at, r.started_at, r.finished_at`;

function toStored(row: Row): StoredBatchRun {
  const date = (value: Date | string | null) => (value === null ? null : new Date(value));
  return {
    id: row.id,
    userId: row.user_id,
    status: row.status,
    config: row.config,
    datasetId: row.dataset_id,
    budgetUsd: row.budget_usd,
    budgetMode: row.budget_mode,
    createdAt: new Date(row.created_at),
    startedAt: date(row.started_at),
    finishedAt: date(row.finished_at),
  };
}

/**
 * One batch run, or null. Under asUser RLS decides (another user's run is not there); the worker
 * reads past RLS, and the run it asks for is one whose cell it holds.
 */
export async function getBatchRun(tx: Queryable, { id }: { id: string }): Promise<StoredBatchRun | null> {
  const { rows } = await tx.query<Row>(`select ${COLUMNS} from runs r where r.kind = 'batch' and r.id = $1`, [id]);
  return rows[0] ? toStored(rows[0]) : null;
}

/** The newest batch run of the calling user recorded for a run folder (its absolute path), or null. */
export async function findBatchRunByFolder(
  tx: Queryable,
  { userId, outDir }: { userId: string; outDir: string },
): Promise<StoredBatchRun | null> {
  const { rows } = await tx.query<Row>(
    `select ${COLUMNS} from runs r
      where r.kind = 'batch' and r.user_id = $1 and r.config -> 'batch' ->> 'outDir' = $2
      order by r.created_at desc limit 1`,
    [userId, outDir],
  );
  return rows[0] ? toStored(rows[0]) : null;
}

/** The calling user's batch runs, newest first (RLS decides whose). */
export async function listBatchRuns(tx: Queryable, { limit }: { limit: number }): Promise<StoredBatchRun[]> {
  const { rows } = await tx.query<Row>(`select ${COLUMNS} from runs r where r.kind = 'batch' order by r.created_at desc limit $1`, [limit]);
  return rows.map(toStored);
}
