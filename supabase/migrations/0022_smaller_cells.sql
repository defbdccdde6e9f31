-- Disk per cell (issue 15). A cell of a 1,500-character answer took ~4.9 KB: the answer was on
-- disk twice, in run_cells (~2.2 KB a cell) and in response_cache (~2.0 KB), and uncompressed,
-- since Postgres compresses a row only once it passes ~2 KB (TOAST_TUPLE_THRESHOLD;
-- toast_tuple_target cannot lower it). Three changes:
--
-- 1. A cache row names the cell that holds its answer (cell_id) instead of copying it; a lookup
--    reads the answer from that cell (lib/db/cache/response-cache.ts). A row keeps its own copy
--    (output_raw or output_z) when it was written before, and when its cell is gone or about to
--    change:
--    - A cell's answer changes only when the cell is asked again (requeueCell,
--      lib/db/runs/run-lifecycle.ts, the one way a finished cell goes back to the queue): it
--      copies the answer into the cache rows that name the cell first, so an attempt that fails
--      does not take the cached answer with it. A fresh answer then points the row at the cell.
--    - A deleted cell's answer is copied into the cache rows of its user that name it (a
--      statement trigger: deleting a run of 100,000 cells is one update), so deleting a run keeps
--      what was paid for in the cache, as before. Clearing the cache is what forgets it. Another
--      user's row naming the cell (RLS lets anyone write their own rows) never receives it.
-- 2. The worker deflates an answer of 512 characters or more (lib/db/cells/packed-answer.ts) and,
--    when that saves at least a fifth, it is stored in output_z instead of output_raw. Every
--    reader selects both and unpacks (the same file); an answer saved before stays text. A change
--    of output_z is a visible change of the cell for realtime (0004's run_cells_touch).
-- 3. input_hash (the SHA-256 of what a cell sent, written by the worker, read by nothing yet) was
--    its 64 hex characters as text, 65 bytes of every cell; it is now the 32 bytes themselves.
--    Every hash written so far is hex (lib/core/cache-key.ts hashText); anything else is hashed.
--
-- Otherwise parallaxr_save_results is as 0020 wrote it.

alter table response_cache add column cell_id uuid;
alter table response_cache add column output_z bytea;
alter table response_cache alter column output_raw drop not null;
alter table response_cache add constraint response_cache_answer_or_cell
  check (output_raw is not null or output_z is not null or cell_id is not null);
create index response_cache_cell_idx on response_cache (cell_id) where cell_id is not null;

alter table run_cells add column output_z bytea;
alter table run_cells alter column input_hash type bytea
  using case when input_hash ~ '^([0-9a-f]{2})+$' then decode(input_hash, 'hex') else sha256(convert_to(input_hash, 'UTF8')) end;

create or replace function run_cells_touch() returns trigger
language plpgsql as $$
begin
  if tg_op = 'UPDATE' and (
       new.status, new.output_raw, new.output_z, new.error_message, new.attempts, new.grade, new.manual_grade,
       new.grader_status, new.grader_output_raw, new.warnings, new.metric_scores
     ) is not distinct from (
       old.status, old.output_raw, old.output_z, old.error_message, old.attempts, old.grade, old.manual_grade,
       old.grader_status, old.grader_output_raw, old.warnings, old.metric_scores
     ) then
    return new;
  end if;
  new.seq := nextval('run_cells_seq');
  new.updated_at := now();
  return new;
end
$$;

create function keep_cached_answers_of_deleted_cells() returns trigger
language plpgsql security definer set search_path = public as $$
begin
  -- the cell's own user only: another user's row naming the cell never receives its answer
  update response_cache r set output_raw = g.output_raw, output_z = g.output_z, cell_id = null
    from gone g
   where r.cell_id = g.id and r.user_id = g.user_id and (g.output_raw is not null or g.output_z is not null);
  -- what still names the cell has nothing to read any more
  delete from response_cache r using gone g where r.cell_id = g.id;
  return null;
end
$$;
create trigger run_cells_keep_cached_answers after delete on run_cells
  referencing old table as gone for each statement execute function keep_cached_answers_of_deleted_cells();

create or replace function parallaxr_save_results(p_worker text, p_results jsonb)
returns uuid[]
language plpgsql volatile as $$
declare
  v_saved uuid[];
begin
  with saved as (
    update run_cells c
       set status = x.status,
           not_before = case when x.status = 'queued'
                             then now() + make_interval(secs => x.retry_delay_ms / 1000.0) else c.not_before end,
           input_hash = coalesce(decode(x.input_hash, 'hex'), c.input_hash),
           output_raw = x.output_raw, output_z = decode(x.output_z, 'base64'), output_parsed = x.output_parsed, parsed_is_raw = coalesce(x.parsed_is_raw, false),
           tokens_in = x.tokens_in, tokens_out = x.tokens_out, tokens_estimated = x.tokens_estimated,
           latency_ms = x.latency_ms, cost_usd = x.cost_usd, finish_reason = x.finish_reason,
           error_code = x.error_code, error_message = x.error_message,
           warnings = x.warnings, cached = x.cached,
           grader_status = x.grader_status, grader_output_raw = x.grader_output_raw,
           grader_output_parsed = x.grader_output_parsed, grade = x.grade,
           grader_tokens_in = x.grader_tokens_in, grader_tokens_out = x.grader_tokens_out,
           grader_cost_usd = x.grader_cost_usd, grader_error = x.grader_error,
           metric_scores = x.metric_scores,
           lease_owner = null, lease_expires_at = null,
           bypass_cache = case when x.status = 'queued' then c.bypass_cache else false end,
           finished_at = case when x.status = 'queued' then null else now() end
      from jsonb_to_recordset(p_results) as x(
             id uuid, status text, retry_delay_ms double precision, input_hash text, output_raw text, output_z text,
             output_parsed text, parsed_is_raw boolean, tokens_in integer, tokens_out integer, tokens_estimated boolean,
             latency_ms integer, cost_usd double precision, finish_reason text, error_code text,
             error_message text, warnings jsonb, cached boolean, grader_status text, grader_output_raw text,
             grader_output_parsed text, grade double precision, grader_tokens_in integer, grader_tokens_out integer,
             grader_cost_usd double precision, grader_error text, metric_scores jsonb)
     where c.id = x.id and c.lease_owner = p_worker and c.status = 'running'
     returning c.id, c.user_id
  ), stored as (
    -- fresh answers only (a cache hit is not stored again), for the cell's own user; one row per
    -- key, since two columns of the same model answer the same input with the same key, and an
    -- upsert may not touch a row twice ("ON CONFLICT DO UPDATE command cannot affect row a second time")
    insert into response_cache (user_id, cache_key, provider, model, cell_id, tokens_in,
                                tokens_out, tokens_estimated, latency_ms, cost_usd, finish_reason, expires_at)
    select distinct on (saved.user_id, y.cache_key) saved.user_id, y.cache_key, y.provider, y.model, saved.id, y.tokens_in,
           y.tokens_out, y.tokens_estimated, y.latency_ms, y.cost_usd, y.finish_reason,
           case when y.cache_ttl_s is null then null else now() + make_interval(secs => y.cache_ttl_s) end
      from saved
      join jsonb_to_recordset(p_results) as y(
             id uuid, status text, cached boolean, cache_key text, cache_ttl_s double precision, provider text,
             model text, output_raw text, output_z text, tokens_in integer, tokens_out integer,
             tokens_estimated boolean, latency_ms integer, cost_usd double precision, finish_reason text)
        on y.id = saved.id
     where y.cache_key is not null and not coalesce(y.cached, false)
       and y.status in ('ok', 'warning', 'malformed') and (y.output_raw is not null or y.output_z is not null)
    on conflict (user_id, cache_key) do update
       set cell_id = excluded.cell_id, output_raw = null, output_z = null, output_parsed = null,
           tokens_in = excluded.tokens_in, tokens_out = excluded.tokens_out,
           tokens_estimated = excluded.tokens_estimated, latency_ms = excluded.latency_ms,
           cost_usd = excluded.cost_usd, finish_reason = excluded.finish_reason,
           created_at = now(), expires_at = excluded.expires_at
    returning 1
  )
  select coalesce(array_agg(saved.id), '{}') into v_saved from saved;
  return v_saved;
end
$$;
