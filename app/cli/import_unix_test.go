//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// `querent import` on a named pipe says so at once instead of waiting for
// a writer forever, and leaves nothing behind.
func TestImportCommandFIFO(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "x.sqlite")
	for _, name := range []string{"pipe.csv", "pipe.xlsx"} {
		fifo := filepath.Join(dir, name)
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
		type result struct {
			code      int
			out, errs string
		}
		done := make(chan result, 1)
		go func() {
			code, out, errs := runImport(t, "import", "--db", db, "--format", "json", fifo)
			done <- result{code, out, errs}
		}()
		select {
		case r := <-done:
			if r.code != 1 || !strings.Contains(r.out, `"type": "import"`) || !strings.Contains(r.out, name+" is a named pipe") {
				t.Errorf("%s: exit %d, %s %s", name, r.code, r.out, r.errs)
			}
		case <-time.After(5 * time.Second):
			if f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				f.Close()
			}
			t.Fatalf("%s: querent import blocked on a named pipe", name)
		}
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Errorf("a failed import left %s", db)
	}
}
