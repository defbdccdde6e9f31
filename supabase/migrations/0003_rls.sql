-- Row Level Security on every table: a user sees and changes only rows whose user_id is theirs.
-- One policy per operation, all written the same way; (select auth.uid()) is evaluated once per
-- statement rather than per row.
do $$
declare
  t text;
begin
  foreach t in array array[
    'prompts', 'prompt_versions', 'datasets', 'dataset_rows', 'models', 'runs', 'run_columns',
    'run_cells', 'response_cache', 'pricing', 'provider_keys', 'api_tokens', 'eval_suites'
  ] loop
    execute format('alter table %I enable row level security', t);
    execute format(
      'create policy %I on %I for select to authenticated using (user_id = (select auth.uid()))',
      t || '_select_own', t);
    execute format(
      'create policy %I on %I for insert to authenticated with check (user_id = (select auth.uid()))',
      t || '_insert_own', t);
    execute format(
      'create policy %I on %I for update to authenticated using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()))',
      t || '_update_own', t);
    execute format(
      'create policy %I on %I for delete to authenticated using (user_id = (select auth.uid()))',
      t || '_delete_own', t);
    execute format('grant select, insert, update, delete on %I to authenticated', t);
  end loop;
end
$$;

grant usage on schema public to authenticated;
grant usage, select on sequence run_cells_seq to authenticated;

-- A prompt version is immutable once written: runs point at it.
create function prompt_versions_immutable() returns trigger
language plpgsql as $$
begin
  if new.text is distinct from old.text or new.text_hash is distinct from old.text_hash
     or new.version is distinct from old.version then
    raise exception 'prompt versions are immutable' using errcode = 'check_violation';
  end if;
  return new;
end
$$;
create trigger prompt_versions_immutable before update on prompt_versions
  for each row execute function prompt_versions_immutable();

-- Children must belong to the same user as their parent, so a user cannot attach rows to
-- another user's run or dataset even by guessing its id. Checked once per statement over all the
-- rows it wrote (a 10,000-cell plan is one check, not 10,000).
create function check_same_owner() returns trigger
language plpgsql security definer set search_path = public as $$
declare
  offending text;
begin
  execute format(
    'select (w.%2$I)::text from written w join %1$I p on p.id = w.%2$I where p.user_id is distinct from w.user_id limit 1',
    tg_argv[0], tg_argv[1])
    into offending;
  if offending is not null then
    raise exception '% % does not belong to this user', tg_argv[0], offending
      using errcode = 'insufficient_privilege';
  end if;
  return null;
end
$$;
create trigger dataset_rows_owner_insert after insert on dataset_rows
  referencing new table as written for each statement execute function check_same_owner('datasets', 'dataset_id');
create trigger run_columns_owner_insert after insert on run_columns
  referencing new table as written for each statement execute function check_same_owner('runs', 'run_id');
create trigger run_cells_owner_insert after insert on run_cells
  referencing new table as written for each statement execute function check_same_owner('runs', 'run_id');

-- A child never moves to another parent or owner: the insert check above then holds for good.
-- The WHEN clause is evaluated without calling the function, so ordinary updates cost nothing.
create function forbid_reparenting() returns trigger
language plpgsql as $$
begin
  raise exception '% rows cannot move to another parent or owner', tg_table_name
    using errcode = 'insufficient_privilege';
end
$$;
create trigger dataset_rows_fixed before update on dataset_rows for each row
  when (new.dataset_id is distinct from old.dataset_id or new.user_id is distinct from old.user_id)
  execute function forbid_reparenting();
create trigger run_columns_fixed before update on run_columns for each row
  when (new.run_id is distinct from old.run_id or new.user_id is distinct from old.user_id)
  execute function forbid_reparenting();
create trigger run_cells_fixed before update on run_cells for each row
  when (new.run_id is distinct from old.run_id or new.column_id is distinct from old.column_id
        or new.user_id is distinct from old.user_id)
  execute function forbid_reparenting();
