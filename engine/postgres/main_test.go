package postgres

import (
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"querent/engine"
	"querent/engine/postgres/pgtest"
)

// One private cluster serves every test of the package (started by the
// first test that needs it, stopped by TestMain), with Chinook loaded from
// the seeds' own file, a SELECT-only role, a role that may write, and a few
// traps for the red team (a function that writes, a view that calls it).

var update = flag.Bool("update", false, "rewrite generated files (functions_gen.go) from the test server")

const (
	// chinookSQL is the seeds' PostgreSQL Chinook, relative to this folder.
	chinookSQL    = "../../../shared/data/chinook/Chinook_PostgreSql.sql"
	chinookSHA256 = "e3fde5c1a5b51a2a91429a702c9ca6e69ba56e6c7f5e112724d70c3d03db695e"

	readerRole     = "agent_lecteur"
	readerPassword = "Lecteur-Pw-7391-xyzzy"
	writerRole     = "app_writer"
	writerPassword = "Writer-Pw-5512-plugh"
)

var (
	srvOnce sync.Once
	srv     *pgtest.Server
	srvErr  error
	// hasDblink is true when the dblink extension could be created;
	// hasFileFDW when file_fdw could (a foreign table over /etc/passwd).
	hasDblink, hasFileFDW bool
	// srvVersion is the server's version, for the reports.
	srvVersion string
)

// setupSQL runs as the superuser in chinook after the seeds' file.
var setupSQL = `
CREATE ROLE ` + readerRole + ` LOGIN PASSWORD '` + readerPassword + `';
GRANT CONNECT ON DATABASE chinook TO ` + readerRole + `;
GRANT USAGE ON SCHEMA public TO ` + readerRole + `;
CREATE ROLE ` + writerRole + ` LOGIN PASSWORD '` + writerPassword + `';
GRANT CONNECT ON DATABASE chinook TO ` + writerRole + `;
GRANT USAGE, CREATE ON SCHEMA public TO ` + writerRole + `;

CREATE TABLE public.audit_log (id serial PRIMARY KEY, note text, at timestamptz DEFAULT now());
CREATE FUNCTION public.querent_evil() RETURNS int LANGUAGE plpgsql VOLATILE AS $$
BEGIN INSERT INTO public.audit_log (note) VALUES ('pwned'); RETURN 1; END $$;
CREATE FUNCTION public.querent_evil_definer() RETURNS int LANGUAGE plpgsql VOLATILE SECURITY DEFINER AS $$
BEGIN DELETE FROM public.invoice_line; RETURN 1; END $$;
CREATE VIEW public.evil_view AS SELECT public.querent_evil() AS x;
CREATE VIEW public.slow_view AS SELECT a.track_id, b.name FROM track a, track b, genre c;
CREATE SEQUENCE public.counter;
CREATE SCHEMA sales;
GRANT USAGE ON SCHEMA sales TO ` + readerRole + `;
CREATE TABLE sales.region (region_id int PRIMARY KEY, name text NOT NULL);
INSERT INTO sales.region VALUES (1, 'Europe'), (2, 'Americas'), (3, 'Asia');
CREATE TABLE public.big_events AS
  SELECT g AS id, g % 1000 AS customer, (ARRAY['web', 'store', 'phone'])[1 + g % 3] AS channel, md5(g::text) AS payload,
         timestamp '2020-01-01' + g * interval '1 minute' AS at
  FROM generate_series(1, 200000) g;
CREATE MATERIALIZED VIEW public.genre_sales AS
  SELECT g.name AS genre, sum(il.unit_price * il.quantity) AS revenue
  FROM invoice_line il JOIN track t USING (track_id) JOIN genre g USING (genre_id) GROUP BY g.name;
-- Round 3 (issue 21): the database's own code, reachable without a plain
-- call. Every one of these runs querent_canary(), which ends the session
-- named querent-victim (the red team checks after each case that it is
-- still alive).
CREATE FUNCTION public.querent_canary() RETURNS int LANGUAGE plpgsql VOLATILE SECURITY DEFINER AS $$
BEGIN
  PERFORM pg_catalog.pg_terminate_backend(pid) FROM pg_catalog.pg_stat_activity WHERE application_name = 'querent-victim';
  RETURN 1;
END $$;
CREATE FUNCTION public.genre_lock(genre) RETURNS int LANGUAGE sql VOLATILE AS 'SELECT public.querent_canary()';
CREATE FUNCTION public.lower(integer) RETURNS text LANGUAGE sql VOLATILE AS 'SELECT public.querent_canary()::text';
CREATE FUNCTION public.crc32(text) RETURNS bigint LANGUAGE sql VOLATILE AS 'SELECT public.querent_canary()::bigint';
CREATE FUNCTION public.json_array(integer, integer) RETURNS text LANGUAGE sql VOLATILE AS 'SELECT public.querent_canary()::text';
CREATE FUNCTION public.canary_check(integer) RETURNS boolean LANGUAGE sql VOLATILE AS 'SELECT public.querent_canary() = 1';
CREATE DOMAIN public.locked_int AS integer CHECK (public.canary_check(VALUE));
CREATE FUNCTION public.canary_eq(integer, integer) RETURNS boolean LANGUAGE sql VOLATILE AS 'SELECT public.querent_canary() = 1';
CREATE OPERATOR public.=== (LEFTARG = integer, RIGHTARG = integer, FUNCTION = public.canary_eq);
CREATE TYPE public.mood AS ENUM ('sad', 'ok', 'happy');
CREATE TABLE public.moods (m public.mood);
INSERT INTO public.moods VALUES ('sad'), ('happy');
CREATE FUNCTION public.mood_eq(public.mood, public.mood) RETURNS boolean LANGUAGE sql VOLATILE AS 'SELECT public.querent_canary() = 1';
CREATE OPERATOR public.= (LEFTARG = public.mood, RIGHTARG = public.mood, FUNCTION = public.mood_eq);
CREATE FUNCTION public.mood_int(public.mood) RETURNS integer LANGUAGE sql VOLATILE AS 'SELECT public.querent_canary()';
CREATE CAST (public.mood AS integer) WITH FUNCTION public.mood_int(public.mood);
CREATE VIEW public.canary_view AS SELECT public.querent_canary() AS x, name FROM genre;
CREATE TABLE public.secured (id integer, note text);
INSERT INTO public.secured VALUES (1, 'a');
ALTER TABLE public.secured ENABLE ROW LEVEL SECURITY;
CREATE POLICY canary ON public.secured USING (public.canary_check(id));
COMMENT ON TABLE public.album IS 'One row per album, with its artist';
COMMENT ON COLUMN public.album.title IS 'The album''s title as printed on the sleeve';
GRANT SELECT ON ALL TABLES IN SCHEMA public TO ` + readerRole + `;
GRANT SELECT ON ALL TABLES IN SCHEMA sales TO ` + readerRole + `;
GRANT SELECT ON ALL SEQUENCES IN SCHEMA public TO ` + readerRole + `;
GRANT SELECT, INSERT, UPDATE ON public.album, public.artist TO ` + writerRole + `;
GRANT SELECT ON ALL TABLES IN SCHEMA public TO ` + writerRole + `;
CREATE TABLE public.payroll (employee_id int PRIMARY KEY, salary numeric(10, 2));
ANALYZE;
`

// server starts the shared cluster once, or skips (fails under
// QUERENT_REQUIRE_POSTGRES) when there is none.
func server(t testing.TB) *pgtest.Server {
	t.Helper()
	srvOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		srv, srvErr = pgtest.Start(ctx)
		if srvErr != nil {
			return
		}
		if srvErr = srv.LoadFile(ctx, "postgres", chinookSQL, chinookSHA256); srvErr != nil {
			return
		}
		if _, srvErr = srv.Psql(ctx, "chinook", "-c", setupSQL); srvErr != nil {
			return
		}
		if _, err := srv.Psql(ctx, "chinook", "-c", "CREATE EXTENSION IF NOT EXISTS dblink"); err == nil {
			hasDblink = true
		}
		// A foreign table over a server file (file_fdw, from PostgreSQL's
		// contrib): reading it runs the wrapper.
		if _, err := srv.Psql(ctx, "chinook", "-c", `CREATE EXTENSION IF NOT EXISTS file_fdw;
			CREATE SERVER querent_files FOREIGN DATA WRAPPER file_fdw;
			CREATE FOREIGN TABLE public.passwd_file (line text) SERVER querent_files OPTIONS (filename '/etc/passwd');
			GRANT SELECT ON public.passwd_file TO `+readerRole); err == nil {
			hasFileFDW = true
		}
		if out, err := srv.Psql(ctx, "postgres", "-c", "SHOW server_version"); err == nil {
			srvVersion = strings.TrimSpace(out)
		}
	})
	if srvErr != nil {
		if errors.Is(srvErr, pgtest.ErrNoServer) && !pgtest.Required() {
			t.Skipf("skipped: %v (QUERENT_REQUIRE_POSTGRES=1 makes this a failure)", srvErr)
		}
		t.Fatalf("the test PostgreSQL server: %v", srvErr)
	}
	return srv
}

// readerURL and superURL connect over TCP with a password (scram-sha-256).
func readerURL(s *pgtest.Server) string { return s.URL(readerRole, readerPassword, "chinook") }
func superURL(s *pgtest.Server) string {
	return s.URL(pgtest.SuperUser, pgtest.SuperPassword, "chinook")
}

// openReader and openSuper open the database as each role.
func openReader(t testing.TB) *DB { return openURL(t, readerURL(server(t))) }
func openSuper(t testing.TB) *DB  { return openURL(t, superURL(server(t))) }

func openURL(t testing.TB, url string) *DB {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	// The tests' superuser is allowed where a test opens it; a test of the
	// refusal opens it without AllowSuperuser.
	db, err := Open(ctx, url, Options{AllowSuperuser: true})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

const nullMark = "\x01NULL\x01"

func TestMain(m *testing.M) {
	flag.Parse()
	data, err := os.MkdirTemp("", "querent-test-data-")
	if err != nil {
		panic(err)
	}
	os.Setenv("QUERENT_DATA_DIR", data)
	code := m.Run()
	if srv != nil {
		srv.Stop()
	}
	os.RemoveAll(data)
	if dir := os.Getenv("QUERENT_REPORT_DIR"); dir != "" {
		if s := report.String(); s != "" {
			if err := os.MkdirAll(dir, 0o755); err == nil {
				_ = os.WriteFile(filepath.Join(dir, "redteam-postgres.txt"), []byte(s), 0o644)
			}
		}
	}
	os.Exit(code)
}

// mustRun runs sql and fails the test on an error.
func mustRun(t testing.TB, db *DB, sql string) *engine.Result {
	t.Helper()
	res, err := db.Run(context.Background(), sql, engine.RunOptions{MaxRows: 10000, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return res
}
