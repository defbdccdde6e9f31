import type { ExperimentSummary } from "@/lib/api/experiments";
import type { Queryable } from "../database";
import type { ExperimentConfig } from "./experiment-config";

const summaryColumns = `
  r.id, r.status, r.config -> 'experiment' as experiment, r.row_count, r.created_at, r.finished_at,
  (select json_build_object(
            'pending', count(*) filter (where c.status in ('queued', 'running')),
            'ok', count(*) filter (where c.status = 'ok'),
            'warning', count(*) filter (where c.status = 'warning'),
            'error', count(*) filter (where c.status not in ('queued', 'running', 'ok', 'warning')))
     from run_cells c where c.run_id = r.id) as counts`;

type SummaryRow = {
  id: string;
  status: ExperimentSummary["status"];
  experiment: ExperimentConfig;
  row_count: number;
  created_at: Date | string;
  finished_at: Date | string | null;
  counts: ExperimentSummary["counts"];
};

/** The calling user's experiment runs, newest first, at most limit; with inputHash, only those made from the same input. */
export async function listExperiments(
  tx: Queryable,
  { limit, inputHash = null }: { limit: number; inputHash?: string | null },
): Promise<ExperimentSummary[]> {
  const { rows } = await tx.query<SummaryRow>(
    `select ${summaryColumns} from runs r
      where r.kind = 'experiment' and ($2::text is null or r.config -> 'experiment' ->> 'inputHash' = $2)
      order by r.created_at desc, r.id limit $1`,
    [limit, inputHash],
  );
  return rows.map(toSummary);
}

/** One experiment run of the calling user's, or null. */
export async function getExperimentSummary(tx: Queryable, { id }: { id: string }): Promise<ExperimentSummary | null> {
  const { rows } = await tx.query<SummaryRow>(`select ${summaryColumns} from runs r where r.kind = 'experiment' and r.id = $1`, [id]);
  return rows[0] ? toSummary(rows[0]) : null;
}

function toSummary(row: SummaryRow): ExperimentSummary {
  return {
    id: row.id,
    status: row.status,
    promptFile: row.experiment.promptFile,
    contextFiles: row.experiment.contextFiles,
    experimentsFile: row.experiment.experimentsFile,
    columns: row.experiment.columns,
    fromRow: row.experiment.fromRow ?? 1,
    inputHash: row.experiment.inputHash ?? "",
    rowCount: row.row_count,
    counts: row.counts,
    createdAt: new Date(row.created_at).toISOString(),
    finishedAt: row.finished_at === null ? null : new Date(row.finished_at).toISOString(),
  };
}
