package sqlite

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"querent/engine"
)

func TestOpenBadFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	chinook, _ := os.ReadFile(chinookPath)
	random := make([]byte, 8192)
	for i := range random {
		random[i] = byte(i*7919 + i/3)
	}
	tests := []struct {
		name, path string
		msg, hint  string // fragments the message and the hint must hold
	}{
		{"missing", filepath.Join(dir, "nope.db"), "no such file", "check the path"},
		{"directory", dir, "folder", "choose a .sqlite or .db file"},
		{"empty", write("empty.db", nil), "empty", "querent import"},
		{"csv renamed .db", write("data.db", []byte("id,name\n1,Ann\n2,Bob\n")), "text file", "querent import"},
		{"utf-16 csv", write("u16.db", []byte("\xff\xfei\x00d\x00,\x00n\x00\n\x00")), "text file", "querent import"},
		{"xlsx renamed", write("book.sqlite", []byte("PK\x03\x04\x14\x00\x06\x00rest")), "ZIP", "querent import"},
		{"encrypted", write("secret.db", random), "encrypted", "unencrypted copy"},
		{"header only", write("cut.db", chinook[:50]), "cut short", "again"},
		{"truncated", write("half.db", chinook[:len(chinook)/2]), "damaged", ".recover"},
		{"zeroed pages", write("zero.db", func() []byte {
			b := append([]byte(nil), chinook...)
			clear(b[4096:200000])
			return b
		}()), "damaged", ".recover"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := listDir(t, dir)
			db, err := Open(context.Background(), tt.path, Options{})
			if err == nil {
				db.Close()
				t.Fatal("opened")
			}
			e := engine.AsError(err)
			if e.Code != engine.CodeDatabase {
				t.Errorf("code %s, want database: %v", e.Code, err)
			}
			if !strings.Contains(e.Message, tt.msg) || !strings.Contains(e.Hint, tt.hint) {
				t.Errorf("got %q (hint %q), want %q and hint %q", e.Message, e.Hint, tt.msg, tt.hint)
			}
			if !strings.Contains(e.Message, filepath.Base(tt.path)) {
				t.Errorf("the message does not name the file: %q", e.Message)
			}
			if after := listDir(t, dir); after != before {
				t.Errorf("the folder changed:\n%s\nwas\n%s", after, before)
			}
		})
	}
}

func TestOpenRelativePathAndDemo(t *testing.T) {
	db, err := Open(context.Background(), chinookPath, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if !filepath.IsAbs(db.Name()) || db.Path() != db.Name() {
		t.Errorf("Name %q, Path %q: want the absolute path", db.Name(), db.Path())
	}
	demo, err := OpenDemo(context.Background(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer demo.Close()
	if demo.Name() != DemoName || demo.Path() != "" {
		t.Errorf("demo Name %q Path %q", demo.Name(), demo.Path())
	}
	res, err := demo.Run(context.Background(), "SELECT count(*) FROM Track", engine.RunOptions{})
	if err != nil || res.Rows[0][0] != int64(3503) {
		t.Fatalf("demo count: %v %v", res, err)
	}
	if _, err := demo.Run(context.Background(), "DELETE FROM Track", engine.RunOptions{}); engine.ErrorCode(err) != engine.CodeRefused {
		t.Errorf("demo DELETE: %v", err)
	}
	if len(DemoSHA256()) != 64 {
		t.Error("DemoSHA256")
	}
}

// TestOpenPendingWAL opens a file whose writer still holds changes in its
// -wal file: the changes are shown (from a private snapshot), nothing beside
// the file changes, and a warning says so.
func TestOpenPendingWAL(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "live.db")
	w := writable(t, path)
	for _, s := range []string{"PRAGMA journal_mode = WAL", "PRAGMA wal_autocheckpoint = 0",
		"CREATE TABLE t(x)", "INSERT INTO t VALUES (1), (2), (3)"} {
		if _, err := w.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	// The writer stays open: its changes are in live.db-wal only.
	if st, err := os.Stat(path + "-wal"); err != nil || st.Size() == 0 {
		t.Fatalf("no pending WAL: %v", err)
	}
	shas := map[string]string{}
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		shas[p] = fileSHA(t, p)
	}
	before := listDir(t, dir)
	db := openT(t, path, Options{})
	res, err := db.Run(context.Background(), "SELECT count(*) FROM t", engine.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Rows[0][0] != int64(3) {
		t.Errorf("count %v, want 3 (the rows in the WAL)", res.Rows[0][0])
	}
	if w := strings.Join(db.Warnings(), " "); !strings.Contains(w, "live.db-wal") || !strings.Contains(w, "snapshot") {
		t.Errorf("warnings %q do not explain the snapshot", w)
	}
	db.Close()
	for p, s := range shas {
		if fileSHA(t, p) != s {
			t.Errorf("%s changed", filepath.Base(p))
		}
	}
	if after := listDir(t, dir); after != before {
		t.Errorf("the folder changed:\n%s\nwas\n%s", after, before)
	}
}

// TestOpenHotJournal opens a copy taken in the middle of a write (a hot
// rollback journal beside a half-written file): the reader sees the file as
// it was before the write, never the half-written pages.
func TestOpenHotJournal(t *testing.T) {
	src := t.TempDir()
	path := filepath.Join(src, "w.db")
	w := writable(t, path)
	for _, s := range []string{"PRAGMA page_size = 1024", "PRAGMA cache_size = 2", "CREATE TABLE t(v TEXT)",
		"WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 500) INSERT INTO t SELECT 'old' || n FROM r"} {
		if _, err := w.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	clean := fileSHA(t, path)
	tx, err := w.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec("UPDATE t SET v = 'new'"); err != nil {
		t.Fatal(err)
	}
	// The tiny cache spilled changed pages into w.db; w.db-journal holds the
	// originals. Copy both now, as a crash would leave them.
	dir := t.TempDir()
	copyT := func(from, to string) {
		in, err := os.Open(from)
		if err != nil {
			t.Fatal(err)
		}
		defer in.Close()
		out, err := os.Create(to)
		if err != nil {
			t.Fatal(err)
		}
		defer out.Close()
		if _, err := io.Copy(out, in); err != nil {
			t.Fatal(err)
		}
	}
	crashed := filepath.Join(dir, "crashed.db")
	copyT(path, crashed)
	copyT(path+"-journal", crashed+"-journal")
	tx.Rollback()
	if fileSHA(t, crashed) == clean {
		t.Fatal("the fixture is wrong: no half-written page reached the main file")
	}
	u := watch(t, crashed)
	jsha := fileSHA(t, crashed+"-journal")
	db := openT(t, crashed, Options{})
	res, err := db.Run(context.Background(), "SELECT count(*), sum(v = 'new') FROM t", engine.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Rows[0][0] != int64(500) || res.Rows[0][1] != int64(0) {
		t.Errorf("rows %v: want 500 rows, none of them half-written", res.Rows[0])
	}
	if !strings.Contains(strings.Join(db.Warnings(), " "), "crashed.db-journal") {
		t.Errorf("warnings %q do not name the journal", db.Warnings())
	}
	db.Close()
	u.check(t, "hot journal")
	if fileSHA(t, crashed+"-journal") != jsha {
		t.Error("the journal changed")
	}
}

// countingCache is a CheckCache that counts its calls.
type countingCache struct {
	passed   map[string]bool
	remember int
}

func (c *countingCache) Passed(key string) bool { return c.passed[key] }
func (c *countingCache) Remember(key string) {
	c.remember++
	c.passed[key] = true
}

func TestCheckCache(t *testing.T) {
	path := copyChinook(t)
	cache := &countingCache{passed: map[string]bool{}}
	for i := 0; i < 3; i++ {
		db, err := Open(context.Background(), path, Options{CheckCache: cache})
		if err != nil {
			t.Fatal(err)
		}
		db.Close()
	}
	if cache.remember != 1 || len(cache.passed) != 1 {
		t.Errorf("remembered %d times, %d keys; want the file checked once", cache.remember, len(cache.passed))
	}
	// A changed file is a new key: checked again.
	b, _ := os.ReadFile(path)
	b[24]++ // SQLite's change counter
	os.WriteFile(path, b, 0o644)
	db, err := Open(context.Background(), path, Options{CheckCache: cache})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if cache.remember != 2 {
		t.Errorf("a changed file was not checked again")
	}
	// The file-backed cache survives a new process (a new value).
	fc := &FileCheckCache{Path: filepath.Join(t.TempDir(), "sub", "checked.json")}
	fc.Remember("k1")
	if !(&FileCheckCache{Path: fc.Path}).Passed("k1") || fc.Passed("k2") {
		t.Error("FileCheckCache does not remember")
	}
}

// TestDemoLargeSort: a sort too big for memory needs SQLite's temporary
// files, which the demo must support like any file (it once ran from a
// read-only VFS where they failed with "disk I/O error").
func TestDemoLargeSort(t *testing.T) {
	t.Setenv("QUERENT_DATA_DIR", t.TempDir())
	db, err := OpenDemo(context.Background(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	res, err := db.Run(context.Background(), "SELECT a.Name, count(*) FROM Track a, Genre b, MediaType c GROUP BY a.Name ORDER BY 2 DESC LIMIT 3", engine.RunOptions{})
	if err != nil || len(res.Rows) != 3 {
		t.Fatalf("%v %v", res, err)
	}
	if db.Name() != DemoName || db.Path() != "" {
		t.Errorf("name %q path %q", db.Name(), db.Path())
	}
	if sha, _ := db.SHA256(context.Background()); sha != DemoSHA256() {
		t.Errorf("sha %s", sha)
	}
	// The embedded fallback still opens (and says what it cannot do).
	emb, err := openEmbeddedDemo(context.Background(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer emb.Close()
	_, err = emb.Run(context.Background(), "SELECT a.Name, count(*) FROM Track a, Genre b, MediaType c GROUP BY a.Name ORDER BY 2 DESC LIMIT 3", engine.RunOptions{})
	if err != nil && engine.ErrorCode(err) != engine.CodeDatabase {
		t.Errorf("embedded demo's large sort: %v", err)
	}
}
