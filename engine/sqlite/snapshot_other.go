//go:build !linux && !darwin && !freebsd && !windows

package sqlite

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// On the other systems no lock tells a live owner from a dead one here, so
// CleanStaleSnapshots removes nothing: a crash strands its snapshot in the
// private root rather than risk removing a live one.

func lockSnapshotDir(dir string) (*os.File, error) {
	return os.OpenFile(filepath.Join(dir, snapshotLock), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
}

func reapSnapshotDir(dir string) (removed bool, err error) { return false, nil }

func checkPrivateDir(dir string) error {
	st, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return fmt.Errorf("%s is not a folder", dir)
	}
	if st.Mode().Perm()&0o077 != 0 {
		return os.Chmod(dir, 0o700)
	}
	return nil
}

func allocatedBytes(st fs.FileInfo) int64 { return st.Size() }

func freeBytes(dir string) int64 { return -1 }

func nextData(f *os.File, off, size int64) (start, end int64, ok bool) {
	if off >= size {
		return 0, 0, false
	}
	return off, size, true
}
