package export

import (
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"

	"querent/engine"
)

// tempFile is the file an export writes before it is renamed into place.
type tempFile struct {
	f    *os.File
	path string
}

// createTemp creates the temporary file beside target: the same folder (so
// that the rename is a rename, not a copy), a dotted name so that file
// managers hide it.
func createTemp(target string) (*tempFile, error) {
	dir, base := filepath.Split(target)
	var (
		f   *os.File
		err error
	)
	// Not os.CreateTemp, which makes the file private (0600): 0666 lets
	// the umask give the export the mode any new document gets.
	for range 100 {
		name := filepath.Join(dir, "."+base+"."+strconv.FormatUint(rand.Uint64(), 36)+".querent-tmp")
		f, err = os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return nil, engine.Errorf(engine.CodeExport, "cannot write in %s: %v", filepath.Clean(dir), err).
			WithHint("check the folder's permissions, or choose another folder").WithErr(err)
	}
	return &tempFile{f: f, path: f.Name()}, nil
}

// finish syncs and closes the file and returns its size.
func (t *tempFile) finish() (int64, error) {
	st, err := t.f.Stat()
	if err == nil {
		err = t.f.Sync()
	}
	if cerr := t.f.Close(); err == nil {
		err = cerr
	}
	t.f = nil
	if err != nil {
		return 0, writeError(err)
	}
	return st.Size(), nil
}

// discard closes and removes the file.
func (t *tempFile) discard() {
	if t.f != nil {
		_ = t.f.Close()
		t.f = nil
	}
	_ = os.Remove(t.path)
}

// commit moves the finished temporary file to target.
//
// With replace, it is os.Rename: atomic on POSIX systems (readers see the
// old file or the new one, never a mix). On Windows os.Rename is
// MoveFileEx(MOVEFILE_REPLACE_EXISTING), which replaces the file in one
// step on NTFS but fails while another program (Excel) holds the target
// open: the export then fails and the old file stays as it was.
//
// Without replace, it is a hard link to target, which fails atomically when
// target exists (no window where a file created meanwhile is overwritten),
// then the removal of the temporary name. Where hard links are not
// supported (FAT, some network shares), it falls back to checking that
// target does not exist and renaming, with a small race window.
//
// After the move the folder is synced where the system allows it, so that
// the new name survives a crash.
func commit(tmp, target string, replace bool) error {
	var err error
	if replace {
		err = os.Rename(tmp, target)
	} else {
		err = os.Link(tmp, target)
		switch {
		case err == nil:
			_ = os.Remove(tmp)
		case errors.Is(err, fs.ErrExist):
			return existsError(target)
		default:
			if _, serr := os.Lstat(target); serr == nil {
				return existsError(target)
			}
			err = os.Rename(tmp, target)
		}
	}
	if err != nil {
		return engine.Errorf(engine.CodeExport, "cannot move the export into place as %s: %v", target, err).
			WithHint("if another program has the file open, close it and try again").WithErr(err)
	}
	syncDir(filepath.Dir(target))
	return nil
}

// syncDir flushes a folder's entries to disk (POSIX); a no-op where
// folders cannot be synced (Windows).
func syncDir(dir string) {
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
