-- Creating a large run (issue 15): a cell's three foreign keys (its run, its column, its prompt
-- version) were checked once per cell, each check a lookup and a row lock on the parent. An
-- EXPLAIN ANALYZE of a 10,000-cell insert on the Postgres server: 548 ms, of which the three
-- checks took 205 ms (97 + 92 + 17) for what is one run, four columns and no version. Without them
-- the same insert took 170-310 ms against 415-470 ms.
--
-- The checks are now made once per statement, by the trigger that already reads the statement's
-- distinct parents for ownership (check_cell_parents of 0009): every parent must exist, and it is
-- locked FOR KEY SHARE as a foreign key locks it, so a concurrent delete of the parent waits for
-- the inserting transaction and its cascade then sees the new cells. What the keys did on a
-- parent's delete is done by statement triggers on the parents: a run's or column's cells are
-- deleted with it, a prompt version's cells keep their results and lose the reference.
--
-- The index of a user's calls by start time held every cell, though only started cells are ever
-- counted (started_at > now() - 1 minute, which implies not null): now it holds started ones only,
-- and an insert has one index less to keep.

alter table run_cells drop constraint if exists run_cells_run_id_fkey;
alter table run_cells drop constraint if exists run_cells_column_id_fkey;
alter table run_cells drop constraint if exists run_cells_prompt_version_id_fkey;

-- The run's owner check of 0003 is folded into this one: one trigger, one read of the statement.
drop trigger if exists run_cells_owner_insert on run_cells;

create or replace function check_cell_parents() returns trigger
language plpgsql security definer set search_path = public as $$
declare
  problem text;
  problem_code text;
begin
  -- Lock what exists first; a parent deleted meanwhile (committed) is then missing below.
  perform 1 from runs where id in (select distinct run_id from written) for key share;
  perform 1 from run_columns where id in (select distinct column_id from written) for key share;
  perform 1 from prompt_versions
    where id in (select distinct prompt_version_id from written where prompt_version_id is not null)
    for key share;

  select case
           when r.id is null then format('runs %s does not exist', w.run_id)
           when col.id is null then format('run_columns %s does not exist', w.column_id)
           when w.prompt_version_id is not null and v.id is null
             then format('prompt_versions %s does not exist', w.prompt_version_id)
           when r.user_id is distinct from w.user_id then format('runs %s does not belong to this user', w.run_id)
           when col.run_id <> w.run_id or col.user_id <> w.user_id
             then format('run_columns %s does not belong to this run', w.column_id)
           else format('prompt_versions %s does not belong to this user', w.prompt_version_id) end,
         case when r.id is null or col.id is null or (w.prompt_version_id is not null and v.id is null)
              then '23503' else '42501' end
    into problem, problem_code
    from (select distinct run_id, column_id, user_id, prompt_version_id from written) w
    left join runs r on r.id = w.run_id
    left join run_columns col on col.id = w.column_id
    left join prompt_versions v on v.id = w.prompt_version_id
   where r.id is null or col.id is null or (w.prompt_version_id is not null and v.id is null)
      or r.user_id is distinct from w.user_id
      or col.run_id <> w.run_id or col.user_id <> w.user_id
      or v.user_id <> w.user_id
   limit 1;
  if problem is not null then
    raise exception '%', problem using errcode = problem_code;
  end if;
  return null;
end
$$;

-- What on delete cascade / set null did. Security definer as a key's action is: the cells follow
-- their parent, whoever may see them.
create function delete_cells_of_runs() returns trigger
language plpgsql security definer set search_path = public as $$
begin
  delete from run_cells c using (select distinct id from gone) d where c.run_id = d.id;
  return null;
end
$$;
create trigger runs_delete_cells after delete on runs
  referencing old table as gone for each statement execute function delete_cells_of_runs();

create function delete_cells_of_columns() returns trigger
language plpgsql security definer set search_path = public as $$
begin
  -- By run first: run_cells has no index on column_id, every index on it leads with run_id.
  delete from run_cells c using gone d where c.run_id = d.run_id and c.column_id = d.id;
  return null;
end
$$;
create trigger run_columns_delete_cells after delete on run_columns
  referencing old table as gone for each statement execute function delete_cells_of_columns();

create function forget_cells_prompt_versions() returns trigger
language plpgsql security definer set search_path = public as $$
begin
  update run_cells c set prompt_version_id = null
    from (select distinct id from gone) d where c.prompt_version_id = d.id;
  return null;
end
$$;
create trigger prompt_versions_forget_cells after delete on prompt_versions
  referencing old table as gone for each statement execute function forget_cells_prompt_versions();

-- A dataset's rows, likewise: an upload or a run's inline rows are inserted 10,000 at a time, each
-- row's key checked on its own; the owner check of 0003 now checks that the dataset exists too.
alter table dataset_rows drop constraint if exists dataset_rows_dataset_id_fkey;
drop trigger if exists dataset_rows_owner_insert on dataset_rows;

create function check_dataset_rows_parent() returns trigger
language plpgsql security definer set search_path = public as $$
declare
  problem text;
  problem_code text;
begin
  perform 1 from datasets where id in (select distinct dataset_id from written) for key share;
  select case when d.id is null then format('datasets %s does not exist', w.dataset_id)
              else format('datasets %s does not belong to this user', w.dataset_id) end,
         case when d.id is null then '23503' else '42501' end
    into problem, problem_code
    from (select distinct dataset_id, user_id from written) w
    left join datasets d on d.id = w.dataset_id
   where d.id is null or d.user_id is distinct from w.user_id
   limit 1;
  if problem is not null then
    raise exception '%', problem using errcode = problem_code;
  end if;
  return null;
end
$$;
create trigger dataset_rows_parent_insert after insert on dataset_rows
  referencing new table as written for each statement execute function check_dataset_rows_parent();

create function delete_rows_of_datasets() returns trigger
language plpgsql security definer set search_path = public as $$
begin
  delete from dataset_rows r using (select distinct id from gone) d where r.dataset_id = d.id;
  return null;
end
$$;
create trigger datasets_delete_rows after delete on datasets
  referencing old table as gone for each statement execute function delete_rows_of_datasets();

drop index if exists run_cells_user_started_idx;
create index run_cells_user_started_idx on run_cells (user_id, started_at) where started_at is not null;
