package cli

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestExportOntoTheOpenDatabase reproduces issue 11 §4: a SQLite database
// named data.csv (or data.xlsx) exported onto itself with --force is
// refused, and the file and its folder stay as they were.
func TestExportOntoTheOpenDatabase(t *testing.T) {
	b, err := os.ReadFile("../../engine/sqlite/demo/Chinook_Sqlite.sqlite")
	if err != nil {
		t.Fatal(err)
	}
	c := &CLI{Open: open, Version: "test"}
	for _, name := range []string{"data.csv", "data.xlsx"} {
		for _, force := range []bool{false, true} {
			dir := t.TempDir()
			path := filepath.Join(dir, name)
			os.WriteFile(path, b, 0o644)
			other := filepath.Join(dir, "other.csv") // another SQLite database, not the open one
			os.WriteFile(other, b, 0o644)
			before := dirState(t, dir)
			for _, out := range []string{path, filepath.Join(dir, ".", "x", "..", name), other} {
				os.Mkdir(filepath.Join(dir, "x"), 0o755)
				args := []string{"export", "--db", path, "--sql", "SELECT count(*) FROM Artist", "--out", out}
				if force {
					args = append(args, "--force")
				}
				code, _, errs := runWith(t, c, "", args...)
				if code != 1 || !strings.Contains(errs, "export:") || !strings.Contains(errs, "never replaces") ||
					!strings.Contains(errs, "another file name") {
					t.Errorf("%v: exit %d\n%s", args, code, errs)
				}
				os.Remove(filepath.Join(dir, "x"))
			}
			if after := dirState(t, dir); !reflect.DeepEqual(after, before) {
				t.Errorf("%s force=%v: the folder changed: %v, was %v", name, force, after, before)
			}
		}
	}
}
