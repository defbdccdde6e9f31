import type { Queryable } from "../database";

/** A model column as the workbench keeps it between visits. */
export interface SavedColumn {
  provider: string;
  model: string;
  params: Record<string, unknown>;
}

/** The caller's workbench setup. */
export interface WorkbenchState {
  activePromptId: string | null;
  datasetId: string | null;
  graderPromptId: string | null;
  columns: SavedColumn[];
  /** The newest workbench run of the active prompt, which the page reopens on `/`; read, never written. */
  latestRunId: string | null;
}

/** The parts of the setup a person changes. */
export type WorkbenchChange = Partial<Omit<WorkbenchState, "latestRunId">>;

const EMPTY: WorkbenchState = { activePromptId: null, datasetId: null, graderPromptId: null, columns: [], latestRunId: null };

/**
 * The caller's setup. Ids whose prompt or dataset is gone (deleted, or never the caller's: RLS
 * hides those) read as null, so the browser never opens something it cannot load. The latest run
 * is found through runs_user_idx (RLS narrows to the caller, newest first), so no index on
 * prompt_id is needed for it.
 */
export async function getWorkbenchState(tx: Queryable): Promise<WorkbenchState> {
  const { rows } = await tx.query<WorkbenchState>(
    `select (select p.id from prompts p where p.id = s.active_prompt_id) as "activePromptId",
            (select d.id from datasets d where d.id = s.dataset_id) as "datasetId",
            (select g.id from prompts g where g.id = s.grader_prompt_id and g.type = 'grader') as "graderPromptId",
            s.columns,
            (select r.id from runs r
              where r.prompt_id = s.active_prompt_id and r.kind = 'workbench'
              order by r.created_at desc, r.id desc limit 1) as "latestRunId"
       from workbench_state s`,
  );
  return rows[0] ?? EMPTY;
}

/** Which of these ids name rows the caller can see: prompts, datasets, grader prompts. */
async function findInvisible(tx: Queryable, change: WorkbenchChange): Promise<string | null> {
  const checks: Array<[string | null | undefined, string, string]> = [
    [change.activePromptId, "select 1 from prompts where id = $1", "activePromptId"],
    [change.datasetId, "select 1 from datasets where id = $1", "datasetId"],
    [change.graderPromptId, "select 1 from prompts where id = $1 and type = 'grader'", "graderPromptId"],
  ];
  for (const [id, sql, field] of checks) {
    if (id && (await tx.query(sql, [id])).rows.length === 0) return field;
  }
  return null;
}

/**
 * Changes part of the caller's setup (fields left out keep their value) and returns all of it.
 * Returns the name of the field whose id the caller cannot see instead, without writing.
 */
export async function updateWorkbenchState(
  tx: Queryable,
  change: WorkbenchChange,
): Promise<{ state: WorkbenchState } | { invisible: string }> {
  const invisible = await findInvisible(tx, change);
  if (invisible) return { invisible };
  const has = (key: keyof WorkbenchChange) => change[key] !== undefined;
  await tx.query(
    `insert into workbench_state (active_prompt_id, dataset_id, grader_prompt_id, columns)
     values ($1, $2, $3, coalesce($4::jsonb, '[]'))
     on conflict (user_id) do update set
       active_prompt_id = case when $5 then excluded.active_prompt_id else workbench_state.active_prompt_id end,
       dataset_id = case when $6 then excluded.dataset_id else workbench_state.dataset_id end,
       grader_prompt_id = case when $7 then excluded.grader_prompt_id else workbench_state.grader_prompt_id end,
       columns = case when $8 then excluded.columns else workbench_state.columns end,
       updated_at = now()`,
    [
      change.activePromptId ?? null,
      change.datasetId ?? null,
      change.graderPromptId ?? null,
      change.columns ? JSON.stringify(change.columns) : null,
      has("activePromptId"),
      has("datasetId"),
      has("graderPromptId"),
      has("columns"),
    ],
  );
  return { state: await getWorkbenchState(tx) };
}
