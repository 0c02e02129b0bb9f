package worker_test

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"querent/engine"
	"querent/engine/sqlite"
	"querent/engine/words"
	"querent/engine/worker"
)

// TestMain lets this test binary serve as the workers its tests start. A
// worker whose environment has WORKER_FAKE opens a fake database that
// misbehaves in the way the variable says (fakeOpen).
func TestMain(m *testing.M) {
	worker.Main(func(ctx context.Context, a worker.OpenArgs) (engine.Database, error) {
		if kind := os.Getenv("WORKER_FAKE"); kind != "" {
			return &fakeDB{kind: kind}, nil
		}
		if err := sqlite.LimitProcessHeap(a.MaxMemory / 4 * 3); err != nil {
			return nil, err
		}
		opts := sqlite.Options{MaxMemory: a.MaxMemory, File: a.File, FileIsSnapshot: a.Snapshot}
		if a.SkipCheck {
			opts.QuickCheckTimeout = -1
		}
		return sqlite.Open(ctx, a.Path, opts)
	})
	os.Exit(m.Run())
}

// fakeDB misbehaves on Run: "hog" grows the worker's own memory without
// end, "crash" exits the worker.
type fakeDB struct{ kind string }

func (f *fakeDB) Dialect() string    { return "fake" }
func (f *fakeDB) Name() string       { return "fake " + f.kind }
func (f *fakeDB) Warnings() []string { return nil }
func (f *fakeDB) Schema(ctx context.Context) (*engine.Schema, error) {
	return &engine.Schema{Database: f.Name()}, nil
}
func (f *fakeDB) Validate(ctx context.Context, s string) (*engine.Validation, error) {
	return &engine.Validation{SQL: s}, nil
}
func (f *fakeDB) Explain(ctx context.Context, s string) ([]string, error) { return nil, nil }
func (f *fakeDB) Stream(ctx context.Context, s string, o engine.StreamOptions, c func([]engine.Column) error, r func([]engine.Value) error) (*engine.StreamInfo, error) {
	return nil, engine.Errorf(engine.CodeInternal, "no")
}
func (f *fakeDB) Close() error { return nil }

var hoard [][]byte

func (f *fakeDB) Run(ctx context.Context, s string, o engine.RunOptions) (*engine.Result, error) {
	switch f.kind {
	case "hog":
		for ctx.Err() == nil {
			b := make([]byte, 8<<20)
			for i := range b {
				b[i] = byte(i)
			}
			hoard = append(hoard, b)
		}
	case "crash":
		os.Exit(3)
	}
	return &engine.Result{Query: s, Columns: []engine.Column{{Name: "x", Type: "INTEGER"}}, Rows: [][]engine.Value{{int64(1)}}}, nil
}

// makeDB writes a SQLite file with the given statements.
func makeDB(t *testing.T, stmts ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "w.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	return path
}

// fake is the environment of a worker that opens a fake database of kind.
func fake(kind string) []string { return []string{"WORKER_FAKE=" + kind} }

func open(t *testing.T, path string, cfg worker.Config) *worker.Client {
	t.Helper()
	c, err := worker.Open(context.Background(), path, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

const (
	// instrBomb is one call of instr() over 10 MB values: one step of
	// SQLite's machine that runs for minutes and cannot be interrupted.
	instrBomb = "SELECT instr(printf('%.*c', 9999000, 'a'), printf('%.*c', 4000000, 'a') || 'b') AS n"
	// likeBomb is the same with LIKE.
	likeBomb = "SELECT printf('%.*c', 9999000, 'a') LIKE '%' || printf('%.*c', 9990, 'a') || 'b' AS m"
)

// patience bounds how long a stopped call may take in these tests: far
// more than the timeout and the grace (a loaded machine), far less than a
// bomb left running (minutes).
const patience = 20 * time.Second

func code(err error) string { return engine.ErrorCode(err) }

func TestValuesRoundTrip(t *testing.T) {
	path := makeDB(t, "CREATE TABLE t(i INTEGER, r REAL, s TEXT, b BLOB, n)",
		`INSERT INTO t VALUES (9223372036854775807, 1.5, 'héllo'||char(0)||'x', x'00ff', NULL), (-1, -0.0, '', x'', NULL)`)
	c := open(t, path, worker.Config{})
	if c.Dialect() != "sqlite" || !strings.HasSuffix(c.Path(), "w.db") || c.Name() == "" {
		t.Errorf("dialect %q, path %q, name %q", c.Dialect(), c.Path(), c.Name())
	}
	res, err := c.Run(context.Background(), "SELECT * FROM t", engine.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]engine.Value{
		{int64(9223372036854775807), 1.5, "héllo\x00x", []byte{0, 0xff}, nil},
		{int64(-1), 0.0, "", []byte{}, nil},
	}
	if !reflect.DeepEqual(res.Rows, want) {
		t.Errorf("rows %#v, want %#v", res.Rows, want)
	}
	if len(res.Columns) != 5 || res.Columns[0].Type != "INTEGER" || !strings.Contains(res.ExecutedSQL, "_querent_q") {
		t.Errorf("columns %+v, executed %q", res.Columns, res.ExecutedSQL)
	}
	if res, err := c.Run(context.Background(), `SELECT count(*) FROM t WHERE s = "Some Text"`, engine.RunOptions{}); err != nil || len(res.Warnings) != 1 {
		t.Errorf("double-quoted text: %+v, %v", res, err)
	}
	if _, err := c.Validate(context.Background(), "SELECT nope FROM t"); code(err) != engine.CodeUnknownColumn {
		t.Errorf("validate: %v", err)
	}
	if _, err := c.Run(context.Background(), "WITH x AS (SELECT 1) DELETE FROM t", engine.RunOptions{}); code(err) != engine.CodeRefused {
		t.Errorf("a write: %v", err)
	}
	s, err := c.Schema(context.Background())
	if err != nil || s.Table("t") == nil || s.Table("t").RowCount != 2 {
		t.Fatalf("schema %+v, %v", s, err)
	}
	if sum, err := c.SHA256(context.Background()); err != nil || len(sum) != 64 {
		t.Errorf("sha256 %q, %v", sum, err)
	}
	var got int
	info, err := c.Stream(context.Background(), "SELECT * FROM t", engine.StreamOptions{},
		func(cols []engine.Column) error {
			if len(cols) != 5 {
				t.Errorf("stream columns %+v", cols)
			}
			return nil
		}, func(row []engine.Value) error { got++; return nil })
	if err != nil || got != 2 || info.Rows != 2 {
		t.Errorf("stream: %d rows, info %+v, %v", got, info, err)
	}
	if c.Starts() != 1 {
		t.Errorf("%d workers started, want 1", c.Starts())
	}
}

// TestTimeoutHolds: one uninterruptible function call stops at its
// timeout, by killing the worker; the next call gets a new one.
func TestTimeoutHolds(t *testing.T) {
	c := open(t, makeDB(t, "CREATE TABLE t(x)"), worker.Config{})
	for _, bomb := range []string{instrBomb, likeBomb} {
		start := time.Now()
		_, err := c.Run(context.Background(), bomb, engine.RunOptions{Timeout: 300 * time.Millisecond})
		if code(err) != engine.CodeTimeout || time.Since(start) > patience {
			t.Fatalf("%s: %v after %s", bomb, err, time.Since(start))
		}
		if res, err := c.Run(context.Background(), "SELECT 1 AS one", engine.RunOptions{}); err != nil || res.Rows[0][0] != int64(1) {
			t.Fatalf("after the bomb: %v", err)
		}
	}
	if c.Starts() != 3 {
		t.Errorf("%d workers started, want 3 (one per bomb killed)", c.Starts())
	}
}

// TestCancelStops: cancelling stops the bomb at once.
func TestCancelStops(t *testing.T) {
	c := open(t, makeDB(t, "CREATE TABLE t(x)"), worker.Config{})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		time.Sleep(200 * time.Millisecond)
		cancel()
	}()
	start := time.Now()
	_, err := c.Run(ctx, instrBomb, engine.RunOptions{Timeout: 10 * time.Minute})
	if code(err) != engine.CodeCancelled || !errors.Is(err, context.Canceled) || time.Since(start) > patience {
		t.Fatalf("%v after %s", err, time.Since(start))
	}
}

// TestOtherDatabaseAnswers: a runaway statement on one database never
// holds up another.
func TestOtherDatabaseAnswers(t *testing.T) {
	a := open(t, makeDB(t, "CREATE TABLE a(x)"), worker.Config{})
	b := open(t, makeDB(t, "CREATE TABLE b(x)"), worker.Config{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := a.Run(ctx, instrBomb, engine.RunOptions{Timeout: 10 * time.Minute})
		done <- err
	}()
	time.Sleep(100 * time.Millisecond) // let the bomb start
	for i := 0; i < 5; i++ {
		if _, err := b.Run(context.Background(), "SELECT count(*) FROM b", engine.RunOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case err := <-done:
		t.Fatalf("the bomb ended before the other database was asked: %v", err)
	default:
	}
	cancel()
	if err := <-done; code(err) != engine.CodeCancelled {
		t.Errorf("bomb: %v", err)
	}
}

// TestSameDatabaseAnswersBesideARunaway: a statement on the database a
// runaway holds is answered by another worker of its pool; when every
// worker the budget allows is busy, a waiting statement still ends within
// its own timeout.
func TestSameDatabaseAnswersBesideARunaway(t *testing.T) {
	c := open(t, makeDB(t, "CREATE TABLE t(x)"), worker.Config{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go c.Run(ctx, instrBomb, engine.RunOptions{Timeout: 10 * time.Minute})
	time.Sleep(100 * time.Millisecond)
	if res, err := c.Run(context.Background(), "SELECT 1 AS one", engine.RunOptions{Timeout: 5 * time.Second}); err != nil || res.Rows[0][0] != int64(1) {
		t.Fatalf("beside the runaway: %v", err)
	}
	cancel()

	small := worker.NewBudget(128 << 20) // two workers at most
	c = open(t, makeDB(t, "CREATE TABLE t(x)"), worker.Config{Budget: small})
	bctx, bcancel := context.WithCancel(context.Background())
	defer bcancel()
	// Runaways that need no memory (a share of this budget is 48 MB).
	endless := "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT count(*) FROM r"
	for range 2 {
		go c.Run(bctx, endless, engine.RunOptions{Timeout: 10 * time.Minute})
	}
	time.Sleep(300 * time.Millisecond)
	start := time.Now()
	_, err := c.Run(context.Background(), "SELECT 1", engine.RunOptions{Timeout: 200 * time.Millisecond})
	if code(err) != engine.CodeTimeout || time.Since(start) > patience {
		t.Fatalf("%v after %s", err, time.Since(start))
	}
	bcancel()
}

// TestMemoryCeiling: a worker that grows past the ceiling is killed and the
// call fails with too_big; a row too large for the ceiling is refused by
// SQLite's heap limit.
func TestMemoryCeiling(t *testing.T) {
	if _, err := os.Stat("/proc/self/statm"); err != nil {
		t.Skip("the worker's size is read from /proc")
	}
	c := open(t, makeDB(t, "CREATE TABLE t(x)"), worker.Config{MaxMemory: 200 << 20, Env: fake("hog")})
	_, err := c.Run(context.Background(), "SELECT 1", engine.RunOptions{Timeout: time.Minute})
	if code(err) != engine.CodeTooBig || !strings.Contains(err.Error(), "200 MB") {
		t.Fatalf("hog: %v", err)
	}

	db := open(t, makeDB(t, "CREATE TABLE t(x)"), worker.Config{MaxMemory: 256 << 20})
	cols := make([]string, 100)
	for i := range cols {
		cols[i] = "printf('%.*c', 9999000 - " + string(rune('0'+i%10)) + ", 'x')"
	}
	_, err = db.Run(context.Background(), "SELECT "+strings.Join(cols, ", "), engine.RunOptions{})
	if code(err) != engine.CodeTooBig {
		t.Fatalf("a 1 GB row: %v", err)
	}
	if _, err := db.Run(context.Background(), "SELECT 1", engine.RunOptions{}); err != nil {
		t.Fatal(err)
	}
}

// TestWorkerDeath: a worker that dies is reported, and the next call
// starts another.
func TestWorkerDeath(t *testing.T) {
	c := open(t, makeDB(t, "CREATE TABLE t(x)"), worker.Config{Env: fake("crash")})
	_, err := c.Run(context.Background(), "SELECT 1", engine.RunOptions{})
	if code(err) != engine.CodeInternal || !strings.Contains(err.Error(), "stopped unexpectedly") {
		t.Fatalf("%v", err)
	}
	if _, err := c.Schema(context.Background()); err != nil {
		t.Fatal(err)
	}
	if c.Starts() != 2 {
		t.Errorf("%d starts", c.Starts())
	}
}

// TestHostileViews: a view whose second row never comes, and a view whose
// rows are one uninterruptible call each, cannot hang schema loading:
// their steps are stopped and noted, the rest of the schema is read.
func TestHostileViews(t *testing.T) {
	path := makeDB(t, "CREATE TABLE good(id INTEGER PRIMARY KEY, name TEXT)",
		"INSERT INTO good VALUES (1, 'a'), (2, 'b')",
		"CREATE VIEW endless AS WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM r) SELECT x FROM r WHERE x=1 OR x=1000000000000",
		"CREATE VIEW bomb AS SELECT instr(printf('%.*c', 9999000, 'a'), printf('%.*c', 4000000, 'a') || 'b') AS n")
	c := open(t, path, worker.Config{})
	start := time.Now()
	s, err := c.Schema(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(start) > patience {
		t.Fatalf("schema took %s", time.Since(start))
	}
	for _, v := range []string{"endless", "bomb"} {
		if tb := s.Table(v); tb == nil || tb.Note == "" {
			t.Errorf("view %s: %+v", v, tb)
		}
	}
	if g := s.Table("good"); g == nil || g.RowCount != 2 || len(g.Samples.Values) != 2 {
		t.Errorf("good: %+v", g)
	}
	t.Logf("schema in %s with %d workers; notes: %q / %q", time.Since(start).Round(time.Millisecond), c.Starts(),
		s.Table("endless").Note, s.Table("bomb").Note)
}

// TestStreamStopsEarly: a consumer that stops a stream leaves the client
// usable.
func TestStreamStopsEarly(t *testing.T) {
	c := open(t, makeDB(t, "CREATE TABLE t(x)"), worker.Config{})
	stop := errors.New("enough")
	n := 0
	_, err := c.Stream(context.Background(), "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM r WHERE x < 1000000) SELECT x FROM r",
		engine.StreamOptions{}, func([]engine.Column) error { return nil }, func([]engine.Value) error {
			n++
			if n == 10 {
				return stop
			}
			return nil
		})
	if !errors.Is(err, stop) {
		t.Fatalf("%v", err)
	}
	if _, err := c.Run(context.Background(), "SELECT 1", engine.RunOptions{}); err != nil {
		t.Fatal(err)
	}
}

func TestOpenErrors(t *testing.T) {
	_, err := worker.Open(context.Background(), filepath.Join(t.TempDir(), "missing.db"), worker.Config{})
	if code(err) != engine.CodeDatabase || !strings.Contains(err.Error(), "no such file") {
		t.Fatalf("%v", err)
	}
}

// spillQueries make SQLite store gigabytes of temporary data: a
// MATERIALIZED CTE (the red team's, 8.8 GB in 20 s before temp_store was
// MEMORY) and a GROUP BY over values too large for the sorter's memory.
var spillQueries = map[string]string{
	"materialized": "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM r LIMIT 100000000), " +
		"m AS MATERIALIZED (SELECT x, zeroblob(1000) || randomblob(8) AS b FROM r) SELECT count(*) FROM m",
	"group by": "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM r LIMIT 100000000) " +
		"SELECT count(*) FROM (SELECT zeroblob(1000) || randomblob(8) AS b FROM r GROUP BY b)",
}

// TestSpillBoundedByCeiling: a statement's temporary data lives in
// SQLite's heap, under the worker's ceiling, not in TMPDIR where no
// ceiling sees it: the statement fails with too_big and TMPDIR stays
// empty, for a query and for an export.
func TestSpillBoundedByCeiling(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("the worker's files are read from /proc")
	}
	tmp := t.TempDir()
	c := open(t, makeDB(t, "CREATE TABLE t(x)"), worker.Config{MaxMemory: 200 << 20,
		Env: []string{"TMPDIR=" + tmp, "SQLITE_TMPDIR=" + tmp}})
	for name, q := range spillQueries {
		for _, stream := range []bool{false, true} {
			ctx, cancel := context.WithCancel(context.Background())
			w := watchTemp(c, tmp, 50<<20, cancel)
			var err error
			if stream {
				_, err = c.Stream(ctx, q, engine.StreamOptions{Timeout: time.Minute}, func([]engine.Column) error { return nil }, func([]engine.Value) error { return nil })
			} else {
				_, err = c.Run(ctx, q, engine.RunOptions{Timeout: time.Minute})
			}
			biggest := w()
			cancel()
			if biggest > 0 {
				t.Errorf("%s (stream %v): a temporary file of %s in TMPDIR", name, stream, engine.FormatSize(biggest))
			}
			if code(err) != engine.CodeTooBig {
				t.Errorf("%s (stream %v): %v, want too_big", name, stream, err)
			}
		}
	}
	if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
		t.Errorf("TMPDIR holds %v", entries)
	}
}

// watchTemp watches the files the client's worker holds open under dir
// (unlinked ones included: SQLite unlinks its temporary files at once) and
// calls stop when one grows past limit; the returned function ends the
// watch and reports the largest size seen.
func watchTemp(c *worker.Client, dir string, limit int64, stop func()) func() int64 {
	done := make(chan struct{})
	result := make(chan int64, 1)
	go func() {
		var biggest int64
		defer func() { result <- biggest }()
		for {
			for _, pid := range c.PIDs() {
				fds := "/proc/" + strconv.Itoa(pid) + "/fd/"
				entries, _ := os.ReadDir(fds)
				for _, e := range entries {
					target, err := os.Readlink(fds + e.Name())
					if err != nil || !strings.HasPrefix(target, dir) {
						continue
					}
					if st, err := os.Stat(fds + e.Name()); err == nil && st.Size() >= biggest {
						biggest = max(st.Size(), 1)
						if biggest > limit {
							stop()
						}
					}
				}
			}
			select {
			case <-done:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}()
	return func() int64 {
		close(done)
		return <-result
	}
}

// TestReplacedFileKeepsItsIdentity: a file replaced under its path while
// open is still the one read, by a worker started after a kill too, under
// its own sha256; the file opened, written in place, is refused.
func TestReplacedFileKeepsItsIdentity(t *testing.T) {
	path := makeDB(t, "CREATE TABLE t(v)", "INSERT INTO t VALUES ('first')")
	dir := filepath.Dir(path)
	keep := filepath.Join(dir, "kept.db") // a second name of the first file
	if err := os.Link(path, keep); err != nil {
		t.Skip("no hard links here")
	}
	first, _ := os.ReadFile(path)
	c := open(t, path, worker.Config{})
	value := func() (string, error) {
		res, err := c.Run(context.Background(), "SELECT v FROM t", engine.RunOptions{})
		if err != nil {
			return "", err
		}
		return res.Rows[0][0].(string), nil
	}
	other := makeDB(t, "CREATE TABLE t(v)", "INSERT INTO t VALUES ('second')")
	if err := os.Rename(other, path); err != nil {
		t.Fatal(err)
	}
	if v, err := value(); v != "first" {
		t.Fatalf("after the replacement: %q %v", v, err)
	}
	if _, err := c.Run(context.Background(), instrBomb, engine.RunOptions{Timeout: 200 * time.Millisecond}); code(err) != engine.CodeTimeout {
		t.Fatalf("bomb: %v", err)
	}
	if v, err := value(); v != "first" || c.Starts() != 2 {
		t.Fatalf("in a new worker: %q %v (%d starts)", v, err, c.Starts())
	}
	sum, err := c.SHA256(context.Background())
	if want := sha256.Sum256(first); err != nil || sum != hex.EncodeToString(want[:]) {
		t.Errorf("sha256 %s %v, want the first file's", sum, err)
	}
	// The file that is open, written in place: refused, never read torn.
	time.Sleep(20 * time.Millisecond)
	f, err := os.OpenFile(keep, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(make([]byte, 4096))
	f.Close()
	if _, err := value(); code(err) != engine.CodeDatabase || !strings.Contains(err.Error(), "changed on disk") {
		t.Fatalf("written in place: %v", err)
	}
}

// hashLog is a HashStore that remembers what it was told.
type hashLog struct {
	mu     sync.Mutex
	known  map[string]string
	stored []string
}

func (h *hashLog) Lookup(quick string) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.known[quick]
}

func (h *hashLog) Store(quick, sum string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.stored = append(h.stored, quick+"="+sum)
}

func (h *hashLog) all() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.stored...)
}

// TestIdentityIsBounded: a database with a sparse 50 GB tail opens and
// answers at once, with its quick identity for a fingerprint, while its
// sha256 is computed in the background (and cancelled on close); a small
// file has its sha256 at once; a remembered sha256 is used.
func TestIdentityIsBounded(t *testing.T) {
	path := makeDB(t, "CREATE TABLE t(x)", "INSERT INTO t VALUES (1)")
	small, _ := os.ReadFile(path)
	smallSum := sha256.Sum256(small)
	log := &hashLog{}
	c := open(t, path, worker.Config{Hashes: log})
	if sum, _ := c.SHA256(context.Background()); sum != hex.EncodeToString(smallSum[:]) {
		t.Errorf("small file: %s", sum)
	}
	if got := log.all(); len(got) != 1 || !strings.HasSuffix(got[0], "="+hex.EncodeToString(smallSum[:])) {
		t.Errorf("stored %v", got)
	}

	big := makeDB(t, "CREATE TABLE t(x)", "INSERT INTO t VALUES (1)")
	if err := os.Truncate(big, 50<<30); err != nil {
		t.Skip("no sparse files here")
	}
	start := time.Now()
	log = &hashLog{}
	c, err := worker.Open(context.Background(), big, worker.Config{Hashes: log})
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Run(context.Background(), "SELECT x FROM t", engine.RunOptions{Timeout: 2 * time.Second})
	if err != nil || res.Rows[0][0] != int64(1) {
		t.Fatalf("%v %v", res, err)
	}
	quick, _ := c.SHA256(context.Background())
	took := time.Since(start)
	if !strings.HasPrefix(quick, "quick:") || len(quick) != 6+64 {
		t.Errorf("fingerprint of the 50 GB file: %q", quick)
	}
	if took > patience {
		t.Errorf("open, query and fingerprint took %s", took)
	}
	start = time.Now()
	c.Close()
	if d := time.Since(start); d > patience {
		t.Errorf("close took %s (the hash was not cancelled?)", d)
	}
	if got := log.all(); len(got) != 0 {
		t.Errorf("a hash cancelled was stored: %v", got)
	}
	t.Logf("50 GB sparse file: opened, answered and fingerprinted in %s; closed in %s", took.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))

	// Remembered: the sha256 at once, and told again (to fill the history).
	log = &hashLog{known: map[string]string{quick: strings.Repeat("ab", 32)}}
	c = open(t, big, worker.Config{Hashes: log})
	if sum, _ := c.SHA256(context.Background()); sum != strings.Repeat("ab", 32) {
		t.Errorf("remembered: %s", sum)
	}
}

// TestIdentityInTheBackground: a file over the size hashed at open gets
// its sha256 in the background, and SHA256 gives it once known.
func TestIdentityInTheBackground(t *testing.T) {
	path := makeDB(t, "CREATE TABLE t(x)", "INSERT INTO t VALUES (1)")
	if err := os.Truncate(path, 40<<20); err != nil {
		t.Skip("no sparse files here")
	}
	b, _ := os.ReadFile(path)
	want := sha256.Sum256(b)
	log := &hashLog{}
	c := open(t, path, worker.Config{Hashes: log})
	deadline := time.Now().Add(patience)
	for {
		sum, _ := c.SHA256(context.Background())
		if sum == hex.EncodeToString(want[:]) {
			break
		}
		if !strings.HasPrefix(sum, "quick:") || time.Now().After(deadline) {
			t.Fatalf("sha256 %q", sum)
		}
		time.Sleep(20 * time.Millisecond)
	}
	for len(log.all()) == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if got := log.all(); len(got) != 1 || !strings.HasPrefix(got[0], "quick:") {
		t.Errorf("stored %v", got)
	}
}

// TestRunawaysCostTheirCallersOnly: 300 calls at once on one database,
// 5 of them runaways (each holds its worker until its timeout): the other
// 295 are all answered (before the pool, 32 were and 263 timed out without
// ever running, queued behind the runaways on the database's one worker).
func TestRunawaysCostTheirCallersOnly(t *testing.T) {
	if testing.Short() {
		t.Skip("300 calls")
	}
	c := open(t, makeDB(t, "CREATE TABLE t(x)", "INSERT INTO t VALUES (1), (2)"), worker.Config{})
	var wg sync.WaitGroup
	errs := make(chan error, 300)
	start := time.Now()
	for i := range 300 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i%60 == 0 {
				_, err := c.Run(context.Background(), instrBomb, engine.RunOptions{Timeout: 3 * time.Second})
				// Stopped at its timeout, or past its share of the ceiling
				// (two 10 MB strings, while 15 other workers share it).
				if code(err) != engine.CodeTimeout && code(err) != engine.CodeTooBig {
					errs <- fmt.Errorf("runaway: %v", err)
				}
				return
			}
			res, err := c.Run(context.Background(), "SELECT count(*) AS n FROM t", engine.RunOptions{Timeout: 10 * time.Second})
			if err != nil || res.Rows[0][0] != int64(2) {
				errs <- fmt.Errorf("call %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	n := 0
	for err := range errs {
		if n++; n <= 5 {
			t.Error(err)
		}
	}
	if n > 0 {
		t.Errorf("%d of 300 calls failed", n)
	}
	t.Logf("300 calls with 5 runaways: %s, %d workers started", time.Since(start).Round(time.Millisecond), c.Starts())
}

// TestErrorWordsCrossTheBoundary: an error the worker's database said in
// parts reaches the parent in parts, so that each face says it its own
// way (the page its sidebar, not querent schema).
func TestErrorWordsCrossTheBoundary(t *testing.T) {
	c := open(t, makeDB(t, "CREATE TABLE t(i INTEGER)"), worker.Config{})
	for _, call := range []func() error{
		func() error { _, err := c.Validate(context.Background(), "SELECT nosuch"); return err },
		func() error { _, err := c.Run(context.Background(), "SELECT nosuch", engine.RunOptions{}); return err },
	} {
		e := engine.AsError(call())
		if e == nil || e.Code != engine.CodeUnknownColumn {
			t.Fatalf("%v", e)
		}
		h := e.HintSentence()
		if h.MainKey() != "hint.column_in_schema" || e.Hint != "check the column's name in the schema (querent schema)" ||
			(words.Speaker{Lang: "en", Face: words.Page}).Say(h) != "check the column's name in the sidebar" {
			t.Errorf("hint %q, in parts %#v", e.Hint, h)
		}
	}
}
