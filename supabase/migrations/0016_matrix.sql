-- Matrix runs (issue 13, specs/matrix-comparisons.md): a run of kind 'matrix' (0002 allows it)
-- keeps its inputs as a dataset, one row per input with its text and each prompt version's
-- rendered prompt (a cell's row), like an eval's test cases. That dataset is the run's own, kept
-- out of the datasets list like the other kinds' (only 'upload' and 'manual' are listed), so it
-- needs its own source. No new table: the run, its columns, cells and dataset carry everything,
-- under the RLS policies they already have.

alter table datasets drop constraint datasets_source_check;
alter table datasets add constraint datasets_source_check
  check (source in ('upload', 'manual', 'inline', 'experiment', 'eval', 'matrix', 'batch'));
