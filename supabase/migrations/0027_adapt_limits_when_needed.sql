-- A save asks for adaptive limits only when there is something to adapt (issue 15, the work per
-- call on the embedded database). parallaxr_save_and_claim calls parallaxr_adapt_limits with every
-- batch of results; on PGlite it took 2.3-2.6 ms of the 11-13 ms a save-and-claim of ~10 cells
-- takes, even when no call was throttled and no limit was adaptive, the common case. Same results:
-- the loop's updates touch only rows whose adaptive_limit is set, or follow a throttled call.
create or replace function parallaxr_adapt_limits(p_results jsonb)
returns void
language plpgsql as $$
declare
  v_row record;
  v_in_flight integer;
  v_max integer;
begin
  -- Nothing to adapt: no call of these was throttled (which halves a limit) and no credential is
  -- under an adaptive limit (which successes raise). The loop below joins every result to its
  -- cell to find both out; most saves have neither, and this is one statement instead of three.
  if not (p_results @> '[{"error_code": "rate_limited"}]')
     and not exists (select 1 from provider_limits where adaptive_limit is not null) then
    return;
  end if;
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
