-- Mock models are separate credentials. The adaptive limit (halved on 429s, 0005) was kept per
-- provider, so mock/flaky's 429s (20% of its calls, by design) throttled every mock model of the
-- user: a 2,000-cell run of the instant mocks after trying flaky took 42.5 s. A credential is now
-- what parallaxr_credential says: the provider for a vendor (one key per provider per user), and
-- "mock/<model>" for each mock model, which share no key and no rate limit. The claim and the
-- limit adaptation read and write each credential's throttle in provider_limits under that name;
-- the user's own limits stay on the provider's row (Settings -> Limits). Functions replaced
-- whole, as in 0009 and 0010, each with only these changes.

-- The credential a column's calls count against. Immutable, so it can stand in indexes.
create or replace function parallaxr_credential(p_provider text, p_model text)
returns text
language sql immutable as $$
  select case when p_provider = 'mock' and p_model is not null then 'mock/' || p_model else p_provider end
$$;

-- The claim of 0009, taking one credential's cells (p_only and p_except name credentials; for a
-- vendor that is the provider, as before).
create or replace function parallaxr_claim_batch(
  p_run runs, p_worker text, p_lease_ms double precision, p_limit integer, p_only text[], p_except text[]
) returns jsonb
language sql volatile as $$
  with picked as (
    select c.id, c.row_index, col.provider, col.model, col.params
      from run_cells c join run_columns col on col.id = c.column_id and col.run_id = c.run_id
     where c.run_id = p_run.id
       and c.user_id = p_run.user_id
       and ((c.status = 'queued' and c.not_before <= now())
            or (c.status = 'running' and c.lease_expires_at <= now()))
       and (p_only is null or parallaxr_credential(col.provider, col.model) = any(p_only))
       and (p_except is null or parallaxr_credential(col.provider, col.model) <> all(p_except))
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
    from claimed left join dataset_rows r
      on r.dataset_id = p_run.dataset_id and r.row_index = claimed.row_index and r.user_id = p_run.user_id
$$;


-- The claim of 0010 (grader spend in the budget), per credential.
/*
 * Claims up to p_limit runnable cells of one run for p_worker within the run's concurrency cap, its
 * per-provider caps, its budget and the user's credential limits, counted over every worker and, for
 * credentials, over every run of the user. Answers {"cells": [...], "exhausted": bool}; exhausted
 * means nothing more is runnable now (held back by a limit does not count).
 *
 * Credentials (0012): each column's is parallaxr_credential(provider, model). The user's own
 * limits (concurrency, per minute) are the provider's row; the adaptive limit is the credential's
 * row, which is the provider's own except for the mock, whose models are one credential each.
 *
 * Locking: the run's row is locked FOR UPDATE first, then the user's provider_limits rows in
 * name order (a provider's name sorts before its credentials', "mock" < "mock/echo"), so the
 * claimers of one run, and of one credential, take turns. The counts that
 * follow are statements of their own: in a VOLATILE function under READ COMMITTED each statement
 * takes a new snapshot, so they see every claim committed while we waited for the lock. (Folded
 * into the locking statement as a subquery, the count used the snapshot from before the wait, and
 * two workers put 6 calls in flight under a cap of 3.) Cells are taken with FOR UPDATE SKIP LOCKED,
 * so a cell being completed at that moment is passed over rather than waited for. Runnable means
 * queued and due, or running with an expired lease (its worker died): that cell is taken back and
 * the attempt counted. A budget that would be passed stops the claims; with nothing in flight, the
 * rest of the run is skipped with the reason.
 */
create or replace function parallaxr_claim_cells(p_run_id uuid, p_worker text, p_lease_ms double precision, p_limit integer)
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
  -- cells claimed in this call per provider, for the run's per-provider cap over several credentials
  v_claimed jsonb := '{}'::jsonb;
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
  -- Spent counts the generator's and the grader's calls; a column's estimate per cell includes its
  -- grading (lib/engine/plan-run.ts).
  if v_run.budget_mode <> 'off' and v_run.budget_usd is not null then
    select coalesce(max(estimated_cost_per_cell), 0) into v_per_cell from run_columns where run_id = p_run_id;
    select coalesce(sum(coalesce(c.cost_usd, 0) + coalesce(c.grader_cost_usd, 0)) filter (where c.status not in ('queued', 'running')), 0),
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

  -- Each credential of the run within the run's per-provider cap, the user's limits for its
  -- provider and the credential's adaptive limit.
  for v_provider in
    select col.provider, parallaxr_credential(col.provider, col.model) as credential
      from run_columns col where col.run_id = p_run_id
     group by 1, 2 order by 2
  loop
    exit when v_free <= 0;
    v_provider_room := v_free;
    if v_run.provider_concurrency ? v_provider.provider then
      v_provider_room := least(v_provider_room,
        (v_run.provider_concurrency ->> v_provider.provider)::integer - coalesce((v_in_flight ->> v_provider.provider)::integer, 0)
          - coalesce((v_claimed ->> v_provider.provider)::integer, 0));
    end if;
    select * into v_limit from provider_limits
     where user_id = v_run.user_id and provider = v_provider.provider for update;
    if found then
      -- the provider's row throttles only a provider that is one credential
      v_cap := least(coalesce(v_limit.max_concurrency, 2147483647),
                     case when v_provider.credential = v_provider.provider
                          then coalesce(floor(v_limit.adaptive_limit)::integer, 2147483647) else 2147483647 end);
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
    if v_provider.credential <> v_provider.provider then
      select * into v_limit from provider_limits
       where user_id = v_run.user_id and provider = v_provider.credential for update;
      if found and v_limit.adaptive_limit is not null then
        select count(*)::integer into v_used
          from run_cells c join run_columns col on col.id = c.column_id
         where c.user_id = v_run.user_id and c.status = 'running' and c.lease_expires_at > now()
           and col.provider = v_provider.provider and parallaxr_credential(col.provider, col.model) = v_provider.credential;
        v_provider_room := least(v_provider_room, floor(v_limit.adaptive_limit)::integer - v_used);
      end if;
    end if;
    if v_provider_room <= 0 then
      v_limited := true;
      continue;
    end if;
    v_batch := parallaxr_claim_batch(v_run, p_worker, p_lease_ms, v_provider_room, array[v_provider.credential], null);
    v_cells := v_cells || v_batch;
    v_claimed := v_claimed || jsonb_build_object(v_provider.provider,
                   coalesce((v_claimed ->> v_provider.provider)::integer, 0) + jsonb_array_length(v_batch));
    v_free := v_free - jsonb_array_length(v_batch);
  end loop;

  if jsonb_array_length(v_cells) > 0 and v_run.status = 'queued' then
    update runs set status = 'running', started_at = coalesce(started_at, now()) where id = p_run_id;
  end if;
  -- Held back by a limit is not the same as having nothing left to run.
  return jsonb_build_object('cells', v_cells, 'exhausted', v_free > 0 and not v_limited);
end
$$;

-- The adaptation of 0005 per credential: 429s of mock/flaky lower mock/flaky's limit only. The
-- user's maximum for the provider is where a first decrease starts and where an increase stops.
create or replace function parallaxr_adapt_limits(p_results jsonb)
returns void
language plpgsql volatile as $$
declare
  v_row record;
  v_in_flight integer;
  v_max integer;
begin
  for v_row in
    select c.user_id, x.provider, parallaxr_credential(x.provider, x.model) as credential,
           count(*) filter (where x.error_code = 'rate_limited') as throttled,
           count(*) filter (where x.status in ('ok', 'warning', 'malformed') and not coalesce(x.cached, false)) as succeeded
      from jsonb_to_recordset(p_results) as x(id uuid, provider text, model text, status text, error_code text, cached boolean)
      join run_cells c on c.id = x.id
     where x.provider is not null
     group by 1, 2, 3
     order by 3
  loop
    v_max := (select max_concurrency from provider_limits where user_id = v_row.user_id and provider = v_row.provider);
    if v_row.throttled > 0 then
      select count(*)::integer into v_in_flight
        from run_cells c join run_columns col on col.id = c.column_id
       where c.user_id = v_row.user_id and c.status = 'running' and c.lease_expires_at > now()
         and col.provider = v_row.provider and parallaxr_credential(col.provider, col.model) = v_row.credential;
      insert into provider_limits (user_id, provider, adaptive_limit, decreased_at)
      values (v_row.user_id, v_row.credential, greatest(1, floor(coalesce(v_max, v_in_flight + v_row.throttled) / 2.0)), now())
      on conflict (user_id, provider) do update
         set adaptive_limit = greatest(1, floor(coalesce(provider_limits.adaptive_limit,
                                                         provider_limits.max_concurrency,
                                                         v_max,
                                                         v_in_flight + v_row.throttled) / 2.0)),
             decreased_at = now(), updated_at = now()
       where provider_limits.decreased_at is null or provider_limits.decreased_at < now() - interval '1 second';
    elsif v_row.succeeded > 0 then
      update provider_limits
         set adaptive_limit = case
               when adaptive_limit + v_row.succeeded / adaptive_limit >= coalesce(max_concurrency, v_max, 1024) then null
               else adaptive_limit + v_row.succeeded / adaptive_limit end,
             updated_at = now()
       where user_id = v_row.user_id and provider = v_row.credential and adaptive_limit is not null;
    end if;
  end loop;
end
$$;

-- A throttle of the shared mock credential from before is nobody's now: lift it.
update provider_limits set adaptive_limit = null, decreased_at = null where provider = 'mock' and adaptive_limit is not null;

-- Finding a prompt's unfinished run (lib/db/runs/find-active-run.ts, one active run per prompt).
create index runs_prompt_active_idx on runs (prompt_id, created_at desc) where status in ('planned', 'queued', 'running', 'paused');
