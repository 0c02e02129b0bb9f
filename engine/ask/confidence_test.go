package ask

import (
	"context"
	"slices"
	"strings"
	"testing"

	"querent/engine"
	"querent/engine/sqlite"
	"querent/engine/valuehints"
)

// chinookSchema is the demo database's schema.
func chinookSchema(t *testing.T) (*engine.Schema, engine.Database) {
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, "../sqlite/demo/Chinook_Sqlite.sqlite", sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	s, err := db.Schema(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return s, db
}

// The joins on no key are found wherever the join is written (ON, WHERE,
// USING, aliases or none, a self-join), and keyed joins are not.
func TestUnkeyedJoins(t *testing.T) {
	s, _ := chinookSchema(t)
	for _, c := range []struct {
		sql  string
		want []string
	}{
		{"SELECT count(*) FROM Track t JOIN Genre g ON t.GenreId = g.GenreId", nil},
		{"SELECT count(*) FROM Track t JOIN Genre g ON t.MediaTypeId = g.GenreId", []string{"Track.MediaTypeId=Genre.GenreId"}},
		{"SELECT count(*) FROM Track, Genre WHERE Track.MediaTypeId = Genre.GenreId", []string{"Track.MediaTypeId=Genre.GenreId"}},
		{"SELECT count(*) FROM Track AS t INNER JOIN Album AS a ON a.AlbumId = t.AlbumId", nil},
		{"SELECT count(*) FROM Track JOIN Genre USING (GenreId)", nil},
		{"SELECT count(*) FROM Invoice i JOIN Employee e ON i.CustomerId = e.EmployeeId", []string{"Invoice.CustomerId=Employee.EmployeeId"}},
		{"SELECT e.LastName FROM Employee e JOIN Employee m ON e.ReportsTo = m.EmployeeId", nil},
		{"SELECT c.FirstName FROM Customer c JOIN Employee e ON c.SupportRepId = e.EmployeeId WHERE e.Title = 'x'", nil},
		{"SELECT count(*) FROM Customer c JOIN Employee e ON c.City = e.City", []string{"Customer.City=Employee.City"}},
		{"SELECT count(*) FROM Customer JOIN Employee ON City = Employee.City", nil}, // City is ambiguous bare: not read
		{"SELECT count(*) FROM Track t WHERE t.GenreId = (SELECT g.GenreId FROM Genre g WHERE g.Name = 'Rock')", nil},
		{"SELECT count(*) FROM InvoiceLine il JOIN Track t ON il.TrackId = t.TrackId AND il.UnitPrice = t.UnitPrice", []string{"InvoiceLine.UnitPrice=Track.UnitPrice"}},
		{"WITH x AS (SELECT GenreId FROM Genre) SELECT count(*) FROM Track t JOIN x ON x.GenreId = t.MediaTypeId", nil}, // a CTE: not resolved
	} {
		var got []string
		for _, p := range unkeyedJoins(c.sql, s) {
			got = append(got, p.left.name()+"="+p.right.name())
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: got %v, want %v", c.sql, got, c.want)
		}
	}
	// A database that declares no foreign key (imported files) says nothing.
	bare := &engine.Schema{Tables: []*engine.Table{{Name: "a", Columns: []*engine.TableColumn{{Name: "x"}}}, {Name: "b", Columns: []*engine.TableColumn{{Name: "y"}}}}}
	if got := unkeyedJoins("SELECT * FROM a JOIN b ON a.x = b.y", bare); len(got) != 0 {
		t.Errorf("no keys declared: %v", got)
	}
}

// A value the question names is kept by a comparison with it (case and
// accents aside, in a LIKE pattern too), not by reading its column only.
func TestPromiseKept(t *testing.T) {
	p := valuePromises([]valuehints.Hint{{Table: "Genre", Column: "Name", Value: "Rock", Matched: "rock", Exact: true},
		{Table: "Artist", Column: "Name", Value: "Rocky", Matched: "rock", Exact: false}})
	if len(p) != 1 || p[0].Expected != "Genre.Name = 'Rock'" {
		t.Fatalf("promises %+v", p)
	}
	for sql, want := range map[string]bool{
		"SELECT count(*) FROM Track t JOIN Genre g USING (GenreId) WHERE g.Name = 'Rock'":      true,
		"SELECT count(*) FROM Track t JOIN Genre g USING (GenreId) WHERE g.Name = 'rock'":      true,
		"SELECT count(*) FROM Track t JOIN Genre g USING (GenreId) WHERE g.Name LIKE '%ock'":   false,
		"SELECT count(*) FROM Track t JOIN Genre g USING (GenreId) WHERE g.Name LIKE '%rock%'": true,
		"SELECT count(*) FROM Track t JOIN Genre g USING (GenreId) WHERE g.GenreId = 1":        false,
		"SELECT count(*) FROM Track -- 'Rock'":                                                 false,
	} {
		if got := p[0].keptBy(sql, []string{"Genre.Name"}); got != want {
			t.Errorf("%s: kept %v, want %v", sql, got, want)
		}
	}
	// A glossary's promise: an SQL fragment, or the columns alone.
	g := Promise{Term: "active customer", Source: "glossary", Fragments: []string{"SupportRepId IS NOT NULL"}}
	if !g.keptBy("SELECT * FROM Customer WHERE supportrepid  IS NOT  NULL", nil) || g.keptBy("SELECT * FROM Customer", nil) {
		t.Error("the fragment promise")
	}
	cols := Promise{Term: "revenue", Source: "glossary", Columns: []string{"Invoice.Total"}}
	if !cols.keptBy("SELECT sum(Total) FROM Invoice", []string{"Invoice.Total"}) || cols.keptBy("SELECT 1", []string{"Track.Milliseconds"}) {
		t.Error("the columns promise")
	}
}

// The signals and the level they make.
func TestSignals(t *testing.T) {
	s, db := chinookSchema(t)
	run := func(sql string) *engine.Result {
		res, err := db.Run(context.Background(), sql, engine.RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	rock := valuePromises([]valuehints.Hint{{Table: "Genre", Column: "Name", Value: "Rock", Matched: "rock", Exact: true}})
	for _, c := range []struct {
		ev    evidence
		level string
		want  []string
	}{
		{evidence{attempts: 1, res: run("SELECT count(*) FROM Track")}, engine.ConfidenceHigh, nil},
		{evidence{attempts: 2, res: run("SELECT count(*) FROM Track")}, engine.ConfidenceMedium, []string{"repaired"}},
		{evidence{attempts: 4, res: run("SELECT count(*) FROM Track")}, engine.ConfidenceLow, []string{"repaired"}},
		{evidence{attempts: 1, res: run("SELECT Name FROM Track WHERE 0")}, engine.ConfidenceMedium, []string{"empty"}},
		{evidence{attempts: 1, res: run("SELECT max(Total) FROM Invoice WHERE Total < 0")}, engine.ConfidenceMedium, []string{"null"}},
		{evidence{attempts: 1, schema: s, res: run("SELECT count(*) FROM Track t JOIN Genre g ON t.MediaTypeId = g.GenreId")}, engine.ConfidenceMedium, []string{"unkeyed_join"}},
		{evidence{attempts: 1, schema: s, promises: rock, res: run("SELECT count(*) FROM Track")}, engine.ConfidenceMedium, []string{"unused_value"}},
		{evidence{attempts: 1, schema: s, promises: rock, res: run("SELECT count(*) FROM Track t JOIN Genre g USING (GenreId) WHERE g.Name = 'Rock'")}, engine.ConfidenceHigh, nil},
		{evidence{attempts: 1, answer: &ModelAnswer{SQL: "SELECT 1", Clarification: "Which year?"}, res: run("SELECT 1")}, engine.ConfidenceMedium, []string{"clarification"}},
		{evidence{attempts: 2, res: run("SELECT Name FROM Track WHERE 0")}, engine.ConfidenceLow, []string{"repaired", "empty"}},
	} {
		conf, _ := assess(c.ev)
		if conf.Level != c.level || !slices.Equal(conf.Signals, c.want) && len(c.want)+len(conf.Signals) > 0 || len(conf.Reasons) == 0 {
			t.Errorf("%s: %s %v %q, want %s %v", c.ev.res.Query, conf.Level, conf.Signals, conf.Reasons, c.level, c.want)
		}
	}
	conf, _ := assess(evidence{attempts: 1, schema: s, promises: rock, res: run("SELECT count(*) FROM Track")})
	if got := conf.ReasonsSaid[0]["en"]; got != `the question says "rock", but the SQL does not use Genre.Name = 'Rock'` {
		t.Errorf("reason %q", got)
	}
	if got := conf.ReasonsSaid[0]["fr"]; !strings.Contains(got, "«") && !strings.Contains(got, "rock") {
		t.Errorf("French reason %q", got)
	}
}

// Results compare by their values: rows in any order unless ordered,
// columns in any order, 1 and 1.0 equal, floats to 12 digits.
func TestResultKey(t *testing.T) {
	v := func(rows ...[]engine.Value) [][]engine.Value { return rows }
	a := resultKey(2, v([]engine.Value{"x", int64(1)}, []engine.Value{"y", 2.0}), false, false)
	same := []([32]byte){
		resultKey(2, v([]engine.Value{"y", int64(2)}, []engine.Value{"x", 1.0}), false, false),
		resultKey(2, v([]engine.Value{int64(1), "x"}, []engine.Value{int64(2), "y"}), false, false),
	}
	for i, k := range same {
		if k != a {
			t.Errorf("same %d differs", i)
		}
	}
	for i, k := range [][32]byte{
		resultKey(2, v([]engine.Value{"x", int64(1)}), false, false),
		resultKey(2, v([]engine.Value{"x", int64(1)}, []engine.Value{"y", nil}), false, false),
		resultKey(2, v([]engine.Value{"x", int64(1)}, []engine.Value{"y", "2"}), false, false),
		resultKey(2, v([]engine.Value{"x", int64(1)}, []engine.Value{"y", 2.0}), true, false),
	} {
		if k == a {
			t.Errorf("different %d is the same", i)
		}
	}
	xy := resultKey(2, v([]engine.Value{"x", int64(1)}, []engine.Value{"y", int64(2)}), false, true)
	yx := resultKey(2, v([]engine.Value{"y", int64(2)}, []engine.Value{"x", int64(1)}), false, true)
	if xy == yx {
		t.Error("ordered rows compare in any order")
	}
	if resultKey(1, v([]engine.Value{2328.6}), false, false) != resultKey(1, v([]engine.Value{2328.5999999999999 + 1e-10}), false, false) {
		t.Error("a float's last digits count")
	}
}
