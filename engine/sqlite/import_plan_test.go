package sqlite

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"querent/engine"
	"querent/engine/imports"
)

// A file an older Querent made has the first version of _querent_imports:
// importing into it adds the new columns, the old rows keep NULL there.
func TestImportMigratesOlderImportsTable(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	target := makeDB(t, dir, "old.sqlite",
		`CREATE TABLE _querent_imports (table_name TEXT NOT NULL, source_name TEXT, source_sha256 TEXT, sheet TEXT,
  imported_at TEXT NOT NULL, rows INTEGER, columns_json TEXT)`,
		`CREATE TABLE seed (id INTEGER)`,
		`INSERT INTO _querent_imports VALUES ('seed', 'seed.csv', 'abc', NULL, '2025-01-01 00:00:00', 0, '[]')`)
	tab := salesLike("sales", 3)
	tab.Columns = append([]imports.Column(nil), tab.Columns...)
	tab.Columns[3].BadValues = 2
	tab.Layout = imports.Layout{Encoding: "utf-8", Delimiter: ",", HeaderRow: 1}
	tab.Skipped = []imports.SkippedColumn{{Position: 9, Name: "column_9", Reason: "no header and no values"}}
	rep, err := Import(ctx, target, []*imports.Table{tab}, ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Tables[0].BadValues != 2 || rep.Tables[0].Encoding != "utf-8" || len(rep.Tables[0].Skipped) != 1 {
		t.Errorf("report %+v", rep.Tables[0])
	}
	db := openT(t, target, Options{})
	defer db.Close()
	res, err := db.Run(ctx, `SELECT table_name, bad_values, json_extract(details_json, '$.delimiter'), json_extract(details_json, '$.skipped[0].name')
		FROM _querent_imports ORDER BY rowid`, engine.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]engine.Value{{"seed", nil, nil, nil}, {"sales", int64(2), ",", "column_9"}}
	if !reflect.DeepEqual(res.Rows, want) {
		t.Errorf("_querent_imports %v, want %v", res.Rows, want)
	}
	s, err := db.Schema(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if c := s.Table("sales").Column("day"); c == nil || c.BadValues != 2 {
		t.Errorf("the schema's day column: %+v", c)
	}
}

// Check says what Import would do, and the errors it would stop at,
// without writing.
func TestCheck(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	target := querentMade(t, dir, "have.sqlite")
	makeDB(t, dir, "have.sqlite", "CREATE TABLE mine(x)")
	u := watch(t, target)
	checks, _, err := Check(ctx, target, []*imports.Table{salesLike("sales", 1), salesLike("seed", 1)}, ImportOptions{Replace: true})
	if err != nil || !reflect.DeepEqual(checks, []TargetCheck{{"sales", "create"}, {"seed", "replace"}}) {
		t.Errorf("checks %v, %v", checks, err)
	}
	if _, _, err := Check(ctx, target, []*imports.Table{salesLike("seed", 1)}, ImportOptions{}); err == nil || !strings.Contains(err.Error(), "already has a table named seed") {
		t.Errorf("exists: %v", err)
	}
	if _, _, err := Check(ctx, target, []*imports.Table{salesLike("mine", 1)}, ImportOptions{Replace: true}); err == nil || !strings.Contains(err.Error(), "--replace-user-table") {
		t.Errorf("user table: %v", err)
	}
	_, warnings, err := Check(ctx, target, []*imports.Table{salesLike("mine", 1)}, ImportOptions{ReplaceUserTable: true})
	if err != nil || len(warnings) != 1 || !strings.Contains(warnings[0], "which Querent did not import") {
		t.Errorf("replace user table: %q %v", warnings, err)
	}
	other := fakeTable("seed", []imports.Column{{Name: "a", Type: "TEXT"}}, 1, nil)
	if _, _, err := Check(ctx, target, []*imports.Table{other}, ImportOptions{Append: true}); err == nil || !strings.Contains(err.Error(), "columns differ") {
		t.Errorf("append other columns: %v", err)
	}
	chinook := copyChinook(t)
	if _, _, err := Check(ctx, chinook, []*imports.Table{salesLike("x", 1)}, ImportOptions{}); err == nil || !strings.Contains(err.Error(), "not made by Querent") {
		t.Errorf("another program's database: %v", err)
	}
	if checks, _, err := Check(ctx, dir+"/new.sqlite", []*imports.Table{salesLike("x", 1)}, ImportOptions{Append: true}); err != nil || checks[0].Action != "create" {
		t.Errorf("new file: %v %v", checks, err)
	}
	u.check(t, "checks")
}

// An older Querent kept a CSV's empty unnamed columns; appending the file
// now (they are left out) says how to keep them.
func TestAppendHintsAtEmptyColumns(t *testing.T) {
	ctx := context.Background()
	target := querentMade(t, t.TempDir(), "old.sqlite")
	cols := append(append([]imports.Column(nil), salesCols...), imports.Column{Name: "column_9", Type: imports.TypeText})
	old := fakeTable("sales", cols, 1, func(int64) []engine.Value { return []engine.Value{int64(1), "x", 1.5, "2024-02-03", int64(1), nil} })
	if _, err := Import(ctx, target, []*imports.Table{old}, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	now := salesLike("sales", 1)
	now.Skipped = []imports.SkippedColumn{{Position: 9, Name: "column_9", Reason: "no header and no values"}}
	_, err := Import(ctx, target, []*imports.Table{now}, ImportOptions{Append: true})
	if e := engine.AsError(err); e == nil || !strings.Contains(e.Hint, `--column "#9:text"`) {
		t.Errorf("append without the empty column: %v", err)
	}
}
