package cli

import (
	"context"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// exits records the calls of OnSignals' exit.
type exits struct {
	mu    sync.Mutex
	codes []int
	at    chan time.Time
}

func newExits() *exits { return &exits{at: make(chan time.Time, 4)} }

func (e *exits) exit(code int) {
	e.mu.Lock()
	e.codes = append(e.codes, code)
	e.mu.Unlock()
	e.at <- time.Now()
}

func (e *exits) got() []int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]int(nil), e.codes...)
}

// syncBuilder is a strings.Builder safe for the watcher's goroutine.
type syncBuilder struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuilder) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuilder) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// The first signal cancels the context; a command that returns within the
// grace exits on its own (OnSignals does not exit).
func TestOnSignalsCancels(t *testing.T) {
	sigs := make(chan os.Signal, 2)
	e := newExits()
	var errb syncBuilder
	ctx, stop := OnSignals(context.Background(), sigs, time.Hour, &errb, e.exit)
	if ctx.Err() != nil {
		t.Fatal("cancelled before any signal")
	}
	sigs <- syscall.SIGTERM
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("SIGTERM did not cancel the context")
	}
	stop()
	stop() // twice is fine
	time.Sleep(50 * time.Millisecond)
	if got := e.got(); len(got) != 0 || errb.String() != "" {
		t.Errorf("exit %v, stderr %q: the command returned in time", got, errb.String())
	}
}

// A second signal exits at once, with 130.
func TestOnSignalsSecondSignalExits(t *testing.T) {
	sigs := make(chan os.Signal, 2)
	e := newExits()
	var errb syncBuilder
	ctx, stop := OnSignals(context.Background(), sigs, time.Hour, &errb, e.exit)
	defer stop()
	sigs <- os.Interrupt
	<-ctx.Done()
	sent := time.Now()
	sigs <- os.Interrupt
	select {
	case at := <-e.at:
		if d := at.Sub(sent); d > 5*time.Second {
			t.Errorf("exited %s after the second signal", d)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the second signal did not exit")
	}
	if got := e.got(); len(got) != 1 || got[0] != 130 || !strings.Contains(errb.String(), "again") {
		t.Errorf("exit %v, stderr %q", got, errb.String())
	}
}

// Work that outlives the grace does not keep the process: it exits 130.
func TestOnSignalsGraceExits(t *testing.T) {
	sigs := make(chan os.Signal, 2)
	e := newExits()
	var errb syncBuilder
	const grace = 200 * time.Millisecond
	_, stop := OnSignals(context.Background(), sigs, grace, &errb, e.exit)
	defer stop()
	sent := time.Now()
	sigs <- syscall.SIGTERM
	select {
	case at := <-e.at:
		if d := at.Sub(sent); d < grace {
			t.Errorf("exited %s after the signal, before the grace (%s)", d, grace)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no exit after the grace")
	}
	if got := e.got(); len(got) != 1 || got[0] != 130 || !strings.Contains(errb.String(), "did not stop within") {
		t.Errorf("exit %v, stderr %q", got, errb.String())
	}
}

// Without a signal, stop releases the watcher and nothing happens.
func TestOnSignalsStopWithoutSignal(t *testing.T) {
	sigs := make(chan os.Signal, 2)
	e := newExits()
	ctx, stop := OnSignals(context.Background(), sigs, time.Millisecond, &syncBuilder{}, e.exit)
	stop()
	sigs <- os.Interrupt // read by nobody
	time.Sleep(50 * time.Millisecond)
	if ctx.Err() == nil {
		t.Error("stop should cancel the context (its resources)")
	}
	if got := e.got(); len(got) != 0 {
		t.Errorf("exit %v after stop", got)
	}
}
