package sqlite

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"querent/engine"
	"querent/engine/imports"
	"querent/engine/ingest"
)

// fakeTable is an imports.Table whose rows come from a function.
func fakeTable(name string, cols []imports.Column, n int64, row func(i int64) []engine.Value) *imports.Table {
	return &imports.Table{
		Name: name, Source: name + ".csv", SourceSHA256: "abc123", Columns: cols, RowCount: n,
		Rows: func(ctx context.Context, yield func([]engine.Value) error) error {
			buf := make([]engine.Value, len(cols))
			for i := int64(0); i < n; i++ {
				if i%1000 == 0 && ctx.Err() != nil {
					return ctx.Err()
				}
				copy(buf, row(i))
				if err := yield(buf); err != nil {
					return err
				}
			}
			return nil
		},
	}
}

var salesCols = []imports.Column{
	{Name: "id", OriginalName: "ID", Type: imports.TypeInteger, Converted: 3, Reason: "every value is a whole number"},
	{Name: "region", OriginalName: "Région", Type: imports.TypeText, KeptAsText: 3, Reason: "text"},
	{Name: "amount", OriginalName: "Amount ($)", Type: imports.TypeReal, Converted: 3, Reason: "amounts"},
	{Name: "day", OriginalName: "Day", Type: imports.TypeDate, Converted: 3, Reason: "dates"},
	{Name: "paid", OriginalName: "Paid?", Type: imports.TypeBoolean, Converted: 3, Reason: "yes/no"},
}

func TestImportNewFile(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "new.sqlite")
	tab := fakeTable("sales", salesCols, 250, func(i int64) []engine.Value {
		var region engine.Value = fmt.Sprintf("r%d", i%3)
		if i%10 == 9 {
			region = nil
		}
		return []engine.Value{i + 1, region, float64(i) * 1.25, "2024-01-02", i % 2}
	})
	var progress []imports.Progress
	rep, err := Import(context.Background(), target, []*imports.Table{tab, salesLike("sales", 3)},
		ImportOptions{Progress: func(p imports.Progress) { progress = append(progress, p) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Tables) != 2 || rep.Tables[0].Name != "sales" || rep.Tables[1].Name != "sales_2" || rep.Tables[0].Rows != 250 || rep.Tables[0].Action != "created" {
		t.Errorf("report tables %+v", rep.Tables)
	}
	if rep.Database != target || rep.ElapsedS <= 0 {
		t.Errorf("report %+v", rep)
	}
	if len(progress) == 0 || progress[len(progress)-1].Rows != 3 {
		t.Errorf("progress %+v", progress)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("files left in the folder: %v", entries)
	}
	db := openT(t, target, Options{})
	res, err := db.Run(context.Background(), "SELECT count(*), sum(id), count(region), typeof(amount), typeof(paid), min(day) FROM sales", engine.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []engine.Value{int64(250), int64(250 * 251 / 2), int64(225), "real", "integer", "2024-01-02"}; !reflect.DeepEqual(res.Rows[0], want) {
		t.Errorf("stored %v, want %v", res.Rows[0], want)
	}
	s, err := db.Schema(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if c := s.Table("sales").Column("region"); c == nil || c.OriginalName == nil || *c.OriginalName != "Région" || c.Type != "TEXT" {
		t.Errorf("region column %+v", c)
	}
	if c := s.Table("sales").Column("paid"); c.Type != "BOOLEAN" {
		t.Errorf("paid declared %q", c.Type)
	}
	res, err = db.Run(context.Background(), "SELECT table_name, source_name, source_sha256, sheet, rows, json_array_length(columns_json) FROM _querent_imports ORDER BY rowid", engine.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []engine.Value{"sales", "sales.csv", "abc123", nil, int64(250), int64(5)}; !reflect.DeepEqual(res.Rows[0], want) {
		t.Errorf("provenance %v, want %v", res.Rows[0], want)
	}
}

// salesLike is a small table with the sales columns.
func salesLike(name string, n int64) *imports.Table {
	return fakeTable(name, salesCols, n, func(i int64) []engine.Value {
		return []engine.Value{i + 1, "x", 1.5, "2024-02-03", int64(1)}
	})
}

func TestImportExisting(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	// A database Querent's import made, to which the user added a table.
	target := querentMade(t, dir, "have.sqlite")
	makeDB(t, dir, "have.sqlite", "CREATE TABLE keep(x)", "INSERT INTO keep VALUES (42)")
	// A free name: added.
	if _, err := Import(ctx, target, []*imports.Table{salesLike("sales", 10)}, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	// The same name again, no flag: an error naming the ways out, file unchanged.
	u := watch(t, target)
	_, err := Import(ctx, target, []*imports.Table{salesLike("sales", 5)}, ImportOptions{})
	e := engine.AsError(err)
	if e == nil || e.Code != engine.CodeImport || !strings.Contains(e.Hint, "--replace") || !strings.Contains(e.Hint, "--append") || !strings.Contains(e.Hint, "--table") {
		t.Fatalf("got %v", err)
	}
	u.check(t, "a refused import")
	// --append: rows added.
	rep, err := Import(ctx, target, []*imports.Table{salesLike("sales", 5)}, ImportOptions{Append: true})
	if err != nil || rep.Tables[0].Action != "appended" {
		t.Fatalf("append: %v %+v", err, rep)
	}
	// --replace: the table alone is replaced.
	rep, err = Import(ctx, target, []*imports.Table{salesLike("sales", 7)}, ImportOptions{Replace: true})
	if err != nil || rep.Tables[0].Action != "replaced" {
		t.Fatalf("replace: %v", err)
	}
	// --table: a new name.
	if _, err := Import(ctx, target, []*imports.Table{salesLike("sales", 2)}, ImportOptions{Table: "sales_copy"}); err != nil {
		t.Fatal(err)
	}
	db := openT(t, target, Options{})
	res, err := db.Run(ctx, `SELECT (SELECT count(*) FROM sales), (SELECT x FROM keep), (SELECT count(*) FROM sales_copy),
		(SELECT count(*) FROM _querent_imports WHERE table_name = 'sales'), (SELECT count(*) FROM sqlite_schema WHERE name LIKE '_querent_new_%')`, engine.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []engine.Value{int64(7), int64(42), int64(2), int64(1), int64(0)}; !reflect.DeepEqual(res.Rows[0], want) {
		t.Errorf("after the imports %v, want %v", res.Rows[0], want)
	}
	db.Close()
	// Appending different columns: an error, file unchanged.
	u = watch(t, target)
	other := fakeTable("sales", []imports.Column{{Name: "a", Type: "TEXT"}}, 1, func(int64) []engine.Value { return []engine.Value{"x"} })
	if _, err := Import(ctx, target, []*imports.Table{other}, ImportOptions{Append: true}); engine.ErrorCode(err) != engine.CodeImport || !strings.Contains(err.Error(), "columns differ") {
		t.Errorf("append of other columns: %v", err)
	}
	u.check(t, "a refused append")
}

// TestImportAllOrNothing fails and cancels imports halfway: a new target is
// not left behind, an existing one is byte for byte as before.
func TestImportAllOrNothing(t *testing.T) {
	ctx := context.Background()
	boom := errors.New("the source broke at row 5000")
	failing := func() *imports.Table {
		tab := salesLike("sales", 20000)
		inner := tab.Rows
		tab.Rows = func(ctx context.Context, yield func([]engine.Value) error) error {
			var n int
			return inner(ctx, func(r []engine.Value) error {
				if n++; n == 5000 {
					return engine.Errorf(engine.CodeImport, "%v", boom)
				}
				return yield(r)
			})
		}
		return tab
	}
	slow := func(cancel context.CancelFunc) *imports.Table {
		tab := salesLike("sales", 1_000_000)
		inner := tab.Rows
		tab.Rows = func(ctx context.Context, yield func([]engine.Value) error) error {
			var n int
			return inner(ctx, func(r []engine.Value) error {
				if n++; n == 30000 {
					cancel()
				}
				return yield(r)
			})
		}
		return tab
	}
	for _, mode := range []string{"new", "existing", "replace"} {
		dir := t.TempDir()
		target := filepath.Join(dir, "t.sqlite")
		opts := ImportOptions{}
		if mode != "new" {
			if _, err := Import(ctx, target, []*imports.Table{salesLike("sales", 1)}, ImportOptions{}); err != nil {
				t.Fatal(err)
			}
			makeDB(t, dir, "t.sqlite", "CREATE TABLE keep(x)", "INSERT INTO keep VALUES (1)")
			opts.Replace = mode == "replace"
			if mode == "existing" {
				opts.Table = "fresh"
			}
		}
		before := listDir(t, dir)
		sha := ""
		if mode != "new" {
			sha = fileSHA(t, target)
		}
		_, err := Import(ctx, target, []*imports.Table{failing()}, opts)
		if engine.ErrorCode(err) != engine.CodeImport {
			t.Errorf("%s: failing source: %v", mode, err)
		}
		cctx, cancel := context.WithCancel(ctx)
		_, err = Import(cctx, target, []*imports.Table{slow(cancel)}, opts)
		cancel()
		if engine.ErrorCode(err) != engine.CodeCancelled {
			t.Errorf("%s: cancelled: %v", mode, err)
		}
		if after := listDir(t, dir); after != before {
			t.Errorf("%s: the folder changed:\n%s\nwas\n%s", mode, after, before)
		}
		if sha != "" && fileSHA(t, target) != sha {
			t.Errorf("%s: the existing file changed", mode)
		}
	}
}

func TestImportUsageErrors(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	csv := filepath.Join(dir, "data.csv")
	os.WriteFile(csv, []byte("a,b\n1,2\n"), 0o644)
	tests := []struct {
		target string
		tables []*imports.Table
		opts   ImportOptions
		code   string
		msg    string
	}{
		{filepath.Join(dir, "x.sqlite"), nil, ImportOptions{}, engine.CodeImport, "nothing to import"},
		{filepath.Join(dir, "x.sqlite"), []*imports.Table{salesLike("a", 1), salesLike("b", 1)}, ImportOptions{Table: "t"}, engine.CodeUsage, "--table names one table"},
		{filepath.Join(dir, "x.sqlite"), []*imports.Table{salesLike("a", 1)}, ImportOptions{Table: "bad name"}, engine.CodeUsage, "not a usable table name"},
		{filepath.Join(dir, "x.sqlite"), []*imports.Table{salesLike("a", 1)}, ImportOptions{Replace: true, Append: true}, engine.CodeUsage, "cannot be used together"},
		{csv, []*imports.Table{salesLike("a", 1)}, ImportOptions{}, engine.CodeImport, "not a usable SQLite database"},
		{filepath.Join(dir, "no", "such", "x.sqlite"), []*imports.Table{salesLike("a", 1)}, ImportOptions{}, engine.CodeImport, "does not exist"},
		{dir, []*imports.Table{salesLike("a", 1)}, ImportOptions{}, engine.CodeUsage, "is a folder"},
	}
	for _, tt := range tests {
		_, err := Import(ctx, tt.target, tt.tables, tt.opts)
		e := engine.AsError(err)
		if e == nil || e.Code != tt.code || !strings.Contains(e.Message, tt.msg) || e.Hint == "" {
			t.Errorf("%s %+v: got %v, want %s %q", tt.target, tt.opts, err, tt.code, tt.msg)
		}
	}
	src := salesLike("a", 1)
	src.SourcePath = csv
	if _, err := Import(ctx, csv, []*imports.Table{src}, ImportOptions{}); engine.ErrorCode(err) != engine.CodeUsage {
		t.Errorf("target = source: %v", err)
	}
}

// TestImportLockedTarget: another program holds a write lock; the import
// waits, then fails clearly, and changes nothing.
func TestImportLockedTarget(t *testing.T) {
	dir := t.TempDir()
	target := querentMade(t, dir, "busy.sqlite")
	makeDB(t, dir, "busy.sqlite", "CREATE TABLE x(a)")
	w := writable(t, target)
	tx, err := w.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec("INSERT INTO x VALUES (1)"); err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	start := time.Now()
	_, err = Import(context.Background(), target, []*imports.Table{salesLike("s", 3)}, ImportOptions{BusyTimeout: 200 * time.Millisecond})
	if e := engine.AsError(err); e == nil || e.Code != engine.CodeImport || !strings.Contains(e.Hint, "another program") {
		t.Fatalf("got %v", err)
	}
	if time.Since(start) > 10*time.Second {
		t.Error("waited too long")
	}
}

// TestReservedWordsNeedQuotes checks ingest's list of reserved words against
// SQLite itself: every keyword that cannot name a column unquoted is in it.
func TestReservedWordsNeedQuotes(t *testing.T) {
	db := writable(t, filepath.Join(t.TempDir(), "kw.db"))
	for _, k := range strings.Fields(`ABORT ACTION ADD AFTER ALL ALTER ALWAYS ANALYZE AND AS ASC ATTACH AUTOINCREMENT BEFORE
		BEGIN BETWEEN BY CASCADE CASE CAST CHECK COLLATE COLUMN COMMIT CONFLICT CONSTRAINT CREATE CROSS CURRENT
		CURRENT_DATE CURRENT_TIME CURRENT_TIMESTAMP DATABASE DEFAULT DEFERRABLE DEFERRED DELETE DESC DETACH DISTINCT DO
		DROP EACH ELSE END ESCAPE EXCEPT EXCLUDE EXCLUSIVE EXISTS EXPLAIN FAIL FILTER FIRST FOLLOWING FOR FOREIGN FROM
		FULL GENERATED GLOB GROUP GROUPS HAVING IF IGNORE IMMEDIATE IN INDEX INDEXED INITIALLY INNER INSERT INSTEAD
		INTERSECT INTO IS ISNULL JOIN KEY LAST LEFT LIKE LIMIT MATCH MATERIALIZED NATURAL NO NOT NOTHING NOTNULL NULL
		NULLS OF OFFSET ON OR ORDER OTHERS OUTER OVER PARTITION PLAN PRAGMA PRECEDING PRIMARY QUERY RAISE RANGE
		RECURSIVE REFERENCES REGEXP REINDEX RELEASE RENAME REPLACE RESTRICT RETURNING RIGHT ROLLBACK ROW ROWS SAVEPOINT
		SELECT SET TABLE TEMP TEMPORARY THEN TIES TO TRANSACTION TRIGGER UNBOUNDED UNION UNIQUE UPDATE USING VACUUM
		VALUES VIEW VIRTUAL WHEN WHERE WINDOW WITH WITHOUT`) {
		k = strings.ToLower(k)
		tbl := "t_" + k
		_, err1 := db.Exec(fmt.Sprintf("CREATE TABLE %s (%s INTEGER); SELECT %s, %s.%s FROM %s WHERE %s > 0 GROUP BY %s ORDER BY %s", tbl, k, k, tbl, k, tbl, k, k, k))
		_, err2 := db.Exec(fmt.Sprintf("CREATE TABLE %s (x INTEGER); SELECT x FROM %s", k, k))
		needsQuotes := err1 != nil || err2 != nil || strings.HasPrefix(k, "current_")
		if needsQuotes != ingest.ReservedWord(k) {
			t.Errorf("%s: needs quotes %v, ingest.ReservedWord says %v", k, needsQuotes, ingest.ReservedWord(k))
		}
	}
}
