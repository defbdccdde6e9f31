-- An upload is kept once per user: the same file uploaded twice (eight copies of a 50k-row CSV
-- after an afternoon, issue 10) answers the dataset already stored. content_hash is the SHA-256
-- of the parsed headers and rows (lib/core/dataset-content-hash.ts); only uploads carry one, so
-- a run's inline rows are never merged with a file. The index includes user_id: two users with
-- the same file each keep their own, and one user's upload tells nothing about another's.
alter table datasets add column content_hash text;
create unique index datasets_content_hash_idx on datasets (user_id, content_hash) where content_hash is not null;

-- Deleting a dataset that a run used keeps its rows for that run's history (the run's grid and
-- its export read them): the dataset only leaves the list and the workbench, deleted_at says
-- when. A dataset no run used is deleted for good. Uploading the same file again brings it back.
alter table datasets add column deleted_at timestamptz;
