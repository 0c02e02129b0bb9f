package ollama

import (
	"context"
	"net/http"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"querent/engine"
)

// TestDescribe reads /api/show's context length and capabilities once, and
// again only when the model's digest changed.
func TestDescribe(t *testing.T) {
	var shows atomic.Int32
	digest := atomic.Value{}
	digest.Store("sha256:one")
	window := atomic.Int32{}
	window.Store(4096)
	c := fakeOllama(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/show":
			shows.Add(1)
			body := readBody(t, r)
			if string(body["model"]) != `"qwen3:8b"` {
				writeError(w, http.StatusNotFound, "model 'x' not found")
				return
			}
			writeLines(t, w, map[string]any{
				"details":      map[string]any{"family": "qwen3", "parameter_size": "8.2B", "quantization_level": "Q4_K_M"},
				"model_info":   map[string]any{"general.architecture": "qwen3", "qwen3.context_length": window.Load(), "qwen3.embedding_length": 4096},
				"capabilities": []string{"completion", "tools", "thinking"},
			})
		case "/api/tags":
			writeLines(t, w, map[string]any{"models": []any{map[string]any{"name": "qwen3:8b", "digest": digest.Load(), "size": 5}}})
		}
	})
	ctx := context.Background()
	if _, err := c.Models(ctx); err != nil {
		t.Fatal(err)
	}
	info, err := c.Describe(ctx, "qwen3:8b")
	if err != nil {
		t.Fatalf("Describe: %v", err)
	}
	if info.ContextLength != 4096 || !reflect.DeepEqual(info.Capabilities, []string{"completion", "tools", "thinking"}) ||
		info.ParameterSize != "8.2B" || !info.Has(engine.CapThinking) || info.Has(engine.CapVision) {
		t.Errorf("Describe = %+v", info)
	}
	if _, err := c.Describe(ctx, "qwen3:8b"); err != nil || shows.Load() != 1 {
		t.Errorf("a second Describe asked the server again (%d shows, err %v)", shows.Load(), err)
	}
	// The same digest listed again keeps the cache; a new one drops it.
	c.Models(ctx)
	c.Describe(ctx, "qwen3:8b")
	if shows.Load() != 1 {
		t.Errorf("the same digest read /api/show again: %d", shows.Load())
	}
	digest.Store("sha256:two")
	window.Store(32768)
	c.Models(ctx)
	info, _ = c.Describe(ctx, "qwen3:8b")
	if shows.Load() != 2 || info.ContextLength != 32768 {
		t.Errorf("after a new digest: %d shows, window %d; want 2 and 32768", shows.Load(), info.ContextLength)
	}
	_, err = c.Describe(ctx, "absent:1b")
	if engine.ErrorCode(err) != engine.CodeModelMissing {
		t.Errorf("Describe(absent) = %v, want model_missing", err)
	}
}

func TestContextLength(t *testing.T) {
	for _, tc := range []struct {
		info map[string]any
		want int
	}{
		{map[string]any{"general.architecture": "llama", "llama.context_length": float64(8192)}, 8192},
		{map[string]any{"general.architecture": "gptoss", "other.context_length": float64(2048)}, 2048},
		{map[string]any{"general.architecture": "llama"}, 0},
		{nil, 0},
	} {
		if got := contextLength(tc.info); got != tc.want {
			t.Errorf("contextLength(%v) = %d, want %d", tc.info, got, tc.want)
		}
	}
}

// TestChatThink sends think when asked, keeps the thinking apart from the
// content, and takes a <think> block out of the content.
func TestChatThink(t *testing.T) {
	var think string
	c := fakeOllama(t, func(w http.ResponseWriter, r *http.Request) {
		body := readBody(t, r)
		think = string(body["think"])
		msg := func(content, thinking string) map[string]any {
			return map[string]any{"message": map[string]any{"role": "assistant", "content": content, "thinking": thinking}, "done": false}
		}
		writeLines(t, w, msg("", "Let me "), msg("", "count."), msg("<thi", ""), msg("nk>old-style</th", ""), msg("ink>\n{\"sql\":", ""), msg("\"SELECT 1\"}", ""),
			map[string]any{"done": true, "done_reason": "stop", "eval_count": 12, "prompt_eval_count": 30})
	})
	var streamed, thought strings.Builder
	off := false
	resp, err := c.Chat(context.Background(), engine.ChatRequest{Model: "qwen3:8b", Messages: []engine.Message{{Role: "user", Content: "n?"}},
		Think: &off, OnToken: func(s string) { streamed.WriteString(s) }, OnThinking: func(s string) { thought.WriteString(s) }})
	if err != nil {
		t.Fatal(err)
	}
	if think != "false" {
		t.Errorf("think sent = %q, want false", think)
	}
	if resp.Content != `{"sql":"SELECT 1"}` || streamed.String() != resp.Content {
		t.Errorf("content %q, streamed %q", resp.Content, streamed.String())
	}
	if resp.Thinking != "Let me count.old-style" || thought.String() != resp.Thinking || resp.ThinkingTokens != 6 {
		t.Errorf("thinking %q (%d tokens), streamed %q", resp.Thinking, resp.ThinkingTokens, thought.String())
	}
	if _, err := c.Chat(context.Background(), engine.ChatRequest{Model: "m", Messages: []engine.Message{{Role: "user", Content: "n?"}}}); err != nil {
		t.Fatal(err)
	}
	if think != "" {
		t.Errorf("think sent without being asked: %q", think)
	}
}
