package sqlite

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// chinookPath is the demo database inside the package, used as a fixture.
const chinookPath = "demo/Chinook_Sqlite.sqlite"

// copyChinook copies the Chinook fixture into a fresh folder and returns its path.
func copyChinook(t testing.TB) string {
	t.Helper()
	b, err := os.ReadFile(chinookPath)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "chinook.db")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// fileSHA returns the hex sha256 of a file.
func fileSHA(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// listDir returns the names and sizes of the files in a folder, sorted.
func listDir(t testing.TB, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%s %d %s", e.Name(), info.Size(), info.ModTime().Format(time.RFC3339Nano)))
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

// untouched records a file's hash and its folder's listing, and checks
// later that neither changed.
type untouched struct {
	path, sha, dir string
}

func watch(t testing.TB, path string) untouched {
	return untouched{path: path, sha: fileSHA(t, path), dir: listDir(t, filepath.Dir(path))}
}

func (u untouched) check(t testing.TB, what string) {
	t.Helper()
	if got := fileSHA(t, u.path); got != u.sha {
		t.Fatalf("%s: the file changed: sha256 %s, was %s", what, got, u.sha)
	}
	if got := listDir(t, filepath.Dir(u.path)); got != u.dir {
		t.Fatalf("%s: the folder changed:\n%s\nwas:\n%s", what, got, u.dir)
	}
}

// writable opens a plain read-write connection, for building fixtures.
func writable(t testing.TB, path string) *sql.DB {
	t.Helper()
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path)}
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	return db
}

// makeDB creates a database file from statements and returns its path.
func makeDB(t testing.TB, dir, name string, stmts ...string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	db := writable(t, p)
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("fixture %s: %s: %v", name, s, err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}

func openT(t testing.TB, path string, opts Options) *DB {
	t.Helper()
	db, err := Open(context.Background(), path, opts)
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
