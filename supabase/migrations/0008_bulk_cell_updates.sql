-- Bulk updates of cells without a trigger call and a notice per cell.
--
-- Cancelling a 200,000-cell run was one UPDATE that took 9.3 s on PGlite and 9.5 s on the
-- Postgres server (bench/run-size.ts), most of it the per-row triggers of 0004_realtime.sql: a
-- plpgsql call to bump seq, and another to pg_notify, for every cell (200,000 notices, each read
-- by every listener). A statement that sets parallaxr.bulk_cell_update to 'on' for its
-- transaction (set_config(..., true)) now takes both jobs on itself: it sets seq =
-- nextval('run_cells_seq') and updated_at = now() on each row it changes, and sends one notice
-- per statement, which is all readers need (notices only wake them; they read changes by seq).
-- Every other update is unchanged: the WHEN clause is evaluated without calling the function.
-- 0004 has landed, so the triggers are replaced here, not edited there.

create or replace trigger run_cells_touch before update on run_cells
  for each row
  when (current_setting('parallaxr.bulk_cell_update', true) is distinct from 'on')
  execute function run_cells_touch();

create or replace trigger run_cells_notify after update on run_cells
  for each row
  when (current_setting('parallaxr.bulk_cell_update', true) is distinct from 'on')
  execute function run_cells_notify();
