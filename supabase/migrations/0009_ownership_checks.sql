-- Ownership of every reference, in the database. 0003 checks a child row against its parent's
-- owner for dataset_rows, run_columns and run_cells.run_id only; a run's prompt, version, grader
-- and dataset were checked by the API alone. A user with direct table access (Supabase grants the
-- tables to `authenticated`) could insert a run naming another user's prompt version and dataset
-- by id, and the worker, which reads past RLS, rendered that user's prompt text, rows and grader
-- into the intruder's cells (tests/integration/ownership-worker.test.ts showed it). Now such rows
-- are refused on insert, the references cannot be repointed afterwards, and the worker's reads
-- join on the run's owner too, for rows written before this migration.
-- 0001-0007 are applied on users' databases: functions are replaced here, not edited there.

/*
 * check_same_owner now takes any number of (parent table, column) pairs, so that a run's five
 * references are one trigger, and it reads the distinct (parent, owner) pairs of the statement
 * before joining: a 100,000-cell plan names one run, so the join reads one row instead of 100,000.
 * Measured with EXPLAIN ANALYZE on a 100,000-cell insert, the run check fell from 77-91 ms to
 * 26-35 ms on the Postgres server (PGlite: 111-204 ms to 75-143 ms), which pays for the new cell
 * check below (30-37 ms; PGlite 51-79 ms). Still once per statement; the triggers of 0003 pass
 * one pair and behave as before.
 */
create or replace function check_same_owner() returns trigger
language plpgsql security definer set search_path = public as $$
declare
  offending text;
  i integer := 0;
begin
  while i < tg_nargs loop
    execute format(
      'select (w.%2$I)::text from (select distinct %2$I, user_id from written) w join %1$I p on p.id = w.%2$I
        where p.user_id is distinct from w.user_id limit 1',
      tg_argv[i], tg_argv[i + 1])
      into offending;
    if offending is not null then
      raise exception '% % does not belong to this user', tg_argv[i], offending
        using errcode = 'insufficient_privilege';
    end if;
    i := i + 2;
  end loop;
  return null;
end
$$;

create trigger runs_owner_insert after insert on runs
  referencing new table as written for each statement
  execute function check_same_owner(
    'prompts', 'prompt_id', 'prompt_versions', 'prompt_version_id', 'prompts', 'grader_prompt_id',
    'prompt_versions', 'grader_version_id', 'datasets', 'dataset_id');
create trigger prompt_versions_owner_insert after insert on prompt_versions
  referencing new table as written for each statement execute function check_same_owner('prompts', 'prompt_id');

/*
 * A cell's column must be a column of the cell's own run (and so of its owner: 0003 holds
 * run_columns to their run's owner), and its prompt version the owner's. Both in one scan of the
 * statement's distinct (run, column, owner, version) tuples, a handful for any plan.
 */
create function check_cell_parents() returns trigger
language plpgsql security definer set search_path = public as $$
declare
  problem text;
begin
  select case when col.run_id <> w.run_id or col.user_id <> w.user_id
              then format('run_columns %s does not belong to this run', w.column_id)
              else format('prompt_versions %s does not belong to this user', w.prompt_version_id) end
    into problem
    from (select distinct run_id, column_id, user_id, prompt_version_id from written) w
    join run_columns col on col.id = w.column_id
    left join prompt_versions v on v.id = w.prompt_version_id
   where col.run_id <> w.run_id or col.user_id <> w.user_id or v.user_id <> w.user_id
   limit 1;
  if problem is not null then
    raise exception '%', problem using errcode = 'insufficient_privilege';
  end if;
  return null;
end
$$;
create trigger run_cells_parents_insert after insert on run_cells
  referencing new table as written for each statement execute function check_cell_parents();

-- The references never change once written (no code repoints them; a run points at an immutable
-- version), so the insert checks hold for good without an update check. Clearing one is allowed:
-- deleting a prompt, version or dataset sets them to null (on delete set null). As in 0003, the
-- WHEN clause is evaluated without calling the function, so ordinary updates (a cell's result, a
-- run's status) cost nothing.
create trigger runs_fixed before update on runs for each row
  when ((new.prompt_id is distinct from old.prompt_id and new.prompt_id is not null)
        or (new.prompt_version_id is distinct from old.prompt_version_id and new.prompt_version_id is not null)
        or (new.grader_prompt_id is distinct from old.grader_prompt_id and new.grader_prompt_id is not null)
        or (new.grader_version_id is distinct from old.grader_version_id and new.grader_version_id is not null)
        or (new.dataset_id is distinct from old.dataset_id and new.dataset_id is not null)
        or new.user_id is distinct from old.user_id)
  execute function forbid_reparenting();
create trigger prompt_versions_fixed before update on prompt_versions for each row
  when ((new.prompt_id is distinct from old.prompt_id and new.prompt_id is not null)
        or new.user_id is distinct from old.user_id)
  execute function forbid_reparenting();
create trigger run_cells_version_fixed before update on run_cells for each row
  when (new.prompt_version_id is distinct from old.prompt_version_id and new.prompt_version_id is not null)
  execute function forbid_reparenting();

/*
 * The claim of 0005, reading only what belongs to the run's owner: the cell itself, a column of
 * the same run, and the owner's dataset row. The worker connects past RLS, so these joins are
 * what keeps a run that names another user's dataset (written before the checks above) from
 * rendering that user's rows. A cell on another run's column is never claimed; it stays queued
 * and its run open, which only such a forged run can come to.
 */
create or replace function parallaxr_claim_batch(
  p_run runs, p_worker text, p_lease_ms double precision, p_limit integer, p_only text[], p_except text[]
) returns jsonb
language sql volatile as $$
  with picked as (
    select c.id, c.row_index, col.provider, col.model, col.params
      from run_cells c join run_columns col on col.id = c.column_id and col.run_id = c.run_id
     where c.run_id = p_run.id
       and c.user_id = p_run.user_id
       and ((c.status = 'queued' and c.not_before <= now())
            or (c.status = 'running' and c.lease_expires_at <= now()))
       and (p_only is null or col.provider = any(p_only))
       and (p_except is null or col.provider <> all(p_except))
     order by c.row_index, c.column_index, c.variant, c.trial
     limit p_limit
     for update of c skip locked
  ), claimed as (
    update run_cells c
       set status = 'running', attempts = c.attempts + 1, lease_owner = p_worker,
           lease_expires_at = now() + make_interval(secs => p_lease_ms / 1000), started_at = now()
      from picked
     where c.id = picked.id
     returning c.id, c.column_index, c.row_index, c.trial, c.variant, c.attempts, c.bypass_cache,
               picked.provider, picked.model, picked.params
  )
  select coalesce(jsonb_agg(jsonb_build_object(
           'id', claimed.id, 'columnIndex', claimed.column_index, 'rowIndex', claimed.row_index,
           'trial', claimed.trial, 'variant', claimed.variant, 'attempts', claimed.attempts,
           'bypassCache', claimed.bypass_cache, 'provider', claimed.provider, 'model', claimed.model,
           'params', claimed.params, 'variables', coalesce(r.data, '{}'::jsonb))), '[]'::jsonb)
    from claimed left join dataset_rows r
      on r.dataset_id = p_run.dataset_id and r.row_index = claimed.row_index and r.user_id = p_run.user_id
$$;

-- parallaxr_save_results (0007) is left as it is: it writes only cells the worker holds a lease
-- on, which the claim above gave out for cells of the run's owner alone, and it stores their
-- answers in that same owner's cache.
