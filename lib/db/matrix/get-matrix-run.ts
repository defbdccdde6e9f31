import type { Queryable } from "../database";
import type { MatrixPlan } from "./matrix-plan";

/** A matrix run as stored: its plan, status, progress and times. */
export interface StoredMatrixRun {
  id: string;
  status: "planned" | "queued" | "running" | "paused" | "completed" | "cancelled" | "failed";
  plan: MatrixPlan;
  cells: number;
  counts: { pending: number; ok: number; warning: number; error: number };
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

type StoredRow = {
  id: string;
  status: StoredMatrixRun["status"];
  plan: MatrixPlan;
  cells: number;
  counts: StoredMatrixRun["counts"];
  created_at: Date | string;
  started_at: Date | string | null;
  finished_at: Date | string | null;
};

/**
 * A matrix run's columns with its cell counts, for the runs a caller's where clause picks (RLS
 * decides whose: another user's are not there). One statement however many runs it answers.
 */
export const MATRIX_RUN_COLUMNS = `r.id, r.status, r.config -> 'matrix' as plan, r.created_at, r.started_at, r.finished_at,
            (select count(*)::int from run_cells c where c.run_id = r.id) as cells,
            (select json_build_object(
                      'pending', count(*) filter (where c.status in ('queued', 'running')),
                      'ok', count(*) filter (where c.status = 'ok'),
                      'warning', count(*) filter (where c.status = 'warning'),
                      'error', count(*) filter (where c.status not in ('queued', 'running', 'ok', 'warning')))
               from run_cells c where c.run_id = r.id) as counts`;

/** A row of MATRIX_RUN_COLUMNS as a StoredMatrixRun. */
export function toStoredMatrixRun(row: StoredRow): StoredMatrixRun {
  return {
    id: row.id,
    status: row.status,
    plan: row.plan,
    cells: row.cells,
    counts: row.counts,
    createdAt: iso(row.created_at),
    startedAt: row.started_at === null ? null : iso(row.started_at),
    finishedAt: row.finished_at === null ? null : iso(row.finished_at),
  };
}

/** One matrix run of the calling user's (RLS decides), or null: another user's is not there. */
export async function getMatrixRun(tx: Queryable, { id }: { id: string }): Promise<StoredMatrixRun | null> {
  const { rows } = await tx.query<StoredRow>(`select ${MATRIX_RUN_COLUMNS} from runs r where r.kind = 'matrix' and r.id = $1`, [id]);
  return rows[0] ? toStoredMatrixRun(rows[0]) : null;
}

function iso(value: Date | string): string {
  return new Date(value).toISOString();
}
