package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"
)

// Grace is how long a command, once stopped by a signal, waits for the work
// in flight to return before it exits all the same. The engine stops its
// work within milliseconds (PostgreSQL gets a cancel request and the
// connection is closed; a SQLite query worker is cancelled, or killed), so
// the grace is only ever spent on work that does not listen.
const Grace = 2 * time.Second

// OnSignals returns a context that is cancelled at the first signal read
// from signals (the binary sends SIGINT and SIGTERM there): every command
// then stops its work and returns, and the engine tells PostgreSQL to stop
// the statement before Querent exits. If the command has not returned
// within grace, or at a second signal, exit is called with 130 (cancelled)
// without waiting any longer; what it says goes to stderr. stop releases
// the watcher once the command has returned.
func OnSignals(parent context.Context, signals <-chan os.Signal, grace time.Duration, stderr io.Writer, exit func(code int)) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancel(parent)
	done := make(chan struct{})
	go func() {
		select {
		case <-signals:
		case <-done:
			return
		}
		cancel()
		timer := time.NewTimer(grace)
		defer timer.Stop()
		select {
		case <-done:
		case sig := <-signals:
			fmt.Fprintf(stderr, "querent: %v again: exiting at once\n", sig)
			exit(130)
		case <-timer.C:
			fmt.Fprintf(stderr, "querent: the work in flight did not stop within %s of the signal: exiting\n", grace)
			exit(130)
		}
	}()
	return ctx, func() {
		select {
		case <-done:
		default:
			close(done)
		}
		cancel()
	}
}
