package cli

import (
	"database/sql"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"querent/engine/imports"
)

// TestImportIntoOtherDatabases reproduces issue 11 §4: `querent import
// --db user.sqlite --table Artist --replace` no longer replaces a table
// the user made, nor writes anything into a database Querent did not make.
func TestImportIntoOtherDatabases(t *testing.T) {
	b, err := os.ReadFile("../../engine/sqlite/demo/Chinook_Sqlite.sqlite")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	user := filepath.Join(dir, "user.sqlite")
	os.WriteFile(user, b, 0o644)
	in := filepath.Join(t.TempDir(), "artists.csv")
	os.WriteFile(in, []byte("name\nnobody\n"), 0o644)
	before := dirState(t, dir)
	for _, flags := range [][]string{
		{"--table", "Artist", "--replace"},
		{"--table", "Artist", "--replace-user-table"},
		{"--table", "Artist", "--append"},
		{"--table", "injected"},
	} {
		args := append(append([]string{"import", "--db", user}, flags...), in)
		code, _, errs := runImport(t, args...)
		if code != 1 || !strings.Contains(errs, "not made by Querent's import") || !strings.Contains(errs, "new database file") {
			t.Errorf("%v: exit %d\n%s", flags, code, errs)
		}
	}
	if after := dirState(t, dir); !reflect.DeepEqual(after, before) {
		t.Errorf("the folder changed: %v, was %v", after, before)
	}
}

// TestImportReplaceUserTableFlag: in a database Querent made, a table the
// user added is replaced only with --replace-user-table, which says so.
func TestImportReplaceUserTableFlag(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "made.sqlite")
	in := filepath.Join(t.TempDir(), "seed.csv")
	os.WriteFile(in, []byte("name\nnobody\n"), 0o644)
	if code, _, errs := runImport(t, "import", "--db", db, in); code != 0 {
		t.Fatal(errs)
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(db)}
	w, err := sql.Open("sqlite", u.String())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Exec("CREATE TABLE Artist(name TEXT); INSERT INTO Artist VALUES ('a'), ('b'), ('c')"); err != nil {
		t.Fatal(err)
	}
	w.Close()
	before := dirState(t, dir)
	code, _, errs := runImport(t, "import", "--db", db, "--table", "Artist", "--replace", in)
	if code != 1 || !strings.Contains(errs, "Querent did not import (3 rows)") || !strings.Contains(errs, "--replace-user-table") {
		t.Errorf("--replace of a user table: exit %d\n%s", code, errs)
	}
	if after := dirState(t, dir); !reflect.DeepEqual(after, before) {
		t.Errorf("the folder changed: %v, was %v", after, before)
	}
	if code, _, errs := runImport(t, "import", "--db", db, "--table", "Artist", "--replace-user-table", "--append", in); code != 2 || !strings.Contains(errs, "cannot be used together") {
		t.Errorf("with --append: exit %d\n%s", code, errs)
	}
	code, out, errs := runImport(t, "import", "--db", db, "--table", "Artist", "--replace-user-table", "--format", "json", in)
	var rep imports.Report
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil || len(rep.Tables) != 1 || rep.Tables[0].Action != "replaced" ||
		!reflect.DeepEqual(rep.Warnings, []string{"replaced table Artist, which Querent did not import (3 rows)"}) {
		t.Errorf("--replace-user-table: exit %d %s %s", code, out, errs)
	}
}
