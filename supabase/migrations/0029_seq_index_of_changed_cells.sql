-- A large run's streamed cells no longer go into the index of changes as they are inserted (issue
-- 15, creating a 100,000-cell run). The cells added behind a run's first ones take seq 0
-- (insert-run-cells.ts, unannounced): a follower is never sent them until they change, and every
-- change gives a cell a new seq (run_cells_touch, 0022), which enters the index then. Their entry
-- at seq 0 was never read, as every read of changes asks for seq > a cursor of 0 or more
-- (list-cell-changes.ts), yet it cost one of each cell's four index inserts: on PGlite ~0.35 s of a
-- 100,000-cell run's ~2.2 s of inserts (bench/README.md, "Creating a large run's cells without
-- their first entry in the index of changes"). Those reads say seq > 0 too, so that a plan made
-- without the cursor's value (a server's prepared statement) still proves this index applies.
drop index run_cells_seq_idx;
create index run_cells_seq_idx on run_cells (run_id, seq) where seq > 0;
