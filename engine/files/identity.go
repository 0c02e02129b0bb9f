package files

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"querent/engine"
)

// DatabasePath returns db's file path when db is an engine.Filer, else "".
func DatabasePath(db any) string {
	if f, ok := db.(engine.Filer); ok {
		return f.Path()
	}
	return ""
}

// sqliteSidecars are the files SQLite keeps beside a database: its
// write-ahead log, its rollback journal and the log's shared-memory index.
// Writing any of them can lose or corrupt the database's changes.
var sqliteSidecars = []string{"-wal", "-journal", "-shm"}

// DatabaseFileRole says whether path is the database file at dbPath or one
// of the files SQLite keeps beside it: "" (neither), "database", or the
// sidecar's suffix ("-wal", "-journal", "-shm").
//
// Files are compared by identity (device and inode, or the Windows file
// ID, after following symlinks), so that a symlink, a hard link or a path
// through ".." that reaches the database is recognised whatever its name.
// A sidecar that does not exist yet is recognised by its folder (again by
// identity) and its name, because that is where SQLite would create it;
// the same goes for dbPath reached through a symlink, whose sidecars SQLite
// keeps beside the real file. dbPath "" (the demo) is no file.
func DatabaseFileRole(path, dbPath string) string {
	if path == "" || dbPath == "" {
		return ""
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return ""
	}
	bases := []string{dbPath}
	if real, err := filepath.EvalSymlinks(dbPath); err == nil && real != dbPath {
		bases = append(bases, real)
	}
	if st, err := os.Stat(abs); err == nil {
		for _, b := range bases {
			if sameAs(st, b) {
				return "database"
			}
			for _, s := range sqliteSidecars {
				if sameAs(st, b+s) {
					return s
				}
			}
		}
	}
	dir, name := filepath.Split(abs)
	dst, err := os.Stat(dir)
	if err != nil {
		return ""
	}
	for _, b := range bases {
		bdir, bname := filepath.Split(b)
		if !sameAs(dst, bdir) {
			continue
		}
		if sameName(name, bname) {
			return "database"
		}
		for _, s := range sqliteSidecars {
			if sameName(name, bname+s) {
				return s
			}
		}
	}
	return ""
}

// sameAs reports whether the file at path is st.
func sameAs(st os.FileInfo, path string) bool {
	other, err := os.Stat(path)
	return err == nil && os.SameFile(st, other)
}

// sameName compares two names in one folder as the platform's usual file
// systems do: ignoring case on Windows and macOS.
func sameName(a, b string) bool {
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" {
		return strings.EqualFold(a, b)
	}
	return a == b
}
