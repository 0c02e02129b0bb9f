package sqlite

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"querent/engine/adapter"

	"querent/engine/describe"
	"querent/engine/sqltext"

	"querent/engine"
	"querent/engine/text"
)

// quotedDir holds the double-quoted-text corpus: Spider-style queries that
// write text in double quotes (queries.sql) and the small databases they
// run on (one .sql file each).
const quotedDir = "testdata/dqs"

type quotedQuery struct {
	line    int
	db      string
	what    string
	expect  string // "ran" or "unknown_column"
	hint    string // for unknown_column: text the hint must hold
	ordered bool
	sql     string
}

// parseQuotedCorpus reads the corpus: "### <db>: <what> | <expect> [| ordered]"
// headers, each followed by its SQL.
func parseQuotedCorpus(t *testing.T) []quotedQuery {
	t.Helper()
	path := filepath.Join(quotedDir, "queries.sql")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []quotedQuery
	var cur *quotedQuery
	var body []string
	flush := func() {
		if cur != nil {
			cur.sql = strings.TrimSpace(strings.Join(body, "\n"))
			if cur.sql == "" {
				t.Fatalf("%s:%d: no SQL", path, cur.line)
			}
			out = append(out, *cur)
		}
		cur, body = nil, nil
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		h, ok := strings.CutPrefix(line, "### ")
		if !ok {
			if cur != nil {
				body = append(body, line)
			}
			continue
		}
		flush()
		parts := strings.Split(h, " | ")
		db, what, ok := strings.Cut(parts[0], ": ")
		if !ok || len(parts) < 2 || len(parts) > 3 {
			t.Fatalf("%s:%d: bad header %q", path, n, line)
		}
		q := quotedQuery{line: n, db: db, what: what}
		expect, hint, _ := strings.Cut(parts[1], ": ")
		q.expect, q.hint = expect, hint
		if q.expect != "ran" && q.expect != engine.CodeUnknownColumn {
			t.Fatalf("%s:%d: unknown expectation %q", path, n, parts[1])
		}
		if len(parts) == 3 {
			if parts[2] != "ordered" {
				t.Fatalf("%s:%d: unknown flag %q", path, n, parts[2])
			}
			q.ordered = true
		}
		cur = &q
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	flush()
	return out
}

// rewrittenLiterals pairs the tokens of a query as written with those of the
// statement the guard runs: a rewrite replaces one token with one, so the
// two token lists have the same shape. It returns the double-quoted names
// that became strings, or an error when anything else changed.
func rewrittenLiterals(written, executed string) ([]string, error) {
	sig := func(s string) []sqltext.Token {
		var out []sqltext.Token
		for _, t := range sqltext.Lex(s) {
			if t.Kind != sqltext.Space && t.Kind != sqltext.Comment && t.Kind != sqltext.Semi {
				out = append(out, t)
			}
		}
		return out
	}
	a, b := sig(written), sig(executed)
	if len(a) != len(b) {
		return nil, fmt.Errorf("%d tokens written, %d executed", len(a), len(b))
	}
	var names []string
	for i := range a {
		wa, wb := written[a[i].Start:a[i].End], executed[b[i].Start:b[i].End]
		if wa == wb {
			continue
		}
		if a[i].Kind != sqltext.Quoted || wa[0] != '"' || b[i].Kind != sqltext.String || wb != sqltext.QuoteString(sqltext.IdentText(written, a[i])) {
			return nil, fmt.Errorf("token %d changed from %s to %s", i, wa, wb)
		}
		names = append(names, sqltext.IdentText(written, a[i]))
	}
	return names, nil
}

// TestDQSCorpus runs the double-quoted-text corpus through the guard. A
// query marked "ran" must run, with the rows SQLite itself gives with its
// double-quoted-string quirk on (a bare connection without _dqs=0), a
// warning when text was rewritten, and no change but double-quoted tokens
// turned into strings. A query marked unknown_column must keep that error
// with the hint.
func TestDQSCorpus(t *testing.T) {
	queries := parseQuotedCorpus(t)
	if len(queries) < 120 {
		t.Fatalf("the corpus holds %d queries; it needs at least 120", len(queries))
	}
	ctx := context.Background()
	dir := t.TempDir()
	type conns struct {
		path    string
		guarded *DB
		bare    *sql.DB
		run     func(string) (int, [][]any, error)
		names   *adapter.Names
	}
	dbs := map[string]*conns{}
	open := func(name string) *conns {
		if c := dbs[name]; c != nil {
			return c
		}
		schema, err := os.ReadFile(filepath.Join(quotedDir, name+".sql"))
		if err != nil {
			t.Fatalf("database %s: %v", name, err)
		}
		path := makeDB(t, dir, name+".db", string(schema))
		g := openT(t, path, Options{QuickCheckTimeout: -1})
		bare := benignBare(t, path)
		t.Cleanup(func() { bare.Close() })
		c := &conns{path: path, guarded: g, bare: bare,
			run: func(q string) (int, [][]any, error) { return benignBareRun(ctx, bare, q) }}
		// The reference must have the quirk on, or the comparison proves nothing.
		if _, rows, err := c.run(`SELECT "no such column"`); err != nil || len(rows) != 1 || rows[0][0] != "no such column" {
			t.Fatalf("the bare connection does not read double-quoted text as text: %v %v", rows, err)
		}
		if err := g.withLock(ctx, func() error {
			var err error
			c.names, err = g.nameIndexLocked(ctx)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		dbs[name] = c
		return c
	}

	var ran, equal, kept, keptDQSText, rewrittenQueries, tokens, hintRuleWouldKeep int
	var hintRuleNames []string
	for _, q := range queries {
		c := open(q.db)
		where := fmt.Sprintf("%s/queries.sql:%d %s: %s", quotedDir, q.line, q.db, q.what)
		t.Run(fmt.Sprintf("%d_%s", q.line, q.db), func(t *testing.T) {
			res, err := c.guarded.Run(ctx, q.sql, engine.RunOptions{MaxRows: 100_000, Timeout: 30 * time.Second})
			ncols, want, berr := c.run(q.sql)
			if berr != nil {
				t.Fatalf("%s: SQLite with double-quoted strings fails the query (fix the corpus): %v\n%s", where, berr, q.sql)
			}
			if q.expect == engine.CodeUnknownColumn {
				e := engine.AsError(err)
				if e == nil || e.Code != engine.CodeUnknownColumn || !strings.Contains(e.Hint, q.hint) {
					t.Fatalf("%s: got %v (hint %q), want unknown_column with a hint holding %q\n%s", where, err, hintOf(e), q.hint, q.sql)
				}
				kept++
				keptDQSText++ // the bare connection ran it: with the quirk, the name silently became text
				return
			}
			if err != nil {
				e := engine.AsError(err)
				t.Fatalf("%s: refused: [%s] %s (hint: %s)\n%s", where, e.Code, e.Message, e.Hint, q.sql)
			}
			ran++
			if len(res.Columns) != ncols || len(res.Rows) != len(want) {
				t.Fatalf("%s: %d columns and %d rows through the guard, %d and %d with SQLite's quirk", where, len(res.Columns), len(res.Rows), ncols, len(want))
			}
			got := make([][]any, len(res.Rows))
			copy(got, res.Rows)
			if diff := benignCompare(got, want, q.ordered); diff != "" {
				t.Fatalf("%s: the answers differ: %s", where, diff)
			}
			equal++
			if names := bareColumnNames(t, c.bare, q.sql); names != nil {
				for i, col := range res.Columns {
					if col.Name != names[i] {
						t.Errorf("%s: column %d is named %q, SQLite names it %q", where, i+1, col.Name, names[i])
					}
				}
			}
			v, err := c.guarded.Validate(ctx, q.sql)
			if err != nil {
				t.Fatal(err)
			}
			if res.Query != q.sql || !strings.Contains(res.ExecutedSQL, v.SQL) {
				t.Errorf("%s: query %q, executed %q (validated %q)", where, res.Query, res.ExecutedSQL, v.SQL)
			}
			names, err := rewrittenLiterals(q.sql, v.SQL)
			if err != nil {
				t.Fatalf("%s: the guard changed more than double-quoted text: %v\n%s\n%s", where, err, q.sql, v.SQL)
			}
			if (len(names) > 0) != (len(res.Warnings) == 1) || len(res.Warnings) > 1 {
				t.Errorf("%s: %d names rewritten, warnings %q", where, len(names), res.Warnings)
			}
			if len(names) == 0 {
				return
			}
			rewrittenQueries++
			for _, n := range names {
				tokens++
				if !strings.Contains(res.Warnings[0], sqltext.QuoteString(n)) {
					t.Errorf("%s: the warning %q does not name %s", where, res.Warnings[0], sqltext.QuoteString(n))
				}
				// Would the unknown_column hint's own rule (closest) have
				// kept this name as an error? Counted for the record.
				scope := tablesInScope(q.sql, n, c.names)
				var cols []string
				for _, tb := range scope {
					if tn := c.names.Table(tb); tn != nil {
						cols = append(cols, tn.Columns...)
					}
				}
				if len(text.Closest(n, cols, 3)) > 0 {
					hintRuleWouldKeep++
					hintRuleNames = append(hintRuleNames, n)
				}
			}
		})
	}
	for _, c := range dbs {
		if err := c.guarded.Close(); err != nil {
			t.Error(err)
		}
	}
	sort.Strings(hintRuleNames)
	t.Logf("DQS corpus: %d queries, %d ran (%d with results equal to SQLite's with double-quoted strings on; %d rewritten, %d tokens read as text), "+
		"column names as SQLite's; %d kept unknown_column as intended (all %d would silently have read as text with the quirk on); "+
		"the hint's looser rule would have refused %d of the tokens read as text: %q",
		len(queries), ran, equal, rewrittenQueries, tokens, kept, keptDQSText, hintRuleWouldKeep, hintRuleNames)
}

// bareColumnNames returns the result column names SQLite gives, or nil when
// two are the same (the guard makes those unique).
func bareColumnNames(t *testing.T, db *sql.DB, q string) []string {
	t.Helper()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	names, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, n := range names {
		if seen[strings.ToLower(n)] {
			return nil
		}
		seen[strings.ToLower(n)] = true
	}
	return names
}

func hintOf(e *engine.Error) string {
	if e == nil {
		return ""
	}
	return e.Hint
}

// TestDQSRewrite checks the rewrite's details: what runs, what the answer
// says, where errors point after a rewrite, and the bounds.
func TestDQSRewrite(t *testing.T) {
	dir := t.TempDir()
	path := makeDB(t, dir, "d.db",
		"CREATE TABLE a(id INTEGER PRIMARY KEY, name TEXT, city TEXT)",
		"CREATE TABLE b(id INTEGER PRIMARY KEY, a_id INTEGER, title TEXT)",
		`INSERT INTO a VALUES (1, 'x', 'Paris'), (2, 'it''s', 'a"b')`, "INSERT INTO b VALUES (1, 1, 'zz')")
	u := watch(t, path)
	db := openT(t, path, Options{})
	ctx := context.Background()
	run := func(q string) (*engine.Result, *engine.Error) {
		res, err := db.Run(ctx, q, engine.RunOptions{})
		if err != nil {
			return nil, engine.AsError(err)
		}
		return res, nil
	}

	// The warning, the executed SQL and the query as written.
	q := `SELECT name FROM a WHERE city = "Paris";`
	res, e := run(q)
	if e != nil {
		t.Fatal(e)
	}
	want := `"Paris" in double quotes is not a column: read as the text 'Paris' (write text in 'single quotes')`
	if len(res.Warnings) != 1 || res.Warnings[0] != want || res.Query != q || !strings.Contains(res.ExecutedSQL, `WHERE city = 'Paris'`) {
		t.Errorf("warnings %q, query %q, executed %q", res.Warnings, res.Query, res.ExecutedSQL)
	}
	ans := engine.NewAnswer(q)
	ans.Warnings = append(ans.Warnings, "a warning about the file")
	describe.SetResult(ans, res)
	if len(ans.Warnings) != 2 || ans.Warnings[1] != want || ans.Query != q || ans.ExecutedSQL != res.ExecutedSQL {
		t.Errorf("answer: warnings %q, query %q, executed %q", ans.Warnings, ans.Query, ans.ExecutedSQL)
	}

	// A result column that is text keeps the name SQLite gives it with the
	// quirk on: the expression as written.
	if res, e := run(`SELECT "hello", name, "it's" AS "x" FROM a WHERE id = 1`); e != nil || len(res.Columns) != 3 ||
		res.Columns[0].Name != `"hello"` || res.Columns[2].Name != "x" || res.Rows[0][0] != "hello" {
		t.Errorf("column names: %+v %v", res, e)
	}

	// A double-quoted column is a column: nothing rewritten, no warning.
	if res, e := run(`SELECT "name" FROM a WHERE "city" = 'Paris'`); e != nil || len(res.Warnings) != 0 || len(res.Rows) != 1 {
		t.Errorf("real columns: %v %v", res, e)
	}

	// Escapes: "" inside double quotes, an apostrophe, the empty string.
	for _, tc := range []struct {
		sql  string
		rows int
		warn string
	}{
		{`SELECT id FROM a WHERE city = "a""b"`, 1, `"a""b" in double quotes is not a column: read as the text 'a"b'`},
		{`SELECT id FROM a WHERE name = "it's"`, 1, `read as the text 'it''s'`},
		{`SELECT id FROM a WHERE name <> ""`, 2, `"" in double quotes is not a column: read as the text ''`},
		{`SELECT id FROM a WHERE city IN ("Paris", "Rome", "Paris")`, 1, `"Paris" and "Rome" in double quotes are not columns: read as the text 'Paris' and 'Rome'`},
		{`SELECT a.id FROM a JOIN b ON b.a_id = a.id AND b.title = "zz"`, 1, `"zz" in double quotes`},
		{`SELECT "a'; DELETE FROM a; --" FROM a`, 2, `read as the text 'a''; DELETE FROM a; --'`},
	} {
		res, e := run(tc.sql)
		if e != nil {
			t.Errorf("%s: %v", tc.sql, e)
			continue
		}
		if len(res.Rows) != tc.rows || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], tc.warn) {
			t.Errorf("%s: %d rows, warnings %q; want %d rows and %q", tc.sql, len(res.Rows), res.Warnings, tc.rows, tc.warn)
		}
	}

	// Two tokens of the same text where SQLite gives no offset for one (a
	// join's ON clause) and the other could still be read as a column are
	// not guessed at: the same text in two places is taken in turn.
	if res, e := run(`SELECT a.id FROM a JOIN b ON b.title = "zz" WHERE a.city <> "zz"`); e != nil || len(res.Rows) != 2 {
		t.Errorf("the same text twice: %v %v", res, e)
	}

	// An error found after a rewrite points into the query as written.
	q = `SELECT id FROM a WHERE name = "it's" AND nmae = 1`
	_, e = run(q)
	if e == nil || e.Code != engine.CodeUnknownColumn || e.Position != strings.Index(q, "nmae") || !strings.Contains(e.Hint, "did you mean name?") {
		t.Errorf("after a rewrite: %+v", e)
	}
	if e != nil && e.Query != q {
		t.Errorf("the error's query is %q", e.Query)
	}

	// Close to a column: the error stays, with the names that made it.
	for _, tc := range []struct{ sql, hint string }{
		{`SELECT "nmae" FROM a`, "did you mean name?"},
		{`SELECT id FROM a WHERE "City" || "x" = 'Parisx' AND "citty" = 'Paris'`, "did you mean city?"},
		{`SELECT "title" FROM a`, "b.title is in a table this query does not read yet; join it."},
		{`SELECT "Title " FROM a`, "b.title is in a table this query does not read yet"},
	} {
		_, e := run(tc.sql)
		if e == nil || e.Code != engine.CodeUnknownColumn || !strings.Contains(e.Hint, tc.hint) || !strings.Contains(e.Hint, "single quotes") {
			t.Errorf("%s: %+v, want unknown_column with %q", tc.sql, e, tc.hint)
		}
	}

	// Writes stay refused, whatever the quotes.
	for _, q := range []string{
		`WITH "c" AS (SELECT 1) DELETE FROM a WHERE city = "Paris"`,
		`UPDATE a SET name = "y" WHERE city = "Paris"`,
		`INSERT INTO a(name) VALUES ("y")`,
		`SELECT "x" FROM a; DELETE FROM a`,
	} {
		if _, e := run(q); e == nil || e.Code != engine.CodeRefused {
			t.Errorf("%s: %+v, want refused", q, e)
		}
	}
	u.check(t, "after the double-quote cases")
}

// TestDQSHelpers covers the closeness rule and the position mapping.
func TestDQSHelpers(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		d    int
	}{{"title", "titel", 1}, {"", "abc", 3}, {"abc", "abc", 0}, {"ca", "abc", 3}, {"math", "name", 3}, {"sale", "name", 2}, {"née", "nee", 1}} {
		if got := osaDistance(tc.a, tc.b); got != tc.d {
			t.Errorf("osaDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.d)
		}
	}
	idx := &adapter.Names{Tables: []adapter.TableNames{
		{Name: "teacher", Columns: []string{"Teacher_ID", "Name", "Age", "Hometown"}},
		{Name: "airlines", Columns: []string{"uid", "Airline", "Abbreviation", "Country"}},
		{Name: "Invoice", Columns: []string{"InvoiceId", "InvoiceDate", "BillingCountry", "Total"}},
		{Name: "_querent_imports", Internal: true, Columns: []string{"rows"}},
	}}
	for _, tc := range []struct {
		name  string
		scope []string
		close bool
	}{
		{"Math", []string{"teacher"}, false},
		{"Sale", []string{"teacher"}, false}, // two slips in four letters from Name: a word
		{"Nmae", []string{"teacher"}, true},
		{"name", []string{"teacher"}, true},
		{"United Airlines", []string{"airlines"}, false},
		{"Airlines", []string{"airlines"}, true}, // one word, starts with Airline
		{"Country", []string{"Invoice"}, true},   // inside BillingCountry
		{"Invoice Date", []string{"Invoice"}, true},
		{"InvoiceDat", []string{"Invoice"}, true},
		{"Totl", []string{"Invoice"}, true},
		{"Total Sales", []string{"Invoice"}, false},
		{"Abbreviation", []string{"teacher"}, true}, // a column of another table
		{"Abreviation", []string{"teacher"}, false}, // a slip in another table's column: text
		{"rows", nil, false},                        // internal tables do not count
		{"", []string{"teacher"}, false},
		{"USA", []string{"airlines"}, false},
		{"T", []string{"teacher"}, false},
	} {
		near, elsewhere := columnsLike(tc.name, tc.scope, idx)
		if got := len(near)+len(elsewhere) > 0; got != tc.close {
			t.Errorf("columnsLike(%q, %v) = %v, %v; want close %v", tc.name, tc.scope, near, elsewhere, tc.close)
		}
	}
	edits := []textEdit{{at: 10, oldLen: 4, newLen: 5}, {at: 30, oldLen: 3, newLen: 2}}
	for _, tc := range []struct{ in, out int }{{5, 5}, {10, 10}, {12, 10}, {15, 14}, {29, 28}, {31, 29}, {32, 32}, {40, 40}} {
		if got := mapBack(tc.in, edits); got != tc.out {
			t.Errorf("mapBack(%d) = %d, want %d", tc.in, got, tc.out)
		}
	}
}
