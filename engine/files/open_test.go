package files

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"querent/engine"
)

// TestOpenDatabaseRefusesWhatIsNotAFile: a folder, a FIFO (opened without
// blocking: no writer ever comes) and a missing file are refused with a
// database error that says what it is.
func TestOpenDatabaseRefusesWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	cases := map[string]string{dir: "folder", filepath.Join(dir, "missing.db"): "no such file"}
	if fifo := filepath.Join(dir, "fifo.db"); mkfifo(fifo) == nil {
		cases[fifo] = "named pipe"
	}
	for path, want := range cases {
		start := time.Now()
		f, _, err := OpenDatabase(path)
		if f != nil {
			f.Close()
		}
		if engine.ErrorCode(err) != engine.CodeDatabase || !strings.Contains(err.Error(), want) || engine.AsError(err).Hint == "" {
			t.Errorf("%s: %v, want a database error saying %q", path, err, want)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s: took %s", path, d)
		}
	}
	file := filepath.Join(dir, "a.db")
	os.WriteFile(file, []byte("x"), 0o644)
	f, st, err := OpenDatabase(file)
	if err != nil || st.Size() != 1 {
		t.Fatalf("%v %v", st, err)
	}
	f.Close()
}

// TestFileID: the identity follows the descriptor, not the path, and
// says how a state differs; the quick identity names the state.
func TestFileID(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.db")
	os.WriteFile(path, []byte("one"), 0o644)
	f, _, err := OpenDatabase(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	id, err := IDOf(f)
	if err != nil || id.Size != 3 {
		t.Fatalf("%+v %v", id, err)
	}
	q := Fingerprint(f, id)
	if !strings.HasPrefix(q, QuickPrefix) || len(q) != len(QuickPrefix)+64 || Fingerprint(f, id) != q {
		t.Errorf("quick identity %q", q)
	}
	// Replaced under its path: the descriptor still holds the first file.
	other := filepath.Join(dir, "b.db")
	os.WriteFile(other, []byte("other!"), 0o644)
	if err := os.Rename(other, path); err != nil {
		t.Fatal(err)
	}
	if now, _ := IDOf(f); id.Changed(now) != "" {
		t.Errorf("the open file changed: %s", id.Changed(now))
	}
	g, _, _ := OpenDatabase(path)
	defer g.Close()
	gid, _ := IDOf(g)
	if id.Changed(gid) != "it is another file now" || Fingerprint(g, gid) == q {
		t.Errorf("the new file: %q", id.Changed(gid))
	}
	// Written in place.
	time.Sleep(10 * time.Millisecond)
	if err := os.WriteFile(path, []byte("other?"), 0o644); err != nil {
		t.Fatal(err)
	}
	if now, _ := IDOf(g); gid.Changed(now) != "it was written to" {
		t.Errorf("written in place: %q", gid.Changed(now))
	}
	want := sha256.Sum256([]byte("other?"))
	if sum, err := HashFile(t.Context(), g, 6, nil); err != nil || sum != hex.EncodeToString(want[:]) {
		t.Errorf("%s %v", sum, err)
	}
}
