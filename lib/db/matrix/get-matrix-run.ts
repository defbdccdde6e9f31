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

/** One matrix run of the calling user's (RLS decides), or null: another user's is not there. */
export async function getMatrixRun(tx: Queryable, { id }: { id: string }): Promise<StoredMatrixRun | null> {
  const { rows } = await tx.query<{
    id: string;
    status: StoredMatrixRun["status"];
    plan: MatrixPlan;
    cells: number;
    counts: StoredMatrixRun["counts"];
    created_at: Date | string;
    started_at: Date | string | null;
    finished_at: Date | string | null;
  }>(
    `select r.id, r.status, r.config -> 'matrix' as plan, r.created_at, r.started_at, r.finished_at,
            (select count(*)::int from run_cells c where c.run_id = r.id) as cells,
            (select json_build_object(
                      'pending', count(*) filter (where c.status in ('queued', 'running')),
                      'ok', count(*) filter (where c.status = 'ok'),
                      'warning', count(*) filter (where c.status = 'warning'),
                      'error', count(*) filter (where c.status not in ('queued', 'running', 'ok', 'warning')))
               from run_cells c where c.run_id = r.id) as counts
       from runs r where r.kind = 'matrix' and r.id = $1`,
    [id],
  );
  const row = rows[0];
  if (!row) return null;
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

function iso(value: Date | string): string {
  return new Date(value).toISOString();
}
