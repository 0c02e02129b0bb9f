package sensitive_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	_ "modernc.org/sqlite"

	"querent/engine"
	"querent/engine/sensitive"
	"querent/engine/sqlite"
)

// chinook is a copy of the demo database with a view computed from
// Customer.Email, opened read-only.
func chinook(t testing.TB) (*sqlite.DB, string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "sqlite", "demo", "Chinook_Sqlite.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "chinook.sqlite")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	raw, err := sql.Open("sqlite", p)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		`CREATE VIEW Contact AS SELECT FirstName, lower(Email) AS Mail, Country FROM Customer`,
		`CREATE VIEW ContactCountry AS SELECT Mail AS Address, Country FROM Contact`,
	} {
		if _, err := raw.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	raw.Close()
	db, err := sqlite.Open(context.Background(), p, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, p
}

func flags(cols []engine.Column) []bool {
	out := make([]bool, len(cols))
	for i, c := range cols {
		out[i] = c.Sensitive
	}
	return out
}

// TestMarkFollowsTheColumn checks which result columns carry a marked
// column's values, for queries nobody listed in the mark: aliases,
// expressions, aggregates, CTEs, subqueries, views and views of views.
func TestMarkFollowsTheColumn(t *testing.T) {
	ctx := context.Background()
	db, _ := chinook(t)
	st := sensitive.Open(t.TempDir())
	if _, err := st.Add(ctx, db, "customer.email"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Apply(ctx, db); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		sql  string
		want []bool
	}{
		{`SELECT Email FROM Customer`, []bool{true}},
		{`SELECT Email AS e, FirstName FROM Customer`, []bool{true, false}},
		{`SELECT lower(Email), FirstName FROM Customer`, []bool{true, false}},
		{`SELECT substr(Email, 1, 3) AS s FROM Customer`, []bool{true}},
		{`SELECT "Email" FROM "Customer" c`, []bool{true}},
		{`SELECT count(DISTINCT Email) FROM Customer`, []bool{true}},
		{`SELECT Country, count(*) FROM Customer GROUP BY Country`, []bool{false, false}},
		{`SELECT count(*) FROM Customer WHERE Email LIKE '%gmail%'`, []bool{true}},
		{`WITH x AS (SELECT Email AS m, CustomerId FROM Customer) SELECT m, CustomerId FROM x`, []bool{true, false}},
		{`SELECT m FROM (SELECT upper(Email) AS m FROM Customer)`, []bool{true}},
		{`SELECT c.FirstName, i.Total FROM Customer c JOIN Invoice i USING (CustomerId)`, []bool{false, false}},
		{`SELECT Mail, FirstName FROM Contact`, []bool{true, false}},
		{`SELECT * FROM Contact`, []bool{false, true, false}},
		{`SELECT Address, Country FROM ContactCountry`, []bool{true, false}},
		{`SELECT e.Email FROM Employee e`, []bool{false}},
	} {
		res, err := db.Run(ctx, c.sql, engine.RunOptions{MaxRows: 3})
		if err != nil {
			t.Fatalf("%s: %v", c.sql, err)
		}
		if got := flags(res.Columns); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: sensitive %v, want %v (columns %+v)", c.sql, got, c.want, res.Columns)
		}
	}
}

// TestHideReadsAsNull checks the authorizer's NULL: a hidden column reads
// as NULL wherever the statement reads it, so that no filter, join or
// expression over it tells anything of its values.
func TestHideReadsAsNull(t *testing.T) {
	ctx := context.Background()
	db, _ := chinook(t)
	hide := engine.RunOptions{MaxRows: 100, Hide: []string{"Customer.Email"}}
	for _, c := range []struct {
		sql  string
		want string
	}{
		{`SELECT Email FROM Customer WHERE CustomerId = 1`, "[<nil>]"},
		{`SELECT lower(Email) FROM Customer WHERE CustomerId = 1`, "[<nil>]"},
		{`SELECT count(*) FROM Customer WHERE Email LIKE 'luis%'`, "[0]"},
		{`SELECT count(*) FROM Customer WHERE substr(Email, 1, 1) = 'l'`, "[0]"},
		{`SELECT Mail FROM Contact LIMIT 1`, "[<nil>]"},
		{`SELECT FirstName FROM Customer WHERE CustomerId = 1`, "[Luís]"},
	} {
		res, err := db.Run(ctx, c.sql, hide)
		if err != nil {
			t.Fatalf("%s: %v", c.sql, err)
		}
		if len(res.Rows) != 1 || fmtRow(res.Rows[0]) != c.want {
			t.Errorf("%s hidden: %v, want %s", c.sql, res.Rows, c.want)
		}
	}
	// Without Hide the same statement sees the values (the authorizer's
	// state does not leak from one statement to the next).
	res, err := db.Run(ctx, `SELECT count(*) FROM Customer WHERE Email LIKE 'luis%'`, engine.RunOptions{})
	if err != nil || fmtRow(res.Rows[0]) != "[2]" {
		t.Errorf("shown: %v, %v", res, err)
	}
}

func fmtRow(r []engine.Value) string { return fmt.Sprint(r) }

// TestStore checks marking: the closest names for a column that does not
// exist, the schema's spelling, a copy of the file found by its hash, the
// views' columns computed from a mark, and unmarking.
func TestStore(t *testing.T) {
	ctx := context.Background()
	db, p := chinook(t)
	dir := t.TempDir()
	st := sensitive.Open(dir)
	_, err := st.Add(ctx, db, "Customer.Emial")
	if e := engine.AsError(err); err == nil || e.Code != engine.CodeUnknownColumn || !strings.Contains(e.Hint, "Email") {
		t.Fatalf("unknown column: %v", err)
	}
	_, err = st.Add(ctx, db, "Custmer.Email")
	if e := engine.AsError(err); err == nil || e.Code != engine.CodeUnknownTable || !strings.Contains(e.Hint, "Customer") {
		t.Fatalf("unknown table: %v", err)
	}
	if _, err := st.Add(ctx, db, "Email"); engine.AsError(err).Code != engine.CodeUsage {
		t.Fatalf("no table: %v", err)
	}
	m, err := st.Add(ctx, db, "customer.EMAIL")
	if err != nil || m.Name() != "Customer.Email" {
		t.Fatalf("add: %+v %v", m, err)
	}
	if _, err := st.Add(ctx, db, "Customer.Email"); err != nil {
		t.Fatal(err)
	}
	marks, _ := st.List(ctx, db)
	if len(marks) != 1 {
		t.Fatalf("marked twice: %+v", marks)
	}
	set, err := st.Set(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if got := set.Columns(); !reflect.DeepEqual(got, []string{"Contact.Mail", "ContactCountry.Address", "Customer.Email"}) {
		t.Errorf("with the views: %v", got)
	}
	// The marks are in the data folder, never in or beside the database.
	if _, err := os.Stat(filepath.Join(dir, sensitive.FileName)); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(filepath.Dir(p)); len(ents) != 1 {
		t.Errorf("files beside the database: %v", ents)
	}
	// A copy elsewhere is the same database (its hash): the marks hold.
	b, _ := os.ReadFile(p)
	cp := filepath.Join(t.TempDir(), "copy.sqlite")
	os.WriteFile(cp, b, 0o644)
	db2, err := sqlite.Open(ctx, cp, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	if marks, _ := st.List(ctx, db2); len(marks) != 1 {
		t.Errorf("the copy's marks: %+v", marks)
	}
	if ok, err := st.Remove(ctx, db, "Customer.Email"); !ok || err != nil {
		t.Fatalf("remove: %v %v", ok, err)
	}
	if marks, _ := st.List(ctx, db); len(marks) != 0 {
		t.Errorf("after remove: %+v", marks)
	}
	if ok, _ := st.Remove(ctx, db, "Customer.Email"); ok {
		t.Error("removed twice")
	}
}

// TestLikely checks the columns offered for marking on Chinook: by name
// and by values, never one already marked.
func TestLikely(t *testing.T) {
	ctx := context.Background()
	db, _ := chinook(t)
	sch, err := db.Schema(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range sensitive.FindLikely(sch, sensitive.New("Customer.Phone")) {
		got = append(got, l.Name()+":"+l.Kind)
	}
	want := []string{"Contact.Mail:email", "ContactCountry.Address:email", "Customer.Email:email", "Customer.Fax:phone", "Employee.Email:email", "Employee.Fax:phone", "Employee.Phone:phone"}
	if !reflect.DeepEqual(sortedCopy(got), want) {
		t.Errorf("likely %v, want %v", got, want)
	}
}

func sortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}
