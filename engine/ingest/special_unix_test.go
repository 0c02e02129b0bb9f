//go:build unix

package ingest

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"querent/engine"
)

// Inputs that are not regular files are refused before they are opened:
// opening a FIFO for reading blocks until a writer comes, forever.
func TestNotRegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.csv")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	fifoX := filepath.Join(dir, "pipe.xlsx")
	if err := syscall.Mkfifo(fifoX, 0o600); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "s.csv")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	regular := writeFile(t, "data.csv", []byte("a,b\n1,2\n"))
	link := filepath.Join(dir, "link.csv")
	if err := os.Symlink(regular, link); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path string
		want []string
	}{
		{fifo, []string{"pipe.csv", "named pipe"}},
		{fifoX, []string{"pipe.xlsx", "named pipe"}},
		{sock, []string{"s.csv", "socket"}},
		{"/dev/null", []string{"null", "device"}},
		{dir, []string{"folder"}},
	}
	for _, tt := range tests {
		done := make(chan *errHolder, 1)
		go func() {
			_, err := Read(context.Background(), tt.path, Options{})
			done <- &errHolder{err}
		}()
		select {
		case h := <-done:
			if h.err == nil {
				t.Errorf("%s: no error", tt.path)
				continue
			}
			var e *engine.Error
			if !errors.As(h.err, &e) {
				t.Errorf("%s: error %T %v is not an *engine.Error", tt.path, h.err, h.err)
				continue
			}
			wantImportError(t, e, tt.want...)
		case <-time.After(5 * time.Second):
			// Unblock the reader so that the test binary can end.
			if f, err := os.OpenFile(tt.path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				f.Close()
			}
			t.Fatalf("%s: Read blocked", tt.path)
		}
	}
	// A link to a regular file is fine.
	if _, err := Read(context.Background(), link, Options{}); err != nil {
		t.Errorf("a symlink to a regular file: %v", err)
	}
}

type errHolder struct{ err error }
