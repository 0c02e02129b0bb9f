package page_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"querent/app/page"
	"querent/engine"
	"querent/engine/enginetest/casefile"
	"querent/engine/postgres/pgtest"
)

// TestPostgresRedTeamThroughResults runs the PostgreSQL red team's cases
// that must be refused through the page's Results (the SQL editor's Run),
// as the SELECT-only role and as the superuser once Settings allow it:
// every one is refused, none is an internal error, and the server is as it
// was afterwards (rows, objects, transaction IDs, advisory locks) — the
// fourth face of issue 21's reproductions, beside sql, MCP and
// ask --input (cmd/querent's TestPostgresRedTeamThroughTheFaces).
func TestPostgresRedTeamThroughResults(t *testing.T) {
	srv, _ := pgtest.StartChinook(t)
	repl := strings.NewReplacer("{{DIR}}", filepath.ToSlash(srv.Dir), "{{EMPTY}}", "", "{{NUL}}", "")
	var cases []casefile.Case
	for _, c := range casefile.Read(t, "../../engine/postgres/testdata/redteam.txt", repl) {
		if c.Expect == "refused" && !strings.Contains(c.SQL, "{{") && strings.TrimSpace(c.SQL) != "" {
			cases = append(cases, c)
		}
	}
	if len(cases) < 60 {
		t.Fatalf("only %d cases to refuse", len(cases))
	}
	before := serverState(t, srv)
	svc, _ := newServices(t)
	set, _ := svc.Settings.Get()
	set.AllowSuperuser = true
	set.TimeoutS = 2
	if _, err := svc.Settings.Save(*set); err != nil {
		t.Fatal(err)
	}
	refused := 0
	for _, role := range []struct{ user, password string }{{pgtest.Reader, pgtest.ReaderPassword}, {pgtest.SuperUser, pgtest.SuperPassword}} {
		conn := engine.Connection{DBType: "postgresql", Host: "127.0.0.1", Port: srv.Port, Database: "chinook",
			Username: role.user, Password: role.password, SSL: "disable"}
		if _, err := svc.Datasets.Connect(page.ConnectRequest{Connection: conn}); err != nil {
			t.Fatalf("connect as %s: %v", role.user, err)
		}
		for _, c := range cases {
			res, err := svc.Results.Run(c.SQL)
			switch {
			case err != nil:
				t.Fatalf("as %s, %s: %v", role.user, c.Head, err)
			case len(res.Errors) == 0:
				t.Errorf("as %s, %s ran: %+v", role.user, c.Head, res.Results)
			case res.Errors[0].Type == engine.CodeInternal:
				t.Errorf("as %s, %s: an internal error: %+v", role.user, c.Head, res.Errors[0])
			default:
				refused++
				if len(res.Results.Values) != 0 {
					t.Errorf("as %s, %s: refused with rows: %+v", role.user, c.Head, res.Results)
				}
			}
		}
	}
	t.Logf("the page's Results refused %d of %d runs (%d cases, two roles)", refused, 2*len(cases), len(cases))
	if after := serverState(t, srv); after != before {
		t.Errorf("the server changed:\nbefore %s\nafter  %s", before, after)
	}
}

// serverState sums up what a statement could change on the server: every
// public table's rows, the objects and functions, the next transaction ID
// and the advisory locks.
func serverState(t *testing.T, srv *pgtest.Server) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tables, err := srv.Psql(ctx, "chinook", "-c", `SELECT string_agg(tablename, ' ' ORDER BY tablename) FROM pg_tables WHERE schemaname = 'public'`)
	if err != nil {
		t.Fatal(err)
	}
	var q []string
	for _, tb := range strings.Fields(tables) {
		q = append(q, `SELECT '`+tb+`', count(*)::text || md5(coalesce(string_agg(t::text, ',' ORDER BY t::text), '')) FROM public.`+tb+` t`)
	}
	q = append(q, `SELECT 'xmax', txid_snapshot_xmax(txid_current_snapshot())::text`,
		`SELECT 'objects', count(*)::text FROM pg_class WHERE relnamespace = 'public'::regnamespace`,
		`SELECT 'functions', count(*)::text FROM pg_proc WHERE pronamespace = 'public'::regnamespace`,
		`SELECT 'advisory', count(*)::text FROM pg_locks WHERE locktype = 'advisory'`)
	out, err := srv.Psql(ctx, "chinook", "-c", strings.Join(q, " UNION ALL "))
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return out
}
