package pgtest

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"
)

func TestStartStop(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := Start(ctx)
	if errors.Is(err, ErrNoServer) && !Required() {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	out, err := s.Psql(ctx, "postgres", "-c", "SHOW listen_addresses")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(out); got != "127.0.0.1" {
		t.Errorf("listen_addresses = %q, want 127.0.0.1", got)
	}
	dir := s.Dir
	s.Stop()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the cluster's folder %s is still there after Stop", dir)
	}
	s.Stop() // twice is fine
}
