package ollama

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"querent/engine"
)

const sqlSchema = `{"type":"object","properties":{"sql":{"type":"string"}},"required":["sql"]}`

func TestChatStreamsAndSendsOptions(t *testing.T) {
	tests := []struct {
		name        string
		req         engine.ChatRequest
		wantOptions string // the options object, compact
		wantFormat  string // "" = absent
	}{
		{
			name: "schema and limits",
			req: engine.ChatRequest{Model: "qwen2.5-coder:7b", Format: json.RawMessage(sqlSchema),
				NumCtx: 8192, NumPredict: 512,
				Messages: []engine.Message{{Role: "system", Content: "You write SQLite."}, {Role: "user", Content: "How many artists?"}}},
			wantOptions: `{"num_ctx":8192,"num_predict":512,"temperature":0}`,
			wantFormat:  sqlSchema,
		},
		{
			name:        "free text, defaults",
			req:         engine.ChatRequest{Model: "m", Temperature: 0.5, Messages: []engine.Message{{Role: "user", Content: "hi"}}},
			wantOptions: `{"temperature":0.5}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			chunks := []string{`{"sql":`, `"SELECT`, ` count(*) FROM Artist`, `"}`}
			var body map[string]json.RawMessage
			c := fakeOllama(t, func(w http.ResponseWriter, r *http.Request) {
				if r.Method != http.MethodPost || r.URL.Path != "/api/chat" {
					t.Errorf("request %s %s, want POST /api/chat", r.Method, r.URL.Path)
				}
				body = readBody(t, r)
				var lines []any
				for _, s := range chunks {
					lines = append(lines, chunk(s))
				}
				writeLines(t, w, append(lines, done("stop", 321, 12))...)
			})
			var tokens []string
			tt.req.OnToken = func(s string) { tokens = append(tokens, s) }
			resp, err := c.Chat(context.Background(), tt.req)
			if err != nil {
				t.Fatalf("Chat: %v", err)
			}
			if got, want := strings.Join(tokens, "|"), strings.Join(chunks, "|"); got != want {
				t.Errorf("tokens = %q, want %q", got, want)
			}
			if got, want := resp.Content, strings.Join(chunks, ""); got != want {
				t.Errorf("Content = %q, want %q", got, want)
			}
			if resp.PromptTokens != 321 || resp.OutputTokens != 12 || resp.DoneReason != "stop" {
				t.Errorf("counts = %d, %d, %q; want 321, 12, stop", resp.PromptTokens, resp.OutputTokens, resp.DoneReason)
			}
			if resp.Duration <= 0 {
				t.Errorf("Duration = %v, want > 0", resp.Duration)
			}

			if got, want := string(body["model"]), fmt.Sprintf("%q", tt.req.Model); got != want {
				t.Errorf("model = %s, want %s", got, want)
			}
			if got := string(body["stream"]); got != "true" {
				t.Errorf("stream = %s, want true", got)
			}
			wantMsgs, _ := json.Marshal(tt.req.Messages)
			if got := string(body["messages"]); got != string(wantMsgs) {
				t.Errorf("messages = %s, want %s", got, wantMsgs)
			}
			if got := string(body["format"]); got != tt.wantFormat {
				t.Errorf("format = %s, want %s", got, tt.wantFormat)
			}
			if got := string(body["options"]); got != tt.wantOptions {
				t.Errorf("options = %s, want %s", got, tt.wantOptions)
			}
			if got := string(body["keep_alive"]); got != `"10m0s"` {
				t.Errorf("keep_alive = %s, want \"10m0s\"", got)
			}
		})
	}
}

func TestChatErrors(t *testing.T) {
	const model = "qwen2.5-coder:7b"
	tests := []struct {
		name      string
		handler   func(t *testing.T, w http.ResponseWriter, r *http.Request)
		code      string
		msg, hint string
	}{
		{
			name: "cut off",
			handler: func(t *testing.T, w http.ResponseWriter, r *http.Request) {
				writeLines(t, w, chunk(`{"sql":"SELECT`), done("length", 100, 7))
			},
			code: engine.CodeModelError, msg: "the model's answer was cut off after 7 tokens", hint: "ask a narrower question",
		},
		{
			name: "404 model not found",
			handler: func(t *testing.T, w http.ResponseWriter, r *http.Request) {
				writeError(w, http.StatusNotFound, "model '"+model+"' not found")
			},
			code: engine.CodeModelMissing, msg: "the model " + model + " is not installed", hint: "ollama pull " + model,
		},
		{
			name: "try pulling it first",
			handler: func(t *testing.T, w http.ResponseWriter, r *http.Request) {
				writeError(w, http.StatusNotFound, `model "`+model+`" not found, try pulling it first`)
			},
			code: engine.CodeModelMissing, msg: "is not installed", hint: "ollama pull " + model,
		},
		{
			name: "500 with a message",
			handler: func(t *testing.T, w http.ResponseWriter, r *http.Request) {
				writeError(w, http.StatusInternalServerError, "model requires more system memory (9.1 GiB) than is available (4.0 GiB)")
			},
			code: engine.CodeModelError, msg: "model requires more system memory (9.1 GiB) than is available (4.0 GiB)", hint: "smaller model",
		},
		{
			name: "500 other",
			handler: func(t *testing.T, w http.ResponseWriter, r *http.Request) {
				writeError(w, http.StatusInternalServerError, "llama runner process has terminated: exit status 2")
			},
			code: engine.CodeModelError, msg: "llama runner process has terminated", hint: "try again",
		},
		{
			name: "busy",
			handler: func(t *testing.T, w http.ResponseWriter, r *http.Request) {
				writeError(w, http.StatusServiceUnavailable, "server busy, please try again.  maximum pending requests exceeded")
			},
			code: engine.CodeLLMUnavailable, msg: "is busy: server busy", hint: "try again in a moment",
		},
		{
			name: "embedding-only model",
			handler: func(t *testing.T, w http.ResponseWriter, r *http.Request) {
				writeError(w, http.StatusBadRequest, `"`+model+`" does not support chat`)
			},
			code: engine.CodeModelError, msg: "cannot chat", hint: "choose a chat model",
		},
		{
			name: "error line in the stream",
			handler: func(t *testing.T, w http.ResponseWriter, r *http.Request) {
				writeLines(t, w, chunk(`{"sql"`), map[string]string{"error": "an error was encountered while running the model"})
			},
			code: engine.CodeModelError, msg: "an error was encountered while running the model", hint: "try again",
		},
		{
			name: "malformed line",
			handler: func(t *testing.T, w http.ResponseWriter, r *http.Request) {
				writeLines(t, w, chunk(`{"sql"`))
				io.WriteString(w, "this is not json\n")
			},
			code: engine.CodeModelError, msg: "this is not json", hint: "try again",
		},
		{
			name: "line of the wrong shape",
			handler: func(t *testing.T, w http.ResponseWriter, r *http.Request) {
				io.WriteString(w, `{"message":"not an object","done":true}`+"\n")
			},
			code: engine.CodeModelError, msg: "cannot read", hint: "try again",
		},
		{
			name: "stream ends without done",
			handler: func(t *testing.T, w http.ResponseWriter, r *http.Request) {
				writeLines(t, w, chunk(`{"sql"`))
			},
			code: engine.CodeLLMUnavailable, msg: "was lost before the answer was complete", hint: "check that it runs",
		},
		{
			name: "connection dropped mid-stream",
			handler: func(t *testing.T, w http.ResponseWriter, r *http.Request) {
				writeLines(t, w, chunk(`{"sql"`))
				conn, _, err := w.(http.Hijacker).Hijack()
				if err != nil {
					t.Errorf("hijack: %v", err)
					return
				}
				conn.Close()
			},
			code: engine.CodeLLMUnavailable, msg: "was lost", hint: "check that it runs",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := fakeOllama(t, func(w http.ResponseWriter, r *http.Request) { tt.handler(t, w, r) })
			resp, err := c.Chat(context.Background(), engine.ChatRequest{Model: model,
				Messages: []engine.Message{{Role: "user", Content: "q"}}, Format: json.RawMessage(sqlSchema)})
			wantError(t, err, tt.code, tt.msg, tt.hint)
			if tt.name == "cut off" {
				if resp == nil || resp.Content != `{"sql":"SELECT` || resp.DoneReason != "length" {
					t.Errorf("resp = %+v, want the partial answer", resp)
				}
			} else if resp != nil {
				t.Errorf("resp = %+v, want nil", resp)
			}
		})
	}
}

func TestChatTimeoutAndCancel(t *testing.T) {
	// stall blocks until the client goes away.
	stall := func(first bool) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			if first {
				writeLines(t, w, chunk(`{"sql"`))
			}
			hang(r)
		}
	}
	tests := []struct {
		name      string
		handler   http.HandlerFunc
		timeout   time.Duration                                // the client's RequestTimeout
		ctx       func() (context.Context, context.CancelFunc) // the caller's context
		onToken   func(cancel context.CancelFunc) func(string) // optional
		code      string
		msg, hint string
	}{
		{
			name: "stall before the headers", handler: stall(false), timeout: 200 * time.Millisecond,
			ctx:  func() (context.Context, context.CancelFunc) { return context.WithCancel(context.Background()) },
			code: engine.CodeLLMUnavailable, msg: "the model did not answer within 200ms", hint: "raise --model-timeout",
		},
		{
			name: "stall mid-stream", handler: stall(true), timeout: 200 * time.Millisecond,
			ctx:  func() (context.Context, context.CancelFunc) { return context.WithCancel(context.Background()) },
			code: engine.CodeLLMUnavailable, msg: "the model did not answer within 200ms", hint: "a first request loads the model",
		},
		{
			name: "caller cancels mid-stream", handler: stall(true), timeout: 10 * time.Second,
			ctx:     func() (context.Context, context.CancelFunc) { return context.WithCancel(context.Background()) },
			onToken: func(cancel context.CancelFunc) func(string) { return func(string) { cancel() } },
			code:    engine.CodeCancelled, msg: "cancelled",
		},
		{
			name: "caller cancelled before", handler: stall(false), timeout: 10 * time.Second,
			ctx: func() (context.Context, context.CancelFunc) {
				ctx, cancel := context.WithCancel(context.Background())
				cancel()
				return ctx, cancel
			},
			code: engine.CodeCancelled, msg: "cancelled",
		},
		{
			name: "caller's deadline is sooner", handler: stall(false), timeout: 10 * time.Second,
			ctx: func() (context.Context, context.CancelFunc) {
				return context.WithTimeout(context.Background(), 150*time.Millisecond)
			},
			code: engine.CodeTimeout, msg: "deadline",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := fakeOllama(t, tt.handler)
			c.reqTimeout = tt.timeout
			ctx, cancel := tt.ctx()
			defer cancel()
			req := engine.ChatRequest{Model: "m", Messages: []engine.Message{{Role: "user", Content: "q"}}}
			if tt.onToken != nil {
				req.OnToken = tt.onToken(cancel)
			}
			start := time.Now()
			_, err := c.Chat(ctx, req)
			if elapsed := time.Since(start); elapsed > 2*time.Second {
				t.Errorf("Chat returned after %v, want promptly", elapsed)
			}
			e := wantError(t, err, tt.code, tt.msg, tt.hint)
			if tt.code == engine.CodeCancelled && !errors.Is(e, context.Canceled) {
				t.Errorf("err = %v, want it to wrap context.Canceled", e)
			}
		})
	}
}

func TestNotRunning(t *testing.T) {
	addr := freeAddr(t)
	c, err := New(Config{Host: addr})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	calls := map[string]func() error{
		"chat": func() error {
			_, err := c.Chat(ctx, engine.ChatRequest{Model: "m", Messages: []engine.Message{{Role: "user", Content: "q"}}})
			return err
		},
		"models":  func() error { _, err := c.Models(ctx); return err },
		"version": func() error { _, err := c.Version(ctx); return err },
		"embed":   func() error { _, err := c.Embed(ctx, "m", []string{"x"}); return err },
		"pull":    func() error { return c.Pull(ctx, "m", nil) },
	}
	for name, f := range calls {
		t.Run(name, func(t *testing.T) {
			e := wantError(t, f(), engine.CodeLLMUnavailable, "Ollama is not running at http://"+addr, "run `ollama serve`")
			if !strings.Contains(e.Hint, "querent sql") || !strings.Contains(e.Hint, "OLLAMA_HOST") {
				t.Errorf("hint = %q, want the direct-SQL fallback and the address settings", e.Hint)
			}
		})
	}
}

func TestStartHintDefaultHost(t *testing.T) {
	t.Setenv("OLLAMA_HOST", "")
	c, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	want := "start it: open the Ollama app, or run `ollama serve` in a terminal; direct SQL (querent sql) works without it"
	if got := c.startHint().String(); got != want {
		t.Errorf("startHint() = %q, want %q", got, want)
	}
}

func TestChatRejectsBadRequests(t *testing.T) {
	c := fakeOllama(t, func(w http.ResponseWriter, r *http.Request) { t.Error("no request should be sent") })
	tests := []struct {
		name string
		req  engine.ChatRequest
		code string
	}{
		{"no model", engine.ChatRequest{Messages: []engine.Message{{Role: "user", Content: "q"}}}, engine.CodeUsage},
		{"invalid format", engine.ChatRequest{Model: "m", Format: json.RawMessage(`{"type":`)}, engine.CodeInternal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.Chat(context.Background(), tt.req)
			if got := engine.ErrorCode(err); got != tt.code {
				t.Errorf("code = %q (%v), want %q", got, err, tt.code)
			}
		})
	}
}

// roundTripFunc lets a test stand in for the network.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestTransportErrors(t *testing.T) {
	tests := []struct {
		name      string
		err       error
		msg, hint string
	}{
		{"no such host", &net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "no such host", Name: "gpu-box", IsNotFound: true}},
			"Ollama is not reachable at http://gpu-box:11434: the host gpu-box is not known", "OLLAMA_HOST"},
		{"refused", &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED},
			"Ollama is not running at http://gpu-box:11434", "ollama serve"},
		{"dial timeout", &net.OpError{Op: "dial", Net: "tcp", Err: timeoutError{}},
			"Ollama is not reachable at http://gpu-box:11434: the connection timed out", "--ollama"},
		{"reset", &net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET},
			"the connection to Ollama at http://gpu-box:11434 was lost", "check that it runs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hc := &http.Client{Transport: roundTripFunc(func(*http.Request) (*http.Response, error) { return nil, tt.err })}
			c, err := New(Config{Host: "gpu-box", HTTPClient: hc})
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.Chat(context.Background(), engine.ChatRequest{Model: "m"})
			wantError(t, err, engine.CodeLLMUnavailable, tt.msg, tt.hint)
			if !errors.Is(err, tt.err) {
				t.Errorf("err = %v, want it to wrap %v", err, tt.err)
			}
		})
	}
}

type timeoutError struct{}

func (timeoutError) Error() string   { return "i/o timeout" }
func (timeoutError) Timeout() bool   { return true }
func (timeoutError) Temporary() bool { return true }
