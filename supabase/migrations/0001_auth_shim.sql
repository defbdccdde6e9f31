-- Roles and auth.uid() as Supabase provides them, created only where they are absent, so the same
-- migrations run on Supabase, on a plain Postgres server and on PGlite.
do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'authenticated') then
    create role authenticated nologin noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'anon') then
    create role anon nologin noinherit;
  end if;
end
$$;

create schema if not exists auth;
grant usage on schema auth to authenticated, anon;

do $$
begin
  if not exists (
    select 1 from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = 'auth' and p.proname = 'uid'
  ) then
    -- Same contract as Supabase's auth.uid(): the subject of the request's JWT claims,
    -- which the server sets per transaction with set_config(..., true).
    execute $fn$
      create function auth.uid() returns uuid
      language sql stable
      as $body$
        select coalesce(
          nullif(current_setting('request.jwt.claim.sub', true), ''),
          (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')
        )::uuid
      $body$
    $fn$;
    execute 'grant execute on function auth.uid() to authenticated, anon';
  end if;
end
$$;
