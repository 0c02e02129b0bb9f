package files_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"querent/engine/files"
)

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.json")
	if err := files.WriteFileAtomic(p, []byte("one"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := files.WriteFileAtomic(p, []byte("two"), 0o600); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	st, _ := os.Stat(p)
	if string(b) != "two" || (runtime.GOOS != "windows" && st.Mode().Perm() != 0o600) {
		t.Errorf("%q %v", b, st.Mode())
	}
	// A folder that does not exist: an error, and nothing left behind.
	if err := files.WriteFileAtomic(filepath.Join(dir, "none", "b.json"), []byte("x"), 0o644); err == nil {
		t.Error("no error for a missing folder")
	}
	// A path that is a folder: the rename fails and the temporary file goes.
	os.Mkdir(filepath.Join(dir, "d"), 0o755)
	if err := files.WriteFileAtomic(filepath.Join(dir, "d"), []byte("x"), 0o644); err == nil {
		t.Error("no error for a folder")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("left behind: %v", entries)
	}
}

// An AtomicFile never overwrites a target that exists unless told to,
// and leaves nothing behind when discarded.
func TestAtomicFileCommit(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.csv")
	write := func(data string) *files.AtomicFile {
		a, err := files.CreateAtomic(p, 0o666)
		if err != nil {
			t.Fatal(err)
		}
		a.File().WriteString(data)
		if n, err := a.Finish(); err != nil || n != int64(len(data)) {
			t.Fatalf("finish: %d %v", n, err)
		}
		return a
	}
	if err := write("one").Commit(false); err != nil {
		t.Fatal(err)
	}
	a := write("two")
	if err := a.Commit(false); !errors.Is(err, fs.ErrExist) {
		t.Errorf("over an existing file: %v", err)
	}
	a.Discard()
	if err := write("three").Commit(true); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "three" {
		t.Errorf("%q", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("left behind: %v", entries)
	}
}
