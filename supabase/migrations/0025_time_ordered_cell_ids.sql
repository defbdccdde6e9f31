-- A cell's id is time-ordered (issue 15, creating a large run). It was gen_random_uuid(): each of
-- a run's cells went into run_cells_pkey at a random place, so inserting 100,000 of them touched
-- pages all over the index, and PGlite drew each id from its strong random source. The cells'
-- inserts of a 100,000-cell run took 4.8-5.8 s on PGlite; with these ids 4.1-4.6 s, and the
-- index's pages fill from its right end (bench/README.md, "Creating a large run: time-ordered ids").
--
-- The ids are UUIDs of version 7 (RFC 9562): the milliseconds since 1970 in the first 48 bits,
-- then 66 random bits (12 + 2 + 52, around the version and variant bits; random() gives 52) from
-- the session's generator. It needs no strong source: nothing depends on a cell id being hard to
-- guess (a cell is read by its owner only, RLS), and two cells of one millisecond are told apart
-- by 66 random bits; the primary key would refuse a collision rather than mix up two cells.
-- Cells inserted before keep their ids.
--
-- The two other tables written a row per cell or per row take the same ids: dataset_rows (a
-- run's inline rows, 25,000 of them for a 100,000-cell run) and response_cache (a row per new
-- answer, written with each save).
create function parallaxr_uuid7() returns uuid
language sql volatile parallel safe as $$
  select (lpad(to_hex((extract(epoch from clock_timestamp()) * 1000)::bigint), 12, '0')
          || '7' || lpad(to_hex(floor(random() * 4096)::int), 3, '0')
          || to_hex(8 + floor(random() * 4)::int)
          || lpad(to_hex(floor(random() * 2 ^ 52)::bigint), 15, '0'))::uuid
$$;

alter table run_cells alter column id set default parallaxr_uuid7();
alter table dataset_rows alter column id set default parallaxr_uuid7();
alter table response_cache alter column id set default parallaxr_uuid7();
