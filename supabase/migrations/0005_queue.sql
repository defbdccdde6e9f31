-- The queue's statements as functions, so that a claim, or a save that refills the slots it freed,
-- is one round trip instead of several (measured as the main cost of a freed slot: bench/README.md).
-- Also the tables and columns they use: credential limits, budgets, the response cache, graders.

-- Calls in flight are few; these keep counting them and finding a worker's own cells from
-- scanning every open cell (984 of 1,000 rows were filtered away per count before).
create index run_cells_running_run_idx on run_cells (run_id) where status = 'running';
create index run_cells_running_owner_idx on run_cells (lease_owner) where status = 'running';

-- A credential is a user's provider (one key per provider per user). max_concurrency,
-- requests_per_minute and tokens_per_minute are the user's settings (null: no limit);
-- adaptive_limit is the engine's: halved on 429s, raised again after successes (AIMD), null
-- when not throttled.
create table provider_limits (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid(),
  provider text not null,
  max_concurrency integer check (max_concurrency is null or max_concurrency >= 1),
  requests_per_minute integer check (requests_per_minute is null or requests_per_minute >= 1),
  tokens_per_minute integer check (tokens_per_minute is null or tokens_per_minute >= 1),
  adaptive_limit double precision check (adaptive_limit is null or adaptive_limit >= 1),
  -- one decrease per second at most: a burst of 429s from one overload is one signal
  decreased_at timestamptz,
  updated_at timestamptz not null default now(),
  unique (user_id, provider)
);
alter table provider_limits enable row level security;
create policy provider_limits_select_own on provider_limits for select to authenticated using (user_id = (select auth.uid()));
create policy provider_limits_insert_own on provider_limits for insert to authenticated with check (user_id = (select auth.uid()));
create policy provider_limits_update_own on provider_limits for update to authenticated using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));
create policy provider_limits_delete_own on provider_limits for delete to authenticated using (user_id = (select auth.uid()));
grant select, insert, update, delete on provider_limits to authenticated;

-- Counting a user's calls to a provider over all runs, and those of the last minute.
create index run_cells_user_started_idx on run_cells (user_id, started_at);
create index run_cells_running_user_idx on run_cells (user_id) where status = 'running';

-- The estimated cost of one cell of a column (from the plan); null when unpriced.
alter table run_columns add column estimated_cost_per_cell double precision;

-- Graders: after a generator answers, the run's grader prompt is called in the same claim (so a
-- grader failure never re-runs, and re-pays, the generator). Its own tokens, cost and error are
-- kept apart from the generator's, so both can be shown and summed honestly.
alter table run_cells
  add column grader_tokens_in integer,
  add column grader_tokens_out integer,
  add column grader_cost_usd double precision,
  add column grader_error text;

-- Expired cache entries are found by their expiry.
create index response_cache_expiry_idx on response_cache (expires_at) where expires_at is not null;

-- One claim statement for parallaxr_claim_cells: the cells of a run (of the providers in p_only,
-- or not in p_except), in grid order, leased to p_worker. Answers them as a JSON array.
create function parallaxr_claim_batch(
  p_run runs, p_worker text, p_lease_ms double precision, p_limit integer, p_only text[], p_except text[]
) returns jsonb
language sql volatile as $$
  with picked as (
    select c.id, c.row_index, col.provider, col.model, col.params
      from run_cells c join run_columns col on col.id = c.column_id
     where c.run_id = p_run.id
       and ((c.status = 'queued' and c.not_before <= now())
            or (c.status = 'running' and c.lease_expires_at <= now()))
       and (p_only is null or col.provider = any(p_only))
       and (p_except is null or col.provider <> all(p_except))
     order by c.row_index, c.column_index, c.variant, c.trial
     limit p_limit
     for update of c skip locked
  ), claimed as (
    update run_cells c
       set status = 'running', attempts = c.attempts + 1, lease_owner = p_worker,
           lease_expires_at = now() + make_interval(secs => p_lease_ms / 1000), started_at = now()
      from picked
     where c.id = picked.id
     returning c.id, c.column_index, c.row_index, c.trial, c.variant, c.attempts, c.bypass_cache,
               picked.provider, picked.model, picked.params
  )
  select coalesce(jsonb_agg(jsonb_build_object(
           'id', claimed.id, 'columnIndex', claimed.column_index, 'rowIndex', claimed.row_index,
           'trial', claimed.trial, 'variant', claimed.variant, 'attempts', claimed.attempts,
           'bypassCache', claimed.bypass_cache, 'provider', claimed.provider, 'model', claimed.model,
           'params', claimed.params, 'variables', coalesce(r.data, '{}'::jsonb))), '[]'::jsonb)
    from claimed left join dataset_rows r on r.dataset_id = p_run.dataset_id and r.row_index = claimed.row_index
$$;

/*
 * Claims up to p_limit runnable cells of one run for p_worker within the run's concurrency cap, its
 * per-provider caps, its budget and the user's credential limits, counted over every worker and, for
 * credentials, over every run of the user. Answers {"cells": [...], "exhausted": bool}; exhausted
 * means nothing more is runnable now (held back by a limit does not count).
 *
 * Locking: the run's row is locked FOR UPDATE first, then the user's provider_limits rows in
 * provider order, so the claimers of one run, and of one credential, take turns. The counts that
 * follow are statements of their own: in a VOLATILE function under READ COMMITTED each statement
 * takes a new snapshot, so they see every claim committed while we waited for the lock. (Folded
 * into the locking statement as a subquery, the count used the snapshot from before the wait, and
 * two workers put 6 calls in flight under a cap of 3.) Cells are taken with FOR UPDATE SKIP LOCKED,
 * so a cell being completed at that moment is passed over rather than waited for. Runnable means
 * queued and due, or running with an expired lease (its worker died): that cell is taken back and
 * the attempt counted. A budget that would be passed stops the claims; with nothing in flight, the
 * rest of the run is skipped with the reason.
 */
create function parallaxr_claim_cells(p_run_id uuid, p_worker text, p_lease_ms double precision, p_limit integer)
returns jsonb
language plpgsql volatile as $$
declare
  v_run runs%rowtype;
  v_in_flight jsonb;
  v_total integer;
  v_room integer;
  v_free integer;
  v_provider record;
  v_limit provider_limits%rowtype;
  v_cap integer;
  v_provider_room integer;
  v_used integer;
  v_tokens bigint;
  v_budget_room integer;
  v_spent double precision;
  v_reserved double precision;
  v_per_cell double precision;
  v_batch jsonb;
  v_cells jsonb := '[]'::jsonb;
  v_limited boolean := false;
begin
  -- Lock order, always: the run, then the user's provider limits by provider name.
  select * into v_run from runs where id = p_run_id for update;
  if not found or v_run.status not in ('queued', 'running') then
    return jsonb_build_object('cells', v_cells, 'exhausted', not found or v_run.status <> 'paused');
  end if;

  -- A statement of its own after the lock: a new snapshot sees every claim committed meanwhile.
  select coalesce(jsonb_object_agg(x.provider, x.n), '{}'::jsonb), coalesce(sum(x.n), 0)::integer
    into v_in_flight, v_total
    from (select col.provider, count(*)::integer as n
            from run_cells c join run_columns col on col.id = c.column_id
           where c.run_id = p_run_id and c.status = 'running' and c.lease_expires_at > now()
           group by col.provider) x;

  v_room := least(p_limit, v_run.concurrency - v_total);
  if v_room <= 0 then
    return jsonb_build_object('cells', v_cells, 'exhausted', false);
  end if;

  -- Budget: spent plus the estimate of every call in flight, plus the next ones, within the cap.
  if v_run.budget_mode <> 'off' and v_run.budget_usd is not null then
    select coalesce(max(estimated_cost_per_cell), 0) into v_per_cell from run_columns where run_id = p_run_id;
    select coalesce(sum(c.cost_usd) filter (where c.status not in ('queued', 'running')), 0),
           coalesce(sum(coalesce(col.estimated_cost_per_cell, 0)) filter (where c.status = 'running' and c.lease_expires_at > now()), 0)
      into v_spent, v_reserved
      from run_cells c join run_columns col on col.id = c.column_id
     where c.run_id = p_run_id;
    update runs set spent_usd = v_spent where id = p_run_id and spent_usd is distinct from v_spent;
    -- with no estimate (unpriced output), only what was actually spent can stop the run
    v_budget_room := case
      when v_per_cell > 0 then floor((v_run.budget_usd - v_spent - v_reserved) / v_per_cell)::integer
      when v_spent >= v_run.budget_usd then 0
      else v_room end;
    begin
      if v_budget_room <= 0 then
        if v_total = 0 then
          -- nothing in flight will come back cheaper: the rest is skipped, and says why
          update run_cells
             set status = 'skipped', finished_at = now(), error_code = 'budget',
                 error_message = format('Skipped: the run''s budget of $%s would be exceeded ($%s spent, about $%s a cell).',
                                        round(v_run.budget_usd::numeric, 4), round(v_spent::numeric, 4), round(v_per_cell::numeric, 6))
           where run_id = p_run_id and status = 'queued';
          return jsonb_build_object('cells', v_cells, 'exhausted', true);
        end if;
        return jsonb_build_object('cells', v_cells, 'exhausted', false);
      end if;
      v_room := least(v_room, v_budget_room);
    end;
  end if;
  v_free := v_room;

  -- Each provider of the run within the run's per-provider cap and the user's credential limits.
  for v_provider in
    select distinct col.provider from run_columns col where col.run_id = p_run_id order by col.provider
  loop
    exit when v_free <= 0;
    v_provider_room := v_free;
    if v_run.provider_concurrency ? v_provider.provider then
      v_provider_room := least(v_provider_room,
        (v_run.provider_concurrency ->> v_provider.provider)::integer - coalesce((v_in_flight ->> v_provider.provider)::integer, 0));
    end if;
    select * into v_limit from provider_limits
     where user_id = v_run.user_id and provider = v_provider.provider for update;
    if found then
      v_cap := least(coalesce(v_limit.max_concurrency, 2147483647), coalesce(floor(v_limit.adaptive_limit)::integer, 2147483647));
      if v_cap < 2147483647 then
        select count(*)::integer into v_used
          from run_cells c join run_columns col on col.id = c.column_id
         where c.user_id = v_run.user_id and c.status = 'running' and c.lease_expires_at > now()
           and col.provider = v_provider.provider;
        v_provider_room := least(v_provider_room, v_cap - v_used);
      end if;
      if v_limit.requests_per_minute is not null then
        select count(*)::integer into v_used
          from run_cells c join run_columns col on col.id = c.column_id
         where c.user_id = v_run.user_id and c.started_at > now() - interval '1 minute'
           and col.provider = v_provider.provider;
        v_provider_room := least(v_provider_room, v_limit.requests_per_minute - v_used);
      end if;
      if v_limit.tokens_per_minute is not null then
        select coalesce(sum(coalesce(c.tokens_in, 0) + coalesce(c.tokens_out, 0)), 0) into v_tokens
          from run_cells c join run_columns col on col.id = c.column_id
         where c.user_id = v_run.user_id and c.finished_at > now() - interval '1 minute' and not c.cached
           and col.provider = v_provider.provider;
        if v_tokens >= v_limit.tokens_per_minute then v_provider_room := 0; end if;
      end if;
    end if;
    if v_provider_room <= 0 then
      v_limited := true;
      continue;
    end if;
    v_batch := parallaxr_claim_batch(v_run, p_worker, p_lease_ms, v_provider_room, array[v_provider.provider], null);
    v_cells := v_cells || v_batch;
    v_free := v_free - jsonb_array_length(v_batch);
  end loop;

  if jsonb_array_length(v_cells) > 0 and v_run.status = 'queued' then
    update runs set status = 'running', started_at = coalesce(started_at, now()) where id = p_run_id;
  end if;
  -- Held back by a limit is not the same as having nothing left to run.
  return jsonb_build_object('cells', v_cells, 'exhausted', v_free > 0 and not v_limited);
end
$$;

/*
 * Writes results of cells p_worker holds (the shape of lib/db/cells/save-cell-results.ts) and
 * answers the ids written. A cell whose lease expired and was taken by another worker keeps that
 * worker's result. A result with status 'queued' is a retry after retry_delay_ms. Fresh answers
 * with a cache key are stored in response_cache by the same statement (after ok, warning and
 * malformed; never errors), so the cache costs no extra round trip per cell.
 */
create function parallaxr_save_results(p_worker text, p_results jsonb)
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
           grader_status = x.grader_status, grader_output_raw = x.grader_output_raw,
           grader_output_parsed = x.grader_output_parsed, grade = x.grade,
           grader_tokens_in = x.grader_tokens_in, grader_tokens_out = x.grader_tokens_out,
           grader_cost_usd = x.grader_cost_usd, grader_error = x.grader_error,
           lease_owner = null, lease_expires_at = null,
           bypass_cache = case when x.status = 'queued' then c.bypass_cache else false end,
           finished_at = case when x.status = 'queued' then null else now() end
      from jsonb_to_recordset(p_results) as x(
             id uuid, status text, retry_delay_ms double precision, input_hash text, output_raw text,
             output_parsed text, tokens_in integer, tokens_out integer, tokens_estimated boolean,
             latency_ms integer, cost_usd double precision, finish_reason text, error_code text,
             error_message text, warnings jsonb, cached boolean, grader_status text, grader_output_raw text,
             grader_output_parsed text, grade double precision, grader_tokens_in integer, grader_tokens_out integer,
             grader_cost_usd double precision, grader_error text)
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

-- After results are saved: additive increase, multiplicative decrease of each credential's
-- adaptive limit. 429s halve it, at most once a second (a burst of 429s from one overload is
-- one signal, as TCP decreases once per round trip); successes raise it by about one per window
-- of calls, until it reaches the user's maximum and the throttle is lifted.
create function parallaxr_adapt_limits(p_results jsonb)
returns void
language plpgsql volatile as $$
declare
  v_row record;
  v_in_flight integer;
begin
  for v_row in
    select c.user_id, x.provider,
           count(*) filter (where x.error_code = 'rate_limited') as throttled,
           count(*) filter (where x.status in ('ok', 'warning', 'malformed') and not coalesce(x.cached, false)) as succeeded
      from jsonb_to_recordset(p_results) as x(id uuid, provider text, status text, error_code text, cached boolean)
      join run_cells c on c.id = x.id
     where x.provider is not null
     group by c.user_id, x.provider
     order by x.provider
  loop
    if v_row.throttled > 0 then
      select count(*)::integer into v_in_flight
        from run_cells c join run_columns col on col.id = c.column_id
       where c.user_id = v_row.user_id and c.status = 'running' and c.lease_expires_at > now() and col.provider = v_row.provider;
      insert into provider_limits (user_id, provider, adaptive_limit, decreased_at)
      values (v_row.user_id, v_row.provider, greatest(1, floor((v_in_flight + v_row.throttled) / 2.0)), now())
      on conflict (user_id, provider) do update
         set adaptive_limit = greatest(1, floor(coalesce(provider_limits.adaptive_limit,
                                                         provider_limits.max_concurrency,
                                                         v_in_flight + v_row.throttled) / 2.0)),
             decreased_at = now(), updated_at = now()
       where provider_limits.decreased_at is null or provider_limits.decreased_at < now() - interval '1 second';
    elsif v_row.succeeded > 0 then
      update provider_limits
         set adaptive_limit = case
               when adaptive_limit + v_row.succeeded / adaptive_limit >= coalesce(max_concurrency, 1024) then null
               else adaptive_limit + v_row.succeeded / adaptive_limit end,
             updated_at = now()
       where user_id = v_row.user_id and provider = v_row.provider and adaptive_limit is not null;
    end if;
  end loop;
end
$$;

/*
 * Saves p_results, then claims for p_run_id: one round trip for a slot that just freed. The claim
 * is a later statement, so its count of calls in flight already excludes the cells just saved.
 */
create function parallaxr_save_and_claim(
  p_worker text, p_results jsonb, p_run_id uuid, p_lease_ms double precision, p_limit integer
) returns jsonb
language plpgsql volatile as $$
declare
  v_saved uuid[];
begin
  v_saved := parallaxr_save_results(p_worker, p_results);
  perform parallaxr_adapt_limits(p_results);
  return parallaxr_claim_cells(p_run_id, p_worker, p_lease_ms, p_limit) || jsonb_build_object('saved', to_jsonb(v_saved));
end
$$;
