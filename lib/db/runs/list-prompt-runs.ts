import type { PromptRunHistoryEntry } from "@/lib/api/types";
import { averageGrade } from "@/lib/core/grade-average";
import type { Queryable } from "../database";

/** A model column as the history query reads it, before its grades are averaged. */
type ColumnRow = Omit<PromptRunHistoryEntry["models"][number], "averageGrade" | "gradedCells"> & {
  gradeGroups: Array<{ status: string; byHand: boolean; cells: number; gradeSum: number | null; gradedCells: number }> | null;
};

/**
 * The caller's runs of a prompt, newest first, with per-model averages. Cells are summed per
 * status and hand grade in SQL (a few groups per column, whatever the run's size) and averaged by
 * averageGrade, the rule the grid uses, so the history and the grid never disagree. Costs count
 * the generator's and the grader's calls, with the grader's part apart. Each run's version comes
 * with the prompt's name it ran under and the date that version first ran.
 */
export async function listPromptRuns(
  tx: Queryable,
  { promptId, limit = 50 }: { promptId: string; limit?: number },
): Promise<PromptRunHistoryEntry[]> {
  const { rows } = await tx.query<{
    id: string;
    status: string;
    version: number | null;
    version_name: string | null;
    version_since: Date | null;
    prompt_version_id: string | null;
    created_at: Date;
    row_count: number;
    has_grader: boolean;
    grader_name: string | null;
    grader_model: { provider: string; model: string } | null;
    models: ColumnRow[] | null;
  }>(
    `select r.id, r.status, v.version, v.name as version_name, r.prompt_version_id, r.created_at, r.row_count,
            -- when this name, number and text first ran: each run snapshots its own version row,
            -- and after a rename two texts share "v1" (prompt_versions_prompt_idx serves this)
            (select min(first.created_at) from prompt_versions first
              where first.prompt_id = v.prompt_id and first.version = v.version
                and first.name = v.name and first.text_hash = v.text_hash) as version_since,
            r.grader_version_id is not null as has_grader, gv.name as grader_name,
            case when r.grader_version_id is not null then r.config -> 'graderModel' end as grader_model,
            (select json_agg(json_build_object(
                      'column', col.column_index, 'provider', col.provider, 'model', col.model,
                      'gradeGroups', g.groups, 'averageLatencyMs', s.average_latency,
                      'totalCostUsd', s.total_cost, 'graderCostUsd', s.grader_cost) order by col.column_index)
               from run_columns col
               cross join lateral (
                 select round(avg(c.latency_ms))::int as average_latency,
                        case when count(c.cost_usd) + count(c.grader_cost_usd) > 0
                             then coalesce(sum(c.cost_usd), 0) + coalesce(sum(c.grader_cost_usd), 0) end as total_cost,
                        sum(c.grader_cost_usd) as grader_cost
                   from run_cells c where c.column_id = col.id) s
               cross join lateral (
                 select json_agg(json_build_object('status', x.status, 'byHand', x.by_hand, 'cells', x.cells,
                                                   'gradeSum', x.grade_sum, 'gradedCells', x.graded)) as groups
                   from (select c.status, c.manual_grade is not null as by_hand, count(*)::int as cells,
                                sum(coalesce(c.manual_grade, c.grade)) as grade_sum,
                                count(coalesce(c.manual_grade, c.grade))::int as graded
                           from run_cells c where c.column_id = col.id
                          group by c.status, c.manual_grade is not null) x) g
              where col.run_id = r.id) as models
       from runs r left join prompt_versions v on v.id = r.prompt_version_id
            left join prompt_versions gv on gv.id = r.grader_version_id
      where r.prompt_id = $1
      order by r.created_at desc
      limit $2`,
    [promptId, limit],
  );
  return rows.map((row) => ({
    id: row.id,
    status: row.status,
    version: row.version,
    versionName: row.version_name,
    versionSince: row.version_since ? new Date(row.version_since).toISOString() : null,
    promptVersionId: row.prompt_version_id,
    createdAt: new Date(row.created_at).toISOString(),
    rowCount: row.row_count,
    graderName: row.has_grader ? (row.grader_name ?? "Grader") : null,
    graderModel: row.grader_model,
    models: (row.models ?? []).map(({ gradeGroups, ...column }) => {
      const grades = averageGrade(
        (gradeGroups ?? []).map((group) => ({ ...group, gradeSum: Number(group.gradeSum ?? 0) })),
        { graderGrades: row.has_grader },
      );
      return { ...column, averageGrade: grades.average, gradedCells: grades.counted };
    }),
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
