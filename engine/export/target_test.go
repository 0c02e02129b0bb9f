package export_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"querent/engine"
	"querent/engine/export"
	"querent/engine/sqlite"
)

// fileSum returns the hex sha256 of a file's bytes.
func fileSum(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// folderState is what a folder holds: each entry's name, kind and, for
// regular files, the sha256 of its content (symlinks: their target).
func folderState(t testing.TB, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		p := filepath.Join(dir, e.Name())
		switch {
		case e.Type()&os.ModeSymlink != 0:
			dst, _ := os.Readlink(p)
			out = append(out, e.Name()+" -> "+dst)
		case e.IsDir():
			out = append(out, e.Name()+"/")
		default:
			out = append(out, e.Name()+" "+fileSum(t, p))
		}
	}
	return out
}

// openNamed builds a SQLite database file named name in dir (any
// extension: data.csv, data.xlsx) and opens it under the guard.
func openNamed(t *testing.T, dir, name string) (*sqlite.DB, string) {
	t.Helper()
	path := filepath.Join(dir, name)
	buildDB(t, path, stmt{sql: "CREATE TABLE Artist(ArtistId INTEGER PRIMARY KEY, Name TEXT)"},
		stmt{sql: "INSERT INTO Artist(Name) VALUES ('AC/DC'), ('Accept')"})
	db, err := sqlite.Open(context.Background(), path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, path
}

// filerDB is another adapter of the database port (the worker-process
// client, say) that says where its file is through engine.Filer only.
type filerDB struct {
	engine.Database
	path string
}

func (f filerDB) Path() string { return f.path }

var _ engine.Filer = filerDB{}

// TestExportNeverReplacesTheOpenDatabase reproduces issue 11 §4: an export
// aimed at the open database, by any name that reaches it, is refused with
// or without force, and neither the database nor its folder changes.
func TestExportNeverReplacesTheOpenDatabase(t *testing.T) {
	tests := []struct {
		name  string
		db    string                                // the open database's file name
		out   func(t *testing.T, dir string) string // the --out path, made ready
		wants string                                // in the message
	}{
		{"same path, .csv", "data.csv", func(t *testing.T, dir string) string { return filepath.Join(dir, "data.csv") }, "open database"},
		{"same path, .xlsx", "data.xlsx", func(t *testing.T, dir string) string { return filepath.Join(dir, "data.xlsx") }, "open database"},
		{"relative dir/../name", "data.csv", func(t *testing.T, dir string) string {
			os.Mkdir(filepath.Join(dir, "sub"), 0o755)
			return filepath.Join(dir, "sub") + string(filepath.Separator) + ".." + string(filepath.Separator) + "data.csv"
		}, "open database"},
		{"a symlink to it", "data.sqlite", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "link.csv")
			if err := os.Symlink(filepath.Join(dir, "data.sqlite"), p); err != nil {
				t.Skip("no symlinks here:", err)
			}
			return p
		}, "open database"},
		{"a hard link to it", "data.sqlite", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "hard.xlsx")
			if err := os.Link(filepath.Join(dir, "data.sqlite"), p); err != nil {
				t.Skip("no hard links here:", err)
			}
			return p
		}, "open database"},
		{"its -wal file, not there yet", "data.csv", func(t *testing.T, dir string) string { return filepath.Join(dir, "data.csv-wal") }, "-wal"},
		{"its -journal file", "data.csv", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "data.csv-journal")
			os.WriteFile(p, []byte("not a journal header, still the database's journal name"), 0o644)
			return p
		}, "-journal"},
	}
	for _, tt := range tests {
		for _, format := range []string{"csv", "xlsx"} {
			for _, force := range []bool{false, true} {
				t.Run(tt.name+"/"+format+"/force="+map[bool]string{false: "no", true: "yes"}[force], func(t *testing.T) {
					dir := t.TempDir()
					db, dbPath := openNamed(t, dir, tt.db)
					out := tt.out(t, dir)
					sum, before := fileSum(t, dbPath), folderState(t, dir)
					for _, d := range []engine.Database{db, filerDB{Database: demo(t), path: dbPath}} {
						_, err := export.Export(context.Background(), d, "SELECT count(*) FROM Artist", out,
							export.Options{Format: format, Force: force})
						e := engine.AsError(err)
						if e == nil || e.Code != engine.CodeExport || !strings.Contains(e.Message, tt.wants) ||
							!strings.Contains(e.Hint, "another file name") {
							t.Errorf("%T: got %#v, want an export error about the %s", d, e, tt.wants)
						}
					}
					if got := fileSum(t, dbPath); got != sum {
						t.Errorf("the database changed: sha256 %s, was %s", got, sum)
					}
					if after := folderState(t, dir); !slices.Equal(after, before) {
						t.Errorf("the folder changed:\n%q\nwas\n%q", after, before)
					}
				})
			}
		}
	}
}

// TestExportNeverReplacesASQLiteFile: any SQLite database, open or not, by
// any name, stays as it is, even with force; so does a write-ahead log.
func TestExportNeverReplacesASQLiteFile(t *testing.T) {
	dir := t.TempDir()
	other := filepath.Join(dir, "other.csv")
	buildDB(t, other, stmt{sql: "CREATE TABLE t(x)"}, stmt{sql: "INSERT INTO t VALUES (1)"})
	wal := filepath.Join(dir, "log.xlsx")
	os.WriteFile(wal, append([]byte{0x37, 0x7f, 0x06, 0x82}, make([]byte, 60)...), 0o644)
	link := filepath.Join(dir, "link.csv")
	haveLink := os.Symlink(other, link) == nil
	db := demo(t)
	for _, out := range []string{other, wal, link} {
		if out == link && !haveLink {
			continue
		}
		for _, force := range []bool{false, true} {
			before := folderState(t, dir)
			_, err := export.Export(context.Background(), db, "SELECT 1 AS one", out, export.Options{Force: force})
			e := engine.AsError(err)
			if e == nil || e.Code != engine.CodeExport || !strings.Contains(e.Message, "SQLite") || !strings.Contains(e.Hint, "another file name") {
				t.Errorf("%s force=%v: got %#v, want an export error naming SQLite", filepath.Base(out), force, e)
			}
			if after := folderState(t, dir); !slices.Equal(after, before) {
				t.Errorf("%s force=%v: the folder changed:\n%q\nwas\n%q", filepath.Base(out), force, after, before)
			}
		}
	}
	// A file that only looks like one by name is replaced as any file is.
	plain := filepath.Join(dir, "plain.sqlite.csv")
	os.WriteFile(plain, []byte("a,b\r\n1,2\r\n"), 0o644)
	if _, err := export.Export(context.Background(), db, "SELECT 1 AS one", plain, export.Options{Force: true}); err != nil {
		t.Errorf("a CSV file with force: %v", err)
	}
}

// swapDB swaps a SQLite file in at the export's target while the rows are
// streaming: what a symlink or a move by another program could do between
// the first check and the rename.
type swapDB struct {
	engine.Database
	swap func()
}

func (s swapDB) Stream(ctx context.Context, sql string, opts engine.StreamOptions, columns func([]engine.Column) error, row func([]engine.Value) error) (*engine.StreamInfo, error) {
	info, err := s.Database.Stream(ctx, sql, opts, columns, row)
	s.swap()
	return info, err
}

// TestExportRechecksBeforeTheRename: a SQLite file that appears at the
// target during the export is not replaced, even with force.
func TestExportRechecksBeforeTheRename(t *testing.T) {
	src := filepath.Join(t.TempDir(), "src.sqlite")
	buildDB(t, src, stmt{sql: "CREATE TABLE t(x)"})
	for _, how := range []string{"copy", "symlink"} {
		for _, format := range []string{"csv", "xlsx"} {
			dir := t.TempDir()
			out := filepath.Join(dir, "out."+format)
			db := swapDB{Database: demo(t), swap: func() {
				if how == "symlink" {
					if err := os.Symlink(src, out); err != nil {
						t.Skip("no symlinks here:", err)
					}
					return
				}
				b, _ := os.ReadFile(src)
				os.WriteFile(out, b, 0o644)
			}}
			_, err := export.Export(context.Background(), db, "SELECT Name FROM Artist", out, export.Options{Force: true})
			if e := engine.AsError(err); e == nil || e.Code != engine.CodeExport || !strings.Contains(e.Message, "SQLite") {
				t.Errorf("%s %s: got %v, want an export error naming SQLite", how, format, err)
			}
			if got := fileSum(t, out); got != fileSum(t, src) {
				t.Errorf("%s %s: the SQLite file that appeared was replaced", how, format)
			}
			if names := listDir(t, dir); len(names) != 1 {
				t.Errorf("%s %s: files left: %v", how, format, names)
			}
		}
	}
}
