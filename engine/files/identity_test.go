package files

import (
	"os"
	"path/filepath"
	"testing"
)

func TestDatabaseFileRole(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "data.sqlite")
	os.WriteFile(db, []byte("SQLite format 3\x00"), 0o644)
	os.WriteFile(db+"-journal", nil, 0o644)
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	other := filepath.Join(dir, "other.sqlite")
	os.WriteFile(other, []byte("SQLite format 3\x00"), 0o644)
	links := os.Symlink(db, filepath.Join(dir, "link.csv")) == nil &&
		os.Symlink(dir, filepath.Join(dir, "dirlink")) == nil
	hard := os.Link(db, filepath.Join(dir, "hard.csv")) == nil
	tests := []struct {
		path, want string
		needs      bool // needs links
	}{
		{db, "database", true},
		{filepath.Join(dir, "sub", "..", "data.sqlite"), "database", true},
		{filepath.Join(dir, "link.csv"), "database", links},
		{filepath.Join(dir, "dirlink", "data.sqlite"), "database", links},
		{filepath.Join(dir, "dirlink", "data.sqlite-wal"), "-wal", links},
		{filepath.Join(dir, "hard.csv"), "database", hard},
		{db + "-journal", "-journal", true},
		{db + "-wal", "-wal", true}, // not there yet
		{db + "-shm", "-shm", true},
		{other, "", true},
		{filepath.Join(dir, "new.csv"), "", true},
		{filepath.Join(dir, "sub", "data.sqlite"), "", true},
		{filepath.Join(dir, "nope", "data.sqlite"), "", true},
	}
	for _, tt := range tests {
		if !tt.needs {
			continue
		}
		if got := DatabaseFileRole(tt.path, db); got != tt.want {
			t.Errorf("DatabaseFileRole(%s) = %q, want %q", tt.path, got, tt.want)
		}
	}
	if got := DatabaseFileRole(db, ""); got != "" {
		t.Errorf("the demo (no path): %q", got)
	}
	// The database opened through a symlink: its sidecars are beside the
	// real file.
	if links {
		if got := DatabaseFileRole(db+"-wal", filepath.Join(dir, "link.csv")); got != "-wal" {
			t.Errorf("through a symlink: %q, want -wal", got)
		}
	}
}
