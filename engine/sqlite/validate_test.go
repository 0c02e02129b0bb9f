package sqlite

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"querent/engine/sqltext"

	"querent/engine"
)

func TestValidateErrors(t *testing.T) {
	db := openT(t, copyChinook(t), Options{})
	tests := []struct {
		sql, code, msg, hint string
		pos                  int // -2: do not check
	}{
		{"SELECT Titel FROM Album", engine.CodeUnknownColumn, "no such column: Titel", "did you mean Title?", 7},
		{"SELECT * FROM Albums", engine.CodeUnknownTable, "no such table: Albums", "did you mean Album?", 14},
		{"SELECT * FROM invoice_line", engine.CodeUnknownTable, "invoice_line", "did you mean InvoiceLine?", 14},
		{"SELECT InvoiceDat FROM Invoice i JOIN Customer c USING (CustomerId)", engine.CodeUnknownColumn, "InvoiceDat", "did you mean Invoice.InvoiceDate", 7},
		{"SELECT i.Totl FROM Invoice i", engine.CodeUnknownColumn, "i.Totl", "did you mean Total?", 7},
		{"SELECT Country FROM Invoice", engine.CodeUnknownColumn, "Country", "BillingCountry", 7},
		{"SELECT Milliseconds FROM Album", engine.CodeUnknownColumn, "Milliseconds", "Track.Milliseconds is in a table this query does not read yet; join it", 7},
		{`SELECT * FROM Customer WHERE "Contry" = 'Brazil'`, engine.CodeUnknownColumn, `"Contry"`, "single quotes ('Contry'); double quotes name a column. did you mean Country?", 29},
		{`SELECT "Milliseconds" FROM Album`, engine.CodeUnknownColumn, `"Milliseconds"`, "Track.Milliseconds is in a table this query does not read yet", 7},
		{`SELECT * FROM Customer WHERE Country = "it's" AND Cuntry = 'x'`, engine.CodeUnknownColumn, "no such column: Cuntry", "did you mean Country?", 50},
		{"SELECT YEAR(InvoiceDate) FROM Invoice", engine.CodeSyntax, "no such function: YEAR", "strftime('%Y', col)", 7},
		{"SELECT lenght(Name) FROM Artist", engine.CodeSyntax, "no such function: lenght", "did you mean length?", 7},
		{"SELECT Name FROM Artist WHERE Name ILIKE '%ac%'", engine.CodeSyntax, "SQLite has no ILIKE", "write LIKE", 35},
		{"SELECT TOP 5 Name FROM Artist", engine.CodeSyntax, "SQLite has no TOP", "LIMIT n", 11},
		{"SELECT Total::int FROM Invoice", engine.CodeSyntax, "SQLite has no :: casts (::int)", "CAST(x AS INTEGER)", 12},
		{"SELECT CustomerId FROM Invoice, Customer", engine.CodeSyntax, "ambiguous column name CustomerId", "Invoice.CustomerId or Customer.CustomerId", 7},
		{"SELECT Name FROM Artist WHERE", engine.CodeSyntax, "ends too early", "missing", 29},
		{"SELECT Name, FROM Artist", engine.CodeSyntax, `near "FROM" at line 1, column 14`, "just before \"FROM\"", 13},
		{"SELECT Name\nFROM Artist\nWHER Name = 'x'", engine.CodeSyntax, "at line 3, column 6", "", 29},
		{"SELECT 'abc FROM Artist", engine.CodeSyntax, "unrecognized token", "close every quote", -2},
		{"DELETE FROM Album", engine.CodeRefused, "DELETE from Album would write to the database", "SELECT", 0},
		// Statements that write SQLite's own schema table are named as written.
		{"DROP TABLE Track", engine.CodeRefused, "DROP TABLE Track would change the database", "SELECT", 0},
		{"drop table if exists main.Track;", engine.CodeRefused, "DROP TABLE main.Track would change the database", "SELECT", 0},
		{"CREATE TABLE x(a)", engine.CodeRefused, "CREATE TABLE x would change the database", "SELECT", 0},
		{"CREATE UNIQUE INDEX IF NOT EXISTS i ON Track(Name)", engine.CodeRefused, "CREATE UNIQUE INDEX i would change the database", "SELECT", 0},
		{"/* c */ CREATE VIEW v AS SELECT 1", engine.CodeRefused, "CREATE VIEW v would change the database", "SELECT", 8},
		{"CREATE TEMP TABLE t AS SELECT 1", engine.CodeRefused, "CREATE TEMP TABLE t would change the database", "SELECT", 0},
		{"DROP INDEX IFK_TrackAlbumId", engine.CodeRefused, "DROP INDEX IFK_TrackAlbumId would change the database", "SELECT", 0},
		{"  SELECT 1; SELECT 2", engine.CodeRefused, "holds 2 (the second starts at line 1, column 13: SELECT 2)", "one at a time", 12},
		{"EXPLAIN SELECT 1", engine.CodeRefused, "EXPLAIN", "optimization_hints", 0},
		{"", engine.CodeSyntax, "no SQL statement", "SELECT", -1},
		{"SELECT load_extension('x')", engine.CodeRefused, "load_extension() is not allowed", "SELECT", 0},
		{"PRAGMA table_info(Album)", engine.CodeRefused, "pragma_table_info", "SELECT", 0},
		{"SELECT * FROM Album WHERE AlbumId = :id", engine.CodeSyntax, "parameter (:id)", "write the value", 36},
		{"SELECT count(*) FROM Track GROUP BY count(*)", engine.CodeSyntax, "aggregate", "GROUP BY", -2},
		{"SELECT 1 UNION SELECT 1, 2", engine.CodeSyntax, "same number of result columns", "same number of columns", -2},
	}
	for _, tt := range tests {
		_, err := db.Validate(context.Background(), tt.sql)
		e := engine.AsError(err)
		if e == nil {
			t.Errorf("%q: validated", tt.sql)
			continue
		}
		if e.Code != tt.code || !strings.Contains(e.Message, tt.msg) || !strings.Contains(e.Hint, tt.hint) {
			t.Errorf("%q:\n got %s %q\n  hint %q\nwant %s %q, hint with %q", tt.sql, e.Code, e.Message, e.Hint, tt.code, tt.msg, tt.hint)
		}
		if tt.pos != -2 && e.Position != tt.pos {
			t.Errorf("%q: position %d, want %d", tt.sql, e.Position, tt.pos)
		}
		if e.Query != tt.sql {
			t.Errorf("%q: the error's query is %q", tt.sql, e.Query)
		}
	}
}

func TestValidateReports(t *testing.T) {
	dir := t.TempDir()
	path := makeDB(t, dir, "v.db",
		"CREATE TABLE a(id INTEGER PRIMARY KEY, name TEXT, made TEXT DEFAULT CURRENT_TIMESTAMP, tag TEXT DEFAULT (hex(randomblob(4))))",
		"CREATE TABLE b(id INTEGER PRIMARY KEY, a_id INTEGER, amount REAL)",
		"CREATE VIEW totals AS SELECT a_id, sum(amount) AS total FROM b GROUP BY a_id",
		"CREATE TABLE c(cid INTEGER PRIMARY KEY, id INTEGER, note TEXT)",
		"INSERT INTO a(id, name) VALUES (1, 'x')")
	db := openT(t, path, Options{})
	v, err := db.Validate(context.Background(),
		"SELECT a.name, t.total, count(*) AS n, upper(a.name), a.name FROM a JOIN totals t ON t.a_id = a.id GROUP BY 1, 2;")
	if err != nil {
		t.Fatal(err)
	}
	names := []string{}
	for _, c := range v.Columns {
		names = append(names, c.Name+":"+c.Type)
	}
	if want := []string{"name:TEXT", "total:", "n:", "upper(a.name):", "name_2:TEXT"}; !reflect.DeepEqual(names, want) {
		t.Errorf("columns %v, want %v", names, want)
	}
	if want := []string{"a", "totals", "b"}; !reflect.DeepEqual(v.Tables, want) {
		t.Errorf("tables %v, want %v", v.Tables, want)
	}
	if want := []string{"count", "upper"}; !reflect.DeepEqual(v.Functions, want) {
		t.Errorf("functions %v, want %v (not the sum() inside the view, not the defaults)", v.Functions, want)
	}
	if !strings.HasSuffix(v.SQL, "GROUP BY 1, 2") {
		t.Errorf("SQL %q keeps its semicolon", v.SQL)
	}
	for _, c := range []string{"a.name", "b.amount"} {
		found := false
		for _, r := range v.ColumnsRead {
			found = found || r == c
		}
		if !found {
			t.Errorf("columns read %v lack %s", v.ColumnsRead, c)
		}
	}
	// Reading the columns with function defaults is not a false positive.
	v, err = db.Validate(context.Background(), "SELECT * FROM a")
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Functions) != 0 {
		t.Errorf("functions %v for SELECT *: defaults reported as calls", v.Functions)
	}
	// A table read only through a USING or NATURAL join gets no SQLITE_READ
	// callback; it is a table used all the same. A CTE named like a table
	// is not the table.
	for _, tc := range []struct {
		sql  string
		want []string
	}{
		{"SELECT a.name, count(*) FROM a JOIN b ON b.a_id = a.id GROUP BY 1", []string{"a", "b"}},
		{"SELECT count(*) FROM c JOIN a USING (id)", []string{"c", "a"}},
		{"SELECT a.name FROM a JOIN c AS x USING (id)", []string{"a", "c"}},
		{"SELECT a.name FROM a NATURAL JOIN c", []string{"a", "c"}},
		{"WITH c AS (SELECT 1 AS id) SELECT count(*) FROM a JOIN c USING (id)", []string{"a"}},
		{"WITH x(id) AS MATERIALIZED (SELECT 1) SELECT count(*) FROM x JOIN c USING (id)", []string{"c"}},
	} {
		v, err := db.Validate(context.Background(), tc.sql)
		if err != nil {
			t.Fatalf("%s: %v", tc.sql, err)
		}
		if !reflect.DeepEqual(v.Tables, tc.want) {
			t.Errorf("%s: tables %v, want %v", tc.sql, v.Tables, tc.want)
		}
	}
}

func TestUniqueColumnNames(t *testing.T) {
	db := openT(t, copyChinook(t), Options{})
	v, err := db.Validate(context.Background(), "SELECT Name, Name, Name AS Name_2, name FROM Artist")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range v.Columns {
		got = append(got, c.Name)
	}
	if want := []string{"Name", "Name_3", "Name_2", "Name_4"}; !reflect.DeepEqual(got, want) {
		t.Errorf("names %v, want %v", got, want)
	}
}

func TestSplitStatements(t *testing.T) {
	tests := []struct {
		sql  string
		want []string
	}{
		{"SELECT 1", []string{"SELECT 1"}},
		{"SELECT 1;", []string{"SELECT 1"}},
		{"SELECT 1; -- done\n", []string{"SELECT 1"}},
		{"/* a */ SELECT 1 /* b */ ; /* c */", []string{"SELECT 1"}},
		{"SELECT ';'; SELECT 2", []string{"SELECT ';'", "SELECT 2"}},
		{`SELECT "a;b", [c;d], ` + "`e;f`" + `, 'it''s;'`, []string{`SELECT "a;b", [c;d], ` + "`e;f`" + `, 'it''s;'`}},
		{"SELECT 1 -- ; x\n; SELECT 2", []string{"SELECT 1", "SELECT 2"}},
		{"SELECT 'unterminated; SELECT 2", []string{"SELECT 'unterminated; SELECT 2"}},
		{"SELECT 1 /* unterminated ; SELECT 2", []string{"SELECT 1"}},
		{" ; ;; ", nil},
		{"SELECT x'41;42'; VALUES (1)", []string{"SELECT x'41;42'", "VALUES (1)"}},
	}
	for _, tt := range tests {
		var got []string
		for _, s := range sqltext.Split(tt.sql) {
			got = append(got, tt.sql[s.Start:s.End])
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q: %q, want %q", tt.sql, got, tt.want)
		}
	}
}

// TestCloseNamesOnly: an unknown name gets "did you mean" only for names
// that are close to it (text.Closest has the cases).
func TestCloseNamesOnly(t *testing.T) {
	db := openT(t, copyChinook(t), Options{})
	_, err := db.Validate(context.Background(), "SELECT nope FROM Artist")
	if e := engine.AsError(err); e == nil || strings.Contains(e.Hint, "did you mean") {
		t.Errorf("SELECT nope FROM Artist: hint %q suggests a name that is not close", e.Hint)
	}
}
