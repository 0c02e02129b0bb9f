//go:build linux || darwin || freebsd

package sqlite

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
)

// lockSnapshotDir creates dir's lock file and takes an exclusive flock on
// it, which the kernel drops when this process dies however it dies.
func lockSnapshotDir(dir string) (*os.File, error) {
	p := filepath.Join(dir, snapshotLock)
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, errLockLost
	}
	// A cleaner may have locked the new file before this process did, found
	// it free and removed the folder: then the path names no file, or
	// another one.
	if !namesFile(p, f) {
		f.Close()
		return nil, errLockLost
	}
	return f, nil
}

// reapSnapshotDir removes dir if its owner is gone, and says whether it did.
func reapSnapshotDir(dir string) (removed bool, err error) {
	p := filepath.Join(dir, snapshotLock)
	f, err := os.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		// No lock yet: the owner is between making the folder and locking
		// it (and retries if the folder goes), or died there before copying
		// anything. Only an empty folder is removed.
		return os.Remove(dir) == nil, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return false, nil // alive
		}
		return false, fmt.Errorf("lock %s: %w", p, err)
	}
	if !namesFile(p, f) {
		return false, nil // another cleaner got there first
	}
	// Removed while the lock is held, so no other cleaner works on it.
	if err := os.RemoveAll(dir); err != nil {
		return false, err
	}
	return true, nil
}

// namesFile reports whether path still names the open file f.
func namesFile(path string, f *os.File) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Stat(path)
	return err == nil && os.SameFile(a, b)
}

// checkPrivateDir refuses a snapshot root that another user owns (one made
// in advance in a shared temporary folder) and makes ours 0700.
func checkPrivateDir(dir string) error {
	st, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return fmt.Errorf("%s is not a folder", dir)
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok && int(sys.Uid) != os.Getuid() {
		return fmt.Errorf("%s belongs to another user", dir)
	}
	if st.Mode().Perm()&0o077 != 0 {
		return os.Chmod(dir, 0o700)
	}
	return nil
}

// allocatedBytes is the disk a file really takes: its allocated blocks,
// which for a sparse file are far fewer than its length.
func allocatedBytes(st fs.FileInfo) int64 {
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		return min(st.Size(), int64(sys.Blocks)*512)
	}
	return st.Size()
}

// freeBytes is the space left to this user on dir's file system, or -1.
func freeBytes(dir string) int64 {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return -1
	}
	return int64(uint64(st.Bavail) * uint64(st.Bsize))
}

// Linux's lseek whence values for finding data and holes.
const (
	seekData = 3
	seekHole = 4
)

// useSeekData: only Linux's values are used (macOS numbers them the other
// way round); a test turns it off to check the plain path.
var useSeekData = runtime.GOOS == "linux"

// nextData returns the first run of data in f at or after off and before
// size, skipping the holes the file system reports (Linux SEEK_DATA and
// SEEK_HOLE; elsewhere, or where the file system cannot tell, all of it is
// data and copyFile's zero-block check keeps the copy sparse).
func nextData(f *os.File, off, size int64) (start, end int64, ok bool) {
	if off >= size {
		return 0, 0, false
	}
	if !useSeekData {
		return off, size, true
	}
	start, err := f.Seek(off, seekData)
	if errors.Is(err, syscall.ENXIO) {
		return 0, 0, false // only a hole from off to the end
	}
	if err != nil {
		return off, size, true
	}
	if start >= size {
		return 0, 0, false
	}
	end, err = f.Seek(start, seekHole)
	if err != nil || end > size {
		end = size
	}
	return start, end, true
}
