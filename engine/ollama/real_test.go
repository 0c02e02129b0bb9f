package ollama

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"slices"
	"testing"
	"time"

	"querent/engine"
)

// TestRealOllama runs the client against a real Ollama server with the
// generated model "tiny" (see shared/tools/ollama-tiny). It runs only when
// QUERENT_OLLAMA_HOST names that server.
func TestRealOllama(t *testing.T) {
	host := os.Getenv("QUERENT_OLLAMA_HOST")
	if host == "" {
		t.Skip("set QUERENT_OLLAMA_HOST to run: QUERENT_OLLAMA_HOST=$(bash shared/tools/ollama-tiny/real-ollama.sh start) go test ./engine/ollama -run TestRealOllama -v")
	}
	c, err := New(Config{Host: host, RequestTimeout: 60 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	t.Run("version", func(t *testing.T) {
		v, err := c.Version(ctx)
		if err != nil || v == "" {
			t.Fatalf("Version() = %q, %v", v, err)
		}
		t.Logf("Ollama %s at %s", v, c.Host())
	})

	t.Run("models", func(t *testing.T) {
		ms, err := c.Models(ctx)
		if err != nil {
			t.Fatal(err)
		}
		names := make([]string, len(ms))
		for i, m := range ms {
			names[i] = m.Name
		}
		if !slices.Contains(names, "tiny:latest") {
			t.Errorf("models = %v, want tiny:latest among them", names)
		}
		t.Logf("models: %+v", ms)
	})

	t.Run("chat", func(t *testing.T) {
		var tokens []string
		start := time.Now()
		resp, err := c.Chat(ctx, engine.ChatRequest{
			Model:    "tiny",
			Messages: []engine.Message{{Role: "system", Content: "Answer with SQL."}, {Role: "user", Content: "How many artists?"}},
			Format:   json.RawMessage(sqlSchema),
			NumCtx:   2048, NumPredict: 64,
			OnToken: func(s string) { tokens = append(tokens, s) },
		})
		if err != nil {
			t.Fatalf("Chat: %v", err)
		}
		var answer struct {
			SQL string `json:"sql"`
		}
		if err := json.Unmarshal([]byte(resp.Content), &answer); err != nil || answer.SQL != "SELECT 1" {
			t.Errorf("Content = %q (%v), want {\"sql\":\"SELECT 1\"}", resp.Content, err)
		}
		if len(tokens) == 0 {
			t.Error("OnToken was never called")
		}
		if resp.DoneReason != "stop" || resp.OutputTokens == 0 || resp.PromptTokens == 0 {
			t.Errorf("resp = %+v, want done_reason stop and token counts", resp)
		}
		t.Logf("chat: %q in %d tokens (%d streamed chunks), prompt %d tokens, %v (call %v)",
			resp.Content, resp.OutputTokens, len(tokens), resp.PromptTokens, resp.Duration, time.Since(start))
	})

	t.Run("cut off", func(t *testing.T) {
		_, err := c.Chat(ctx, engine.ChatRequest{
			Model:    "tiny",
			Messages: []engine.Message{{Role: "user", Content: "How many artists?"}},
			Format:   json.RawMessage(sqlSchema), NumPredict: 2,
		})
		wantError(t, err, engine.CodeModelError, "cut off after 2 tokens", "narrower question")
	})

	t.Run("missing model", func(t *testing.T) {
		_, err := c.Chat(ctx, engine.ChatRequest{Model: "no-such-model:1b", Messages: []engine.Message{{Role: "user", Content: "q"}}})
		wantError(t, err, engine.CodeModelMissing, "the model no-such-model:1b is not installed", "ollama pull no-such-model:1b")
	})

	t.Run("embed", func(t *testing.T) {
		vs, err := c.Embed(ctx, "tiny", []string{"Artist name", "Invoice total"})
		if err != nil {
			var e *engine.Error
			if !errors.As(err, &e) {
				t.Fatalf("Embed: %T %v, want *engine.Error", err, err)
			}
			t.Logf("Embed(tiny) refused: code %s: %v", e.Code, e)
			return
		}
		if len(vs) != 2 || len(vs[0]) == 0 {
			t.Errorf("Embed(tiny) = %d vectors, want 2 non-empty", len(vs))
		}
		t.Logf("Embed(tiny): %d vectors of %d dimensions", len(vs), len(vs[0]))
	})

	t.Run("embed missing model", func(t *testing.T) {
		_, err := c.Embed(ctx, "no-such-embedder", []string{"x"})
		wantError(t, err, engine.CodeModelMissing, "the model no-such-embedder is not installed", "ollama pull no-such-embedder")
	})
}
