-- Analytical PostgreSQL on Chinook (benign_test.go): every query must run
-- through the guard (0 refused) and return what psql returns. One query per
-- block; a block ends with a line that is only ";".

-- ordered-set and hypothetical-set aggregates
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY total) AS median FROM invoice
;
SELECT billing_country, percentile_cont(ARRAY[0.25, 0.5, 0.75]) WITHIN GROUP (ORDER BY total) AS quartiles
FROM invoice GROUP BY billing_country ORDER BY billing_country
;
SELECT percentile_disc(0.9) WITHIN GROUP (ORDER BY milliseconds) AS p90_ms FROM track
;
SELECT mode() WITHIN GROUP (ORDER BY billing_country) AS most_common_country FROM invoice
;
SELECT rank(5.0) WITHIN GROUP (ORDER BY total) AS rank_of_five, percent_rank(5.0) WITHIN GROUP (ORDER BY total) FROM invoice
;
SELECT genre_id, percentile_cont(0.5) WITHIN GROUP (ORDER BY unit_price) FROM track GROUP BY genre_id ORDER BY genre_id
;
-- FILTER
SELECT count(*) FILTER (WHERE total > 10) AS big, count(*) FILTER (WHERE total <= 10) AS small FROM invoice
;
SELECT billing_country, sum(total) FILTER (WHERE extract(year FROM invoice_date) = 2012) AS y2012,
       sum(total) FILTER (WHERE extract(year FROM invoice_date) = 2013) AS y2013
FROM invoice GROUP BY billing_country ORDER BY billing_country
;
SELECT g.name, count(*) FILTER (WHERE t.milliseconds > 300000) AS long_tracks, count(*) AS tracks
FROM track t JOIN genre g USING (genre_id) GROUP BY g.name ORDER BY g.name
;
SELECT avg(total) FILTER (WHERE billing_country = 'USA') AS usa, avg(total) FILTER (WHERE billing_country <> 'USA') AS others FROM invoice
;
-- window functions and frames
SELECT invoice_id, customer_id, total, sum(total) OVER (PARTITION BY customer_id ORDER BY invoice_date, invoice_id) AS running
FROM invoice ORDER BY customer_id, invoice_date, invoice_id LIMIT 50
;
SELECT invoice_id, total, avg(total) OVER (ORDER BY invoice_date, invoice_id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS moving_avg
FROM invoice ORDER BY invoice_date, invoice_id LIMIT 40
;
SELECT date_trunc('month', invoice_date) AS month, sum(total) AS sales,
       sum(sum(total)) OVER (ORDER BY date_trunc('month', invoice_date) RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS cumulative
FROM invoice GROUP BY 1 ORDER BY 1
;
SELECT name, milliseconds, rank() OVER (ORDER BY milliseconds DESC) AS r, dense_rank() OVER (ORDER BY milliseconds DESC) AS dr
FROM track ORDER BY milliseconds DESC, name LIMIT 20
;
SELECT album_id, name, row_number() OVER (PARTITION BY album_id ORDER BY track_id) AS n FROM track WHERE album_id <= 5 ORDER BY album_id, n
;
SELECT invoice_id, total, lag(total) OVER w AS previous, lead(total) OVER w AS next
FROM invoice WINDOW w AS (ORDER BY invoice_id) ORDER BY invoice_id LIMIT 30
;
SELECT customer_id, invoice_date, first_value(total) OVER w, last_value(total) OVER w, nth_value(total, 2) OVER w
FROM invoice WINDOW w AS (PARTITION BY customer_id ORDER BY invoice_date, invoice_id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
ORDER BY customer_id, invoice_date, invoice_id LIMIT 30
;
SELECT name, unit_price, ntile(4) OVER (ORDER BY milliseconds, track_id) AS quartile FROM track ORDER BY milliseconds, track_id LIMIT 25
;
SELECT genre_id, count(*), round(100.0 * count(*) / sum(count(*)) OVER (), 2) AS pct FROM track GROUP BY genre_id ORDER BY genre_id
;
SELECT invoice_id, total, cume_dist() OVER (ORDER BY total) AS cd, percent_rank() OVER (ORDER BY total) AS pr FROM invoice ORDER BY invoice_id LIMIT 20
;
SELECT invoice_id, invoice_date, total, sum(total) OVER (ORDER BY invoice_date RANGE BETWEEN INTERVAL '30 days' PRECEDING AND CURRENT ROW) AS last_30_days
FROM invoice ORDER BY invoice_date, invoice_id LIMIT 25
;
SELECT invoice_id, total, count(*) OVER (ORDER BY total GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE CURRENT ROW) FROM invoice ORDER BY total, invoice_id LIMIT 20
;
-- GROUPING SETS, ROLLUP, CUBE
SELECT billing_country, billing_city, sum(total) FROM invoice WHERE billing_country IN ('USA', 'Canada')
GROUP BY ROLLUP (billing_country, billing_city) ORDER BY billing_country NULLS LAST, billing_city NULLS LAST
;
SELECT extract(year FROM invoice_date) AS y, billing_country, sum(total), grouping(billing_country) AS g
FROM invoice WHERE billing_country IN ('France', 'Germany') GROUP BY CUBE (1, billing_country) ORDER BY 1 NULLS LAST, 2 NULLS LAST
;
SELECT media_type_id, genre_id, count(*) FROM track WHERE genre_id < 4 GROUP BY GROUPING SETS ((media_type_id), (genre_id), ()) ORDER BY 1 NULLS LAST, 2 NULLS LAST
;
SELECT e.title, e.city, count(c.customer_id) FROM employee e LEFT JOIN customer c ON c.support_rep_id = e.employee_id
GROUP BY ROLLUP (e.title, e.city) ORDER BY 1 NULLS LAST, 2 NULLS LAST
;
-- LATERAL
SELECT c.customer_id, c.last_name, last.invoice_date, last.total
FROM customer c CROSS JOIN LATERAL (SELECT invoice_date, total FROM invoice i WHERE i.customer_id = c.customer_id ORDER BY invoice_date DESC, invoice_id DESC LIMIT 1) last
ORDER BY c.customer_id
;
SELECT a.title, top.name, top.milliseconds FROM album a
JOIN LATERAL (SELECT name, milliseconds FROM track t WHERE t.album_id = a.album_id ORDER BY milliseconds DESC, track_id LIMIT 2) top ON true
WHERE a.album_id <= 10 ORDER BY a.album_id, top.milliseconds DESC
;
SELECT g.name, s.n FROM genre g LEFT JOIN LATERAL (SELECT count(*) AS n FROM track t WHERE t.genre_id = g.genre_id) s ON true ORDER BY g.name
;
SELECT i.invoice_id, x.* FROM invoice i, LATERAL (SELECT count(*) AS lines, sum(unit_price * quantity) AS amount FROM invoice_line il WHERE il.invoice_id = i.invoice_id) x
ORDER BY i.invoice_id LIMIT 20
;
-- DISTINCT ON
SELECT DISTINCT ON (customer_id) customer_id, invoice_date, total FROM invoice ORDER BY customer_id, invoice_date DESC, invoice_id DESC
;
SELECT DISTINCT ON (genre_id) genre_id, name, milliseconds FROM track ORDER BY genre_id, milliseconds DESC, track_id
;
SELECT DISTINCT ON (billing_country) billing_country, billing_city, total FROM invoice ORDER BY billing_country, total DESC, invoice_id
;
-- recursive CTEs
WITH RECURSIVE chain AS (
  SELECT employee_id, first_name, last_name, reports_to, 1 AS depth FROM employee WHERE reports_to IS NULL
  UNION ALL
  SELECT e.employee_id, e.first_name, e.last_name, e.reports_to, c.depth + 1 FROM employee e JOIN chain c ON e.reports_to = c.employee_id
) SELECT * FROM chain ORDER BY depth, employee_id
;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 12) SELECT i, i * i AS square FROM n
;
WITH RECURSIVE path AS (
  SELECT employee_id, ARRAY[employee_id] AS ids, last_name::text AS names FROM employee WHERE reports_to IS NULL
  UNION ALL
  SELECT e.employee_id, p.ids || e.employee_id, p.names || ' > ' || e.last_name FROM employee e JOIN path p ON e.reports_to = p.employee_id
) SELECT employee_id, names, cardinality(ids) FROM path ORDER BY employee_id
;
WITH RECURSIVE months(m) AS (SELECT date '2009-01-01' UNION ALL SELECT (m + interval '1 month')::date FROM months WHERE m < date '2009-12-01')
SELECT m, coalesce((SELECT sum(total) FROM invoice WHERE date_trunc('month', invoice_date) = m), 0) AS sales FROM months ORDER BY m
;
WITH RECURSIVE sub AS (SELECT employee_id FROM employee WHERE employee_id = 2 UNION SELECT e.employee_id FROM employee e JOIN sub s ON e.reports_to = s.employee_id)
SELECT count(*) FROM sub
;
-- nested and multiple CTEs
WITH sales AS (SELECT customer_id, sum(total) AS spent FROM invoice GROUP BY customer_id),
     ranked AS (SELECT customer_id, spent, rank() OVER (ORDER BY spent DESC) AS r FROM sales)
SELECT c.first_name, c.last_name, r.spent FROM ranked r JOIN customer c USING (customer_id) WHERE r.r <= 5 ORDER BY r.spent DESC, c.last_name
;
WITH t AS MATERIALIZED (SELECT genre_id, avg(milliseconds) AS avg_ms FROM track GROUP BY genre_id)
SELECT g.name, round(t.avg_ms / 1000) AS seconds FROM t JOIN genre g USING (genre_id) ORDER BY seconds DESC, g.name
;
WITH a AS (SELECT artist_id, count(*) AS albums FROM album GROUP BY artist_id),
     b AS (SELECT * FROM a WHERE albums > (SELECT avg(albums) FROM a))
SELECT ar.name, b.albums FROM b JOIN artist ar USING (artist_id) ORDER BY b.albums DESC, ar.name
;
WITH x AS (WITH y AS (SELECT album_id, count(*) AS n FROM track GROUP BY album_id) SELECT * FROM y WHERE n > 20)
SELECT al.title, x.n FROM x JOIN album al USING (album_id) ORDER BY x.n DESC, al.title
;
-- generate_series
SELECT g AS n FROM generate_series(1, 10) g
;
SELECT d::date AS day FROM generate_series(timestamp '2013-12-01', timestamp '2013-12-10', interval '1 day') d
;
SELECT m::date AS month, coalesce(s.sales, 0) AS sales
FROM generate_series(date '2013-01-01', date '2013-12-01', interval '1 month') m
LEFT JOIN (SELECT date_trunc('month', invoice_date) AS mon, sum(total) AS sales FROM invoice GROUP BY 1) s ON s.mon = m
ORDER BY m
;
SELECT x, x * 0.5 AS half FROM generate_series(0, 100, 25) x
;
SELECT b, count(t.track_id) FROM generate_series(0, 9) b LEFT JOIN track t ON width_bucket(t.milliseconds, 0, 1000000, 10) - 1 = b GROUP BY b ORDER BY b
;
-- jsonb and json
SELECT jsonb_build_object('id', artist_id, 'name', name) AS doc FROM artist ORDER BY artist_id LIMIT 5
;
SELECT json_agg(json_build_object('genre', name) ORDER BY genre_id) FROM genre
;
SELECT jsonb_pretty(jsonb_build_object('a', 1, 'b', jsonb_build_array(1, 2, 3)))
;
SELECT doc ->> 'name' AS name, (doc -> 'n')::int AS n
FROM (SELECT jsonb_build_object('name', g.name, 'n', count(*)) AS doc FROM track t JOIN genre g USING (genre_id) GROUP BY g.name) s ORDER BY n DESC, name
;
SELECT key, value FROM jsonb_each('{"a": 1, "b": [true, null], "c": {"d": "e"}}'::jsonb) ORDER BY key
;
SELECT jsonb_array_elements('[{"x": 1}, {"x": 2}, {"x": 3}]'::jsonb) -> 'x' AS x
;
SELECT '{"a": {"b": [10, 20, 30]}}'::jsonb #>> '{a,b,1}' AS second, '{"a": 1}'::jsonb ? 'a' AS has_a, '{"a": 1, "b": 2}'::jsonb @> '{"b": 2}' AS contains
;
SELECT jsonb_path_query_array('{"items": [{"p": 1}, {"p": 5}, {"p": 9}]}', '$.items[*] ? (@.p > 2).p')
;
SELECT to_jsonb(a) - 'artist_id' AS without_id FROM album a WHERE album_id = 1
;
SELECT jsonb_object_agg(name, genre_id ORDER BY genre_id) FROM genre WHERE genre_id <= 5
;
SELECT * FROM jsonb_to_recordset('[{"a": 1, "b": "x"}, {"a": 2, "b": "y"}]') AS t(a int, b text)
;
SELECT row_to_json(c) FROM (SELECT customer_id, first_name, country FROM customer ORDER BY customer_id LIMIT 3) c
;
-- arrays
SELECT album_id, array_agg(track_id ORDER BY track_id) AS tracks FROM track WHERE album_id <= 3 GROUP BY album_id ORDER BY album_id
;
SELECT unnest(ARRAY['a', 'b', 'c']) AS letter, generate_subscripts(ARRAY['a', 'b', 'c'], 1) AS i
;
SELECT ARRAY[1, 2, 3] || 4 AS appended, array_length(ARRAY[[1, 2], [3, 4]], 1), cardinality(ARRAY[[1, 2], [3, 4]]), array_position(ARRAY['x', 'y'], 'y')
;
SELECT name FROM genre WHERE genre_id = ANY (ARRAY[1, 3, 5]) ORDER BY name
;
SELECT array_to_string(array_agg(DISTINCT billing_country ORDER BY billing_country), ', ') FROM invoice
;
SELECT string_to_array('a,b,,c', ',') AS parts, array_remove(ARRAY[1, 2, 1, 3], 1), array_replace(ARRAY[1, 2], 2, 9)
;
SELECT t.*, u.ord FROM unnest(ARRAY[10, 20, 30]) WITH ORDINALITY AS u(val, ord) CROSS JOIN LATERAL (SELECT u.val * 2 AS doubled) t ORDER BY u.ord
;
SELECT (ARRAY['zero', 'one', 'two'])[2] AS second, (ARRAY[1, 2, 3, 4, 5])[2:4] AS slice
;
-- regular expressions and text
SELECT name FROM artist WHERE name ~* '^the ' ORDER BY name
;
SELECT name, regexp_replace(name, '\s*\(.*\)', '', 'g') AS cleaned FROM track WHERE name ~ '\(' ORDER BY track_id LIMIT 15
;
SELECT (regexp_match(email, '@(.+)$'))[1] AS domain, count(*) FROM customer GROUP BY 1 ORDER BY 2 DESC, 1
;
SELECT regexp_matches('a1b22c333', '\d+', 'g') AS digits
;
SELECT split_part(email, '@', 2) AS domain, count(*) FROM employee GROUP BY 1 ORDER BY 1
;
SELECT name FROM track WHERE name ILIKE '%love%' ORDER BY name LIMIT 20
;
SELECT name FROM artist WHERE name SIMILAR TO '(A|B)%' ORDER BY name LIMIT 10
;
SELECT initcap(lower(name)), upper(name), length(name), char_length(name), octet_length(name) FROM genre ORDER BY genre_id
;
SELECT left(name, 10), right(name, 5), lpad(genre_id::text, 4, '0'), rpad(name, 12, '.'), reverse(name) FROM genre ORDER BY genre_id
;
SELECT concat_ws(' ', first_name, last_name) AS full_name, format('%s (%s)', company, country) FROM customer WHERE company IS NOT NULL ORDER BY customer_id
;
SELECT trim(both ' ' from '  padded  ') AS t, btrim('xxhixx', 'x'), ltrim('  a'), position('b' IN 'abc'), strpos('hello', 'l'), substring('PostgreSQL' FROM 5 FOR 3)
;
SELECT translate('abc', 'ab', 'xy'), replace(name, ' ', '_'), md5(name), encode(convert_to(name, 'UTF8'), 'base64') FROM genre WHERE genre_id <= 3 ORDER BY genre_id
;
SELECT name, overlay(name PLACING '***' FROM 2 FOR 3), starts_with(name, 'R'), quote_ident(name), quote_literal(name) FROM genre ORDER BY genre_id
;
SELECT string_agg(name, ', ' ORDER BY name) AS genres FROM genre
;
SELECT country, string_agg(DISTINCT city, '; ' ORDER BY city) FROM customer GROUP BY country ORDER BY country
;
SELECT to_tsvector('english', title) @@ to_tsquery('english', 'rock') AS rock, title FROM album WHERE album_id <= 30 ORDER BY album_id
;
SELECT regexp_split_to_table('one two  three', '\s+') AS word
;
SELECT E'tab\there' AS escaped, $$dollar 'quoted'$$ AS dollar, U&'\00e9t\00e9' AS unicode, 'it''s' AS doubled
;
SELECT name COLLATE "C" FROM genre ORDER BY name COLLATE "C"
;
-- dates, times, intervals
SELECT date_trunc('month', invoice_date) AS month, count(*), sum(total) FROM invoice GROUP BY 1 ORDER BY 1
;
SELECT extract(year FROM invoice_date) AS year, extract(quarter FROM invoice_date) AS q, sum(total) FROM invoice GROUP BY 1, 2 ORDER BY 1, 2
;
SELECT date_part('dow', invoice_date) AS weekday, count(*) FROM invoice GROUP BY 1 ORDER BY 1
;
SELECT to_char(invoice_date, 'YYYY-MM') AS ym, to_char(sum(total), 'FM999,990.00') FROM invoice GROUP BY 1 ORDER BY 1 LIMIT 12
;
SELECT first_name, last_name, age(hire_date, birth_date) AS age_at_hire, extract(year FROM age(hire_date, birth_date)) AS years FROM employee ORDER BY employee_id
;
SELECT invoice_id, invoice_date, invoice_date + interval '30 days' AS due, (invoice_date + interval '1 month')::date FROM invoice ORDER BY invoice_id LIMIT 10
;
SELECT max(invoice_date) - min(invoice_date) AS span, justify_interval(max(invoice_date) - min(invoice_date)) FROM invoice
;
SELECT customer_id, max(invoice_date)::date - min(invoice_date)::date AS days_between FROM invoice GROUP BY customer_id ORDER BY days_between DESC, customer_id LIMIT 10
;
SELECT make_date(2024, 2, 29) AS leap, make_interval(days => 10, hours => 5), date '2024-03-01' - date '2024-02-01' AS days
;
SELECT interval '1 day 2 hours' * 3 AS tripled, extract(epoch FROM interval '90 minutes') AS seconds, interval '1 year' - interval '1 day'
;
SELECT employee_id, hire_date, date_trunc('year', hire_date) AS hire_year, hire_date::date AS d FROM employee ORDER BY employee_id
;
SELECT to_date('05 Dec 2000', 'DD Mon YYYY') AS d, to_timestamp('2020-01-02 03:04:05', 'YYYY-MM-DD HH24:MI:SS')::timestamp AS ts
;
SELECT invoice_date AT TIME ZONE 'UTC' AT TIME ZONE 'Europe/Paris' AS paris FROM invoice ORDER BY invoice_id LIMIT 3
;
SELECT date_bin(interval '15 days', invoice_date, timestamp '2009-01-01') AS bin, count(*) FROM invoice GROUP BY 1 ORDER BY 1 LIMIT 10
;
SELECT (date '2013-01-01', date '2013-06-30') OVERLAPS (date '2013-06-01', date '2013-12-31') AS overlaps
;
SELECT count(*) FROM invoice WHERE invoice_date BETWEEN timestamp '2012-01-01' AND timestamp '2012-12-31 23:59:59'
;
SELECT isfinite(date '2020-01-01'), extract(isodow FROM date '2024-01-01'), extract(week FROM date '2024-01-01'), extract(doy FROM date '2024-12-31')
;
-- casts and math
SELECT '42'::int + 1, 3.7::int, '3.14159'::numeric(5, 2), 10 / 4, 10 / 4.0, 10 % 3, 2 ^ 10, |/ 16.0, @ -5
;
SELECT round(avg(total), 2), round(stddev(total), 4), round(variance(total), 4), min(total), max(total) FROM invoice
;
SELECT trunc(1234.5678, 2), ceil(1.2), floor(-1.2), abs(-3), sign(-2.5), sqrt(2)::numeric(10, 6), cbrt(27), exp(1)::numeric(10, 5), ln(10)::numeric(10, 5), log(1000)
;
SELECT power(2, 0.5)::numeric(10, 6), mod(17, 5), div(17, 5), gcd(12, 18), lcm(4, 6), pi()::numeric(10, 8), degrees(pi()), radians(180)::numeric(10, 6)
;
SELECT corr(milliseconds, bytes)::numeric(10, 6) AS r, regr_slope(bytes, milliseconds)::numeric(12, 4), covar_pop(milliseconds::float8, bytes::float8)::numeric(20, 2) FROM track
;
SELECT width_bucket(total, 0, 25, 5) AS bucket, count(*) FROM invoice GROUP BY 1 ORDER BY 1
;
SELECT bool_and(total > 0), bool_or(total > 20), every(total < 100), bit_and(quantity), bit_or(quantity) FROM invoice JOIN invoice_line USING (invoice_id)
;
SELECT CAST(milliseconds AS numeric) / 60000 AS minutes FROM track ORDER BY track_id LIMIT 5
;
SELECT 1::bigint << 40 AS shifted, 255 & 15, 5 | 2, 5 # 1, ~ 0, 'abc' < 'abd' AS less
;
SELECT greatest(1, 5, 3), least('b', 'a', 'c'), coalesce(NULL, NULL, 'x'), nullif(5, 5), nullif(5, 6)
;
SELECT billing_country, round(sum(total)::numeric, 2), round(100 * sum(total) / (SELECT sum(total) FROM invoice), 1) AS share FROM invoice GROUP BY 1 ORDER BY 2 DESC LIMIT 10
;
-- NULLS ordering, CASE, conditional logic
SELECT company, country FROM customer ORDER BY company NULLS FIRST, customer_id LIMIT 10
;
SELECT state, count(*) FROM customer GROUP BY state ORDER BY state DESC NULLS LAST
;
SELECT name, CASE WHEN milliseconds < 180000 THEN 'short' WHEN milliseconds < 360000 THEN 'medium' ELSE 'long' END AS length_class FROM track ORDER BY track_id LIMIT 20
;
SELECT CASE extract(dow FROM invoice_date) WHEN 0 THEN 'Sunday' WHEN 6 THEN 'Saturday' ELSE 'weekday' END AS kind, count(*) FROM invoice GROUP BY 1 ORDER BY 1
;
SELECT customer_id, coalesce(state, country) AS region, fax IS NULL AS no_fax FROM customer ORDER BY customer_id LIMIT 15
;
SELECT count(*) FROM customer WHERE company IS DISTINCT FROM NULL
;
-- joins, subqueries, set operations
SELECT ar.name AS artist, count(DISTINCT al.album_id) AS albums, count(t.track_id) AS tracks
FROM artist ar JOIN album al USING (artist_id) JOIN track t USING (album_id) GROUP BY ar.name HAVING count(t.track_id) > 50 ORDER BY tracks DESC, artist
;
SELECT c.country, count(DISTINCT c.customer_id) AS customers, sum(i.total) AS revenue
FROM customer c JOIN invoice i USING (customer_id) GROUP BY c.country ORDER BY revenue DESC, c.country LIMIT 10
;
SELECT e.first_name || ' ' || e.last_name AS rep, count(*) AS customers FROM employee e JOIN customer c ON c.support_rep_id = e.employee_id GROUP BY rep ORDER BY customers DESC, rep
;
SELECT m.last_name AS manager, e.last_name AS employee FROM employee e LEFT JOIN employee m ON e.reports_to = m.employee_id ORDER BY e.employee_id
;
SELECT t.name FROM track t WHERE NOT EXISTS (SELECT 1 FROM invoice_line il WHERE il.track_id = t.track_id) ORDER BY t.track_id LIMIT 10
;
SELECT name FROM artist WHERE artist_id IN (SELECT artist_id FROM album GROUP BY artist_id HAVING count(*) >= 5) ORDER BY name
;
SELECT g.name, (SELECT count(*) FROM track t WHERE t.genre_id = g.genre_id) AS tracks FROM genre g ORDER BY tracks DESC, g.name LIMIT 5
;
SELECT billing_country FROM invoice UNION SELECT country FROM customer ORDER BY 1
;
SELECT country FROM customer INTERSECT SELECT country FROM employee ORDER BY 1
;
SELECT country FROM customer EXCEPT SELECT billing_country FROM invoice WHERE total > 20 ORDER BY 1
;
SELECT 'tracks' AS what, count(*) FROM track UNION ALL SELECT 'albums', count(*) FROM album UNION ALL SELECT 'artists', count(*) FROM artist
;
SELECT p.name, count(pt.track_id) FROM playlist p LEFT JOIN playlist_track pt USING (playlist_id) GROUP BY p.playlist_id, p.name ORDER BY p.playlist_id
;
SELECT a.name, b.name FROM genre a JOIN genre b ON a.genre_id < b.genre_id WHERE a.genre_id <= 3 AND b.genre_id <= 4 ORDER BY 1, 2
;
SELECT mt.name, count(*), sum(t.bytes) / 1048576 AS mib FROM track t FULL OUTER JOIN media_type mt USING (media_type_id) GROUP BY mt.name ORDER BY mt.name NULLS LAST
;
SELECT * FROM (VALUES (1, 'one'), (2, 'two'), (3, 'three')) AS v(n, word) ORDER BY n
;
VALUES (1, 'a'), (2, 'b')
;
TABLE genre
;
SELECT t.name, t.unit_price FROM track t WHERE t.unit_price > ALL (SELECT unit_price FROM track WHERE genre_id = 1) ORDER BY t.track_id LIMIT 5
;
SELECT count(*) FILTER (WHERE x) FROM (SELECT total > 5 AS x FROM invoice) s
;
SELECT customer_id, sum(total) FROM invoice GROUP BY customer_id HAVING sum(total) > (SELECT avg(s) FROM (SELECT sum(total) AS s FROM invoice GROUP BY customer_id) t) ORDER BY 2 DESC, 1
;
SELECT invoice_id, total FROM invoice ORDER BY total DESC, invoice_id FETCH FIRST 5 ROWS WITH TIES
;
SELECT name FROM track ORDER BY track_id OFFSET 100 LIMIT 5
;
SELECT * FROM track TABLESAMPLE BERNOULLI (100) REPEATABLE (42) WHERE track_id <= 3 ORDER BY track_id
;
-- catalog introspection and settings
SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = 'public' AND table_name = 'invoice' ORDER BY ordinal_position
;
SELECT relname, relkind FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind = 'r' AND relname IN ('album', 'artist', 'track') ORDER BY relname
;
SELECT pg_typeof(total), pg_typeof(invoice_date), pg_typeof(1.5), pg_typeof(now()) FROM invoice LIMIT 1
;
SELECT conname, contype FROM pg_constraint WHERE conrelid = 'album'::regclass ORDER BY conname
;
SELECT obj_description('album'::regclass, 'pg_class') AS comment, col_description('album'::regclass, 2)
;
SELECT format_type(atttypid, atttypmod), attname FROM pg_attribute WHERE attrelid = 'track'::regclass AND attnum > 0 ORDER BY attnum
;
SELECT current_setting('DateStyle'), current_setting('TimeZone'), current_setting('standard_conforming_strings')
;
SELECT has_table_privilege('album', 'SELECT') AS may_read, pg_size_pretty(1234567::bigint), to_regclass('nope') IS NULL AS missing
;
SELECT indexname FROM pg_indexes WHERE schemaname = 'public' AND tablename = 'invoice_line' ORDER BY indexname
;
-- other types: booleans, bytea, uuid, ranges, network, money-free numerics
SELECT true AS yes, false AS no, NULL::boolean AS unknown, 'yes'::boolean, (1 > 0) AND NOT false
;
SELECT decode('deadbeef', 'hex') AS bytes, sha256('abc'::bytea), length(decode('0102', 'hex'))
;
SELECT '123e4567-e89b-12d3-a456-426614174000'::uuid AS id, int4range(1, 10) @> 5 AS in_range, daterange(date '2024-01-01', date '2024-02-01') AS month
;
SELECT '192.168.1.5'::inet << '192.168.1.0/24'::cidr AS inside, host('10.0.0.1/8'::inet), masklen('10.0.0.0/8'::cidr)
;
SELECT 12345678901234567890::numeric AS big, 0.1::float8 + 0.2::float8 AS float_sum, 1e-5::float4, 'NaN'::float8, 'Infinity'::float8, 2.50::numeric(10, 3)
;
SELECT ROW(1, 'a') AS r, (1, 2) < (1, 3) AS row_less, point(1, 2) <-> point(4, 6) AS distance
;
SELECT xmlelement(name album, xmlattributes(album_id AS id), title) FROM album ORDER BY album_id LIMIT 3
;
SELECT 1 AS a, 2 AS a, 3 AS "A", 4 AS "column"
;
SELECT NULL AS nothing, ''::text AS empty, ' ' AS space
;
SELECT total::text, total::float8, total * 100 FROM invoice ORDER BY invoice_id LIMIT 5
;
