package sqlite

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"querent/engine"
)

// benignQueriesPath holds the benign set: real analytical queries that the
// guard must let through (false positives are bugs too).
const benignQueriesPath = "testdata/benign/queries.sql"

// benignQuery is one block of the benign set.
type benignQuery struct {
	line     int    // line of the header in the file
	header   string // the header without "### "
	category string
	ordered  bool
	sql      string
}

// benignParse reads the blocks of the benign set: a "### category: what
// [| ordered]" header followed by the SQL. Text before the first header is
// ignored.
func benignParse(t *testing.T, path string) []benignQuery {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []benignQuery
	var cur *benignQuery
	var body []string
	flush := func() {
		if cur == nil {
			return
		}
		cur.sql = strings.TrimSpace(strings.Join(body, "\n"))
		out = append(out, *cur)
		cur, body = nil, nil
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if h, ok := strings.CutPrefix(line, "### "); ok {
			flush()
			h = strings.TrimSpace(h)
			q := benignQuery{line: n, header: h}
			if rest, ok := strings.CutSuffix(h, "| ordered"); ok {
				q.ordered = true
				h = strings.TrimSpace(rest)
			}
			cat, _, ok := strings.Cut(h, ":")
			if !ok || strings.TrimSpace(cat) == "" {
				t.Fatalf("%s:%d: header %q has no category (### category: description)", path, n, line)
			}
			q.category = strings.TrimSpace(cat)
			cur = &q
			continue
		}
		if cur != nil {
			body = append(body, line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	flush()
	for _, q := range out {
		if q.sql == "" {
			t.Fatalf("%s:%d: the block %q has no SQL", path, q.line, q.header)
		}
	}
	return out
}

// benignCopy copies the demo database into a fresh folder.
func benignCopy(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("demo/Chinook_Sqlite.sqlite")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "chinook.sqlite")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func benignSHA(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// benignBare opens path on a bare modernc connection, read-only, without
// any of the guard's layers: the reference the guarded answers must match.
func benignBare(t *testing.T, path string) *sql.DB {
	t.Helper()
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	u := url.URL{Scheme: "file", Path: p, RawQuery: url.Values{"mode": {"ro"}}.Encode()}
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	return db
}

// benignBareRun runs query on the bare connection and returns its column
// count and rows, with DATETIME values turned back into SQLite's text.
func benignBareRun(ctx context.Context, db *sql.DB, query string) (int, [][]any, error) {
	rows, err := db.QueryContext(ctx, query)
	if err != nil {
		return 0, nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return 0, nil, err
	}
	var out [][]any
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return 0, nil, err
		}
		for i, v := range vals {
			if tm, ok := v.(time.Time); ok {
				vals[i] = tm.UTC().Format("2006-01-02 15:04:05")
			}
		}
		out = append(out, vals)
	}
	return len(cols), out, rows.Err()
}

// benignKey writes one value with its storage class, so that int64 1 and
// float64 1.0 differ, and floats compare bit for bit.
func benignKey(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case int64:
		return "INTEGER:" + strconv.FormatInt(x, 10)
	case float64:
		return fmt.Sprintf("REAL:%s(%x)", strconv.FormatFloat(x, 'g', -1, 64), math.Float64bits(x))
	case string:
		return "TEXT:" + strconv.Quote(x)
	case []byte:
		return "BLOB:" + hex.EncodeToString(x)
	}
	return fmt.Sprintf("OTHER(%T):%v", v, v)
}

func benignRowKey(row []any) string {
	parts := make([]string, len(row))
	for i, v := range row {
		parts[i] = benignKey(v)
	}
	return strings.Join(parts, " | ")
}

// benignCompare returns "" when both answers hold the same rows (in the same
// order when ordered), else a description of the first difference.
func benignCompare(guarded, bare [][]any, ordered bool) string {
	g := make([]string, len(guarded))
	for i, r := range guarded {
		g[i] = benignRowKey(r)
	}
	b := make([]string, len(bare))
	for i, r := range bare {
		b[i] = benignRowKey(r)
	}
	if !ordered {
		sort.Strings(g)
		sort.Strings(b)
	}
	for i := range g {
		if g[i] != b[i] {
			what := "row"
			if !ordered {
				what = "sorted row"
			}
			return fmt.Sprintf("%s %d differs:\n guarded: %s\n bare:    %s", what, i+1, g[i], b[i])
		}
	}
	return ""
}

// TestBenignSet runs every query of the benign set through the guard, which
// must accept it, and checks the answer against a bare connection's.
func TestBenignSet(t *testing.T) {
	queries := benignParse(t, benignQueriesPath)
	if len(queries) < 50 {
		t.Fatalf("the benign set holds %d queries; it needs at least 50", len(queries))
	}
	path := benignCopy(t)
	sha := benignSHA(t, path)
	ctx := context.Background()

	db, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	bare := benignBare(t, path)

	for i, q := range queries {
		name := fmt.Sprintf("%02d_%s", i+1, q.category)
		t.Run(name, func(t *testing.T) {
			where := fmt.Sprintf("%s:%d %q", benignQueriesPath, q.line, q.header)
			res, err := db.Run(ctx, q.sql, engine.RunOptions{MaxRows: 1_000_000, Timeout: 30 * time.Second})
			report.benignN++
			if err != nil {
				report.benignFP++
				if e, ok := err.(*engine.Error); ok {
					t.Fatalf("%s: the guard refused or failed a benign query (false positive): [%s] %s (hint: %s)\n%s",
						where, e.Code, e.Message, e.Hint, q.sql)
				}
				t.Fatalf("%s: the guard failed a benign query: %v\n%s", where, err, q.sql)
			}
			if res.Truncated {
				t.Errorf("%s: the result was truncated at %d rows", where, len(res.Rows))
			}
			for j, r := range res.Rows {
				if len(r) != len(res.Columns) {
					t.Fatalf("%s: row %d has %d values for %d columns", where, j+1, len(r), len(res.Columns))
				}
			}
			ncols, want, err := benignBareRun(ctx, bare, q.sql)
			if err != nil {
				t.Fatalf("%s: the bare connection fails the query (fix the query): %v", where, err)
			}
			if len(res.Columns) != ncols {
				t.Fatalf("%s: %d columns through the guard, %d on the bare connection", where, len(res.Columns), ncols)
			}
			if len(res.Rows) != len(want) {
				t.Fatalf("%s: %d rows through the guard, %d on the bare connection", where, len(res.Rows), len(want))
			}
			got := make([][]any, len(res.Rows))
			copy(got, res.Rows)
			if diff := benignCompare(got, want, q.ordered); diff != "" {
				t.Errorf("%s: the answers differ: %s", where, diff)
			}
		})
	}

	if err := bare.Close(); err != nil {
		t.Errorf("closing the bare connection: %v", err)
	}
	if err := db.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if got := benignSHA(t, path); got != sha {
		t.Errorf("the database file changed: sha256 %s, was %s", got, sha)
	}
	entries, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		n := e.Name()
		for _, suffix := range []string{"-wal", "-shm", "-journal"} {
			if strings.HasSuffix(n, suffix) {
				t.Errorf("a sidecar file appeared beside the database: %s", n)
			}
		}
	}
}
