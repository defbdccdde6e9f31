-- A cell's notice names its run and its new status only (issue 15). It also named the cell and its
-- seq, so every changed cell was a notice of its own: a save or a claim of 64 cells was 64 notices,
-- each handed from PGlite's thread to the server's main thread and to every listener there, which
-- read nothing but the run and the status (lib/realtime/notification-hub.ts: a notice only wakes
-- a follower, who reads changes by seq; lib/engine/worker.ts: a queued cell is work). Postgres
-- delivers identical payloads sent within one transaction once, so a statement's cells are now
-- one notice per run and status.
create or replace function run_cells_notify() returns trigger
language plpgsql as $$
begin
  if tg_op = 'INSERT' or new.seq is distinct from old.seq then
    perform pg_notify('parallaxr_cells', json_build_object('runId', new.run_id, 'status', new.status)::text);
  end if;
  return null;
end
$$;
