package sqlite

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"querent/engine"
	"querent/engine/worker"
)

// FuzzGuard feeds arbitrary text to the guard. Its invariant is the
// product's promise: nothing is ever written — the file's sha256 and its
// folder stay the same, whatever the SQL — and nothing panics. Every
// outcome must be a result or an *engine.Error that is not internal.
//
//	go test -run '^$' -fuzz FuzzGuard -fuzztime 30s ./engine/sqlite
func FuzzGuard(f *testing.F) {
	for _, c := range loadRedTeam(f, "/tmp") {
		if len(c.sql) < 4096 {
			f.Add(c.sql)
		}
	}
	if b, err := os.ReadFile("testdata/benign/queries.sql"); err == nil {
		for _, block := range strings.Split(string(b), "### ") {
			if _, body, ok := strings.Cut(block, "\n"); ok {
				f.Add(body)
			}
		}
	}
	for _, s := range []string{"SELECT 1", "ATTACH 'x' AS y", "PRAGMA query_only=0", "VACUUM INTO 'z'",
		"WITH x AS (SELECT 1) DELETE FROM Album", "SELECT * FROM sqlite_dbpage", "SELECT 1 /*", "'", `"`, "[", "`",
		// Double-quoted text is rewritten before the statement runs: the
		// rewrite must never change what the guard lets through.
		`SELECT "x'; DELETE FROM Album; --" FROM Album`, `WITH "a" AS (SELECT "b") DELETE FROM Album WHERE Title = "c"`,
		`SELECT * FROM Album WHERE Title IN ("a", "b""c", "") ORDER BY "d"`} {
		f.Add(s)
	}
	path := copyChinook(f)
	dir := filepath.Dir(path)
	u := watch(f, path)
	// The guard runs in a query worker, as every face runs it: a seed (or
	// an input the fuzzer finds) that SQLite cannot interrupt is stopped by
	// killing the worker.
	db, err := worker.Open(context.Background(), path, worker.Config{})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { db.Close() })
	f.Fuzz(func(t *testing.T, sql string) {
		q := strings.ReplaceAll(sql, "{{DIR}}", filepath.ToSlash(dir))
		_, err := db.Run(context.Background(), q, engine.RunOptions{MaxRows: 10, Timeout: 100 * time.Millisecond})
		if err != nil {
			e := engine.AsError(err)
			if e.Code == engine.CodeInternal || e.Message == "" {
				t.Errorf("%q: %v", q, err)
			}
		}
		if fileSHA(t, path) != u.sha {
			t.Fatalf("%q wrote to the database", q)
		}
		if listDir(t, dir) != u.dir {
			t.Fatalf("%q changed the database's folder:\n%s", q, listDir(t, dir))
		}
	})
}
