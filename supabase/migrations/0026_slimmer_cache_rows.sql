-- Disk per cell (issue 15): a cache row and its indexes took ~0.34 KB a cell (bench:product,
-- 1,500-character answers, cache on, on the server: the row 216 bytes, its key index 0.11 KB, its
-- primary key 0.03 KB). Since 0022 a fresh answer's row names the cell that holds the answer, and
-- yet it kept a copy of everything else the cell holds. Now:
--
-- 1. A row that names its cell holds the key, the cell, and when it was made and expires: the
--    provider, model, tokens, latency, cost and finish reason are read from the cell, which has the
--    same values (both were written from one result). A row that keeps its own answer (the cell
--    was asked again or deleted) gets them from the cell then, with the answer (requeueCell,
--    lib/db/runs/run-lifecycle.ts, and keep_cached_answers_of_deleted_cells below). Rows written
--    before keep what they have; provider and model may now be null.
-- 2. The key is its 32 bytes (it was 64 hex characters as text, 65 bytes in the row and in the
--    key index). Every key written is the hex SHA-256 of lib/core/cache-key.ts; anything else is
--    hashed, so it stays unique and is never matched again.
-- 3. No id: a row is found by its user and key, which are now its primary key (the uuid and its
--    index were 16 bytes of every row and 0.03 KB a cell, read by nothing).
--
-- Otherwise parallaxr_save_results is as 0022 wrote it.

-- A key as stored: the bytes of a hex SHA-256, or the SHA-256 of anything else.
create function parallaxr_cache_key(p_key text) returns bytea
language sql immutable strict parallel safe as $$
  select case when p_key ~ '^([0-9a-f]{2}){32}$' then decode(p_key, 'hex') else sha256(convert_to(p_key, 'UTF8')) end
$$;

alter table response_cache drop column id;
alter table response_cache drop constraint response_cache_user_id_cache_key_key;
alter table response_cache alter column cache_key type bytea using parallaxr_cache_key(cache_key);
alter table response_cache add primary key (user_id, cache_key);
alter table response_cache alter column provider drop not null;
alter table response_cache alter column model drop not null;

create or replace function keep_cached_answers_of_deleted_cells() returns trigger
language plpgsql security definer set search_path = public as $$
begin
  -- the cell's own user only: another user's row naming the cell never receives its answer
  update response_cache r set output_raw = g.output_raw, output_z = g.output_z, cell_id = null,
         tokens_in = g.tokens_in, tokens_out = g.tokens_out, tokens_estimated = g.tokens_estimated,
         latency_ms = g.latency_ms, cost_usd = g.cost_usd, finish_reason = g.finish_reason
    from gone g
   where r.cell_id = g.id and r.user_id = g.user_id and (g.output_raw is not null or g.output_z is not null);
  -- what still names the cell has nothing to read any more
  delete from response_cache r using gone g where r.cell_id = g.id;
  return null;
end
$$;

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
    insert into response_cache (user_id, cache_key, cell_id, expires_at)
    select distinct on (saved.user_id, y.cache_key) saved.user_id, parallaxr_cache_key(y.cache_key), saved.id,
           case when y.cache_ttl_s is null then null else now() + make_interval(secs => y.cache_ttl_s) end
      from saved
      join jsonb_to_recordset(p_results) as y(
             id uuid, status text, cached boolean, cache_key text, cache_ttl_s double precision,
             output_raw text, output_z text)
        on y.id = saved.id
     where y.cache_key is not null and not coalesce(y.cached, false)
       and y.status in ('ok', 'warning', 'malformed') and (y.output_raw is not null or y.output_z is not null)
    on conflict (user_id, cache_key) do update
       set cell_id = excluded.cell_id, output_raw = null, output_z = null, output_parsed = null,
           provider = null, model = null, tokens_in = null, tokens_out = null, tokens_estimated = false,
           latency_ms = null, cost_usd = null, finish_reason = null,
           created_at = now(), expires_at = excluded.expires_at
    returning 1
  )
  select coalesce(array_agg(saved.id), '{}') into v_saved from saved;
  return v_saved;
end
$$;
