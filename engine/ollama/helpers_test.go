package ollama

import (
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"querent/engine"
)

// fakeOllama starts an httptest server with handler and returns a client
// for it with a short request timeout.
func fakeOllama(t *testing.T, handler http.HandlerFunc) *Client {
	t.Helper()
	srv := httptest.NewServer(handler)
	t.Cleanup(srv.Close)
	c, err := New(Config{Host: srv.URL, RequestTimeout: 5 * time.Second})
	if err != nil {
		t.Fatalf("New(%q): %v", srv.URL, err)
	}
	return c
}

// writeLines writes each value as one compact JSON line, as Ollama does,
// and flushes so the client sees it at once.
func writeLines(t *testing.T, w http.ResponseWriter, values ...any) {
	t.Helper()
	w.Header().Set("Content-Type", "application/x-ndjson")
	enc := json.NewEncoder(w)
	for _, v := range values {
		if err := enc.Encode(v); err != nil {
			t.Errorf("encode: %v", err)
			return
		}
		w.(http.Flusher).Flush()
	}
}

// writeError answers with an HTTP status and Ollama's {"error": msg} body.
func writeError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{"error": msg})
}

// readBody decodes a request body into a map of raw fields.
func readBody(t *testing.T, r *http.Request) map[string]json.RawMessage {
	t.Helper()
	b, err := io.ReadAll(r.Body)
	if err != nil {
		t.Errorf("read body: %v", err)
		return nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Errorf("body %s: %v", b, err)
	}
	return m
}

// chunk and done build chat stream lines.
func chunk(content string) map[string]any {
	return map[string]any{"model": "m", "created_at": "2025-01-01T00:00:00Z",
		"message": map[string]any{"role": "assistant", "content": content}, "done": false}
}

func done(reason string, promptTokens, evalTokens int) map[string]any {
	return map[string]any{"model": "m", "created_at": "2025-01-01T00:00:00Z",
		"message": map[string]any{"role": "assistant", "content": ""}, "done": true, "done_reason": reason,
		"total_duration": 12345678, "load_duration": 1000, "prompt_eval_count": promptTokens,
		"prompt_eval_duration": 1000, "eval_count": evalTokens, "eval_duration": 1000}
}

// hang blocks a fake handler until the client goes away (or 5 s pass, so
// that a broken client cannot hang the test). It reads the body first: the
// server notices a closed connection only once the body is consumed.
func hang(r *http.Request) {
	io.Copy(io.Discard, r.Body)
	select {
	case <-r.Context().Done():
	case <-time.After(5 * time.Second):
	}
}

// freeAddr returns a loopback address nothing listens on.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// wantError checks that err is an *engine.Error with code, whose message
// and hint contain the given parts.
func wantError(t *testing.T, err error, code, msgPart, hintPart string) *engine.Error {
	t.Helper()
	if err == nil {
		t.Fatalf("err = nil, want %s", code)
	}
	var e *engine.Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %T %v, want *engine.Error", err, err)
	}
	if e.Code != code {
		t.Errorf("code = %q (%v), want %q", e.Code, e, code)
	}
	if !strings.Contains(e.Message, msgPart) {
		t.Errorf("message = %q, want it to contain %q", e.Message, msgPart)
	}
	if !strings.Contains(e.Hint, hintPart) {
		t.Errorf("hint = %q, want it to contain %q", e.Hint, hintPart)
	}
	return e
}
