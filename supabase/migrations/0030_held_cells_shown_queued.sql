-- A cell held ahead is shown as queued, and its start is a change followers are sent.
--
-- A worker claims up to a run's concurrency more cells than it calls (0018, 0023): those it holds
-- are stored as running, so that the caps count them, with held set until their call starts. The
-- API and the pages showed them as running: a run at concurrency 1 showed two cells running and
-- "2 running" for its whole length, and at 64 wide up to 128. They now show a held cell as queued
-- (lib/db/cells/shown-status.ts), and so must followers be sent the change when its call starts.
--
-- run_cells_touch (0022) bumps seq on a change a reader can see. What a reader sees of the status
-- is now the shown status (a cell given back keeps held set, but is queued or cancelled then, not
-- running); and a cell that is (or stays) held shows no change in its attempts
-- either: claiming a cell ahead counts its attempt, but nothing about it shows until its call
-- starts, when held is cleared and the cell is sent as running, attempt and all. So each cell is
-- still sent twice on its way (when its call starts and when it ends), whether it was held or not;
-- the change is when: a held cell was sent as running when claimed and nothing when it started.
-- Clearing held was an update in place (a heap-only tuple) when its page had room; with seq
-- changing it writes an entry in each index, as a claim that starts a call at once always has.

create or replace function run_cells_touch() returns trigger
language plpgsql as $$
begin
  if tg_op = 'UPDATE' and (
       case when new.status = 'running' and new.held then 'queued' else new.status end,
       case when new.status = 'running' and new.held then old.attempts else new.attempts end,
       new.output_raw, new.output_z, new.error_message, new.grade, new.manual_grade,
       new.grader_status, new.grader_output_raw, new.warnings, new.metric_scores
     ) is not distinct from (
       case when old.status = 'running' and old.held then 'queued' else old.status end,
       old.attempts,
       old.output_raw, old.output_z, old.error_message, old.grade, old.manual_grade,
       old.grader_status, old.grader_output_raw, old.warnings, old.metric_scores
     ) then
    return new;
  end if;
  new.seq := nextval('run_cells_seq');
  new.updated_at := now();
  return new;
end
$$;
