package sqlite

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"querent/engine/text"

	"querent/engine"
)

// hostileFile is a database file built to attack the reader: its schema,
// not the query, carries the attack.
type hostileFile struct {
	name  string
	build func(t *testing.T, dir string) string // returns the file's path
	// queries run on the file; each must fail or succeed as said, and none
	// may write.
	queries []hostileQuery
	// openErr, when set, is the error code opening must give.
	openErr string
	// warn, when set, is a text a warning must contain.
	warn string
}

type hostileQuery struct {
	sql    string
	expect string // an error code, "ok" or "capped"; a|b accepts either
}

func hostileFiles() []hostileFile {
	return []hostileFile{
		{name: "view calling load_extension", build: func(t *testing.T, dir string) string {
			return makeDB(t, dir, "h.db", "CREATE TABLE t(x)", "INSERT INTO t VALUES (1)",
				"CREATE VIEW v AS SELECT load_extension('evil') AS x FROM t")
		}, queries: []hostileQuery{{"SELECT * FROM v", "refused"}, {"SELECT * FROM t", "ok"}}},
		{name: "view building a 1 GB blob", build: func(t *testing.T, dir string) string {
			return makeDB(t, dir, "h.db", "CREATE TABLE t(x)", "INSERT INTO t VALUES (1)",
				"CREATE VIEW v AS SELECT randomblob(1000000000) AS b FROM t")
		}, queries: []hostileQuery{{"SELECT * FROM v", "refused|too_big"}, {"SELECT length(b) FROM v", "refused|too_big"}}},
		{name: "view reading sqlite_dbpage", build: func(t *testing.T, dir string) string {
			return makeDB(t, dir, "h.db", "CREATE TABLE t(x)", "CREATE VIEW v AS SELECT * FROM sqlite_dbpage")
		}, queries: []hostileQuery{{"SELECT * FROM v", "refused"}}},
		{name: "generated column building a 1 GB blob", build: func(t *testing.T, dir string) string {
			return makeDB(t, dir, "h.db", "CREATE TABLE g(a INTEGER, b BLOB AS (zeroblob(a)))", "INSERT INTO g(a) VALUES (1000000000)")
		}, queries: []hostileQuery{{"SELECT b FROM g", "refused|too_big"}, {"SELECT a FROM g", "ok"}}},
		{name: "generated column calling load_extension (planted in the schema)", build: func(t *testing.T, dir string) string {
			return makeDB(t, dir, "h.db", "CREATE TABLE g(a INTEGER, b AS (abs(a)))", "INSERT INTO g(a) VALUES (16)",
				"PRAGMA writable_schema = ON",
				"UPDATE sqlite_schema SET sql = 'CREATE TABLE g(a INTEGER, b AS (load_extension(''evil'')))' WHERE name = 'g'",
				"PRAGMA writable_schema = OFF")
		}, openErr: engine.CodeDatabase},
		{name: "triggers that would write", build: func(t *testing.T, dir string) string {
			return makeDB(t, dir, "h.db", "CREATE TABLE t(x)", "CREATE TABLE log(y)", "INSERT INTO t VALUES (1)",
				"CREATE TRIGGER tr AFTER INSERT ON t BEGIN INSERT INTO log VALUES (load_extension('evil')); DELETE FROM t; END",
				"CREATE TRIGGER tr2 BEFORE DELETE ON t BEGIN DELETE FROM log; END")
		}, queries: []hostileQuery{{"SELECT * FROM t", "ok"}, {"DELETE FROM t", "refused"}, {"INSERT INTO t VALUES (2)", "refused"}}},
		{name: "defaults that call functions (no false positive)", build: func(t *testing.T, dir string) string {
			return makeDB(t, dir, "h.db",
				"CREATE TABLE d(id INTEGER PRIMARY KEY, made TEXT DEFAULT CURRENT_TIMESTAMP, tag TEXT DEFAULT (hex(randomblob(16))), day TEXT DEFAULT (datetime('now')))",
				"INSERT INTO d(id) VALUES (1), (2)")
		}, queries: []hostileQuery{{"SELECT * FROM d", "ok"}, {"SELECT count(*) FROM d WHERE made IS NOT NULL", "ok"}}},
		{name: "double-quoted literals in a view (legacy SQLite habit)", build: func(t *testing.T, dir string) string {
			return makeDB(t, dir, "h.db", `CREATE TABLE t(a TEXT DEFAULT "x")`, `INSERT INTO t(a) VALUES ('x')`,
				`CREATE VIEW v AS SELECT a, "lit" AS c FROM t WHERE a = "x"`)
		}, queries: []hostileQuery{{"SELECT * FROM v", "ok"}}, warn: "double-quoted"},
		{name: "names made of SQL", build: func(t *testing.T, dir string) string {
			return makeDB(t, dir, "h.db", `CREATE TABLE "t; DROP TABLE x; --" ("a""b" TEXT, "c'd" INT, [e f] TEXT, "ünï cødé" TEXT)`,
				`INSERT INTO "t; DROP TABLE x; --" VALUES ('1', 2, '3', '4')`, `CREATE TABLE x(y)`)
		}, queries: []hostileQuery{{`SELECT * FROM "t; DROP TABLE x; --"`, "ok"}, {"SELECT count(*) FROM x", "ok"}}},
		{name: "a view over a missing table", build: func(t *testing.T, dir string) string {
			return makeDB(t, dir, "h.db", "CREATE TABLE t(x)", "CREATE TABLE gone(y)", "CREATE VIEW v AS SELECT y FROM gone", "DROP TABLE gone")
		}, queries: []hostileQuery{{"SELECT * FROM v", "unknown_table|syntax"}, {"SELECT * FROM t", "ok"}}},
		{name: "an endless recursive view", build: func(t *testing.T, dir string) string {
			return makeDB(t, dir, "h.db", "CREATE TABLE t(x)",
				"CREATE VIEW forever AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n FROM r")
		}, queries: []hostileQuery{{"SELECT * FROM forever", "capped"}, {"SELECT count(*) FROM forever", "timeout"}}},
		{name: "a virtual table whose module does not exist", build: func(t *testing.T, dir string) string {
			return makeDB(t, dir, "h.db", "CREATE TABLE t(x)", "PRAGMA writable_schema = ON",
				"INSERT INTO sqlite_schema VALUES ('table', 'vt', 'vt', 0, 'CREATE VIRTUAL TABLE vt USING no_such_module(a)')",
				"PRAGMA writable_schema = OFF")
		}, queries: []hostileQuery{{"SELECT * FROM vt", "syntax|unknown_table|refused"}, {"SELECT * FROM t", "ok"}}},
		{name: "a schema that does not parse", build: func(t *testing.T, dir string) string {
			return makeDB(t, dir, "h.db", "CREATE TABLE t(x)", "PRAGMA writable_schema = ON",
				"UPDATE sqlite_schema SET sql = 'CREATE TABLE t(x' WHERE name = 't'", "PRAGMA writable_schema = OFF")
		}, openErr: engine.CodeDatabase},
		{name: "damaged pages", build: func(t *testing.T, dir string) string {
			p := makeDB(t, dir, "h.db", "PRAGMA page_size = 1024", "CREATE TABLE t(x TEXT)",
				"WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 2000) INSERT INTO t SELECT printf('row %d', n) FROM r")
			b, _ := os.ReadFile(p)
			for i := 3 * 1024; i < 3*1024+64; i++ {
				b[i] = 0xff
			}
			os.WriteFile(p, b, 0o644)
			return p
		}, openErr: engine.CodeDatabase},
		{name: "a WAL-mode file without its sidecars", build: func(t *testing.T, dir string) string {
			return makeDB(t, dir, "h.db", "PRAGMA journal_mode = WAL", "CREATE TABLE t(x)", "INSERT INTO t VALUES (1)")
		}, queries: []hostileQuery{{"SELECT * FROM t", "ok"}}},
		{name: "a file named like a connection string", build: func(t *testing.T, dir string) string {
			return makeDB(t, dir, "x.db?_pragma=user_version(777)&mode=rwc&y=", "CREATE TABLE t(x)")
		}, queries: []hostileQuery{{"SELECT user_version FROM pragma_user_version WHERE user_version = 0", "ok"}}},
	}
}

func TestHostileFiles(t *testing.T) {
	ctx := context.Background()
	for _, h := range hostileFiles() {
		t.Run(h.name, func(t *testing.T) {
			dir := t.TempDir()
			path := h.build(t, dir)
			u := watch(t, path)
			db, err := Open(ctx, path, Options{})
			if h.openErr != "" {
				if engine.ErrorCode(err) != h.openErr {
					t.Fatalf("open: %v, want a %s error", err, h.openErr)
				}
				e := engine.AsError(err)
				if e.Hint == "" {
					t.Errorf("open error without a hint: %v", err)
				}
				msg := strings.ReplaceAll(e.Message, path, filepath.Base(path))
				report.hostile = append(report.hostile, fmt.Sprintf("%s: refused on open (%s)", h.name, msg))
				u.check(t, h.name)
				return
			}
			if err != nil {
				t.Fatalf("open: %v", err)
			}
			if h.warn != "" && !strings.Contains(strings.Join(db.Warnings(), " "), h.warn) {
				t.Errorf("warnings %q do not mention %q", db.Warnings(), h.warn)
			}
			sctx, cancel := context.WithTimeout(ctx, 20*time.Second)
			if _, err := db.Schema(sctx); err != nil {
				t.Errorf("schema: %v", err)
			}
			cancel()
			var outcomes []string
			for _, q := range h.queries {
				res, err := db.Run(ctx, q.sql, engine.RunOptions{MaxRows: 50, Timeout: rtTimeout})
				got := "ok"
				switch {
				case err != nil:
					got = engine.ErrorCode(err)
				case res.Truncated:
					got = "capped"
				}
				ok := false
				for _, want := range strings.Split(q.expect, "|") {
					ok = ok || got == want
				}
				if !ok {
					t.Errorf("%s: %s (%v), want %s", q.sql, got, err, q.expect)
				}
				outcomes = append(outcomes, fmt.Sprintf("%s → %s", text.Excerpt(q.sql, 40), got))
			}
			db.Close()
			u.check(t, h.name)
			report.hostile = append(report.hostile, fmt.Sprintf("%s: %s; no write, no new file", h.name, strings.Join(outcomes, "; ")))
		})
	}
}

// TestCorruptFiles opens hundreds of randomly damaged copies of a small
// database and queries whatever opens: every failure must be a clean error,
// never a panic, and no file may change.
func TestCorruptFiles(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 60
	}
	dir := t.TempDir()
	base := makeDB(t, dir, "base.db", "PRAGMA page_size = 512",
		"CREATE TABLE a(id INTEGER PRIMARY KEY, name TEXT, v REAL, b BLOB)",
		"CREATE INDEX a_name ON a(name)",
		"CREATE TABLE b(id INTEGER PRIMARY KEY, a_id INTEGER REFERENCES a(id), note TEXT)",
		"CREATE VIEW ab AS SELECT a.name, b.note FROM a JOIN b ON b.a_id = a.id",
		"WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 400) INSERT INTO a SELECT n, printf('name %d %s', n, hex(randomblob(8))), n * 1.5, randomblob(n % 50) FROM r",
		"WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 400) INSERT INTO b SELECT n, n, printf('note %d', n) FROM r")
	orig, err := os.ReadFile(base)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(20261201))
	ctx := context.Background()
	queries := []string{"SELECT count(*) FROM a", "SELECT * FROM a ORDER BY name LIMIT 50", "SELECT * FROM ab LIMIT 50",
		"SELECT sum(v), max(length(b)) FROM a", "SELECT * FROM b WHERE a_id = 7"}
	for i := 0; i < n; i++ {
		b := append([]byte(nil), orig...)
		switch i % 5 {
		case 0: // a few random bytes anywhere
			for k := 0; k < 1+rng.Intn(8); k++ {
				b[rng.Intn(len(b))] = byte(rng.Intn(256))
			}
		case 1: // a page header
			page := rng.Intn(len(b) / 512)
			off := page*512 + rng.Intn(12)
			if page == 0 {
				off = 100 + rng.Intn(12)
			}
			b[off] = byte(rng.Intn(256))
		case 2: // cut short at a page boundary
			b = b[:512*(1+rng.Intn(len(b)/512-1))]
		case 3: // a page of zeros
			page := 1 + rng.Intn(len(b)/512-1)
			clear(b[page*512 : (page+1)*512])
		case 4: // the file header
			b[16+rng.Intn(84)] = byte(rng.Intn(256))
		}
		p := filepath.Join(dir, fmt.Sprintf("corrupt-%03d.db", i))
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		u := watch(t, p)
		outcome := corruptOne(t, ctx, p, queries)
		report.corrupt.tried++
		switch outcome {
		case "open":
			report.corrupt.openFailed++
		case "query":
			report.corrupt.queryFailed++
		case "clean":
			report.corrupt.clean++
		case "panic":
			report.corrupt.panics++
		}
		u.check(t, p)
		os.Remove(p)
	}
	if report.corrupt.panics > 0 {
		t.Errorf("%d panics on corrupt files", report.corrupt.panics)
	}
	t.Logf("corrupt files: %+v", report.corrupt)
}

// corruptOne opens and queries one damaged file; it reports where it failed.
func corruptOne(t *testing.T, ctx context.Context, path string, queries []string) (outcome string) {
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("%s: panic: %v", path, r)
			outcome = "panic"
		}
	}()
	db, err := Open(ctx, path, Options{})
	if err != nil {
		if c := engine.ErrorCode(err); c != engine.CodeDatabase {
			t.Errorf("%s: open gave a %s error, want database: %v", path, c, err)
		}
		return "open"
	}
	defer db.Close()
	outcome = "clean"
	if _, err := db.Schema(ctx); err != nil {
		outcome = "query"
	}
	for _, q := range queries {
		if _, err := db.Run(ctx, q, engine.RunOptions{MaxRows: 100, Timeout: 2 * time.Second}); err != nil {
			if engine.ErrorCode(err) == engine.CodeInternal {
				t.Errorf("%s: %s: internal error: %v", path, q, err)
			}
			outcome = "query"
		}
	}
	return outcome
}
