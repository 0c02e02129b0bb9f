package files

import (
	"errors"
	"io/fs"
	"os"

	"querent/engine"
)

// OpenDatabase opens the file at path for reading, once, and checks what
// was opened (the descriptor, not the path): a folder, a FIFO, a device or
// a socket is refused. The open never blocks: a FIFO swapped in for the
// file between a check by name and the open would otherwise wait for a
// writer that never comes (the red team blocked a 2 s query for 60 s that
// way). Every failure is an *engine.Error with code "database" that says
// what to do. The caller reads the file with ReadAt only: the descriptor
// is shared with the query workers, and a Seek would move their offset.
func OpenDatabase(path string) (*os.File, fs.FileInfo, error) {
	f, err := OpenNoBlock(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil, dbError(path, "no such file").WithHint("check the path (a relative path starts from %s)", cwd())
	case errors.Is(err, fs.ErrPermission):
		return nil, nil, dbError(path, "permission denied: you may not read this file").WithHint(
			"ask for read access to the file and its folders, or copy it somewhere you can read")
	case err != nil:
		return nil, nil, dbError(path, "cannot read: %v", err).WithErr(err).WithHint("check the path and that the disk is available")
	}
	st, err := f.Stat()
	switch {
	case err != nil:
		f.Close()
		return nil, nil, dbError(path, "cannot read: %v", err).WithErr(err).WithHint("check that the disk is available")
	case st.IsDir():
		f.Close()
		return nil, nil, dbError(path, "this is a folder, not a database file").WithHint("choose a .sqlite or .db file inside it")
	case !st.Mode().IsRegular():
		f.Close()
		return nil, nil, dbError(path, "this is not a regular file (%s)", kindOf(st.Mode())).WithHint("choose a .sqlite or .db file")
	}
	return f, st, nil
}

// kindOf names a file type that is not a regular file.
func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "not a file"
}

func dbError(shown, format string, args ...any) *engine.Error {
	e := engine.Errorf(engine.CodeDatabase, format, args...)
	if shown != "" {
		e.Message = shown + ": " + e.Message
	}
	return e
}

func cwd() string {
	d, err := os.Getwd()
	if err != nil {
		return "the current folder"
	}
	return d
}
