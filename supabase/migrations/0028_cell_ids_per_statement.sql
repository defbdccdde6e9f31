-- The cells of a run's plan take ids drawn once per statement (issue 15, creating a large run).
-- parallaxr_uuid7() (0025) draws its clock and three random numbers for every row, and auth.uid(),
-- user_id's default, reads the request's settings for every row too: on PGlite about a third of
-- the time the 10,000-cell inserts of a large run spent before a row reached the table
-- (bench/README.md, "The work per call on the embedded database").
--
-- parallaxr_uuid7_prefix() is the first 24 hex digits of a version 7 UUID (RFC 9562): the
-- milliseconds since 1970 (48 bits), the version, 12 random bits, the variant with 2 random bits
-- and 28 more random bits. A statement that inserts many rows draws it once and ends each row's id
-- with that row's number in the statement (8 hex digits: RFC 9562's counter in the random bits,
-- method 1), so its ids rise in the order it inserts them. Two statements of one millisecond are
-- told apart by 42 random bits; the primary key refuses a collision rather than mix up two cells.
create function parallaxr_uuid7_prefix() returns text
language sql volatile parallel safe as $$
  select lpad(to_hex((extract(epoch from clock_timestamp()) * 1000)::bigint), 12, '0')
         || '7' || lpad(to_hex(floor(random() * 4096)::int), 3, '0')
         || to_hex(8 + floor(random() * 4)::int)
         || lpad(to_hex(floor(random() * 268435456)::int), 7, '0')
$$;
