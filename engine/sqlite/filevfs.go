package sqlite

import (
	"errors"
	"io"
	"io/fs"
	"os"

	"modernc.org/sqlite/vfs"
)

// A database opened from a descriptor. SQLite opens files by name, and its
// unix VFS resolves every symbolic link of the name first: given
// /proc/self/fd/N it would open the file the link names now (or fail on
// one deleted), not the one the descriptor holds. So a file that Querent
// opened once (the query worker's, passed by its parent) is read through a
// read-only VFS over that descriptor (modernc's vfs over an fs.FS, the
// same one the embedded demo uses): however the path changes, SQLite reads
// the file that was checked, under its identity. Temporary files are never
// asked of it: temp_store is MEMORY.

// fileVFSName is the one name the file is known by in its VFS.
const fileVFSName = "db"

// fileFS is an fs.FS holding one open file.
type fileFS struct{ f *os.File }

func (s fileFS) Open(name string) (fs.File, error) {
	if name != fileVFSName {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return &preadFile{f: s.f}, nil
}

// preadFile reads an open file with ReadAt only: the descriptor is shared
// with the parent and the other workers, and a Seek on it would move
// their offset too. Closing it leaves the descriptor open (it is the
// caller's).
type preadFile struct {
	f   *os.File
	off int64
}

func (p *preadFile) Read(b []byte) (int, error) {
	n, err := p.f.ReadAt(b, p.off)
	p.off += int64(n)
	if n == len(b) && errors.Is(err, io.EOF) {
		err = nil
	}
	return n, err
}

func (p *preadFile) Seek(off int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		off += p.off
	default:
		return 0, errors.New("seek: only from the start or the current offset")
	}
	if off < 0 {
		return 0, errors.New("seek: negative offset")
	}
	p.off = off
	return off, nil
}

func (p *preadFile) Stat() (fs.FileInfo, error) { return p.f.Stat() }
func (p *preadFile) Close() error               { return nil }

// registerFileVFS registers a VFS that serves f as fileVFSName; close
// unregisters it once every connection through it is closed.
func registerFileVFS(f *os.File) (name string, close func() error, err error) {
	name, v, err := vfs.New(fileFS{f: f})
	if err != nil {
		return "", nil, err
	}
	return name, v.Close, nil
}
