//go:build linux || darwin || freebsd

package sqlite

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"querent/engine"
)

// diskUsed is the disk space the files under dir really take (their
// allocated blocks, not their lengths): what a snapshot wrote there.
func diskUsed(t testing.TB, dir string) int64 {
	t.Helper()
	var n int64
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) {
				return nil
			}
			return err
		}
		info, err := d.Info()
		if err != nil {
			return nil // removed while we walked
		}
		if st, ok := info.Sys().(*syscall.Stat_t); ok && info.Mode().IsRegular() {
			n += int64(st.Blocks) * 512
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// bytesWritten is what this process has passed to write(2) so far
// (/proc/self/io's wchar), or -1 where that is not known. It catches a
// snapshot that wrote a huge file and removed it again before the test could
// look at the folder.
func bytesWritten() int64 {
	b, err := os.ReadFile("/proc/self/io")
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "wchar: "); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			if err == nil {
				return n
			}
		}
	}
	return -1
}

// snapshotArea points every place a snapshot may go (the temporary folder,
// Querent's data folder) into one fresh folder and returns it.
func snapshotArea(t *testing.T) string {
	area := t.TempDir()
	for _, sub := range []string{"tmp", "data"} {
		if err := os.Mkdir(filepath.Join(area, sub), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("TMPDIR", filepath.Join(area, "tmp"))
	t.Setenv("QUERENT_DATA_DIR", filepath.Join(area, "data"))
	return area
}

// liveWAL makes a WAL-mode file whose writer keeps changes in its -wal, then
// copies the file and its -wal into a folder of their own (as a crash or a
// copy taken while the writer runs would leave them) and returns the copy.
func liveWAL(t *testing.T, rows int) string {
	t.Helper()
	src := filepath.Join(t.TempDir(), "live.db")
	w := writable(t, src)
	for _, s := range []string{"PRAGMA journal_mode = WAL", "PRAGMA wal_autocheckpoint = 0", "CREATE TABLE t(x)"} {
		if _, err := w.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < rows; i++ {
		if _, err := w.Exec("INSERT INTO t VALUES (?)", i); err != nil {
			t.Fatal(err)
		}
	}
	dst := filepath.Join(t.TempDir(), "copy.db")
	for _, suffix := range []string{"", "-wal"} {
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

// TestSnapshotSparseFiles: a sparse file takes no disk, and its snapshot
// must not either. A naive copy wrote 4 GB into the temporary folder for a
// 0-byte (sparse, 4 GB long) -wal.
func TestSnapshotSparseFiles(t *testing.T) {
	const huge = 4 << 30
	const small = 64 << 20 // the files below hold about 1 MB of data
	cases := []struct {
		name  string
		build func(t *testing.T) string
		rows  int64  // rows in t, or -1 for the Chinook file
		warn  string // what the warnings must say
	}{
		{"a 4 GB hole as the -wal", func(t *testing.T) string {
			p := copyChinook(t)
			if err := os.WriteFile(p+"-wal", nil, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(p+"-wal", huge); err != nil {
				t.Fatal(err)
			}
			return p
		}, -1, "not a write-ahead log SQLite would read"},
		{"a real -wal followed by a 4 GB hole", func(t *testing.T) string {
			p := liveWAL(t, 20)
			if err := os.Truncate(p+"-wal", huge); err != nil {
				t.Fatal(err)
			}
			return p
		}, 20, "private snapshot"},
		{"a main file followed by a 4 GB hole, with a real -wal", func(t *testing.T) string {
			p := liveWAL(t, 20)
			if err := os.Truncate(p, huge); err != nil {
				t.Fatal(err)
			}
			return p
		}, 20, "private snapshot"},
		{"a hot journal followed by a 4 GB hole", func(t *testing.T) string {
			p := hotJournal(t)
			if err := os.Truncate(p+"-journal", huge); err != nil {
				t.Fatal(err)
			}
			return p
		}, 500, "private snapshot"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			area := snapshotArea(t)
			path := c.build(t)
			// Not watch(): hashing a 4 GB file reads 4 GB.
			before := listDir(t, filepath.Dir(path))
			peak := int64(-1)
			afterSnapshotCopy = func(dir string) { peak = diskUsed(t, dir) }
			defer func() { afterSnapshotCopy = nil }()
			wrote := bytesWritten()
			db, err := Open(context.Background(), path, Options{QuickCheckTimeout: -1})
			if err != nil {
				t.Fatal(err)
			}
			if wrote >= 0 {
				wrote = bytesWritten() - wrote
			}
			t.Logf("%s: %d bytes written while opening; the snapshot folder took %d bytes of disk at most", c.name, wrote, peak)
			if wrote > small {
				t.Errorf("opening wrote %d bytes for files that hold about 1 MB", wrote)
			}
			if peak > small {
				t.Errorf("the snapshot took %d bytes of disk for files that hold about 1 MB", peak)
			}
			if used := diskUsed(t, area); used > small {
				t.Errorf("the snapshot takes %d bytes of disk for files that hold about 1 MB", used)
			}
			if w := strings.Join(db.Warnings(), " "); !strings.Contains(w, c.warn) {
				t.Errorf("warnings %q do not say %q", w, c.warn)
			}
			q, want := "SELECT count(*) FROM t", c.rows
			if c.rows < 0 {
				q, want = "SELECT count(*) FROM Track", 3503
			}
			res, err := db.Run(context.Background(), q, engine.RunOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Rows[0][0] != want {
				t.Errorf("count %v, want %d", res.Rows[0][0], want)
			}
			db.Close()
			if after := listDir(t, filepath.Dir(path)); after != before {
				t.Errorf("the folder changed:\n%s\nwas\n%s", after, before)
			}
			if left := snapshotDirs(t, filepath.Join(area, "data", "snapshots")); len(left) > 0 {
				t.Errorf("Close left snapshot folders behind: %s", left)
			}
		})
	}
}

// TestSnapshotCopySparse: copyFile gives the same bytes, holes and
// explicit zeros included, and writes only the blocks that hold data.
func TestSnapshotCopySparse(t *testing.T) {
	for _, seek := range []bool{useSeekData, false} {
		t.Run(fmt.Sprintf("SEEK_DATA %v", seek), func(t *testing.T) {
			defer func(was bool) { useSeekData = was }(useSeekData)
			useSeekData = seek
			testCopySparse(t)
		})
	}
}

func testCopySparse(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	f, err := os.Create(src)
	if err != nil {
		t.Fatal(err)
	}
	data := func(n int, seed byte) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = seed + byte(i%251)
		}
		return b
	}
	f.WriteAt(data(5000, 1), 0)              // data, then a hole
	f.WriteAt(data(10000, 7), 20<<20+123)    // unaligned data in the middle
	f.WriteAt(make([]byte, 1<<20), 30<<20)   // zeros really written
	f.WriteAt(data(3, 9), 40<<20-3)          // data ending at the end
	f.WriteAt(data(4096, 11), 40<<20+4096*3) // after which a hole to the end
	if err := f.Truncate(64 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	dst := filepath.Join(dir, "dst")
	if err := copyFile(context.Background(), in, 64<<20, src, dst, dir); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(src)
	b, _ := os.ReadFile(dst)
	if !bytes.Equal(a, b) {
		t.Fatal("the copy differs")
	}
	st, _ := os.Stat(dst)
	if used := int64(st.Sys().(*syscall.Stat_t).Blocks) * 512; used > 256<<10 {
		t.Errorf("the copy of 23 kB of data in a 64 MB file takes %d bytes", used)
	}
}
