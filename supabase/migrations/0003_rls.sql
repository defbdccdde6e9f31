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
-- another user's run or dataset even by guessing its id.
create function check_same_owner() returns trigger
language plpgsql security definer set search_path = public as $$
declare
  parent_owner uuid;
begin
  execute format('select user_id from %I where id = $1', tg_argv[0])
    into parent_owner using (to_jsonb(new) ->> tg_argv[1])::uuid;
  if parent_owner is distinct from new.user_id then
    raise exception '% % does not belong to this user', tg_argv[0], to_jsonb(new) ->> tg_argv[1]
      using errcode = 'insufficient_privilege';
  end if;
  return new;
end
$$;
create trigger dataset_rows_owner before insert or update of dataset_id, user_id on dataset_rows
  for each row execute function check_same_owner('datasets', 'dataset_id');
create trigger run_columns_owner before insert or update of run_id, user_id on run_columns
  for each row execute function check_same_owner('runs', 'run_id');
create trigger run_cells_owner before insert or update of run_id, user_id on run_cells
  for each row execute function check_same_owner('runs', 'run_id');
