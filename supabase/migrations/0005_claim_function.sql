-- The claim of lib/db/cells/claim-cells.ts as one function, so a claim is one round trip instead
-- of five (begin, lock, count, claim, commit): measured as the main cost of a freed slot.

-- Calls in flight are few; these keep counting them and finding a worker's own cells from
-- scanning every open cell (984 of 1,000 rows were filtered away per count before).
create index run_cells_running_run_idx on run_cells (run_id) where status = 'running';
create index run_cells_running_owner_idx on run_cells (lease_owner) where status = 'running';

/*
 * Claims up to p_limit runnable cells of one run for p_worker within the run's concurrency cap
 * and its per-provider caps, counted over every worker. Answers
 * {"cells": [...], "exhausted": bool}; exhausted means nothing more is runnable now.
 *
 * Locking: the run's row is locked FOR UPDATE first, so the claimers of one run take turns. The
 * count that follows is a statement of its own: in a VOLATILE function under READ COMMITTED each
 * statement takes a new snapshot, so it sees every claim committed while we waited for the lock.
 * (Folded into the locking statement as a subquery, the count used the snapshot from before the
 * wait, and two workers put 6 calls in flight under a cap of 3.) Cells are taken with FOR UPDATE
 * SKIP LOCKED, so a cell being completed at that moment is passed over rather than waited for.
 * Runnable means queued and due, or running with an expired lease (its worker died): that cell
 * is taken back and the attempt counted.
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
  v_cap record;
  v_provider_room integer;
  v_capped text[];
  v_batch jsonb;
  v_cells jsonb := '[]'::jsonb;
begin
  select * into v_run from runs where id = p_run_id for update;
  if not found or v_run.status not in ('queued', 'running') then
    return jsonb_build_object('cells', v_cells, 'exhausted', not found or v_run.status <> 'paused');
  end if;

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
  v_free := v_room;

  select coalesce(array_agg(key), '{}') into v_capped from jsonb_object_keys(v_run.provider_concurrency) as key;

  -- capped providers one by one within their own room, then the rest together
  for v_cap in select key as provider, value::integer as cap from jsonb_each_text(v_run.provider_concurrency) loop
    exit when v_free <= 0;
    v_provider_room := least(v_free, v_cap.cap - coalesce((v_in_flight ->> v_cap.provider)::integer, 0));
    continue when v_provider_room <= 0;
    v_batch := parallaxr_claim_batch(v_run, p_worker, p_lease_ms, v_provider_room, array[v_cap.provider], null);
    v_cells := v_cells || v_batch;
    v_free := v_free - jsonb_array_length(v_batch);
  end loop;
  if v_free > 0 then
    v_batch := parallaxr_claim_batch(v_run, p_worker, p_lease_ms, v_free, null, v_capped);
    v_cells := v_cells || v_batch;
    v_free := v_free - jsonb_array_length(v_batch);
  end if;

  if jsonb_array_length(v_cells) > 0 and v_run.status = 'queued' then
    update runs set status = 'running', started_at = coalesce(started_at, now()) where id = p_run_id;
  end if;
  return jsonb_build_object('cells', v_cells, 'exhausted', v_free > 0);
end
$$;

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
 * Writes results of cells p_worker holds (the shape of lib/db/cells/save-cell-results.ts) and
 * answers the ids written. A cell whose lease expired and was taken by another worker keeps that
 * worker's result. A result with status 'queued' is a retry after retry_delay_ms.
 */
create function parallaxr_save_results(p_worker text, p_results jsonb)
returns uuid[]
language sql volatile as $$
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
     returning c.id
  )
  select coalesce(array_agg(id), '{}') from saved
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
  return parallaxr_claim_cells(p_run_id, p_worker, p_lease_ms, p_limit) || jsonb_build_object('saved', to_jsonb(v_saved));
end
$$;
