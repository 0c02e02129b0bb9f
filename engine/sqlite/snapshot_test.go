package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/binary"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"querent/engine"
)

// snapshotDirs lists the snapshot folders under root (none when root is
// missing).
func snapshotDirs(t testing.TB, root string) []string {
	t.Helper()
	entries, err := os.ReadDir(root)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, e := range entries {
		if e.IsDir() && strings.HasPrefix(e.Name(), snapshotPrefix) {
			dirs = append(dirs, filepath.Join(root, e.Name()))
		}
	}
	sort.Strings(dirs)
	return dirs
}

// walFixture is a WAL-mode database whose writer keeps its changes in the
// -wal: copies of both files, taken while the writer held them open.
type walFixture struct {
	main, wal []byte
	pageSize  int64
	frames    int // frames in the log as SQLite itself counts them (its checkpoint's "log")
}

// makeWALFixture writes txs transactions of 20 rows each into the log (the
// main file has the empty table), then runs extra
// (statements in a transaction left open, or nothing), and copies the
// files while the writer still has them open.
func makeWALFixture(t *testing.T, txs int, extra ...string) walFixture {
	t.Helper()
	src := filepath.Join(t.TempDir(), "live.db")
	w := writable(t, src)
	for _, s := range []string{"PRAGMA page_size = 1024", "PRAGMA journal_mode = WAL", "PRAGMA wal_autocheckpoint = 0",
		"PRAGMA cache_size = 2", "CREATE TABLE t(n INTEGER, v TEXT)",
		"PRAGMA wal_checkpoint(TRUNCATE)"} { // the main file holds the empty table; the rows go to the log
		if _, err := w.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < txs; i++ {
		if _, err := w.Exec("WITH RECURSIVE r(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM r WHERE k < 20) "+
			"INSERT INTO t SELECT ?, printf('%.200c', 'x') FROM r", i); err != nil {
			t.Fatal(err)
		}
	}
	var tx *sql.Tx
	if len(extra) > 0 {
		var err error
		if tx, err = w.Begin(); err != nil {
			t.Fatal(err)
		}
		for _, s := range extra {
			if _, err := tx.Exec(s); err != nil {
				t.Fatal(err)
			}
		}
	}
	var f walFixture
	var err error
	if f.main, err = os.ReadFile(src); err != nil {
		t.Fatal(err)
	}
	if f.wal, err = os.ReadFile(src + "-wal"); err != nil {
		t.Fatal(err)
	}
	if tx != nil {
		tx.Rollback()
	}
	var busy int
	if err := w.QueryRow("PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &f.frames, new(int)); err != nil {
		t.Fatal(err)
	}
	f.pageSize = 1024
	return f
}

// write puts the fixture's files (with wal as the -wal) in a new folder.
func (f walFixture) write(t *testing.T, wal []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "copy.db")
	if err := os.WriteFile(p, f.main, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p+"-wal", wal, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// sqliteCount is what SQLite itself shows of a file and its -wal: it opens
// a throwaway copy of both the ordinary way and runs its own recovery.
func sqliteCount(t *testing.T, f walFixture, wal []byte) int64 {
	t.Helper()
	db := writable(t, f.write(t, wal))
	var n int64
	if err := db.QueryRow("SELECT count(*) FROM t").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// querentCount opens the file with its -wal through Open and reports the
// rows it shows and the length of the -wal copy it made (-1: no snapshot).
func querentCount(t *testing.T, f walFixture, wal []byte) (rows, walCopy int64, warnings string) {
	t.Helper()
	walCopy = -1
	afterSnapshotCopy = func(dir string) {
		if st, err := os.Stat(filepath.Join(dir, snapshotFile+"-wal")); err == nil {
			walCopy = st.Size()
		}
	}
	defer func() { afterSnapshotCopy = nil }()
	path := f.write(t, wal)
	u := watch(t, path)
	db := openT(t, path, Options{SnapshotRoot: t.TempDir()})
	res, err := db.Run(context.Background(), "SELECT count(*) FROM t", engine.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	warnings = strings.Join(db.Warnings(), " ")
	db.Close()
	u.check(t, "open")
	return res.Rows[0][0].(int64), walCopy, warnings
}

func scanBytes(t *testing.T, wal []byte) walScan {
	t.Helper()
	s, err := scanWAL(context.Background(), bytes.NewReader(wal), -1, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSnapshotWALFrames checks the WAL reader against logs SQLite wrote and
// against SQLite's own recovery of the same bytes: a clean log, one with an
// uncommitted tail (a transaction whose pages spilled into the log) and one
// with a damaged frame in the middle. The snapshot must hold the same rows
// SQLite shows and copy only the committed frames.
func TestSnapshotWALFrames(t *testing.T) {
	const txs = 6
	clean := makeWALFixture(t, txs)
	frame := walFrameHeaderSize + clean.pageSize
	s := scanBytes(t, clean.wal)
	if !s.headerOK || s.frames != clean.frames || s.committed != clean.frames {
		t.Fatalf("clean log: %+v; SQLite counts %d frames, all committed", s, clean.frames)
	}
	if s.end != int64(len(clean.wal)) || s.end != walHeaderSize+int64(s.frames)*frame {
		t.Fatalf("clean log: end %d, file %d bytes", s.end, len(clean.wal))
	}
	rows, walCopy, w := querentCount(t, clean, clean.wal)
	if want := sqliteCount(t, clean, clean.wal); rows != want || want != txs*20 {
		t.Errorf("clean log: Querent shows %d rows, SQLite %d, written %d", rows, want, txs*20)
	}
	if walCopy != s.end || !strings.Contains(w, "private snapshot") {
		t.Errorf("clean log: copied %d bytes of the -wal, want %d; warnings %q", walCopy, s.end, w)
	}

	t.Run("uncommitted tail", func(t *testing.T) {
		f := makeWALFixture(t, txs, "WITH RECURSIVE r(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM r WHERE k < 400) "+
			"INSERT INTO t SELECT -1, printf('%.300c', 'y') FROM r")
		s := scanBytes(t, f.wal)
		if s.committed != f.frames || s.frames <= s.committed {
			t.Fatalf("%+v: want %d committed frames and an uncommitted tail after them (the fixture did not spill?)", s, f.frames)
		}
		t.Logf("%d committed frames, %d more uncommitted", s.committed, s.frames-s.committed)
		rows, walCopy, _ := querentCount(t, f, f.wal)
		if want := sqliteCount(t, f, f.wal); rows != want || want != txs*20 {
			t.Errorf("Querent shows %d rows, SQLite %d, committed %d", rows, want, txs*20)
		}
		if walCopy != s.end || walCopy >= int64(len(f.wal)) {
			t.Errorf("copied %d bytes of a %d-byte -wal, want only the %d committed bytes", walCopy, len(f.wal), s.end)
		}
	})

	t.Run("damaged frame in the middle", func(t *testing.T) {
		wal := append([]byte(nil), clean.wal...)
		bad := clean.frames / 2
		wal[walHeaderSize+int64(bad)*frame+walFrameHeaderSize+100] ^= 0x55 // inside the page
		s := scanBytes(t, wal)
		if s.frames != bad || s.committed > bad || s.committed == 0 {
			t.Fatalf("%+v: want the log to end at frame %d", s, bad)
		}
		rows, walCopy, _ := querentCount(t, clean, wal)
		want := sqliteCount(t, clean, wal)
		if rows != want || want >= txs*20 || want == 0 {
			t.Errorf("Querent shows %d rows, SQLite %d (of %d)", rows, want, txs*20)
		}
		if walCopy != walHeaderSize+int64(s.committed)*frame {
			t.Errorf("copied %d bytes, want the %d frames before the damage that were committed", walCopy, s.committed)
		}
	})

	t.Run("damaged header", func(t *testing.T) {
		for i, at := range []int{0, 4, 8, 17, 25} { // magic, version, page size, salt, checksum
			wal := append([]byte(nil), clean.wal...)
			wal[at] ^= 0x10
			if s := scanBytes(t, wal); s.headerOK || s.end != 0 {
				t.Errorf("%d: header accepted: %+v", i, s)
			}
			rows, walCopy, w := querentCount(t, clean, wal)
			if want := sqliteCount(t, clean, wal); at != 4 && rows != want {
				t.Errorf("%d: Querent shows %d rows, SQLite %d", i, rows, want)
			}
			if walCopy != -1 || !strings.Contains(w, "not a write-ahead log") {
				t.Errorf("%d: a snapshot was made (%d bytes of -wal) for a log SQLite ignores; warnings %q", i, walCopy, w)
			}
		}
	})

	t.Run("header only", func(t *testing.T) {
		rows, walCopy, w := querentCount(t, clean, clean.wal[:walHeaderSize])
		if rows != sqliteCount(t, clean, clean.wal[:walHeaderSize]) || walCopy != -1 || w != "" {
			t.Errorf("rows %d, -wal copy %d, warnings %q: want the main file alone, silently", rows, walCopy, w)
		}
	})
}

// TestSnapshotWALChecksumByteOrder: the big-endian checksum of byte-swapped
// words is the little-endian checksum of the original ones (SQLite writes
// the byte order of the machine, so a real big-endian log cannot be made
// here).
func TestSnapshotWALChecksumByteOrder(t *testing.T) {
	f := makeWALFixture(t, 1)
	b := f.wal[walHeaderSize : walHeaderSize+walFrameHeaderSize+f.pageSize]
	b = append(append([]byte(nil), b[:8]...), b[walFrameHeaderSize:]...)
	swapped := make([]byte, len(b))
	for i := 0; i+4 <= len(b); i += 4 {
		binary.BigEndian.PutUint32(swapped[i:], binary.LittleEndian.Uint32(b[i:]))
	}
	a0, a1 := walChecksum(b, false, 7, 11)
	b0, b1 := walChecksum(swapped, true, 7, 11)
	if a0 != b0 || a1 != b1 || a0 == 7 {
		t.Errorf("little-endian %x %x, big-endian of the swapped words %x %x", a0, a1, b0, b1)
	}
}

// TestSnapshotJournal: a -journal that SQLite would not roll back (a
// committed journal in PERSIST mode, whose header is zeroed) needs no
// snapshot; a hot one is copied no further than its header allows.
func TestSnapshotJournal(t *testing.T) {
	t.Run("committed PERSIST journal", func(t *testing.T) {
		path := makeDB(t, t.TempDir(), "p.db", "PRAGMA journal_mode = PERSIST", "CREATE TABLE t(x)", "INSERT INTO t VALUES (1), (2)")
		if st, err := os.Stat(path + "-journal"); err != nil || st.Size() == 0 {
			t.Fatalf("the fixture left no journal: %v", err)
		}
		root := t.TempDir()
		dir, copyPath, warning, err := MakeSnapshot(context.Background(), root, path)
		if err != nil || dir != "" || copyPath != path || warning != "" {
			t.Errorf("MakeSnapshot: %q %q %q %v; want no snapshot and no warning", dir, copyPath, warning, err)
		}
		db := openT(t, path, Options{SnapshotRoot: root})
		if w := db.Warnings(); len(w) > 0 {
			t.Errorf("warnings %q", w)
		}
	})
	t.Run("hot journal with junk after it", func(t *testing.T) {
		path := hotJournal(t)
		junk := bytes.Repeat([]byte("junk"), 4<<20)
		j, err := os.OpenFile(path+"-journal", os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		j.Write(junk)
		j.Close()
		st, _ := os.Stat(path + "-journal")
		var copied int64 = -1
		afterSnapshotCopy = func(dir string) {
			if st, err := os.Stat(filepath.Join(dir, snapshotFile+"-journal")); err == nil {
				copied = st.Size()
			}
		}
		defer func() { afterSnapshotCopy = nil }()
		db := openT(t, path, Options{SnapshotRoot: t.TempDir()})
		res, err := db.Run(context.Background(), "SELECT count(*), sum(v = 'new') FROM t", engine.RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Rows[0][0] != int64(500) || res.Rows[0][1] != int64(0) {
			t.Errorf("rows %v: want 500 rows, none of them half-written", res.Rows[0])
		}
		t.Logf("copied %d bytes of a %d-byte journal", copied, st.Size())
		if copied <= 0 || copied >= st.Size()-int64(len(junk))/2 {
			t.Errorf("copied %d bytes of a %d-byte journal that ends in %d bytes of junk", copied, st.Size(), len(junk))
		}
	})
}

// hotJournal makes a copy of a file taken in the middle of a write: a hot
// rollback journal beside half-written pages (500 rows 'old', some pages
// already 'new').
func hotJournal(t *testing.T) string {
	t.Helper()
	src := filepath.Join(t.TempDir(), "w.db")
	w := writable(t, src)
	for _, s := range []string{"PRAGMA page_size = 1024", "PRAGMA cache_size = 2", "CREATE TABLE t(v TEXT)",
		"WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 500) INSERT INTO t SELECT 'old' || n FROM r"} {
		if _, err := w.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	tx, err := w.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec("UPDATE t SET v = 'new'"); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "crashed.db")
	for _, suffix := range []string{"", "-journal"} {
		b, err := os.ReadFile(src + suffix)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst+suffix, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// TestSnapshotFreeSpace: a snapshot that would not fit is refused up front,
// saying where and how much.
func TestSnapshotFreeSpace(t *testing.T) {
	f := makeWALFixture(t, 3)
	path := f.write(t, f.wal)
	root := t.TempDir()
	freeSpace = func(string) int64 { return 4096 }
	defer func() { freeSpace = freeBytes }()
	_, err := Open(context.Background(), path, Options{SnapshotRoot: root})
	e := engine.AsError(err)
	if e == nil || e.Code != engine.CodeDatabase || !strings.Contains(e.Message, "not enough free space in "+root) ||
		!strings.Contains(e.Message, path) || !strings.Contains(e.Message, "needed") {
		t.Fatalf("got %v, want a database error about free space in %s", err, root)
	}
	if left := snapshotDirs(t, root); len(left) > 0 {
		t.Errorf("left %v", left)
	}
}

// TestSnapshotRelease: Close removes the snapshot's folder; ReleaseSnapshot
// touches only folders this process made.
func TestSnapshotRelease(t *testing.T) {
	f := makeWALFixture(t, 2)
	root := t.TempDir()
	db, err := Open(context.Background(), f.write(t, f.wal), Options{SnapshotRoot: root})
	if err != nil {
		t.Fatal(err)
	}
	if dirs := snapshotDirs(t, root); len(dirs) != 1 {
		t.Fatalf("snapshot folders %v, want one", dirs)
	} else if st, err := os.Stat(dirs[0]); err != nil || st.Mode().Perm() != 0o700 && runtime.GOOS != "windows" {
		t.Errorf("the folder: %v %v, want mode 0700", st.Mode(), err)
	}
	if n, err := CleanStaleSnapshots(root); n != 0 || err != nil {
		t.Errorf("CleanStaleSnapshots removed %d (%v) while the snapshot is open", n, err)
	}
	db.Close()
	if dirs := snapshotDirs(t, root); len(dirs) != 0 {
		t.Errorf("Close left %v", dirs)
	}
	other := filepath.Join(root, snapshotPrefix+"not-ours")
	os.Mkdir(other, 0o700)
	os.WriteFile(filepath.Join(other, "x"), []byte("x"), 0o600)
	if err := ReleaseSnapshot(other); err == nil {
		t.Error("ReleaseSnapshot accepted a folder it did not make")
	}
	if _, err := os.Stat(filepath.Join(other, "x")); err != nil {
		t.Errorf("ReleaseSnapshot removed a folder it did not make: %v", err)
	}
}
