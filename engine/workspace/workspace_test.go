package workspace

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"querent/engine"
	"querent/engine/importer"
	"querent/engine/sqlite"
)

func store(t *testing.T) *Store {
	t.Helper()
	im := importer.New(sqlite.ImportWriter{}, importer.Options{})
	t.Cleanup(im.Close)
	return &Store{Dir: filepath.Join(t.TempDir(), Folder), Importer: im}
}

func TestIsDataFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		path string
		want bool
	}{
		{write("a.csv", "x,y\n1,2\n"), true},
		{write("noext", "x,y\n1,2\n"), true},
		{write("b.json", `[{"a": 1}]`), true},
		{write("real.bin", "SQLite format 3\x00rest"), false},
		{write("c.db", "x,y\n1,2\n"), false}, // named as a database: its own error says what it is
		{write("empty.csv", ""), false},
		{dir, false},
		{filepath.Join(dir, "missing.csv"), false},
		{"", false},
	} {
		if got := IsDataFile(tc.path); got != tc.want {
			t.Errorf("IsDataFile(%s) = %v, want %v", filepath.Base(tc.path), got, tc.want)
		}
	}
}

// A file touched without a change keeps its workspace; one whose import
// fails leaves the workspace it had, whole, and nothing half-made.
func TestWorkspaceReuseAndFailure(t *testing.T) {
	s := store(t)
	ctx := context.Background()
	csv := filepath.Join(t.TempDir(), "prices.csv")
	os.WriteFile(csv, []byte("item,price\napple,1.5\n"), 0o644)
	ws, err := s.Open(ctx, csv, nil)
	if err != nil || !ws.Fresh || len(ws.Tables) != 1 || ws.Tables[0] != "prices" {
		t.Fatalf("first open: %+v %v", ws, err)
	}
	later := time.Now().Add(time.Hour)
	os.Chtimes(csv, later, later)
	again, err := s.Open(ctx, csv, nil)
	if err != nil || again.Fresh || again.Database != ws.Database || again.ModNs == ws.ModNs {
		t.Errorf("touched: %+v %v", again, err)
	}
	third, err := s.Open(ctx, csv, nil)
	if err != nil || third.Fresh || third.ModNs != again.ModNs {
		t.Errorf("the touched file's identity was not kept: %+v %v", third, err)
	}

	os.WriteFile(csv, []byte("item,price\napple,1.5\npear,2,extra\n"), 0o644)
	if _, err := s.Open(ctx, csv, nil); engine.ErrorCode(err) != engine.CodeImport {
		t.Fatalf("a broken file: %v", err)
	}
	entries, _ := os.ReadDir(s.Dir)
	if len(entries) != 2 {
		t.Errorf("after a failed import the folder holds %v", entries)
	}
	db, err := sqlite.Open(ctx, ws.Database, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	res, err := db.Run(ctx, "SELECT count(*) FROM prices", engine.RunOptions{})
	if err != nil || len(res.Rows) != 1 || fmt.Sprint(res.Rows[0][0]) != "1" {
		t.Errorf("the old workspace: %+v %v", res, err)
	}
}
