package sqlite

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"querent/engine"
	"querent/engine/files"
)

// A private snapshot is a copy of the user's file and of the sidecar SQLite
// would apply to it (-wal or hot -journal), folded together in a folder of
// Querent's own, so that the changes another program left are shown without
// writing anything beside the user's file. Three things keep it cheap and
// clean:
//   - only what SQLite would use is copied: the WAL's valid frames up to the
//     last commit, a journal's plausible length (snapshot_sidecar.go);
//   - copies are sparse: holes and all-zero blocks are not written, so a
//     4 GB file that takes no disk gives a copy that takes none either, and
//     the total is checked against the free space first;
//   - each snapshot lives in its own folder under a root, with a lock that
//     its owner holds while alive: a crash (SIGKILL included) strands the
//     folder only until the next open, which removes folders whose owner is
//     gone (CleanStaleSnapshots).

const (
	snapshotPrefix = "snap-"       // names of the folders Querent makes under the root
	snapshotLock   = "lock"        // the lock file inside each
	snapshotFile   = "snapshot.db" // the copy of the user's file
)

// afterSnapshotCopy, when set (by tests), is called with the folder once the
// files are copied and before SQLite folds them together: the moment the
// folder holds the most.
var afterSnapshotCopy func(dir string)

// freeSpace is freeBytes, replaced in tests.
var freeSpace = freeBytes

// DefaultSnapshotRoot is where snapshots go when Options.SnapshotRoot is
// empty: "snapshots" in Querent's data folder (files.DataDir), else a
// per-user folder in the temporary folder.
func DefaultSnapshotRoot() string {
	if d, err := files.DataDir(); err == nil {
		return filepath.Join(d, "snapshots")
	}
	return tempSnapshotRoot()
}

func tempSnapshotRoot() string {
	name := "querent-snapshots"
	if uid := os.Getuid(); uid >= 0 { // -1 on Windows, whose temporary folder is per user already
		name += "-" + strconv.Itoa(uid)
	}
	return filepath.Join(os.TempDir(), name)
}

// snapshots holds the lock of every snapshot this process made and has not
// released, by folder.
var snapshots = struct {
	sync.Mutex
	locks map[string]*os.File
}{locks: map[string]*os.File{}}

// MakeSnapshot makes a private snapshot of the SQLite file at path when a
// -wal or hot -journal beside it holds changes that SQLite would apply (a
// connection opened with immutable=1 ignores both). It first removes the
// snapshots under root that a dead process left (CleanStaleSnapshots).
// root "" means DefaultSnapshotRoot().
//
// With a snapshot, dir is its folder (pass it to ReleaseSnapshot when done;
// until then this process holds its lock), copyPath the copy to open with
// immutable=1 (a plain file: another process may open it), and warning says
// what the user should know. Without one (nothing beside the file, or a
// sidecar SQLite would ignore), dir is "", copyPath is path made absolute,
// and warning may still explain an ignored sidecar. Neither the file nor
// its folder is written.
func MakeSnapshot(ctx context.Context, root, path string) (dir, copyPath, warning string, err error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", "", "", dbError(path, "cannot resolve the path: %v", err).WithErr(err).WithHint("check the path")
	}
	in, _, err := files.OpenDatabase(abs)
	if err != nil {
		return "", "", "", err
	}
	defer in.Close()
	return MakeSnapshotOf(ctx, root, abs, in)
}

// MakeSnapshotOf is MakeSnapshot of the file at path that the caller
// already opened as in: the copy is made of what in holds (read with
// ReadAt), whatever the path names now; the sidecars are found by name
// beside path, since that is where SQLite keeps them.
func MakeSnapshotOf(ctx context.Context, root, path string, in *os.File) (dir, copyPath, warning string, err error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", "", "", dbError(path, "cannot resolve the path: %v", err).WithErr(err).WithHint("check the path")
	}
	roots := []string{root}
	if root == "" {
		roots = []string{DefaultSnapshotRoot(), tempSnapshotRoot()}
	}
	// A ReadDir of a folder that is usually missing or empty, on the path
	// every open takes: what a killed process stranded goes at the next open.
	for _, r := range roots {
		_, _ = CleanStaleSnapshots(r)
	}
	side, note, err := pendingSidecar(ctx, abs)
	if err != nil || side.path == "" {
		return "", abs, note, err
	}
	st, err := in.Stat()
	if err != nil {
		return "", "", "", dbError(abs, "cannot read: %v", err).WithErr(err).WithHint("check the disk")
	}
	need := allocatedBytes(st) + side.need + 1<<20
	root, err = snapshotRoot(roots)
	if err != nil {
		return "", "", "", dbError(abs, "cannot make a private snapshot: %v", err).WithErr(err).WithHint(
			"check that Querent may write in %s, or choose another folder for snapshots", roots[0])
	}
	if free := freeSpace(root); free >= 0 && need > free {
		return "", "", "", dbError("", "not enough free space in %s for a private snapshot of %s (%s needed)", root, abs, humanBytes(need)).WithHint(
			"free some space on that disk: the snapshot lasts only while the file is open")
	}
	dir, lock, err := newSnapshotDir(root)
	if err != nil {
		return "", "", "", dbError(abs, "cannot make a private snapshot in %s: %v", root, err).WithErr(err).WithHint("check that Querent may write there")
	}
	defer func() {
		if err != nil {
			lock.Close()
			os.RemoveAll(dir)
		}
	}()
	copyPath = filepath.Join(dir, snapshotFile)
	if err := copyFile(ctx, in, st.Size(), abs, copyPath, root); err != nil {
		return "", "", "", err
	}
	if err := copySidecar(ctx, side, copyPath+side.suffix, root); err != nil {
		return "", "", "", err
	}
	if afterSnapshotCopy != nil {
		afterSnapshotCopy(dir)
	}
	if err := fold(ctx, abs, copyPath, side.suffix); err != nil {
		return "", "", "", err
	}
	snapshots.Lock()
	snapshots.locks[dir] = lock
	snapshots.Unlock()
	warning = fmt.Sprintf("%s holds changes that are not yet in the main file (another program may have it open); "+
		"Querent is reading a private snapshot that includes them, taken at %s, and has not touched either file",
		filepath.Base(side.path), time.Now().Format("15:04:05"))
	if note != "" {
		warning = note + "; " + warning
	}
	return dir, copyPath, warning, nil
}

// ReleaseSnapshot gives up a snapshot made by MakeSnapshot in this process
// and removes its folder. Any connection to the copy must be closed first.
// A folder that is not such a snapshot is left alone.
func ReleaseSnapshot(dir string) error {
	snapshots.Lock()
	lock := snapshots.locks[dir]
	delete(snapshots.locks, dir)
	snapshots.Unlock()
	if lock == nil {
		return fmt.Errorf("%s is not a snapshot held by this process", dir)
	}
	// Closed first: on Windows the open lock file is what keeps the folder.
	lock.Close()
	return os.RemoveAll(dir)
}

// CleanStaleSnapshots removes the snapshot folders under root whose owner is
// gone (its lock can be taken: on Unix an flock that died with its process,
// on Windows a file no process holds open) and reports how many it removed.
// A live snapshot's folder, in this process or another, is never removed;
// nor is anything under root that MakeSnapshot did not make. A missing root
// is not an error.
func CleanStaleSnapshots(root string) (removed int, err error) {
	entries, err := os.ReadDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), snapshotPrefix) {
			continue
		}
		dir := filepath.Join(root, e.Name())
		snapshots.Lock()
		_, ours := snapshots.locks[dir]
		snapshots.Unlock()
		if ours {
			continue
		}
		gone, rerr := reapSnapshotDir(dir)
		if gone {
			removed++
		}
		if rerr != nil && err == nil {
			err = rerr
		}
	}
	return removed, err
}

// snapshotRoot makes the first root that can be made, private to this user:
// a folder another user made (say in a shared /tmp) is refused.
func snapshotRoot(roots []string) (string, error) {
	var first error
	for _, r := range roots {
		err := os.MkdirAll(r, 0o700)
		if err == nil {
			err = checkPrivateDir(r)
		}
		if err == nil {
			return r, nil
		}
		if first == nil {
			first = err
		}
	}
	return "", first
}

// newSnapshotDir makes a fresh folder under root and takes its lock. A
// cleaner in another process may remove the folder between the two steps
// (an empty folder without a lock looks abandoned); then it tries again.
func newSnapshotDir(root string) (dir string, lock *os.File, err error) {
	for range 5 {
		dir, err = os.MkdirTemp(root, snapshotPrefix+"*")
		if err != nil {
			return "", nil, err
		}
		lock, err = lockSnapshotDir(dir)
		if err == nil {
			return dir, lock, nil
		}
		os.RemoveAll(dir)
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, errLockLost) {
			return "", nil, err
		}
	}
	return "", nil, err
}

// errLockLost: a cleaner took the lock of a folder being made.
var errLockLost = errors.New("the snapshot folder was taken by a cleaner")

// sidecar is the -wal or -journal a snapshot copies, and how much of it.
type sidecar struct {
	path   string // "" when SQLite would apply neither
	suffix string // "-wal" or "-journal"
	size   int64  // bytes to copy
	// need is the disk the copy and the fold may take: the copy is sparse,
	// and folding writes each page it holds at most once more.
	need int64
}

// pendingSidecar finds the -wal or hot -journal beside path that SQLite
// would apply to it, and how much of it. A -wal whose header SQLite would
// reject adds nothing and a note for the user; one whose frames all fail,
// or that has no commit frame, adds nothing silently (a writer that has
// just restarted its log, or is inside its first transaction): the main
// file alone is then what SQLite would show, and it needs no snapshot.
// Likewise a -journal without a hot header (a committed PERSIST journal).
func pendingSidecar(ctx context.Context, path string) (side sidecar, note string, err error) {
	if f, err := openSidecar(path + "-wal"); err != nil {
		return side, "", err
	} else if f != nil {
		s, err := scanWAL(ctx, bufio.NewReaderSize(f, 1<<20), -1, nil)
		f.Close()
		if err != nil {
			return side, "", sidecarReadError(path+"-wal", err)
		}
		switch {
		case !s.headerOK:
			note = fmt.Sprintf("%s is not a write-ahead log SQLite would read (it may be damaged); "+
				"SQLite ignores such a file, and so did Querent: this is the main file alone", filepath.Base(path)+"-wal")
		case s.committed > 0:
			// Each committed frame is really on disk (a hole fails its
			// checksum), but its page may be zeros the copy leaves as a
			// hole while the checkpoint writes it whole: count it twice.
			return sidecar{path: path + "-wal", suffix: "-wal", size: s.end, need: 2 * s.end}, "", nil
		}
	}
	if f, err := openSidecar(path + "-journal"); err != nil {
		return side, note, err
	} else if f != nil {
		head, err := readHead(f, 28)
		st, serr := f.Stat()
		f.Close()
		if err == nil {
			err = serr
		}
		if err != nil {
			return side, note, dbError(path+"-journal", "cannot read: %v", err).WithErr(err).WithHint("check that you may read the file")
		}
		if limit, hot := journalBound(head, st.Size()); hot {
			// A hole in a journal is no record (page number 0 ends the
			// rollback), so what it really holds bounds the copy and the
			// pages rolled back.
			onDisk := min(limit, allocatedBytes(st))
			return sidecar{path: path + "-journal", suffix: "-journal", size: limit, need: 2 * onDisk}, note, nil
		}
	}
	return side, note, nil
}

// openSidecar opens the -wal or -journal at path without blocking (a FIFO
// put there cannot hold up the open) and returns it when it is a regular
// file with something in it; nil, nil when there is none to read.
func openSidecar(path string) (*os.File, error) {
	f, err := files.OpenNoBlock(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, dbError(path, "cannot read: %v", err).WithErr(err).WithHint("check that you may read the file")
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() || st.Size() == 0 {
		f.Close()
		return nil, nil
	}
	return f, nil
}

func sidecarReadError(path string, err error) error {
	if e := engine.AsError(err); e != nil && e.Code != engine.CodeInternal {
		return e // cancelled or timed out
	}
	return dbError(path, "cannot read: %v", err).WithErr(err).WithHint("check the disk")
}

// copySidecar copies what SQLite would use of the sidecar: for a WAL, the
// header and the committed frames, checked again as they are copied (the
// writer may have moved on since the first pass); for a journal, its first
// side.size bytes.
func copySidecar(ctx context.Context, side sidecar, dst, root string) error {
	in, err := openSidecar(side.path)
	if err != nil {
		return err
	}
	if in == nil {
		return dbError(side.path, "the file went away while Querent read it").WithHint("open the database again")
	}
	defer in.Close()
	if side.suffix != "-wal" {
		return copyFile(ctx, in, side.size, side.path, dst, root)
	}
	out, err := createCopy(side.path, dst, root)
	if err != nil {
		return err
	}
	defer out.f.Close()
	s, err := scanWAL(ctx, bufio.NewReaderSize(in, 1<<20), side.size, out)
	if err != nil {
		return copyError(side.path, root, err)
	}
	// Cut after the last commit copied: the tail of a frame that failed
	// this time, or the zero blocks at the end that were not written.
	if err := out.f.Truncate(s.end); err != nil {
		return copyError(side.path, root, err)
	}
	return closeCopy(side.path, root, out)
}

// copyFile copies the first n bytes of in (src) to the new file dst,
// sparsely: the holes the file system reports (Linux) are not read, and
// all-zero blocks are not written, so the copy takes no more disk than the
// data really in the file. ctx is checked between chunks.
func copyFile(ctx context.Context, in *os.File, n int64, src, dst, root string) error {
	out, err := createCopy(src, dst, root)
	if err != nil {
		return err
	}
	defer out.f.Close()
	buf := make([]byte, 1<<20)
	for off := int64(0); off < n; {
		start, end, ok := nextData(in, off, n)
		if !ok {
			break
		}
		for off = start; off < end; {
			if err := ctx.Err(); err != nil {
				return engine.AsError(err)
			}
			m, rerr := in.ReadAt(buf[:min(int64(len(buf)), end-off)], off)
			if m > 0 {
				if _, werr := out.WriteAt(buf[:m], off); werr != nil {
					return copyError(src, root, werr)
				}
				off += int64(m)
			}
			if rerr == io.EOF {
				n = off // the file shrank while it was copied
				break
			}
			if rerr != nil {
				return dbError(src, "cannot read: %v", rerr).WithErr(rerr).WithHint("check the disk")
			}
		}
	}
	if err := out.f.Truncate(n); err != nil {
		return copyError(src, root, err)
	}
	return closeCopy(src, root, out)
}

// sparseFile writes a new file, leaving the file system blocks that would
// hold only zeros unwritten, so that they stay holes (and read as zeros).
type sparseFile struct {
	f       *os.File
	written int64
}

const sparseBlock = 4096

var zeroBlock [sparseBlock]byte

// WriteAt writes the runs of p that are not all-zero blocks (by file
// offset) at off. The file must be new: what is not written reads as zeros.
func (w *sparseFile) WriteAt(p []byte, off int64) (int, error) {
	start := -1
	flush := func(i, j int) error {
		_, err := w.f.WriteAt(p[i:j], off+int64(i))
		w.written += int64(j - i)
		return err
	}
	for i := 0; i < len(p); {
		j := min(len(p), i+int(sparseBlock-(off+int64(i))%sparseBlock))
		zero := bytes.Equal(p[i:j], zeroBlock[:j-i])
		if !zero && start < 0 {
			start = i
		}
		if zero && start >= 0 {
			if err := flush(start, i); err != nil {
				return 0, err
			}
			start = -1
		}
		i = j
	}
	if start >= 0 {
		if err := flush(start, len(p)); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

func createCopy(src, dst, root string) (*sparseFile, error) {
	f, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, copyError(src, root, err)
	}
	return &sparseFile{f: f}, nil
}

func closeCopy(src, root string, out *sparseFile) error {
	if err := out.f.Close(); err != nil {
		return copyError(src, root, err)
	}
	return nil
}

func copyError(src, root string, err error) error {
	if e := engine.AsError(err); e != nil && e.Code != engine.CodeInternal {
		return e
	}
	return dbError(src, "cannot make a private snapshot: %v", err).WithErr(err).WithHint("free some disk space in %s", root)
}

// fold lets SQLite apply the sidecar to the copy (WAL checkpoint, or the
// rollback of a hot journal) and leaves a plain rollback-mode file that an
// immutable connection reads whole.
func fold(ctx context.Context, shown, copyPath, suffix string) error {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(copyPath)}
	if !strings.HasPrefix(u.Path, "/") {
		u.Path = "/" + u.Path
	}
	q := url.Values{}
	q.Add("_pragma", "trusted_schema(0)")
	u.RawQuery = q.Encode()
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		return openError(shown, err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	// Reading the schema replays the WAL or rolls back the hot journal.
	var n int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&n); err != nil {
		return openError(shown, err)
	}
	if suffix == "-wal" {
		if _, err := db.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
			return openError(shown, err)
		}
		var mode string
		if err := db.QueryRowContext(ctx, "PRAGMA journal_mode=DELETE").Scan(&mode); err != nil {
			return openError(shown, err)
		}
	}
	if err := db.Close(); err != nil {
		return openError(shown, err)
	}
	return nil
}

// sqliteMessage returns SQLite's own message from a driver error, without the
// driver's "SQL logic error: " prefix and " (1)" suffix.
func sqliteMessage(err error) string {
	if err == nil {
		return ""
	}
	var be *bulkError
	if errors.As(err, &be) {
		return be.msg
	}
	s := err.Error()
	if i := strings.LastIndex(s, " ("); i > 0 && strings.HasSuffix(s, ")") {
		if _, scanErr := fmt.Sscanf(s[i+2:len(s)-1], "%d", new(int)); scanErr == nil {
			s = s[:i]
		}
	}
	for _, prefix := range []string{"SQL logic error: ", "not authorized: ", "string or blob too big: ",
		"interrupted: ", "database disk image is malformed: ", "file is not a database: ", "out of memory: ",
		"unable to open database file: ", "disk I/O error: ", "attempt to write a readonly database: "} {
		if strings.HasPrefix(s, prefix) && len(s) > len(prefix) {
			return s[len(prefix):]
		}
	}
	return s
}
