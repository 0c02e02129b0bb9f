package sqlite

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"unsafe"
)

// lockSnapshotDir creates dir's lock file and keeps it open: Go opens files
// without FILE_SHARE_DELETE, so no other process can delete it (or the
// folder) until this one closes it or dies.
func lockSnapshotDir(dir string) (*os.File, error) {
	return os.OpenFile(filepath.Join(dir, snapshotLock), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
}

// reapSnapshotDir removes dir if its owner is gone, and says whether it did:
// deleting the lock file fails while its owner holds it open.
func reapSnapshotDir(dir string) (removed bool, err error) {
	err = os.Remove(filepath.Join(dir, snapshotLock))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// No lock yet, or its owner died before taking it: only an empty
		// folder is removed (an owner that is still making it retries).
		return os.Remove(dir) == nil, nil
	case err != nil:
		return false, nil // alive
	}
	if err := os.RemoveAll(dir); err != nil {
		return false, err
	}
	return true, nil
}

// checkPrivateDir checks that the root is a folder; the user's profile
// folders (%AppData%, %TEMP%) are private already.
func checkPrivateDir(dir string) error {
	st, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return fmt.Errorf("%s is not a folder", dir)
	}
	return nil
}

// allocatedBytes is the file's length: NTFS files are sparse only when made
// so on purpose.
func allocatedBytes(st fs.FileInfo) int64 { return st.Size() }

var procGetDiskFreeSpaceExW = syscall.NewLazyDLL("kernel32.dll").NewProc("GetDiskFreeSpaceExW")

// freeBytes is the space left to this user on dir's volume, or -1.
func freeBytes(dir string) int64 {
	p, err := syscall.UTF16PtrFromString(dir)
	if err != nil {
		return -1
	}
	var avail uint64
	if r, _, _ := procGetDiskFreeSpaceExW.Call(uintptr(unsafe.Pointer(p)), uintptr(unsafe.Pointer(&avail)), 0, 0); r == 0 {
		return -1
	}
	return int64(avail)
}

// nextData treats all of the file as data; copyFile's zero-block check
// keeps the copy sparse where the file system allows.
func nextData(f *os.File, off, size int64) (start, end int64, ok bool) {
	if off >= size {
		return 0, 0, false
	}
	return off, size, true
}
