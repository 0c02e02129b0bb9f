package mcp_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"querent/app/mcp"
	"querent/engine"
)

// stopSession is a server over pipes whose test decides when the input
// ends (closing in) or the server is told to stop (cancel).
type stopSession struct {
	in     *io.PipeWriter
	out    *bufio.Reader
	cancel context.CancelFunc
	done   chan error
	began  time.Time // when the input ended or the server was told to stop
}

func startStopSession(t *testing.T, db engine.Database, opts mcp.Options) *stopSession {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	s := &stopSession{in: inW, out: bufio.NewReader(outR), cancel: cancel, done: make(chan error, 1)}
	opts.Version = "test"
	go func() {
		err := mcp.New([]mcp.Database{{Name: "a", DB: db}}, opts).Run(ctx, mcp.Stdio(inR, outW))
		inR.CloseWithError(errors.New("the server stopped"))
		outW.Close()
		s.done <- err
	}()
	t.Cleanup(func() {
		cancel()
		inW.Close()
		go io.Copy(io.Discard, s.out)
		<-s.done
	})
	s.send(t, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"stop","version":"1"}}}`)
	if line := s.line(t); !strings.Contains(line, `"id":0,"result"`) {
		t.Fatalf("initialize: %s", line)
	}
	s.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return s
}

func (s *stopSession) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(s.in, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

func (s *stopSession) line(t *testing.T) string {
	t.Helper()
	l, err := s.out.ReadString('\n')
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	return l
}

// wait returns what Run returned and how long after began it did.
func (s *stopSession) wait(t *testing.T) (time.Duration, error) {
	t.Helper()
	select {
	case err := <-s.done:
		s.done <- err // for the cleanup
		return time.Since(s.began), err
	case <-time.After(time.Minute):
		t.Fatal("the server did not stop")
		return 0, nil
	}
}

// blockingDB's queries run until their context ends (stuck: for ever),
// and say so on entered and cancelled.
func blockingDB(stuck bool) (db *fakeDB, entered chan string, cancelled chan error) {
	entered, cancelled = make(chan string, 10), make(chan error, 10)
	db = &fakeDB{name: "/data/a.db", run: func(ctx context.Context, sql string) (*engine.Result, error) {
		entered <- sql
		if sql == "SELECT quick" {
			return &engine.Result{Query: sql, ExecutedSQL: sql, Columns: []engine.Column{{Name: "n", Type: "INTEGER"}}, Rows: [][]engine.Value{{int64(7)}}}, nil
		}
		<-ctx.Done()
		cancelled <- ctx.Err()
		if stuck {
			select {} // a call that does not listen
		}
		return nil, engine.AsError(ctx.Err())
	}}
	return db, entered, cancelled
}

const slowCall = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"run_query","arguments":{"sql":"SELECT slow"}}}`

// Cancelling Run's context (querent mcp's SIGINT or SIGTERM) cancels the
// calls in flight at once, and Run returns as soon as they have.
func TestRunStopCancelsTheCallsInFlight(t *testing.T) {
	db, entered, cancelled := blockingDB(false)
	s := startStopSession(t, db, mcp.Options{Drain: time.Hour, Grace: time.Minute})
	s.send(t, slowCall)
	<-entered
	s.began = time.Now()
	s.cancel()
	if err := <-cancelled; !errors.Is(err, context.Canceled) {
		t.Errorf("the call's context: %v", err)
	}
	d, err := s.wait(t)
	if !errors.Is(err, context.Canceled) || d > 5*time.Second {
		t.Errorf("Run returned %v after %s, want context.Canceled at once", err, d)
	}
}

// At the end of the input, a call that answers within the drain gives its
// answer; one that does not is cancelled at the drain's end, answers
// "cancelled", and the server stops.
func TestRunEndOfInputDrainsThenCancels(t *testing.T) {
	db, entered, cancelled := blockingDB(false)
	const drain = 300 * time.Millisecond
	s := startStopSession(t, db, mcp.Options{Drain: drain, Grace: time.Minute})
	s.send(t, slowCall)
	<-entered
	s.send(t, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"run_query","arguments":{"sql":"SELECT quick"}}}`)
	s.began = time.Now()
	s.in.Close()
	answers := map[string]string{}
	for range 2 {
		l := s.line(t)
		switch {
		case strings.Contains(l, `"id":1,`):
			answers["1"] = l
		case strings.Contains(l, `"id":2,`):
			answers["2"] = l
		default:
			t.Errorf("unexpected line %s", l)
		}
	}
	if err := <-cancelled; !errors.Is(err, context.Canceled) {
		t.Errorf("the slow call's context: %v", err)
	}
	if !strings.Contains(answers["2"], `\"n\":7`) {
		t.Errorf("the quick call, read before the end: %s", answers["2"])
	}
	if !strings.Contains(answers["1"], `"isError":true`) || !strings.Contains(answers["1"], `cancelled`) {
		t.Errorf("the slow call should answer cancelled: %s", answers["1"])
	}
	d, err := s.wait(t)
	if err != nil || d < drain || d > drain+5*time.Second {
		t.Errorf("Run returned %v after %s, want nil after the drain (%s)", err, d, drain)
	}
}

// A call that does not return once cancelled does not hold the server:
// Run gives up on it after the grace.
func TestRunGivesUpOnACallThatDoesNotStop(t *testing.T) {
	for _, how := range []string{"stop", "end of input"} {
		t.Run(how, func(t *testing.T) {
			db, entered, cancelled := blockingDB(true)
			const grace = 300 * time.Millisecond
			s := startStopSession(t, db, mcp.Options{Drain: 100 * time.Millisecond, Grace: grace})
			s.send(t, slowCall)
			<-entered
			s.began = time.Now()
			if how == "stop" {
				s.cancel()
			} else {
				s.in.Close()
			}
			<-cancelled
			d, err := s.wait(t)
			if !errors.Is(err, mcp.ErrStopped) || d < grace || d > grace+5*time.Second {
				t.Errorf("Run returned %v after %s, want ErrStopped after the grace (%s)", err, d, grace)
			}
		})
	}
}
