package postgres

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"querent/engine/enginetest/casefile"
	"querent/engine/text"

	"github.com/jackc/pgx/v5/pgconn"

	"querent/engine"
	"querent/engine/postgres/pgtest"
)

// The red team: hostile SQL (testdata/redteam.txt) run through Run as the
// SELECT-only role and as the superuser. After every case a separate
// superuser connection checks that nothing changed: no transaction ID was
// spent (any write anywhere in the cluster spends one), every table's row
// count and checksum, no lock held by anyone, no session left behind or
// idle in a transaction, no file added to the server's folder, and the
// guarded session's own settings. The protocol of the guarded connections
// is traced: no message of the simple protocol may appear.

const (
	rtTimeout = 500 * time.Millisecond
	rtCap     = 100
)

type rtCase struct {
	line                   int
	category, what, expect string
	sql                    string
}

func loadRedTeam(t testing.TB, dir string) []rtCase {
	t.Helper()
	wide := make([]string, 8)
	for i := range wide {
		wide[i] = fmt.Sprintf("repeat('x', %d)", 10_000_000-i)
	}
	repl := strings.NewReplacer(
		"{{DIR}}", filepath.ToSlash(dir),
		"{{NUL}}", "\x00",
		"{{EMPTY}}", "",
		"{{LONGSTRING}}", strings.Repeat("x", maxSQLBytes+10),
		"{{WIDEBOMB}}", strings.Join(wide, ", "),
		"{{DEEPSUBQ}}", strings.Repeat("SELECT * FROM (", 1000)+"SELECT 1"+strings.Repeat(") x", 1000),
		"{{DEEPCALLS}}", "SELECT "+strings.Repeat("abs(", 3000)+"1"+strings.Repeat(")", 3000),
		"{{DEEPPARENS}}", "SELECT "+strings.Repeat("(", 5000)+"1"+strings.Repeat(")", 5000),
		"{{DEEPPLUS}}", "SELECT 1"+strings.Repeat(" + 1", 12000),
		"{{COMPOUND}}", strings.Repeat("SELECT 1 UNION ALL ", 2000)+"SELECT 1",
		"{{DEEPGRAMMAR}}", "SELECT "+strings.Repeat("abs(", 12000)+"1"+strings.Repeat(")", 12000),
	)
	var cases []rtCase
	for _, c := range casefile.Read(t, "testdata/redteam.txt", repl) {
		cases = append(cases, rtCase{line: c.Line, category: c.Category, what: c.What, expect: c.Expect, sql: c.SQL})
	}
	return cases
}

// rtReport gathers the suite's figures; TestMain writes them.
type rtReport struct {
	mu          sync.Mutex
	cases       int
	attacks     int
	byLayer     map[string]int
	byCat       map[string]int
	writes      int
	xidBefore   string
	xidAfter    string
	sumsSame    bool
	newFiles    int
	locksLeft   int
	backends    int
	victims     int
	settings    int
	simpleMsgs  int
	overshoot   []time.Duration
	worst       string
	capped      []string
	serverStops []string
	layers      []string
	benignN     int
	benignFP    int
	benignSame  int
	benignHow   string
	benignTime  time.Duration
}

var report = &rtReport{byLayer: map[string]int{}, byCat: map[string]int{}}

func (r *rtReport) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.attacks == 0 && r.benignN == 0 && len(r.layers) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("RED-TEAM REPORT (engine/postgres, PostgreSQL " + serverVersion() + ")\n")
	if r.attacks > 0 {
		fmt.Fprintf(&b, "hostile SQL: %d cases × 2 roles (SELECT-only %s, superuser %s) = %d attacks tried\n", r.cases, readerRole, pgtest.SuperUser, r.attacks)
		for _, k := range []string{"rejected before the database", "refused by the server's own reading", "stopped by the server", "stopped by a memory cap", "stopped by the timeout", "capped", "allowed"} {
			fmt.Fprintf(&b, "  %-36s %d\n", k, r.byLayer[k])
		}
		var cats []string
		for c := range r.byCat {
			cats = append(cats, c)
		}
		sort.Strings(cats)
		b.WriteString("  by category:")
		for _, c := range cats {
			fmt.Fprintf(&b, " %s %d,", c, r.byCat[c])
		}
		b.WriteString("\n")
		fmt.Fprintf(&b, "writes: %d (next transaction ID before %s, after %s; row counts and checksums of every table unchanged: %v)\n",
			r.writes, r.xidBefore, r.xidAfter, r.sumsSame)
		fmt.Fprintf(&b, "left behind: %d locks, %d extra or busy sessions, %d changed session settings, %d new files in the server's folder; other sessions ended: %d\n",
			r.locksLeft, r.backends, r.settings, r.newFiles, r.victims)
		fmt.Fprintf(&b, "simple-protocol (Query) messages sent: %d\n", r.simpleMsgs)
		if len(r.overshoot) > 0 {
			o := append([]time.Duration(nil), r.overshoot...)
			slices.Sort(o)
			fmt.Fprintf(&b, "timeout overshoot (timeout %s, %d queries): p50 %s, max %s (goal: max <= 100ms); the slowest to stop: %s\n",
				rtTimeout, len(o), o[len(o)/2].Round(time.Millisecond), o[len(o)-1].Round(time.Millisecond), r.worst)
		}
		for _, c := range r.capped {
			fmt.Fprintf(&b, "capped: %s\n", c)
		}
		for _, c := range r.serverStops {
			fmt.Fprintf(&b, "stopped by the server: %s\n", c)
		}
	}
	for _, l := range r.layers {
		fmt.Fprintf(&b, "layer alone: %s\n", l)
	}
	if r.benignN > 0 {
		fmt.Fprintf(&b, "benign analytical set: %d queries, false positives %d (target 0), results equal to psql's: %d of %d (%s), %s in all\n",
			r.benignN, r.benignFP, r.benignSame, r.benignN, r.benignHow, r.benignTime.Round(time.Millisecond))
	}
	return b.String()
}

func serverVersion() string {
	if srvVersion == "" {
		return "?"
	}
	return srvVersion
}

// lockedBuffer is a goroutine-safe trace sink.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// checker watches the server from a superuser connection of its own.
type checker struct {
	t    testing.TB
	conn *pgconn.PgConn
	dir  string
	sums string
}

func newChecker(t testing.TB) *checker {
	s := server(t)
	conn, err := pgconn.Connect(context.Background(), s.SocketURL("chinook")+" application_name=checker")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	c := &checker{t: t, conn: conn, dir: s.Dir}
	// The checksum statement covers every table of the database's schemas
	// but the 200,000-row one, which is checked at the start and the end.
	rows := c.query(`SELECT string_agg(format('SELECT %L, count(*), coalesce(sum(hashtextextended(t::text, 0)), 0) FROM %I.%I t', n.nspname || '.' || c.relname, n.nspname, c.relname), ' UNION ALL ' ORDER BY n.nspname, c.relname)
		FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE c.relkind = 'r' AND n.nspname IN ('public', 'sales') AND c.relname <> 'big_events'`)
	c.sums = rows[0][0]
	return c
}

func (c *checker) query(sql string) [][]string {
	c.t.Helper()
	r := c.conn.ExecParams(context.Background(), sql, nil, nil, nil, nil).Read()
	if r.Err != nil {
		c.t.Fatalf("checker: %v\n%s", r.Err, sql)
	}
	var out [][]string
	for _, row := range r.Rows {
		vals := make([]string, len(row))
		for i, v := range row {
			vals[i] = string(v)
		}
		out = append(out, vals)
	}
	return out
}

func (c *checker) xid() string {
	return c.query("SELECT pg_snapshot_xmax(pg_current_snapshot())::text")[0][0]
}

func (c *checker) checksums() string {
	var b strings.Builder
	for _, r := range c.query(c.sums) {
		b.WriteString(strings.Join(r, " ") + "\n")
	}
	return b.String()
}

func (c *checker) bigChecksum() string {
	r := c.query("SELECT count(*), sum(hashtextextended(t::text, 0)) FROM public.big_events t")
	return strings.Join(r[0], " ")
}

// locks lists the locks held by any session but the checker's.
func (c *checker) locks() []string {
	var out []string
	for _, r := range c.query(`SELECT locktype, mode, pid::text, coalesce(relation::regclass::text, ''), coalesce(objid::text, '')
		FROM pg_locks WHERE pid IS DISTINCT FROM pg_backend_pid()`) {
		out = append(out, strings.Join(r, " "))
	}
	return out
}

// sessions lists the client sessions but the checker's that are not idle
// guarded connections.
func (c *checker) sessions() []string {
	var out []string
	for _, r := range c.query(`SELECT pid::text, usename, coalesce(application_name, ''), coalesce(state, ''), backend_type
		FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND backend_type = 'client backend'`) {
		if (r[2] == "querent" || r[2] == "querent-victim") && r[3] == "idle" {
			continue
		}
		out = append(out, strings.Join(r, " "))
	}
	return out
}

// files lists the server's folder, without what PostgreSQL changes on its
// own (the write-ahead log, transaction status, statistics, its log).
func (c *checker) files() string {
	var names []string
	skip := map[string]bool{"pg_wal": true, "pg_stat_tmp": true, "pg_xact": true, "pg_subtrans": true, "pg_multixact": true,
		"pg_logical": true, "pg_notify": true, "pg_snapshots": false}
	filepath.WalkDir(c.dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(c.dir, p)
		if e.IsDir() && skip[e.Name()] {
			return filepath.SkipDir
		}
		if e.Name() == "pg_internal.init" || e.Name() == "server.log" || strings.HasPrefix(e.Name(), "postmaster.") {
			return nil
		}
		names = append(names, rel)
		return nil
	})
	sort.Strings(names)
	return strings.Join(names, "\n")
}

// settingsOf reads the guarded session's settings through the guard itself.
func settingsOf(t testing.TB, db *DB) string {
	t.Helper()
	res, err := db.Run(context.Background(), "SELECT name, setting FROM pg_settings ORDER BY name", engine.RunOptions{MaxRows: 10000, Timeout: rtTimeout})
	if err != nil {
		t.Fatalf("reading the session's settings: %v", err)
	}
	var b strings.Builder
	for _, r := range res.Rows {
		fmt.Fprintln(&b, r...)
	}
	return b.String()
}

func TestRedTeam(t *testing.T) {
	s := server(t)
	cases := loadRedTeam(t, s.Dir)
	if len(cases) < 80 {
		t.Fatalf("only %d red-team cases; the suite needs at least 80", len(cases))
	}
	chk := newChecker(t)
	type role struct {
		name string
		db   *DB
	}
	trace := &lockedBuffer{}
	roles := []role{{readerRole, openReader(t)}, {pgtest.SuperUser, openSuper(t)}}
	baseSettings := map[string]string{}
	for _, r := range roles {
		r.db.setTrace(trace)
		baseSettings[r.name] = settingsOf(t, r.db)
	}
	victim := newVictim(t, s)
	xid0, sums0, big0, files0 := chk.xid(), chk.checksums(), chk.bigChecksum(), chk.files()
	report.mu.Lock()
	report.cases = len(cases)
	report.xidBefore = xid0
	report.mu.Unlock()
	ctx := context.Background()
	for _, c := range cases {
		for _, r := range roles {
			name := fmt.Sprintf("%d %s: %s (as %s)", c.line, c.category, c.what, r.name)
			_, perr := analyze(ctx, c.sql)
			start := time.Now()
			res, err := r.db.Run(ctx, c.sql, engine.RunOptions{MaxRows: rtCap, Timeout: rtTimeout})
			elapsed := time.Since(start)
			outcome, layer := "allowed", "allowed"
			switch {
			case err == nil && res.Truncated:
				outcome, layer = "capped", "capped"
				if len(res.Rows) != rtCap {
					t.Errorf("%s: capped with %d rows, want exactly %d", name, len(res.Rows), rtCap)
				}
				if r.name == readerRole {
					report.capped = append(report.capped, fmt.Sprintf("%s → %d rows + truncated", c.what, len(res.Rows)))
				}
			case err == nil:
			default:
				outcome = engine.ErrorCode(err)
				switch {
				case perr != nil:
					layer = "rejected before the database"
				case outcome == engine.CodeTimeout:
					layer = "stopped by the timeout"
					over := max(elapsed-rtTimeout, 0)
					report.overshoot = append(report.overshoot, over)
					if len(report.overshoot) == 1 || over >= slices.Max(report.overshoot) {
						report.worst = c.what
					}
					// A bound that catches a statement nobody stops (the
					// issue's ran 13 s and 100 s past theirs), not a time
					// target: on a loaded machine a 200 MB reply took 1.5 s
					// to stop; the report gives the figures.
					if over > 5*time.Second {
						t.Errorf("%s: ran %s past its %s timeout", name, over, rtTimeout)
					}
				case outcome == engine.CodeTooBig:
					layer = "stopped by a memory cap"
				case outcome == engine.CodeRefused && serverCheckRefusal(err):
					layer = "refused by the server's own reading"
				default:
					layer = "stopped by the server"
					if r.name == readerRole {
						report.serverStops = append(report.serverStops, c.what+" ("+outcome+")")
					} else {
						report.serverStops = append(report.serverStops, c.what+" (as the superuser, "+outcome+")")
					}
				}
			}
			report.attacks++
			report.byLayer[layer]++
			report.byCat[c.category]++
			ok := c.expect == "any" || (strings.Contains(c.expect, "blocked") && err != nil && outcome != engine.CodeTimeout)
			for _, want := range strings.Split(c.expect, "|") {
				ok = ok || outcome == strings.TrimSpace(want)
			}
			if !ok {
				msg := ""
				if err != nil {
					msg = err.Error()
				}
				t.Errorf("%s: outcome %s, want %s (%s)", name, outcome, c.expect, text.Excerpt(msg, 300))
			}
			if err != nil {
				e := engine.AsError(err)
				if e.Message == "" || e.Hint == "" {
					t.Errorf("%s: error without message or hint: %+v", name, e)
				}
				if e.Code == engine.CodeInternal {
					t.Errorf("%s: internal error: %v", name, err)
				}
			}
			if res != nil {
				for _, row := range res.Rows {
					for _, v := range row {
						if s, ok := v.(string); ok && strings.Contains(s, "root:x:0:0") {
							t.Errorf("%s: the answer holds /etc/passwd", name)
						}
					}
				}
			}
			// Nothing may have changed.
			if x := chk.xid(); x != xid0 {
				report.writes++
				t.Fatalf("%s: a transaction ID was spent (next %s, was %s): something wrote", name, x, xid0)
			}
			if got := chk.checksums(); got != sums0 {
				report.writes++
				t.Fatalf("%s: a table changed:\n%s\nwas:\n%s", name, got, sums0)
			}
			// A session whose connection was dropped mid-statement takes a
			// moment to notice and end: wait for it, a little.
			l, ss := chk.locks(), chk.sessions()
			for wait := time.Now(); (len(l) > 0 || len(ss) > 0) && time.Since(wait) < 3*time.Second; l, ss = chk.locks(), chk.sessions() {
				time.Sleep(20 * time.Millisecond)
			}
			if len(l) > 0 {
				report.locksLeft += len(l)
				t.Errorf("%s: locks left behind: %v", name, l)
			}
			if len(ss) > 0 {
				report.backends += len(ss)
				t.Errorf("%s: sessions left behind or busy: %v", name, ss)
			}
			if diff := settingsDiff(baseSettings[r.name], settingsOf(t, r.db)); diff != "" {
				report.settings++
				t.Errorf("%s: the session's settings changed: %s", name, diff)
			}
			if err := victim.alive(); err != nil {
				report.victims++
				t.Errorf("%s: another session was ended: %v", name, err)
				victim = newVictim(t, s)
			}
			if got := chk.files(); got != files0 {
				report.newFiles++
				t.Errorf("%s: the server's folder changed:\n%s", name, diffLines(files0, got))
			}
		}
	}
	report.xidAfter = chk.xid()
	report.sumsSame = chk.checksums() == sums0 && chk.bigChecksum() == big0
	if !report.sumsSame {
		t.Errorf("the tables' checksums changed over the red team")
	}
	simple := strings.Count(trace.String(), "\tQuery\t")
	report.simpleMsgs = simple
	if simple > 0 || !strings.Contains(trace.String(), "\tParse\t") {
		t.Errorf("the guarded connections sent %d simple-protocol Query messages (and Parse: %v)", simple, strings.Contains(trace.String(), "\tParse\t"))
	}
}

// serverCheckRefusal reports a refusal of the server check (servercheck.go,
// catalog.go): the judgement of the server's own reading of a statement.
func serverCheckRefusal(err error) bool {
	msg := engine.AsError(err).Message
	for _, s := range []string{"PostgreSQL reads part of this query as", "PostgreSQL reads this query with a construct",
		"is not readable through Querent", "is a foreign table", "converts a value to the domain", "the type ", "the operator ",
		"the function ", "the TABLESAMPLE method", "Querent could not read back", "the database's definitions changed"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// victim is another session of the cluster (application_name
// querent-victim): no case may end it.
type victim struct {
	conn *pgconn.PgConn
}

func newVictim(t testing.TB, s *pgtest.Server) *victim {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgconn.Connect(ctx, s.SocketURL("chinook")+" application_name=querent-victim")
	if err != nil {
		t.Fatalf("the victim session: %v", err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return &victim{conn: conn}
}

// alive reports an error when the victim's session was ended.
func (v *victim) alive() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return v.conn.ExecParams(ctx, "SELECT 1", nil, nil, nil, nil).Read().Err
}

// settingsDiff compares two settings listings: every setting of the first
// must have the same value in the second. Settings that appear are those a
// library registers when the session loads it (plpgsql.*, when a function
// of the database ran): not a change of the session's behaviour.
func settingsDiff(before, after string) string {
	parse := func(s string) map[string]string {
		m := map[string]string{}
		for _, l := range strings.Split(s, "\n") {
			if k, v, ok := strings.Cut(l, " "); ok {
				m[k] = v
			}
		}
		return m
	}
	b, a := parse(before), parse(after)
	var out []string
	for k, v := range b {
		if a[k] != v {
			out = append(out, fmt.Sprintf("%s: %q → %q", k, v, a[k]))
		}
	}
	for k := range a {
		if _, ok := b[k]; !ok && !strings.Contains(k, ".") {
			out = append(out, "new setting "+k)
		}
	}
	sort.Strings(out)
	return strings.Join(out, "; ")
}

func diffLines(a, b string) string {
	as, bs := map[string]bool{}, map[string]bool{}
	for _, l := range strings.Split(a, "\n") {
		as[l] = true
	}
	for _, l := range strings.Split(b, "\n") {
		bs[l] = true
	}
	var out []string
	for l := range bs {
		if !as[l] {
			out = append(out, "+ "+l)
		}
	}
	for l := range as {
		if !bs[l] {
			out = append(out, "- "+l)
		}
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}
