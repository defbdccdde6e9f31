-- Claiming ahead on a Postgres server too (issue 15). Between a call's answer and its slot's next
-- call, a worker that does not claim ahead waits for a save-and-claim round trip: on a server,
-- 20-25 ms a wave of 64 calls under load, 8 ms at 16 wide (bench/README.md, "Claiming ahead on a
-- server"). 0018 let only a worker alone on its database claim ahead (PGlite), because workers
-- that each hold cells beyond the cap and each call up to the cap could together call twice it.
--
-- Now a claim may hold cells ahead only while no other worker has a cell of the run running
-- (counted after the run's lock, so claims of the run are seen in order). Why the cap holds:
-- - a worker alone on a run calls at most the cap (its own count, lib/engine/worker.ts);
-- - a second worker's claim counts the first's held cells as running, so it gets cells only once
--   fewer than the cap are running, and from then on neither may claim ahead while the other has
--   cells running: every claim keeps the running cells, held ones included, within the cap, and a
--   held cell that starts was already counted.
-- A worker alone on a run keeps it (another worker's claims find no room while it holds ahead);
-- the run's pace is its cap either way.
--
-- A held cell is marked as such (held) instead of by an empty started_at. Its worker reports that
-- its call started with its next statement (parallaxr_mark_started); that update set started_at,
-- an indexed column (run_cells_user_started_idx, the requests-per-minute count), so it wrote an
-- entry in each of the table's indexes, and claiming ahead on a server adds it to most cells.
-- Clearing held, in no index, lets Postgres update the row in place (a heap-only tuple) when its
-- page has room: 912 of ~1,300 marks of a 64-wide run on the server. started_at is now set by
-- the claim for held cells too: the per-minute count sees them from their claim, a little early,
-- rather than only once marked (a claim could pass the limit before).
--
-- And a cell held ahead whose worker died before starting it (its lease runs out on a server;
-- PGlite gives such cells back at start, lib/db/cells/renew-leases.ts) made no call: claiming it
-- again does not count another attempt.

alter table run_cells add column held boolean not null default false;
-- cells held when the database was upgraded: claimed ahead by 0018's claim, started_at empty
update run_cells set held = true where status = 'running' and started_at is null;

create or replace function parallaxr_claim_batch(
  p_run runs, p_worker text, p_lease_ms double precision, p_limit integer, p_only text[], p_except text[], p_start integer
) returns jsonb
language sql volatile as $$
  with picked as (
    select c.id, c.row_index, c.column_index, c.variant, c.trial, col.provider, col.model, col.params
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
  ), numbered as (
    select picked.*, row_number() over (order by row_index, column_index, variant, trial) <= p_start as starts
      from picked
  ), claimed as (
    update run_cells c
       set status = 'running', lease_owner = p_worker,
           -- a cell its worker held and never started (its lease ran out) made no call: no attempt counted
           attempts = c.attempts + case when c.status = 'running' and c.held then 0 else 1 end,
           lease_expires_at = now() + make_interval(secs => p_lease_ms / 1000),
           started_at = now(), held = not numbered.starts
      from numbered
     where c.id = numbered.id
     returning c.id, c.column_index, c.row_index, c.trial, c.variant, c.attempts, c.bypass_cache,
               numbered.provider, numbered.model, numbered.params, numbered.starts
  )
  select coalesce(jsonb_agg(jsonb_build_object(
           'id', claimed.id, 'columnIndex', claimed.column_index, 'rowIndex', claimed.row_index,
           'trial', claimed.trial, 'variant', claimed.variant, 'attempts', claimed.attempts,
           'bypassCache', claimed.bypass_cache, 'provider', claimed.provider, 'model', claimed.model,
           'params', claimed.params, 'variables', coalesce(r.data, '{}'::jsonb), 'started', claimed.starts)), '[]'::jsonb)
    from claimed left join dataset_rows r
      on r.dataset_id = p_run.dataset_id and r.row_index = claimed.row_index and r.user_id = p_run.user_id
$$;

create or replace function parallaxr_claim_cells(
  p_run_id uuid, p_worker text, p_lease_ms double precision, p_limit integer, p_ahead integer, p_start integer
)
returns jsonb
language plpgsql volatile as $$
declare
  v_run runs%rowtype;
  v_in_flight jsonb;
  v_total integer;
  -- cells of the run running under another worker's lease
  v_others integer;
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
  select coalesce(jsonb_object_agg(x.provider, x.n), '{}'::jsonb), coalesce(sum(x.n), 0)::integer, coalesce(sum(x.others), 0)::integer
    into v_in_flight, v_total, v_others
    from (select col.provider, count(*)::integer as n,
                 count(*) filter (where c.lease_owner is distinct from p_worker)::integer as others
            from run_cells c join run_columns col on col.id = c.column_id
           where c.run_id = p_run_id and c.status = 'running' and c.lease_expires_at > now()
           group by col.provider) x;

  -- A worker may hold up to p_ahead cells (at most the run's concurrency) beyond the cap, ready to
  -- start the moment a call ends; it never calls more than the cap at once. Only while no other
  -- worker has a cell of the run running: the one change from 0018.
  v_room := least(p_limit, v_run.concurrency - v_total
                           + case when v_others = 0 then least(greatest(p_ahead, 0), v_run.concurrency) else 0 end);
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
    v_batch := parallaxr_claim_batch(v_run, p_worker, p_lease_ms, v_provider_room, array[v_provider.credential], null,
                                     greatest(p_start - jsonb_array_length(v_cells), 0));
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

-- Records that held cells' calls started.
create or replace function parallaxr_mark_started(p_worker text, p_ids uuid[])
returns void
language sql volatile as $$
  update run_cells set held = false
   where id = any(p_ids) and lease_owner = p_worker and status = 'running' and held
$$;
