-- A run whose first cells are queued while the rest are still being added (an experiment run by
-- `parallaxr run`: its first calls need not wait for 1,000 rows and cells to be inserted, ~200 ms
-- on a cold PGlite). Workers claim from it as from any queued run; it is not completed while
-- planning is true, however many of the cells in so far have finished. Its planner clears the flag
-- after the last batch (lib/engine/create-experiment.ts, startExperiment); one that stops first
-- leaves it set, and the run is failed like a planned run whose planner stopped
-- (lib/db/runs/finish-interrupted-runs.ts).
alter table runs add column planning boolean not null default false;
