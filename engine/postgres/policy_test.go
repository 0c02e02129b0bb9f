package postgres

import (
	"context"
	"errors"
	"strings"
	"testing"

	"querent/engine/text"

	"querent/engine"
)

// These tests need no server: PostgreSQL's parser and the policy alone.

func TestPolicyAllows(t *testing.T) {
	ok := []string{
		"SELECT 1",
		"SELECT 1;",
		"  SELECT 1 ;  ",
		"/* comment */ SELECT 1 -- trailing",
		"VALUES (1), (2)",
		"TABLE album",
		"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5) SELECT * FROM n",
		"SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY total) FROM invoice",
		"SELECT count(*) FILTER (WHERE total > 5), mode() WITHIN GROUP (ORDER BY billing_country) FROM invoice",
		"SELECT sum(total) OVER (PARTITION BY customer_id ORDER BY invoice_date ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM invoice",
		"SELECT billing_country, billing_city, sum(total) FROM invoice GROUP BY ROLLUP (billing_country, billing_city)",
		"SELECT DISTINCT ON (customer_id) customer_id, invoice_date FROM invoice ORDER BY customer_id, invoice_date DESC",
		"SELECT * FROM customer c, LATERAL (SELECT * FROM invoice i WHERE i.customer_id = c.customer_id LIMIT 1) last",
		"SELECT g, date_trunc('month', d) FROM generate_series(1, 3) g, generate_series('2024-01-01'::date, '2024-03-01', '1 month') d",
		"SELECT EXTRACT(YEAR FROM invoice_date), invoice_date::date, now() - INTERVAL '3 days', age(now(), invoice_date) FROM invoice",
		"SELECT name ILIKE '%rock%', name ~* '^a', regexp_replace(name, '\\s+', ' ', 'g'), split_part(name, ' ', 1) FROM track",
		"SELECT jsonb_build_object('a', 1) -> 'a', '{\"a\":[1,2]}'::jsonb #>> '{a,0}', to_jsonb(t) FROM track t",
		"SELECT array_agg(name ORDER BY name), string_agg(name, ', '), unnest(ARRAY[1,2]), cardinality(ARRAY[1]) FROM artist",
		"SELECT coalesce(NULL, 1), nullif(1, 2), greatest(1, 2), CASE WHEN true THEN 1 END, current_setting('TimeZone')",
		"SELECT random(), clock_timestamp(), pg_size_pretty(pg_total_relation_size('track')), current_user, current_date",
		"SELECT * FROM track TABLESAMPLE BERNOULLI (10)",
		"SELECT name FROM artist ORDER BY name NULLS LAST LIMIT 5 OFFSET 2",
		"SELECT U&\"name\" FROM artist",
		"SELECT E'a\\tb', $$dollar 'quoted'$$, $tag$x$tag$",
		"SELECT pg_catalog.lower(name) FROM artist",
		"SELECT a OPERATOR(pg_catalog.+) 1 FROM (SELECT 1 AS a) s",
		"SELECT x FROM (SELECT 1 AS x) s WHERE x IN (SELECT 1) AND EXISTS (SELECT 1) AND x = ANY (ARRAY[1])",
		"SELECT name FROM artist UNION SELECT title FROM album EXCEPT SELECT 'x' INTERSECT SELECT 'y'",
		"SELECT 'a' SIMILAR TO 'a', 'a' IS NORMALIZED, position('a' in 'abc'), substring('abc' from 2), trim(both ' ' from ' a ')",
		"SELECT to_char(now(), 'YYYY-MM'), make_date(2024, 1, 1), width_bucket(5, 0, 10, 4), round(1.234::numeric, 2)",
		"SELECT xmlelement(name a, 'x'), format('%s', 1), md5('a'), length('é'), pg_typeof(1)",
	}
	for _, q := range ok {
		if _, err := analyze(context.Background(), q); err != nil {
			t.Errorf("%q: %v", q, err)
		}
	}
}

func TestPolicyRefuses(t *testing.T) {
	cases := []struct {
		sql, code, contains string
	}{
		{"COMMIT; DELETE FROM album; SELECT 1", engine.CodeRefused, "this text holds 3 (the second starts at line 1, column 9: DELETE FROM album"},
		{"SELECT 1; END;", engine.CodeRefused, "holds 2"},
		{"END", engine.CodeRefused, "COMMIT controls transactions"},
		{"/* SELECT */ DELETE FROM album", engine.CodeRefused, "a DELETE statement would change the database"},
		{"-- SELECT\nUPDATE album SET title = 'x'", engine.CodeRefused, "UPDATE statement"},
		{"SET TRANSACTION READ WRITE", engine.CodeRefused, "changes the session's settings"},
		{"SET SESSION AUTHORIZATION postgres", engine.CodeRefused, "SET SESSION AUTHORIZATION"},
		{"RESET ROLE", engine.CodeRefused, "RESET ROLE"},
		{"SET ROLE postgres", engine.CodeRefused, "SET ROLE"},
		{"WITH d AS (DELETE FROM album RETURNING *) SELECT * FROM d", engine.CodeRefused, "the WITH query d is a DELETE statement"},
		{"WITH x AS (SELECT 1), y AS (INSERT INTO artist VALUES (1000, 'x') RETURNING 1) SELECT * FROM x", engine.CodeRefused, "the WITH query y is a INSERT"},
		{"SELECT * INTO loot FROM customer", engine.CodeRefused, "SELECT … INTO loot creates a table"},
		{"SELECT * FROM album FOR UPDATE", engine.CodeRefused, "FOR UPDATE locks the rows"},
		{"SELECT * FROM album a JOIN artist r USING (artist_id) FOR NO KEY UPDATE OF a", engine.CodeRefused, "FOR NO KEY UPDATE"},
		{"SELECT * FROM album FOR KEY SHARE", engine.CodeRefused, "FOR KEY SHARE"},
		{"SELECT nextval('s')", engine.CodeRefused, "the function nextval() is not allowed: it advances a sequence"},
		{"SELECT pg_advisory_lock(1)", engine.CodeRefused, "advisory lock"},
		{"SELECT pg_try_advisory_xact_lock(1)", engine.CodeRefused, "advisory lock"},
		{"SELECT set_config('search_path', 'x', false)", engine.CodeRefused, "set_config() is not allowed"},
		{"SELECT pg_catalog.set_config('a', 'b', false)", engine.CodeRefused, "pg_catalog.set_config() is not allowed"},
		{"SELECT pg_sleep(10)", engine.CodeRefused, "pg_sleep() is not allowed"},
		{"SELECT 1 FROM pg_sleep_for('1 minute')", engine.CodeRefused, "pg_sleep_for() is not allowed"},
		{"SELECT lo_import('/etc/passwd')", engine.CodeRefused, "lo_import() is not allowed"},
		{"SELECT pg_read_file('/etc/passwd')", engine.CodeRefused, "server's own files"},
		{"SELECT pg_ls_dir('.')", engine.CodeRefused, "pg_ls_dir() is not allowed"},
		{"SELECT pg_terminate_backend(1)", engine.CodeRefused, "ends another session"},
		{"SELECT pg_notify('c', 'x')", engine.CodeRefused, "pg_notify() is not allowed"},
		{"SELECT query_to_xml('DELETE FROM album', true, true, '')", engine.CodeRefused, "runs SQL given as text"},
		{"SELECT txid_current()", engine.CodeRefused, "assigns a transaction ID"},
		{"SELECT pg_reload_conf()", engine.CodeRefused, "pg_reload_conf() is not allowed"},
		{"SELECT dblink_exec('dbname=chinook', 'DELETE FROM album')", engine.CodeRefused, "opens a second connection"},
		{"SELECT * FROM album WHERE album_id = $1", engine.CodeSyntax, "parameter ($1)"},
		{"COPY album TO PROGRAM 'id'", engine.CodeRefused, "COPY"},
		{"CALL p()", engine.CodeRefused, "CALL runs procedural code"},
		{"DO $$BEGIN DELETE FROM album; END$$", engine.CodeRefused, "DO runs procedural code"},
		{"LISTEN c", engine.CodeRefused, "talks to other sessions"},
		{"PREPARE p AS DELETE FROM album", engine.CodeRefused, "PREPARE"},
		{"EXECUTE p", engine.CodeRefused, "EXECUTE"},
		{"DECLARE c CURSOR WITH HOLD FOR SELECT 1", engine.CodeRefused, "DECLARE CURSOR"},
		{"EXPLAIN ANALYZE DELETE FROM album", engine.CodeRefused, "EXPLAIN is not a query"},
		{"CREATE TABLE loot AS SELECT * FROM customer", engine.CodeRefused, "CREATE TABLE AS"},
		{"SELECT public.evil()", "unknown", "evil"},
		{"SELECT 1 === 2", engine.CodeRefused, "operator === is not allowed"},
		{"SELECT 1 OPERATOR(public.+) 2", engine.CodeRefused, "OPERATOR(public.+)"},
		{"SELECT * FROM track TABLESAMPLE system_rows(10)", engine.CodeRefused, "TABLESAMPLE method system_rows"},
		{"SELEC 1", engine.CodeSyntax, `syntax error near "SELEC" at line 1, column 1`},
		{"SELECT 'abc", engine.CodeSyntax, "unterminated quoted string"},
		{"SELECT (1", engine.CodeSyntax, "ends too early"},
		{"", engine.CodeSyntax, "no SQL statement"},
		{"-- nothing", engine.CodeSyntax, "no SQL statement"},
		{"SELECT 'a\x00'", engine.CodeRefused, "NUL byte"},
		{"SELECT '" + strings.Repeat("x", maxSQLBytes) + "'", engine.CodeTooBig, "the limit is"},
		{strings.Repeat("SELECT * FROM (", 3000) + "SELECT 1" + strings.Repeat(") x", 3000), engine.CodeTooBig, "nested too deeply"},
		{"SELECT 1" + strings.Repeat(" + 1", 12000), engine.CodeTooBig, "nested too deeply"},
	}
	for _, c := range cases {
		_, err := analyze(context.Background(), c.sql)
		name := text.Excerpt(c.sql, 60)
		if err == nil {
			t.Errorf("%s: allowed", name)
			continue
		}
		var uf *unknownFunctionError
		if errors.As(err, &uf) {
			if c.code != "unknown" || !strings.Contains(uf.name, c.contains) {
				t.Errorf("%s: unknown function %s, want %s %q", name, uf.name, c.code, c.contains)
			}
			continue
		}
		e := engine.AsError(err)
		if e.Code != c.code || !strings.Contains(e.Message, c.contains) {
			t.Errorf("%s: %s %q, want %s containing %q", name, e.Code, e.Message, c.code, c.contains)
		}
		if e.Hint == "" {
			t.Errorf("%s: no hint", name)
		}
	}
}

func TestPolicyPositions(t *testing.T) {
	cases := []struct {
		sql  string
		want string // the text at the error's position
	}{
		{"SELECT name, pg_sleep(1) FROM artist", "pg_sleep(1)"},
		{"SELECT 1; DELETE FROM album", "DELETE FROM album"},
		{"SELECT 1;\n  /* x */ DELETE FROM album", "DELETE FROM album"},
		{"SELECT é, pg_sleep(1)", "pg_sleep(1)"},
		{"SELECT 'é', FROM album", "FROM album"},
		{"SELECT * FROM album FOR UPDATE", "FOR UPDATE"},
		{"SELECT substring(title FROM 1 FOR 3), 'FOR UPDATE' FROM album /* FOR SHARE */ FOR SHARE", "FOR SHARE"},
	}
	for _, c := range cases {
		_, err := analyze(context.Background(), c.sql)
		e := engine.AsError(err)
		if e == nil || e.Position < 0 || !strings.HasPrefix(c.sql[e.Position:], c.want) {
			t.Errorf("%q: error %v at %d, want the position of %q", c.sql, err, e.Position, c.want)
		}
	}
}

func TestAnalysisNames(t *testing.T) {
	a, err := analyze(context.Background(), `WITH top AS (SELECT customer_id FROM invoice) SELECT c.first_name, lower(t.name), count(*)
		FROM top JOIN public.customer c USING (customer_id) JOIN track t ON true GROUP BY 1, 2`)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for _, tr := range a.tables {
		tables = append(tables, tr.String())
	}
	if got := strings.Join(tables, ","); got != "invoice,public.customer,track" {
		t.Errorf("tables %s", got)
	}
	if got := strings.Join(a.functions, ","); got != "lower,count" {
		t.Errorf("functions %s", got)
	}
	if a.aliases["c"].name != "customer" || a.aliases["t"].name != "track" {
		t.Errorf("aliases %v", a.aliases)
	}
}

func TestFunctionLists(t *testing.T) {
	for _, name := range []string{"set_config", "pg_advisory_lock", "pg_advisory_xact_lock_shared", "pg_try_advisory_lock",
		"nextval", "setval", "pg_sleep", "pg_sleep_for", "pg_sleep_until", "lo_import", "lo_export", "lo_get",
		"pg_read_file", "pg_read_binary_file", "pg_ls_dir", "pg_stat_file", "pg_terminate_backend", "pg_cancel_backend",
		"pg_reload_conf", "pg_notify", "query_to_xml", "table_to_xml", "txid_current", "pg_current_xact_id",
		"dblink", "dblink_exec", "dblink_connect", "ts_rewrite", "setseed"} {
		if v, _ := checkFunction(name); v == funcAllowed {
			t.Errorf("%s is allowed", name)
		}
	}
	for _, name := range []string{"count", "sum", "avg", "percentile_cont", "percentile_disc", "mode", "row_number",
		"rank", "dense_rank", "lag", "lead", "first_value", "ntile", "string_agg", "array_agg", "json_agg",
		"jsonb_agg", "generate_series", "date_trunc", "extract", "date_part", "age", "now", "to_char", "to_date",
		"regexp_replace", "regexp_matches", "split_part", "lower", "initcap", "round", "trunc", "abs", "sqrt",
		"jsonb_array_elements", "jsonb_path_query", "unnest", "array_length", "cardinality", "current_setting",
		"random", "clock_timestamp", "pg_total_relation_size", "pg_size_pretty", "has_table_privilege",
		"pg_get_viewdef", "obj_description", "col_description", "format_type", "to_regclass", "timezone", "btrim",
		"similar_to_escape", "overlaps", "is_normalized", "pg_collation_for", "xmlexists", "any_value", "system_user"} {
		if v, reason := checkFunction(name); v != funcAllowed {
			t.Errorf("%s is not allowed (%s)", name, reason)
		}
	}
	for k := range deniedFunctions {
		if !strings.Contains(k, "*") && (readOnlyVolatile[k] || newerFunctions[k]) {
			t.Errorf("%s is both denied and allowed", k)
		}
	}
}
