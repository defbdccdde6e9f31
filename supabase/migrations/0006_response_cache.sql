-- Results with a cache key are stored in response_cache by the same call that saves them, so the
-- cache costs no extra round trip per cell. Stored after ok, warning and malformed; never errors.
create index response_cache_expiry_idx on response_cache (expires_at) where expires_at is not null;

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
           input_hash = coalesce(x.input_hash, c.input_hash),
           output_raw = x.output_raw, output_parsed = x.output_parsed,
           tokens_in = x.tokens_in, tokens_out = x.tokens_out, tokens_estimated = x.tokens_estimated,
           latency_ms = x.latency_ms, cost_usd = x.cost_usd, finish_reason = x.finish_reason,
           error_code = x.error_code, error_message = x.error_message,
           warnings = x.warnings, cached = x.cached,
           lease_owner = null, lease_expires_at = null,
           bypass_cache = case when x.status = 'queued' then c.bypass_cache else false end,
           finished_at = case when x.status = 'queued' then null else now() end
      from jsonb_to_recordset(p_results) as x(
             id uuid, status text, retry_delay_ms double precision, input_hash text, output_raw text,
             output_parsed text, tokens_in integer, tokens_out integer, tokens_estimated boolean,
             latency_ms integer, cost_usd double precision, finish_reason text, error_code text,
             error_message text, warnings jsonb, cached boolean)
     where c.id = x.id and c.lease_owner = p_worker and c.status = 'running'
     returning c.id, c.user_id
  ), stored as (
    -- fresh answers only (a cache hit is not stored again), for the cell's own user
    insert into response_cache (user_id, cache_key, provider, model, output_raw, output_parsed, tokens_in,
                                tokens_out, tokens_estimated, latency_ms, cost_usd, finish_reason, expires_at)
    select saved.user_id, y.cache_key, y.provider, y.model, y.output_raw, y.output_parsed, y.tokens_in,
           y.tokens_out, y.tokens_estimated, y.latency_ms, y.cost_usd, y.finish_reason,
           case when y.cache_ttl_s is null then null else now() + make_interval(secs => y.cache_ttl_s) end
      from saved
      join jsonb_to_recordset(p_results) as y(
             id uuid, status text, cached boolean, cache_key text, cache_ttl_s double precision, provider text,
             model text, output_raw text, output_parsed text, tokens_in integer, tokens_out integer,
             tokens_estimated boolean, latency_ms integer, cost_usd double precision, finish_reason text)
        on y.id = saved.id
     where y.cache_key is not null and not coalesce(y.cached, false)
       and y.status in ('ok', 'warning', 'malformed') and y.output_raw is not null
    on conflict (user_id, cache_key) do update
       set output_raw = excluded.output_raw, output_parsed = excluded.output_parsed,
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
