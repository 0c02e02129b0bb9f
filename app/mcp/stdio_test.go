package mcp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"querent/app/mcp"
	"querent/engine"
)

// fakeDB is an engine.Database whose Run and Schema are function fields,
// so a test can make one database block while another answers.
type fakeDB struct {
	name   string
	run    func(ctx context.Context, sql string) (*engine.Result, error)
	schema func(ctx context.Context) (*engine.Schema, error)
}

var _ engine.Database = (*fakeDB)(nil)

func (f *fakeDB) Dialect() string    { return "sqlite" }
func (f *fakeDB) Name() string       { return f.name }
func (f *fakeDB) Warnings() []string { return nil }
func (f *fakeDB) Close() error       { return nil }

func (f *fakeDB) Schema(ctx context.Context) (*engine.Schema, error) {
	if f.schema != nil {
		return f.schema(ctx)
	}
	return &engine.Schema{Database: f.name, Tables: []*engine.Table{{Name: "t", Kind: "table", RowCount: 3,
		Columns: []*engine.TableColumn{{Name: "n", Type: "INTEGER"}}}}}, nil
}

func (f *fakeDB) Validate(ctx context.Context, sql string) (*engine.Validation, error) {
	return &engine.Validation{SQL: sql}, nil
}

func (f *fakeDB) Run(ctx context.Context, sql string, opts engine.RunOptions) (*engine.Result, error) {
	if f.run != nil {
		return f.run(ctx, sql)
	}
	return &engine.Result{Query: sql, ExecutedSQL: sql, Columns: []engine.Column{{Name: "n", Type: "INTEGER"}},
		Rows: [][]engine.Value{{int64(1)}, {int64(2)}, {int64(3)}}}, nil
}

func (f *fakeDB) Explain(ctx context.Context, sql string) ([]string, error) { return nil, nil }

func (f *fakeDB) Stream(ctx context.Context, sql string, opts engine.StreamOptions, columns func([]engine.Column) error, row func([]engine.Value) error) (*engine.StreamInfo, error) {
	return nil, engine.Errorf(engine.CodeInternal, "the fake does not stream")
}

// pipeSession is `querent mcp`'s transport over pipes: the test writes
// raw lines and reads the server's lines, as a client on stdio would.
type pipeSession struct {
	t     *testing.T
	in    *io.PipeWriter
	lines chan string // the server's lines, read as they come, as a client does
	done  chan error
}

// reply is one line the server wrote.
type reply struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	raw string
}

func startPipeSession(t *testing.T, dbs []mcp.Database, wrap func(io.Writer) io.Writer) *pipeSession {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var w io.Writer = outW
	if wrap != nil {
		w = wrap(outW)
	}
	s := &pipeSession{t: t, in: inW, lines: make(chan string, 1000), done: make(chan error, 1)}
	go func() {
		defer close(s.lines)
		out := bufio.NewReader(outR)
		for {
			line, err := out.ReadString('\n')
			if err != nil {
				return
			}
			s.lines <- line
		}
	}()
	go func() {
		err := mcp.New(dbs, mcp.Options{Version: "test"}).Run(context.Background(), mcp.Stdio(inR, w))
		// A server that stops reading must not leave the test's writes hanging.
		inR.CloseWithError(fmt.Errorf("the server stopped: %v", err))
		outW.Close()
		s.done <- err
	}()
	t.Cleanup(func() {
		inW.Close()
		// Read what is left so that a server still writing can finish.
		go func() {
			for range s.lines {
			}
		}()
		<-s.done
	})
	s.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"pipe","version":"1"}}}`)
	if r := s.receive(); string(r.ID) != "0" || r.Error != nil {
		t.Fatalf("initialize: %s", r.raw)
	}
	s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return s
}

func (s *pipeSession) send(line string) {
	s.t.Helper()
	if _, err := io.WriteString(s.in, line+"\n"); err != nil {
		s.t.Fatalf("send %.80s: %v", line, err)
	}
}

func (s *pipeSession) receive() reply {
	s.t.Helper()
	line, ok := <-s.lines
	if !ok {
		s.t.Fatalf("no reply: the session ended")
	}
	var r reply
	if err := json.Unmarshal([]byte(line), &r); err != nil {
		s.t.Fatalf("the reply is not one JSON message: %v: %.300q", err, line)
	}
	r.raw = strings.TrimSpace(line)
	return r
}

// wantError checks that r is a JSON-RPC error with the code and id.
func wantError(t *testing.T, r reply, code int, id string, message string) {
	t.Helper()
	if r.Error == nil || r.Error.Code != code || string(r.ID) != id || !strings.Contains(r.Error.Message, message) {
		t.Errorf("got %s, want error %d with id %s and a message with %q", r.raw, code, id, message)
	}
	if !strings.HasPrefix(r.raw, `{"jsonrpc":"2.0",`) {
		t.Errorf("not a JSON-RPC 2.0 reply: %s", r.raw)
	}
}

// wantResult checks that r answers the request with the id.
func wantResult(t *testing.T, r reply, id string) {
	t.Helper()
	if r.Error != nil || r.Result == nil || string(r.ID) != id {
		t.Errorf("got %s, want the result of request %s", r.raw, id)
	}
}

func oneDB() []mcp.Database { return []mcp.Database{{Name: "a", DB: &fakeDB{name: "/data/a.db"}}} }

// A line that is not JSON gets a parse error, and the session goes on: the
// next request is answered, after the error.
func TestStdioParseErrorKeepsTheSession(t *testing.T) {
	s := startPipeSession(t, oneDB(), nil)
	s.send("hello")
	s.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	r := s.receive()
	wantError(t, r, -32700, "null", "parse error: ")
	if r.Error != nil && r.Error.Message != "parse error: invalid character 'h' looking for beginning of value" {
		t.Errorf("message %q", r.Error.Message)
	}
	r = s.receive()
	wantResult(t, r, "2")
	if !strings.Contains(r.raw, `"run_query"`) {
		t.Errorf("tools/list: %.300s", r.raw)
	}

	// Cut short, or two messages on one line: not one JSON value either.
	s.send(`{"jsonrpc":"2.0","id":3,"method":"tools/list"`)
	wantError(t, s.receive(), -32700, "null", "parse error: ")
	s.send(`{"jsonrpc":"2.0","id":4,"method":"ping"} {"jsonrpc":"2.0","id":5,"method":"ping"}`)
	wantError(t, s.receive(), -32700, "null", "parse error: ")
	s.send(`{"jsonrpc":"2.0","id":6,"method":"ping"}`)
	wantResult(t, s.receive(), "6")
}

// MCP 2025-06-18 removed JSON-RPC batches: a batch is refused, each of its
// requests gets its own -32600 reply (so no call waits for ever), and the
// session goes on.
func TestStdioBatchIsRefused(t *testing.T) {
	s := startPipeSession(t, oneDB(), nil)
	s.send(`[{"jsonrpc":"2.0","id":4,"method":"tools/list"},{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":"five","method":"ping"}]`)
	wantError(t, s.receive(), -32600, "4", "batch")
	wantError(t, s.receive(), -32600, `"five"`, "batch")
	// Without an id to answer: one reply with a null id.
	for _, batch := range []string{`[]`, `[1, 2]`, `[{"jsonrpc":"2.0","method":"notifications/initialized"}]`} {
		s.send(batch)
		wantError(t, s.receive(), -32600, "null", "batch")
	}
	s.send(`{"jsonrpc":"2.0","id":6,"method":"ping"}`)
	wantResult(t, s.receive(), "6")
}

// JSON that is not a JSON-RPC message gets -32600, with the message's id
// where one can be read; the next request is answered each time.
func TestStdioInvalidRequests(t *testing.T) {
	deep := `{"jsonrpc":"2.0","id":11,"method":"ping","params":{"x":` + strings.Repeat("[", 1100) + strings.Repeat("]", 1100) + `}}`
	for i, tc := range []struct {
		line, id, message string
	}{
		{`42`, "null", "not a JSON-RPC"},
		{`"ping"`, "null", "not a JSON-RPC"},
		{`null`, "null", "not a JSON-RPC"},
		{`{}`, "null", `"jsonrpc"`},
		{`{"jsonrpc":"1.0","id":7,"method":"ping"}`, "7", `"jsonrpc"`},
		{`{"id":8,"method":"ping"}`, "8", `"jsonrpc"`},
		{`{"JSONRPC":"2.0","id":"x","method":"ping"}`, `"x"`, `"jsonrpc"`},
		{`{"jsonrpc":"2.0","id":9}`, "9", `"method"`},
		{`{"jsonrpc":"2.0"}`, "null", `"method"`},
		{`{"jsonrpc":"2.0","id":true,"method":"ping"}`, "null", `"id"`},
		{`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, "null", `"id"`},
		{`{"jsonrpc":"2.0","id":"s","method":5}`, `"s"`, `"method"`},
		{`{"jsonrpc":"2.0","id":10,"method":null}`, "10", `"method"`},
		{`{"jsonrpc":"2.0","id":12,"method":"ping","error":"x"}`, "12", "invalid request"},
		{deep, "11", "nesting"},
	} {
		s := startPipeSession(t, oneDB(), nil)
		s.send(tc.line)
		s.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, 100+i))
		wantError(t, s.receive(), -32600, tc.id, tc.message)
		wantResult(t, s.receive(), fmt.Sprint(100+i))
	}
}

// Blank lines, Windows line ends and messages that need no reply are left
// as they are: nothing is answered that should not be.
func TestStdioValidInputIsPassedOn(t *testing.T) {
	s := startPipeSession(t, oneDB(), nil)
	s.send("")
	s.send("   \t")
	s.send(`{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}`)
	s.send(`{"jsonrpc":"2.0","id":99,"result":{}}`) // a response to nothing: dropped
	s.send(`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\r")
	wantResult(t, s.receive(), "1")
	// A long line under the limit reaches the SDK whole.
	s.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"run_query","arguments":{"sql":"SELECT '` + strings.Repeat("x", 3<<20) + `'"}}}`)
	r := s.receive()
	wantResult(t, r, "2")
	if !strings.Contains(r.raw, `\"n\":1`) {
		t.Errorf("run_query: %.300s", r.raw)
	}
	s.send(`{"jsonrpc":"2.0","id":"three","method":"nope"}`)
	wantError(t, s.receive(), -32601, `"three"`, "nope") // the SDK's own answer
}

// A line over the limit is read past, not kept: the client gets an error
// saying so, with the request's id, and the next request is answered. The
// server's memory does not grow with the line.
func TestStdioLongLine(t *testing.T) {
	s := startPipeSession(t, oneDB(), nil)
	const size = 60 << 20
	head := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"run_query","arguments":{"sql":"SELECT '`
	tail := `'"}}}` + "\n"

	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	sent := make(chan error, 1)
	go func() {
		// Stream the line: the test itself holds one 64 KiB chunk of it.
		chunk := []byte(strings.Repeat("x", 64<<10))
		_, err := io.WriteString(s.in, head)
		for n := 0; err == nil && n < size; n += len(chunk) {
			_, err = s.in.Write(chunk)
		}
		if err == nil {
			_, err = io.WriteString(s.in, tail+`{"jsonrpc":"2.0","id":8,"method":"ping"}`+"\n")
		}
		sent <- err
	}()
	r := s.receive()
	runtime.ReadMemStats(&after)
	wantError(t, r, -32600, "7", fmt.Sprintf("over %d MiB", mcp.MaxLineBytes>>20))
	if r.Error != nil && !strings.Contains(r.Error.Message, "send smaller requests") {
		t.Errorf("message %q", r.Error.Message)
	}
	wantResult(t, s.receive(), "8")
	if err := <-sent; err != nil {
		t.Fatal(err)
	}
	// Keeping the line would allocate at least its 60 MB; reading it past
	// costs the line buffer (up to the limit) and little else.
	const bound = 24 << 20
	t.Logf("reading a %d MB line: %d MB allocated, heap in use %+d MB", size>>20,
		(after.TotalAlloc-before.TotalAlloc)>>20, (int64(after.HeapInuse)-int64(before.HeapInuse))>>20)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > bound {
		t.Errorf("reading the line allocated %d MB, want under %d MB", grew>>20, bound>>20)
	}
	if grew := int64(after.HeapInuse) - int64(before.HeapInuse); grew > bound {
		t.Errorf("the heap grew by %d MB while reading the line, want under %d MB", grew>>20, bound>>20)
	}
}

// choppyWriter passes writes on in small pieces, yielding between them, as
// a pipe or a terminal may: lines written by two goroutines would mix
// unless the writers share one lock.
type choppyWriter struct{ w io.Writer }

func (c choppyWriter) Write(p []byte) (int, error) {
	for i := 0; i < len(p); i += 64 {
		if _, err := c.w.Write(p[i:min(i+64, len(p))]); err != nil {
			return i, err
		}
		runtime.Gosched()
	}
	return len(p), nil
}

// The transport's error replies and the SDK's answers share the writer's
// lock: every line the client reads is one whole message.
func TestStdioRepliesDoNotInterleave(t *testing.T) {
	wide := &fakeDB{name: "/data/wide.db", run: func(ctx context.Context, sql string) (*engine.Result, error) {
		rows := make([][]engine.Value, 40)
		for i := range rows {
			rows[i] = []engine.Value{strings.Repeat("y", 300)}
		}
		return &engine.Result{Query: sql, ExecutedSQL: sql, Columns: []engine.Column{{Name: "s", Type: "TEXT"}}, Rows: rows}, nil
	}}
	s := startPipeSession(t, []mcp.Database{{Name: "wide", DB: wide}}, func(w io.Writer) io.Writer { return choppyWriter{w} })
	const n = 40
	go func() {
		for i := range n {
			io.WriteString(s.in, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"run_query","arguments":{"sql":"SELECT s"}}}`+"\n", i))
			io.WriteString(s.in, "not json "+strings.Repeat("z", 500)+"\n")
		}
	}()
	answered, parseErrors := map[string]bool{}, 0
	for range 2 * n {
		r := s.receive() // fails on a line that is not one JSON message
		switch {
		case r.Error != nil && r.Error.Code == -32700:
			parseErrors++
		case r.Result != nil:
			answered[string(r.ID)] = true
		default:
			t.Errorf("unexpected reply %.200s", r.raw)
		}
	}
	if len(answered) != n || parseErrors != n {
		t.Errorf("%d answers, %d parse errors; want %d of each", len(answered), parseErrors, n)
	}
}

// A tool call that blocks on one database does not hold up calls on
// another, and the client's cancellation reaches the blocked call.
func TestStdioCallsOnOtherDatabasesAnswerWhileOneIsBlocked(t *testing.T) {
	runEntered, schemaEntered := make(chan struct{}), make(chan struct{})
	runCancelled := make(chan error, 1)
	releaseSchema := make(chan struct{})
	var once sync.Once
	a := &fakeDB{name: "/data/a.db",
		run: func(ctx context.Context, sql string) (*engine.Result, error) {
			close(runEntered)
			<-ctx.Done() // an uninterruptible query, as far as the server knows
			runCancelled <- ctx.Err()
			return nil, engine.AsError(ctx.Err())
		},
		schema: func(ctx context.Context) (*engine.Schema, error) {
			once.Do(func() { close(schemaEntered) })
			<-releaseSchema
			return (&fakeDB{name: "/data/a.db"}).Schema(ctx)
		}}
	b := &fakeDB{name: "/data/b.db"}

	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- mcp.New([]mcp.Database{{Name: "a", DB: a}, {Name: "b", DB: b}}, mcp.Options{Version: "test"}).Run(context.Background(), mcp.Stdio(inR, outW))
		outW.Close()
	}()
	// The watchdog only turns a deadlock into a failure instead of a hang;
	// nothing here depends on how fast the calls are.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "agent", Version: "1"}, nil).Connect(ctx, &sdk.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}

	// On a: a query that does not return, and a list_tables stuck in Schema.
	runCtx, cancelRun := context.WithCancel(ctx)
	runDone := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(runCtx, &sdk.CallToolParams{Name: "run_query", Arguments: map[string]any{"sql": "SELECT forever()", "database": "a"}})
		runDone <- err
	}()
	listDone := make(chan *sdk.CallToolResult, 1)
	go func() {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "list_tables", Arguments: map[string]any{"database": "a"}})
		if err != nil {
			t.Errorf("list_tables on a: %v", err)
		}
		listDone <- res
	}()
	<-runEntered
	<-schemaEntered

	// Meanwhile every tool answers on b.
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"run_query", map[string]any{"sql": "SELECT n FROM t", "database": "b"}, `"row_count":3`},
		{"list_tables", map[string]any{"database": "b"}, `"name":"t"`},
		{"describe_table", map[string]any{"table": "t", "database": "b"}, `"name":"n"`},
		{"explain_query", map[string]any{"sql": "SELECT n FROM t", "database": "b"}, `"valid":true`},
	} {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: c.tool, Arguments: c.args})
		if err != nil {
			t.Fatalf("%s on b while a is blocked: %v", c.tool, err)
		}
		if text := res.Content[0].(*sdk.TextContent).Text; res.IsError || !strings.Contains(text, c.want) {
			t.Errorf("%s on b: %.300s", c.tool, text)
		}
	}

	// The client gives up on the blocked query: notifications/cancelled
	// cancels the call's context.
	cancelRun()
	if err := <-runCancelled; !errors.Is(err, context.Canceled) {
		t.Errorf("the blocked call's context: %v", err)
	}
	if err := <-runDone; !errors.Is(err, context.Canceled) {
		t.Errorf("the cancelled call returned %v", err)
	}
	close(releaseSchema)
	if res := <-listDone; res == nil || res.IsError {
		t.Errorf("list_tables on a after the release: %+v", res)
	}
	cs.Close()
	<-done
}
