import type { PromptRunHistoryEntry } from "@/lib/api/types";
import type { Queryable } from "../database";

/** The caller's runs of a prompt, newest first, with per-model averages (manual grades first). */
export async function listPromptRuns(
  tx: Queryable,
  { promptId, limit = 50 }: { promptId: string; limit?: number },
): Promise<PromptRunHistoryEntry[]> {
  const { rows } = await tx.query<{
    id: string;
    status: string;
    version: number | null;
    prompt_version_id: string | null;
    created_at: Date;
    row_count: number;
    models: PromptRunHistoryEntry["models"] | null;
  }>(
    `select r.id, r.status, v.version, r.prompt_version_id, r.created_at, r.row_count,
            (select json_agg(json_build_object(
                      'column', col.column_index, 'provider', col.provider, 'model', col.model,
                      'averageGrade', s.average_grade, 'gradedCells', s.graded,
                      'averageLatencyMs', s.average_latency, 'totalCostUsd', s.total_cost) order by col.column_index)
               from run_columns col
               cross join lateral (
                 select avg(coalesce(c.manual_grade, c.grade)) as average_grade,
                        count(coalesce(c.manual_grade, c.grade))::int as graded,
                        round(avg(c.latency_ms))::int as average_latency,
                        sum(c.cost_usd) as total_cost
                   from run_cells c where c.column_id = col.id) s
              where col.run_id = r.id) as models
       from runs r left join prompt_versions v on v.id = r.prompt_version_id
      where r.prompt_id = $1
      order by r.created_at desc
      limit $2`,
    [promptId, limit],
  );
  return rows.map((row) => ({
    id: row.id,
    status: row.status,
    version: row.version,
    promptVersionId: row.prompt_version_id,
    createdAt: new Date(row.created_at).toISOString(),
    rowCount: row.row_count,
    models: row.models ?? [],
  }));
}

/** The text of one of the caller's prompt versions (for a diff between two runs), or null. */
export async function getPromptVersionText(
  tx: Queryable,
  { id }: { id: string },
): Promise<{ id: string; version: number; text: string } | null> {
  const { rows } = await tx.query<{ id: string; version: number; text: string }>(
    "select id, version, text from prompt_versions where id = $1",
    [id],
  );
  return rows[0] ?? null;
}
