-- Realtime: every visible change of a cell takes a new seq from run_cells_seq (the SSE cursor)
-- and is announced with pg_notify; the payload is small, readers fetch the row by cursor.
-- Lease renewals change nothing visible, so they neither bump seq nor notify.
create function run_cells_touch() returns trigger
language plpgsql as $$
begin
  if tg_op = 'UPDATE' and (
       new.status, new.output_raw, new.error_message, new.attempts, new.grade, new.manual_grade,
       new.grader_status, new.grader_output_raw, new.warnings, new.metric_scores
     ) is not distinct from (
       old.status, old.output_raw, old.error_message, old.attempts, old.grade, old.manual_grade,
       old.grader_status, old.grader_output_raw, old.warnings, old.metric_scores
     ) then
    return new;
  end if;
  new.seq := nextval('run_cells_seq');
  new.updated_at := now();
  return new;
end
$$;
create trigger run_cells_touch before update on run_cells
  for each row execute function run_cells_touch();

create function run_cells_notify() returns trigger
language plpgsql as $$
begin
  if tg_op = 'INSERT' or new.seq is distinct from old.seq then
    perform pg_notify('parallaxr_cells', json_build_object(
      'runId', new.run_id, 'cellId', new.id, 'status', new.status, 'seq', new.seq)::text);
  end if;
  return null;
end
$$;
-- Inserts are announced once per statement (a 10,000-cell plan is one notice, not 10,000).
create function run_cells_notify_insert() returns trigger
language plpgsql as $$
begin
  perform pg_notify('parallaxr_cells', json_build_object('runId', r.run_id, 'status', 'queued')::text)
    from (select distinct run_id from inserted) r;
  return null;
end
$$;
create trigger run_cells_notify after update on run_cells
  for each row execute function run_cells_notify();
create trigger run_cells_notify_insert after insert on run_cells
  referencing new table as inserted
  for each statement execute function run_cells_notify_insert();

create function runs_notify() returns trigger
language plpgsql as $$
begin
  if tg_op = 'INSERT' or new.status is distinct from old.status then
    new.updated_at := now();
    perform pg_notify('parallaxr_runs', json_build_object('runId', new.id, 'status', new.status)::text);
  end if;
  return new;
end
$$;
create trigger runs_notify before insert or update on runs
  for each row execute function runs_notify();
