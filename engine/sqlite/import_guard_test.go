package sqlite

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"querent/engine"
	"querent/engine/imports"
)

// querentMade builds a database with Querent's import (table seed) and
// returns its path.
func querentMade(t *testing.T, dir, name string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if _, err := Import(context.Background(), p, []*imports.Table{salesLike("seed", 3)}, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestImportRefusesOtherDatabases reproduces issue 11 §4: an import never
// writes into a SQLite file that Querent's import did not make, whatever
// the flags, and leaves it and its folder as they were.
func TestImportRefusesOtherDatabases(t *testing.T) {
	ctx := context.Background()
	chinook := copyChinook(t)
	wal := makeDB(t, t.TempDir(), "wal.sqlite", "PRAGMA journal_mode = WAL", "CREATE TABLE Artist(a)", "INSERT INTO Artist VALUES (1)")
	for _, target := range []string{chinook, wal} {
		for _, opts := range []ImportOptions{
			{Table: "Artist", Replace: true},
			{Table: "Artist", Replace: true, ReplaceUserTable: true},
			{Table: "Artist", Append: true},
			{Table: "injected"},
			{},
		} {
			u := watch(t, target)
			tab := fakeTable("Artist", []imports.Column{{Name: "a", Type: imports.TypeInteger}}, 2, func(i int64) []engine.Value { return []engine.Value{i} })
			_, err := Import(ctx, target, []*imports.Table{tab}, opts)
			e := engine.AsError(err)
			if e == nil || e.Code != engine.CodeImport || !strings.Contains(e.Message, "not made by Querent") || !strings.Contains(e.Hint, "new database file") {
				t.Errorf("%s %+v: got %#v", filepath.Base(target), opts, e)
			}
			u.check(t, filepath.Base(target))
		}
	}
}

// TestImportReplaceUserTable: in a database Querent made, --replace
// replaces a table Querent imported, but a table the user added by other
// means only with ReplaceUserTable, and the report says what it replaced.
func TestImportReplaceUserTable(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	target := querentMade(t, dir, "made.sqlite")
	stmts := []string{"CREATE TABLE Artist(name TEXT)"}
	for i := 0; i < 412; i += 4 {
		stmts = append(stmts, "INSERT INTO Artist VALUES ('a'), ('b'), ('c'), ('d')")
	}
	makeDB(t, dir, "made.sqlite", stmts...)
	artist := func() *imports.Table { return salesLike("artist", 5) }

	u := watch(t, target)
	_, err := Import(ctx, target, []*imports.Table{artist()}, ImportOptions{Table: "Artist", Replace: true})
	e := engine.AsError(err)
	if e == nil || e.Code != engine.CodeImport || !strings.Contains(e.Message, "Querent did not import") || !strings.Contains(e.Message, "412 rows") ||
		!strings.Contains(e.Hint, "--replace-user-table") {
		t.Fatalf("--replace of a user table: %#v", e)
	}
	u.check(t, "a refused replace")
	// Case does not matter to SQLite, nor here.
	if _, err := Import(ctx, target, []*imports.Table{artist()}, ImportOptions{Table: "artist", Replace: true}); engine.ErrorCode(err) != engine.CodeImport {
		t.Errorf("--replace of a user table in other case: %v", err)
	}
	u.check(t, "a refused replace")
	if _, err := Import(ctx, target, []*imports.Table{artist()}, ImportOptions{Table: "Artist", Append: true, ReplaceUserTable: true}); engine.ErrorCode(err) != engine.CodeUsage {
		t.Errorf("--append with --replace-user-table: %v", err)
	}
	u.check(t, "a refused usage")

	// With the flag: replaced, and said so.
	rep, err := Import(ctx, target, []*imports.Table{artist()}, ImportOptions{Table: "Artist", ReplaceUserTable: true})
	if err != nil || rep.Tables[0].Action != "replaced" || rep.Tables[0].Rows != 5 {
		t.Fatalf("--replace-user-table: %v %+v", err, rep)
	}
	if want := "replaced table Artist, which Querent did not import (412 rows)"; !reflect.DeepEqual(rep.Warnings, []string{want}) {
		t.Errorf("warnings %q, want %q", rep.Warnings, want)
	}
	// Now Querent imported it: --replace alone is enough, without a warning.
	rep, err = Import(ctx, target, []*imports.Table{artist()}, ImportOptions{Table: "Artist", Replace: true})
	if err != nil || rep.Tables[0].Action != "replaced" || len(rep.Warnings) != 0 {
		t.Errorf("--replace of a table Querent imported: %v %+v", err, rep)
	}
	// A Querent-made database takes new tables and appends as before.
	if _, err := Import(ctx, target, []*imports.Table{salesLike("seed", 2)}, ImportOptions{Append: true}); err != nil {
		t.Errorf("append: %v", err)
	}
	if _, err := Import(ctx, target, []*imports.Table{salesLike("more", 2)}, ImportOptions{}); err != nil {
		t.Errorf("a new table: %v", err)
	}
	if es, _ := os.ReadDir(dir); len(es) != 1 {
		t.Errorf("files in the folder: %v", es)
	}
}
