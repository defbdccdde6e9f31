-- The whole data model for the workbench, experiments, eval suites, matrices and image batches.
-- Every table carries user_id (filled from auth.uid() when the caller is a user) for RLS.

create table prompts (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid(),
  name text not null,
  type text not null default 'generator' check (type in ('generator', 'grader')),
  text text not null default '',
  version_counter integer not null default 1 check (version_counter >= 1),
  -- hash of the text at the last run: the version bumps on Run only when the text changed
  last_run_text_hash text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index prompts_user_idx on prompts (user_id, updated_at desc);

-- Immutable snapshots of a prompt's text; every run points at one. prompt_id is null for a
-- prompt sent inline through the API.
create table prompt_versions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid(),
  prompt_id uuid references prompts (id) on delete set null,
  version integer not null default 1,
  name text not null default '',
  type text not null default 'generator' check (type in ('generator', 'grader')),
  text text not null,
  text_hash text not null,
  created_at timestamptz not null default now()
);
create index prompt_versions_prompt_idx on prompt_versions (prompt_id, version);

create table datasets (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid(),
  name text not null,
  source text not null default 'upload'
    check (source in ('upload', 'manual', 'inline', 'experiment', 'eval', 'batch')),
  headers text[] not null default '{}',
  row_count integer not null default 0,
  created_at timestamptz not null default now()
);
create index datasets_user_idx on datasets (user_id, created_at desc);

create table dataset_rows (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid(),
  dataset_id uuid not null references datasets (id) on delete cascade,
  row_index integer not null,
  data jsonb not null,
  unique (dataset_id, row_index)
);

-- The user's model registry: what the column picker offers. Nothing reads it yet: it is kept for
-- the run kinds to come (matrix runs' models.txt, eval configs' model names, image models in batch
-- runs), which record the models a user names and their context windows here.
create table models (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid(),
  provider text not null,
  model text not null,
  kind text not null default 'text' check (kind in ('text', 'image')),
  label text,
  context_window integer,
  params jsonb not null default '{}',
  created_at timestamptz not null default now(),
  unique (user_id, provider, model)
);

-- One table for runs of every kind; kind-specific settings live in config. Only 'workbench' runs
-- exist so far; 'experiment', 'eval', 'matrix' and 'batch' are the run kinds being built next.
create table runs (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid(),
  kind text not null default 'workbench'
    check (kind in ('workbench', 'experiment', 'eval', 'matrix', 'batch')),
  name text,
  status text not null default 'queued'
    check (status in ('planned', 'queued', 'running', 'paused', 'completed', 'cancelled', 'failed')),
  prompt_id uuid references prompts (id) on delete set null,
  prompt_version_id uuid references prompt_versions (id) on delete set null,
  grader_prompt_id uuid references prompts (id) on delete set null,
  grader_version_id uuid references prompt_versions (id) on delete set null,
  dataset_id uuid references datasets (id) on delete set null,
  row_count integer not null default 0,
  trials integer not null default 1 check (trials >= 1),
  concurrency integer not null default 8 check (concurrency between 1 and 1024),
  -- {"mock": 4}: at most this many cells of a provider in flight for this run
  provider_concurrency jsonb not null default '{}',
  max_attempts integer not null default 4 check (max_attempts between 1 and 20),
  timeout_ms integer not null default 300000 check (timeout_ms > 0),
  budget_usd double precision check (budget_usd is null or budget_usd >= 0),
  budget_mode text not null default 'off' check (budget_mode in ('estimate', 'strict', 'off')),
  spent_usd double precision not null default 0,
  config jsonb not null default '{}',
  error text,
  created_at timestamptz not null default now(),
  started_at timestamptz,
  finished_at timestamptz,
  updated_at timestamptz not null default now()
);
create index runs_user_idx on runs (user_id, created_at desc);
-- the worker's scan for work
create index runs_active_idx on runs (created_at) where status in ('queued', 'running');

-- A target of a run: one model (with its parameters) in one column index. The same model may
-- stand in two columns.
create table run_columns (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid(),
  run_id uuid not null references runs (id) on delete cascade,
  column_index integer not null,
  provider text not null,
  model text not null,
  kind text not null default 'text' check (kind in ('text', 'image')),
  params jsonb not null default '{}',
  label text,
  unique (run_id, column_index)
);

create sequence run_cells_seq;

-- One call: (prompt variant, target, input row, trial) -> output. Also the work queue.
create table run_cells (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid(),
  run_id uuid not null references runs (id) on delete cascade,
  column_id uuid not null references run_columns (id) on delete cascade,
  column_index integer not null,
  row_index integer not null,
  trial integer not null default 0,
  -- which prompt of a matrix or eval suite; 0 for single-prompt runs
  variant integer not null default 0,
  prompt_version_id uuid references prompt_versions (id) on delete set null,
  status text not null default 'queued'
    check (status in ('queued', 'running', 'ok', 'warning', 'error', 'malformed', 'skipped', 'cancelled')),
  attempts integer not null default 0,
  not_before timestamptz not null default now(),
  lease_owner text,
  lease_expires_at timestamptz,
  -- a person asked for this cell again: skip the cache
  bypass_cache boolean not null default false,
  input_hash text,
  output_raw text,
  output_parsed text,
  tokens_in integer,
  tokens_out integer,
  tokens_estimated boolean not null default false,
  latency_ms integer,
  cost_usd double precision,
  finish_reason text,
  error_code text,
  error_message text,
  warnings jsonb not null default '[]',
  cached boolean not null default false,
  grader_status text check (grader_status in ('queued', 'running', 'ok', 'error', 'malformed')),
  grader_output_raw text,
  grader_output_parsed text,
  grade double precision check (grade is null or (grade >= 0 and grade <= 1)),
  manual_grade double precision check (manual_grade is null or (manual_grade >= 0 and manual_grade <= 1)),
  metric_scores jsonb,
  artifacts jsonb,
  -- change cursor for realtime: bumped on every visible change (see 0004_realtime.sql)
  seq bigint not null default nextval('run_cells_seq'),
  created_at timestamptz not null default now(),
  started_at timestamptz,
  finished_at timestamptz,
  updated_at timestamptz not null default now(),
  unique (run_id, variant, column_index, row_index, trial)
);
-- claiming: the open cells of a run in scheduling order
create index run_cells_open_idx on run_cells (run_id, row_index, column_index)
  where status in ('queued', 'running');
-- realtime catch-up: the cells of a run changed after a cursor
create index run_cells_seq_idx on run_cells (run_id, seq);

-- Responses keyed by provider, model, parameters, rendered input and trial (lib/core/cache-key.ts).
create table response_cache (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid(),
  cache_key text not null,
  provider text not null,
  model text not null,
  output_raw text not null,
  output_parsed text,
  tokens_in integer,
  tokens_out integer,
  tokens_estimated boolean not null default false,
  latency_ms integer,
  cost_usd double precision,
  finish_reason text,
  created_at timestamptz not null default now(),
  expires_at timestamptz,
  unique (user_id, cache_key)
);

create table pricing (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid(),
  provider text not null,
  model text not null,
  input_per_mtok double precision check (input_per_mtok is null or input_per_mtok >= 0),
  output_per_mtok double precision check (output_per_mtok is null or output_per_mtok >= 0),
  per_image double precision check (per_image is null or per_image >= 0),
  checked_at date,
  source text not null default 'user',
  updated_at timestamptz not null default now(),
  unique (user_id, provider, model)
);

-- One key per provider per user, AES-256-GCM; only last4 is ever shown.
create table provider_keys (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid(),
  provider text not null,
  base_url text,
  ciphertext text not null,
  iv text not null,
  auth_tag text not null,
  last4 text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (user_id, provider)
);

-- API tokens for the REST API and CLI, stored as sha256 hashes.
create table api_tokens (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid(),
  name text not null,
  token_hash text not null unique,
  last4 text not null,
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);

-- YAML eval suites (specs/eval-config.md) kept for the /evals page. Nothing reads it yet: the eval
-- suites issue stores the configs a user saves on /evals here.
create table eval_suites (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid(),
  name text not null,
  config_yaml text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
