package glossary_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	_ "modernc.org/sqlite"

	"querent/engine"
	"querent/engine/glossary"
	"querent/engine/sqlite"
)

// chinook copies the demo database to a temporary file and opens it
// guarded, as the faces do.
func chinook(t testing.TB) (engine.Database, string) {
	t.Helper()
	b, err := os.ReadFile("../sqlite/demo/Chinook_Sqlite.sqlite")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "chinook.db")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return open(t, p), p
}

func open(t testing.TB, path string) engine.Database {
	t.Helper()
	db, err := sqlite.Open(context.Background(), path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// newGlossary is a glossary over a real store in a temporary data folder.
func newGlossary(t testing.TB) *glossary.Glossary {
	t.Helper()
	st, err := sqlite.OpenGlossary(context.Background(), filepath.Join(t.TempDir(), "data", "glossary.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return glossary.New(st)
}

// An entry whose SQL names a column the database lacks is refused, with
// the closest names in the hint; nothing is saved.
func TestAddRefusesAWrongColumn(t *testing.T) {
	ctx := context.Background()
	db, _ := chinook(t)
	g := newGlossary(t)
	for _, c := range []struct{ sql, want string }{
		{"Totl > 100", "Total"},               // a condition
		{"UnitPrise * Quantity", "UnitPrice"}, // an expression
		{"SELECT CustomerId FROM Invoice WHERE BillingCountri = 'USA'", "BillingCountry"}, // a query
		{"Invoice.Totl >= 20", "Total"}, // qualified
	} {
		_, err := g.Add(ctx, db, glossary.Entry{Term: "big invoice", Meaning: "an invoice over 100", SQL: c.sql})
		e := engine.AsError(err)
		if e == nil || e.Code != engine.CodeUnknownColumn {
			t.Errorf("%s: %v, want unknown_column", c.sql, err)
			continue
		}
		if !strings.Contains(e.Hint, c.want) || !strings.Contains(e.Message, `"big invoice"`) || e.Query != c.sql {
			t.Errorf("%s: message %q, hint %q, query %q: want the term, %s and the SQL as written", c.sql, e.Message, e.Hint, e.Query, c.want)
		}
		if e.Position >= len(c.sql) {
			t.Errorf("%s: position %d is past the SQL as written", c.sql, e.Position)
		}
	}
	if st, err := g.List(ctx, db); err != nil || len(st) != 0 {
		t.Errorf("after refusals: %v, %v", st, err)
	}
	// A write is refused too, and so are two statements.
	for _, bad := range []string{"DELETE FROM Invoice", "Total > 1; SELECT 1"} {
		if _, err := g.Add(ctx, db, glossary.Entry{Term: "x term", Meaning: "m", SQL: bad}); err == nil {
			t.Errorf("%s was saved", bad)
		}
	}
}

// The right SQL is saved with its kind, its tables and a fingerprint;
// saving the same term again (in another form) replaces it.
func TestAddChecksAndKeeps(t *testing.T) {
	ctx := context.Background()
	db, _ := chinook(t)
	g := newGlossary(t)
	cases := []struct {
		term, sql, kind string
		tables          []string
	}{
		{"big invoice", "Total > 100", glossary.KindCondition, []string{"Invoice"}},
		{"line revenue", "UnitPrice * Quantity", glossary.KindExpression, []string{"InvoiceLine"}},
		{"american customers", "SELECT CustomerId FROM Customer WHERE Country = 'USA'", glossary.KindQuery, []string{"Customer"}},
		{"rock track", "Track.GenreId IN (SELECT GenreId FROM Genre WHERE Name = 'Rock')", glossary.KindCondition, []string{"Track", "Genre"}},
		{"long track", "CASE WHEN Milliseconds > 300000 THEN 1 ELSE 0 END", glossary.KindExpression, []string{"Track"}},
		// A subquery's table is its own: the condition is on Customer.
		{"loyal customer", "CustomerId IN (SELECT CustomerId FROM Invoice GROUP BY CustomerId HAVING count(*) > 6)", glossary.KindCondition, []string{"Invoice", "Customer"}},
	}
	for _, c := range cases {
		e, err := g.Add(ctx, db, glossary.Entry{Term: c.term, Meaning: "m", SQL: c.sql + ";"})
		if err != nil {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		if e.Kind != c.kind || !slices.Equal(e.Tables, c.tables) || len(e.Fingerprint) != 16 || e.SQL != c.sql {
			t.Errorf("%s: kind %q tables %v fingerprint %q sql %q; want %q %v", c.sql, e.Kind, e.Tables, e.Fingerprint, e.SQL, c.kind, c.tables)
		}
	}
	if _, err := g.Add(ctx, db, glossary.Entry{Term: "Big  Invoices", Meaning: "an invoice over 50", SQL: "Total > 50"}); err != nil {
		t.Fatal(err)
	}
	st, err := g.List(ctx, db)
	if err != nil || len(st) != len(cases) {
		t.Fatalf("%d entries, %v", len(st), err)
	}
	for _, s := range st {
		if s.Stale {
			t.Errorf("%s is stale: %+v", s.Term, s.Problem)
		}
		if glossary.Key(s.Term) == glossary.Key("big invoice") && (s.Term != "Big Invoices" || s.SQL != "Total > 50") {
			t.Errorf("the entry was not replaced: %+v", s.Entry)
		}
	}
	// Remove by another form of the term; a term not there is a usage error.
	if err := g.Remove(ctx, db, "BIG INVOICE"); err != nil {
		t.Fatal(err)
	}
	err = g.Remove(ctx, db, "big invoice")
	if e := engine.AsError(err); e == nil || e.Code != engine.CodeUsage || !strings.Contains(e.Hint, "querent glossary list --db ") {
		t.Errorf("removing a missing term: %v", err)
	}
	// An entry without a meaning, or without a term, is refused.
	for _, e := range []glossary.Entry{{Term: "x", Meaning: "one letter"}, {Term: "churn"}, {Meaning: "no term"}} {
		if _, err := g.Add(ctx, db, e); engine.ErrorCode(err) != engine.CodeUsage {
			t.Errorf("%+v: %v", e, err)
		}
	}
}

// A database's glossary follows its identity: the file moved (the same
// sha256) keeps its entries; another database has none.
func TestGlossaryFollowsTheDatabase(t *testing.T) {
	ctx := context.Background()
	db, path := chinook(t)
	g := newGlossary(t)
	if _, err := g.Add(ctx, db, glossary.Entry{Term: "churn", Meaning: "customers who stopped buying"}); err != nil {
		t.Fatal(err)
	}
	moved := filepath.Join(t.TempDir(), "renamed.sqlite")
	b, _ := os.ReadFile(path)
	if err := os.WriteFile(moved, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if st, err := g.List(ctx, open(t, moved)); err != nil || len(st) != 1 || st[0].Term != "churn" {
		t.Errorf("the moved file: %+v, %v", st, err)
	}
	other := filepath.Join(t.TempDir(), "other.sqlite")
	raw, err := sql.Open("sqlite", other)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec("CREATE TABLE t (a INTEGER)"); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	if st, err := g.List(ctx, open(t, other)); err != nil || len(st) != 0 {
		t.Errorf("another database: %+v, %v", st, err)
	}
}

// When the schema changes, an entry whose SQL no longer compiles is
// stale: flagged by List and Check, never Used; one whose tables changed
// but whose SQL still compiles stays, and Check saves its new fingerprint.
func TestStaleAfterASchemaChange(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sales.sqlite")
	exec := func(stmts ...string) {
		t.Helper()
		raw, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		defer raw.Close()
		for _, s := range stmts {
			if _, err := raw.Exec(s); err != nil {
				t.Fatalf("%s: %v", s, err)
			}
		}
	}
	exec("CREATE TABLE orders (id INTEGER PRIMARY KEY, amount REAL, status TEXT)", "CREATE TABLE clients (id INTEGER PRIMARY KEY, name TEXT)")
	g := newGlossary(t)
	db := open(t, path)
	for _, e := range []glossary.Entry{
		{Term: "big order", Meaning: "an order over 100", SQL: "amount > 100"},
		{Term: "open order", Meaning: "an order not shipped yet", SQL: "status = 'open'"},
		{Term: "named client", Meaning: "a client with a name", SQL: "name IS NOT NULL"},
	} {
		if _, err := g.Add(ctx, db, e); err != nil {
			t.Fatal(err)
		}
	}
	before, _ := g.List(ctx, db)
	db.Close()
	exec("ALTER TABLE orders RENAME COLUMN amount TO total", "ALTER TABLE clients ADD COLUMN city TEXT")
	db = open(t, path)
	st, err := g.Check(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	stale := map[string]bool{}
	for _, s := range st {
		stale[s.Term] = s.Stale
		if s.Stale && (s.Problem == nil || s.Problem.Type != engine.CodeUnknownColumn || !strings.Contains(s.Problem.Hint, "total")) {
			t.Errorf("%s: problem %+v, want unknown_column naming total", s.Term, s.Problem)
		}
	}
	if !stale["big order"] || stale["open order"] || stale["named client"] {
		t.Errorf("stale: %v, want big order only", stale)
	}
	// Check saved the new fingerprint of the entry that still compiles.
	after, _ := g.List(ctx, db)
	for i, s := range after {
		if s.Term == "named client" && s.Fingerprint == before[i].Fingerprint {
			t.Errorf("named client keeps its old fingerprint %s", s.Fingerprint)
		}
	}
	used, err := g.Used(ctx, db, "how many big orders are open orders?")
	if err != nil {
		t.Fatal(err)
	}
	if len(used) != 1 || used[0].Term != "open order" {
		t.Errorf("used: %+v, want open order alone (big order is stale)", used)
	}
}
