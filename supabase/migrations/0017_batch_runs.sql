-- Image batch runs (issue 14, specs/image-batch-runs.md): a run of kind 'batch' (0002 allows it)
-- has one cell per job: its prompt set is the run's dataset (source 'batch', one row per prompt),
-- each expanded matrix entry a column (provider, model and the job's parameters), so a cell is
-- prompt row x matrix column and the claim order (row, then column) is the spec's job order.
-- A job's images and receipts are the cell's artifacts ({"image_paths": [...], "receipt_paths":
-- [...], "actual_cost_usd": n}); the run's folder, limits and plan are runs.config -> 'batch'.
-- No new table: the run, its columns, cells and dataset carry everything, under the RLS policies
-- they already have (tests/integration/batches-suite.ts checks them from both sides for batches).

-- `--resume --out DIR` finds the run recorded for a folder by its absolute path.
create index runs_batch_out_dir_idx on runs (user_id, ((config -> 'batch' ->> 'outDir'))) where kind = 'batch';

-- A job's artifacts are recorded while its worker still holds the cell (before its result is
-- saved), so a worker killed between the two leaves a cell whose files are known: the next
-- claim finds them here and does not call the provider again.
comment on column run_cells.artifacts is
  'Files a call produced, relative to the run folder (batch runs: image_paths, receipt_paths, actual_cost_usd); recorded before the cell is marked done.';
