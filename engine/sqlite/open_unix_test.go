//go:build unix

package sqlite

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"querent/engine"
)

// TestOpenUnreadable checks the message for a file the user may not read.
// Root reads everything, so under root (as in CI) the test runs itself again
// as the unprivileged user nobody.
func TestOpenUnreadable(t *testing.T) {
	if p := os.Getenv("QUERENT_UNREADABLE_FILE"); p != "" {
		checkUnreadable(t, p)
		return
	}
	dir, err := os.MkdirTemp("", "querent-unreadable-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "secret.db")
	b, _ := os.ReadFile(chinookPath)
	if err := os.WriteFile(path, b, 0o000); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() != 0 {
		checkUnreadable(t, path)
		return
	}
	exe := filepath.Join(dir, "sqlite.test")
	tb, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(exe, tb, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestOpenUnreadable$", "-test.count=1")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "QUERENT_UNREADABLE_FILE="+path, "HOME="+dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("as nobody: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "PASS") {
		t.Fatalf("as nobody, the test did not run:\n%s", out)
	}
}

func checkUnreadable(t *testing.T, path string) {
	_, err := Open(context.Background(), path, Options{})
	e := engine.AsError(err)
	if e == nil || e.Code != engine.CodeDatabase || !strings.Contains(e.Message, "permission denied") || e.Hint == "" {
		t.Fatalf("got %v, want a database error saying permission denied", err)
	}
}
