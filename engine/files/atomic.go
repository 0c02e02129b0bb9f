package files

import (
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
)

// AtomicFile is a file written under a temporary name beside its target
// and moved into place once whole, so that a reader never sees half a file
// and a failure leaves the old file (or none) behind: Querent's own data
// (WriteFileAtomic) and the exports (engine/export).
type AtomicFile struct {
	f      *os.File
	target string
}

// CreateAtomic creates the temporary file of target: in the same folder (so
// that the move is a rename, not a copy), with a dotted name so that file
// managers hide it, with mode perm before the umask (0o666 gives a
// document the mode any new document gets). The folder must exist.
func CreateAtomic(target string, perm os.FileMode) (*AtomicFile, error) {
	dir, base := filepath.Split(target)
	var (
		f   *os.File
		err error
	)
	// Not os.CreateTemp, which makes the file private (0600) whatever perm.
	for range 100 {
		name := filepath.Join(dir, "."+base+"."+strconv.FormatUint(rand.Uint64(), 36)+".querent-tmp")
		f, err = os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return nil, err
	}
	return &AtomicFile{f: f, target: target}, nil
}

// File is the temporary file, to write.
func (a *AtomicFile) File() *os.File { return a.f }

// Name is the temporary file's path.
func (a *AtomicFile) Name() string { return a.f.Name() }

// Finish syncs and closes the file and returns its size.
func (a *AtomicFile) Finish() (int64, error) {
	st, err := a.f.Stat()
	if err == nil {
		err = a.f.Sync()
	}
	if cerr := a.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, err
	}
	return st.Size(), nil
}

// Discard closes and removes the temporary file (after Finish too: what
// was not committed goes).
func (a *AtomicFile) Discard() {
	_ = a.f.Close()
	_ = os.Remove(a.f.Name())
}

// Commit moves the finished temporary file to the target.
//
// With replace, it is os.Rename: atomic on POSIX systems (readers see the
// old file or the new one, never a mix). On Windows os.Rename is
// MoveFileEx(MOVEFILE_REPLACE_EXISTING), which replaces the file in one
// step on NTFS but fails while another program (Excel) holds the target
// open: the caller then fails and the old file stays as it was.
//
// Without replace, it is a hard link to the target, which fails atomically
// when the target exists (no window where a file created meanwhile is
// overwritten), then the removal of the temporary name. Where hard links
// are not supported (FAT, some network shares), it falls back to checking
// that the target does not exist and renaming, with a small race window.
// A target that exists is an error that is fs.ErrExist.
//
// After the move the folder is synced where the system allows it, so that
// the new name survives a crash.
func (a *AtomicFile) Commit(replace bool) error {
	tmp := a.f.Name()
	var err error
	if replace {
		err = os.Rename(tmp, a.target)
	} else {
		err = os.Link(tmp, a.target)
		switch {
		case err == nil:
			_ = os.Remove(tmp)
		case errors.Is(err, fs.ErrExist):
			return err
		default:
			if _, serr := os.Lstat(a.target); serr == nil {
				return &fs.PathError{Op: "link", Path: a.target, Err: fs.ErrExist}
			}
			err = os.Rename(tmp, a.target)
		}
	}
	if err != nil {
		return err
	}
	SyncDir(filepath.Dir(a.target))
	return nil
}

// SyncDir flushes a folder's entries to disk (POSIX); a no-op where
// folders cannot be synced (Windows).
func SyncDir(dir string) {
	if runtime.GOOS == "windows" {
		return
	}
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	_ = d.Sync()
	_ = d.Close()
}

// WriteFileAtomic writes data to path through an AtomicFile, synced and
// renamed into place. perm is the new file's mode, exactly (0o600 for
// Querent's own data, 0o644 for files the user names). The folder must
// exist.
func WriteFileAtomic(path string, data []byte, perm os.FileMode) error {
	a, err := CreateAtomic(path, 0o600)
	if err != nil {
		return err
	}
	_, err = a.f.Write(data)
	if err == nil {
		err = a.f.Chmod(perm)
	}
	if err == nil {
		_, err = a.Finish()
	}
	if err == nil {
		err = a.Commit(true)
	}
	if err != nil {
		a.Discard()
	}
	return err
}
