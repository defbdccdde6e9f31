-- The context window a provider reported for a run's column, kept when its first cell is
-- executed: an experiment's output CSV has a context_window column (specs/experiments-cli.md),
-- and the CLI's file and the page's download must show the same number for every row of a model.
-- Null: not asked yet, or the provider does not know it.
alter table run_columns add column context_window integer;
