package sqlite

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"querent/engine/enginetest/casefile"
	"querent/engine/sqltext"

	"querent/engine"
	"querent/engine/worker"
)

// The red-team suite: hostile SQL (testdata/redteam/queries.txt), hostile
// database files and corrupted files. It fails on any write, any new file,
// any sha256 change, and any query that outlives its timeout by more than a
// second; it prints the figures security.md asks for.

// rtTimeout is the timeout of the red-team queries: short, so that the
// denial-of-service cases finish quickly and the overshoot is measured.
const rtTimeout = 500 * time.Millisecond

// rtCap is the row cap of the red-team queries.
const rtCap = 100

type rtCase struct {
	line                   int
	category, what, expect string
	sql                    string
}

// loadRedTeam reads the hostile SQL cases, filling in the placeholders.
func loadRedTeam(t testing.TB, dir string) []rtCase {
	t.Helper()
	repl := strings.NewReplacer(
		"{{DIR}}", filepath.ToSlash(dir),
		"{{NUL}}", "\x00",
		"{{LONGPATTERN}}", sqltext.QuoteString(strings.Repeat("%a", 6000)),
		"{{DEEP}}", strings.Repeat("abs(", 1200)+"1"+strings.Repeat(")", 1200),
		"{{DEEPPARENS}}", strings.Repeat("(", 1200)+"1"+strings.Repeat(")", 1200),
		"{{COMPOUND}}", strings.Repeat("SELECT 1 UNION ALL ", 400)+"SELECT 1",
		"{{LONGSTRING}}", strings.Repeat("x", maxSQLBytes+10),
		"{{MANYCOLS}}", strings.TrimSuffix(strings.Repeat("1, ", 2100), ", "),
		"{{EMPTY}}", "",
		"{{WIDEBOMB}}", wideBomb(150),
	)
	var cases []rtCase
	for _, c := range casefile.Read(t, "testdata/redteam/queries.txt", repl) {
		cases = append(cases, rtCase{line: c.Line, category: c.Category, what: c.What, expect: c.Expect, sql: c.SQL})
	}
	return cases
}

// wideBomb selects n values of about 10 MB each in one row.
func wideBomb(n int) string {
	cols := make([]string, n)
	for i := range cols {
		cols[i] = fmt.Sprintf("printf('%%.*c', %d, 'x')", 9999000-i)
	}
	return strings.Join(cols, ", ")
}

// rtReport gathers the suite's figures; TestMain writes it.
type rtReport struct {
	mu        sync.Mutex
	byLayer   map[string]int
	byCat     map[string]int
	attacks   int
	writes    int
	overshoot []time.Duration
	worst     string
	capped    []string
	hostile   []string
	corrupt   struct{ tried, openFailed, queryFailed, clean, panics int }
	benignFP  int
	benignN   int
	shaBefore string
	shaAfter  string
	newFiles  int
	layers    []string
}

var report = &rtReport{byLayer: map[string]int{}, byCat: map[string]int{}}

func (r *rtReport) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var b strings.Builder
	fmt.Fprintf(&b, "RED-TEAM REPORT (engine/sqlite)\n")
	if r.attacks > 0 {
		fmt.Fprintf(&b, "hostile SQL: %d attacks tried\n", r.attacks)
		for _, k := range []string{"rejected before the database", "blocked by SQLite", "stopped by the timeout", "capped", "allowed"} {
			fmt.Fprintf(&b, "  %-30s %d\n", k, r.byLayer[k])
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
		fmt.Fprintf(&b, "writes: %d; new files beside the database: %d\n", r.writes, r.newFiles)
		fmt.Fprintf(&b, "sha256 before: %s\nsha256 after:  %s\n", r.shaBefore, r.shaAfter)
		if len(r.overshoot) > 0 {
			o := append([]time.Duration(nil), r.overshoot...)
			sort.Slice(o, func(i, j int) bool { return o[i] < o[j] })
			fmt.Fprintf(&b, "timeout overshoot (timeout %s, %d queries, in query workers): p50 %s, max %s (goal: max <= 100ms)\n",
				rtTimeout, len(o), o[len(o)/2].Round(time.Microsecond), o[len(o)-1].Round(time.Microsecond))
			fmt.Fprintf(&b, "  the slowest to stop: %s\n", r.worst)
		}
		for _, c := range r.capped {
			fmt.Fprintf(&b, "capped: %s\n", c)
		}
	}
	for _, l := range r.layers {
		fmt.Fprintf(&b, "layer alone: %s\n", l)
	}
	for _, h := range r.hostile {
		fmt.Fprintf(&b, "hostile file: %s\n", h)
	}
	if r.corrupt.tried > 0 {
		fmt.Fprintf(&b, "corrupt-file fuzz: %d files tried, %d refused on open, %d opened but a query failed cleanly, %d read clean, panics %d\n",
			r.corrupt.tried, r.corrupt.openFailed, r.corrupt.queryFailed, r.corrupt.clean, r.corrupt.panics)
	}
	if r.benignN > 0 {
		fmt.Fprintf(&b, "benign analytical set: %d queries, false positives %d (target 0)\n", r.benignN, r.benignFP)
	}
	return b.String()
}

func TestMain(m *testing.M) {
	// The red-team SQL runs in query workers, as every face runs it: this
	// test binary, started again, is the worker.
	worker.Main(func(ctx context.Context, a worker.OpenArgs) (engine.Database, error) {
		if err := LimitProcessHeap(a.MaxMemory / 4 * 3); err != nil {
			return nil, err
		}
		opts := Options{MaxMemory: a.MaxMemory, File: a.File, FileIsSnapshot: a.Snapshot}
		if a.SkipCheck {
			opts.QuickCheckTimeout = -1
		}
		return Open(ctx, a.Path, opts)
	})
	// The demo's private copy goes to a temporary data folder, not $HOME.
	data, err := os.MkdirTemp("", "querent-test-data-")
	if err != nil {
		panic(err)
	}
	os.Setenv("QUERENT_DATA_DIR", data)
	code := m.Run()
	os.RemoveAll(data)
	if dir := os.Getenv("QUERENT_REPORT_DIR"); dir != "" && (report.attacks > 0 || report.corrupt.tried > 0 || report.benignN > 0) {
		if err := os.MkdirAll(dir, 0o755); err == nil {
			_ = os.WriteFile(filepath.Join(dir, "redteam.txt"), []byte(report.String()), 0o644)
		}
	}
	os.Exit(code)
}

func TestRedTeamSQL(t *testing.T) {
	path := copyChinook(t)
	dir := filepath.Dir(path)
	cases := loadRedTeam(t, dir)
	if len(cases) < 60 {
		t.Fatalf("only %d red-team cases; the suite needs at least 60", len(cases))
	}
	u := watch(t, path)
	report.shaBefore = u.sha
	ctx := context.Background()
	db, err := worker.Open(ctx, path, worker.Config{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		name := fmt.Sprintf("%d %s: %s", c.line, c.category, c.what)
		_, perr := precheck(c.sql)
		start := time.Now()
		res, err := db.Run(ctx, c.sql, engine.RunOptions{MaxRows: rtCap, Timeout: rtTimeout})
		elapsed := time.Since(start)
		outcome, layer := "allowed", "allowed"
		switch {
		case err == nil && res.Truncated:
			outcome, layer = "capped", "capped"
			if len(res.Rows) != rtCap {
				t.Errorf("%s: capped with %d rows, want exactly %d", name, len(res.Rows), rtCap)
			}
			report.capped = append(report.capped, fmt.Sprintf("%s → %d rows + truncated", c.what, len(res.Rows)))
		case err == nil:
		default:
			outcome = engine.ErrorCode(err)
			switch {
			case perr != nil:
				layer = "rejected before the database"
			case outcome == engine.CodeTimeout:
				layer = "stopped by the timeout"
				over := elapsed - rtTimeout
				report.overshoot = append(report.overshoot, max(over, 0))
				if len(report.overshoot) == 1 || over >= slices.Max(report.overshoot) {
					report.worst = c.what
				}
				if over > time.Second {
					t.Errorf("%s: ran %s past its %s timeout", name, over, rtTimeout)
				}
			default:
				layer = "blocked by SQLite"
			}
		}
		report.attacks++
		report.byLayer[layer]++
		report.byCat[c.category]++
		ok := c.expect == "any" || (c.expect == "blocked" && err != nil && outcome != engine.CodeTimeout)
		for _, want := range strings.Split(c.expect, "|") {
			ok = ok || outcome == want
		}
		if !ok {
			msg := ""
			if err != nil {
				msg = err.Error()
			}
			t.Errorf("%s: outcome %s, want %s (%s)", name, outcome, c.expect, msg)
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
		if fileSHA(t, path) != u.sha || listDir(t, dir) != u.dir {
			report.writes++
			t.Fatalf("%s: the database or its folder changed", name)
		}
	}
	db.Close()
	u.check(t, "after the red-team SQL")
	report.shaAfter = fileSHA(t, path)
}
