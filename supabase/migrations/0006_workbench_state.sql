-- What each user's workbench is set up with: the prompt in the editor, the active dataset, the
-- grader and the model columns. One row per user, so a reload (or another browser) opens the
-- same setup; only UI preferences (the view mode) live in the browser.
-- The ids are not foreign keys: a foreign key check reads past RLS and would tell a user whether
-- another user's prompt exists. The API writes only ids the caller can see, and readers drop ids
-- whose rows have since been deleted.
create table workbench_state (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() unique,
  active_prompt_id uuid,
  dataset_id uuid,
  grader_prompt_id uuid,
  columns jsonb not null default '[]' check (jsonb_typeof(columns) = 'array'),
  updated_at timestamptz not null default now()
);

alter table workbench_state enable row level security;
create policy workbench_state_select_own on workbench_state for select to authenticated using (user_id = (select auth.uid()));
create policy workbench_state_insert_own on workbench_state for insert to authenticated with check (user_id = (select auth.uid()));
create policy workbench_state_update_own on workbench_state for update to authenticated using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));
create policy workbench_state_delete_own on workbench_state for delete to authenticated using (user_id = (select auth.uid()));
grant select, insert, update, delete on workbench_state to authenticated;
