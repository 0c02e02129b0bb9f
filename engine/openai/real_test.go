package openai_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"querent/engine"
	"querent/engine/ask"
	"querent/engine/ollama/ollamatest"
	"querent/engine/openai"
)

// TestRealOpenAICompatible runs the client against a real OpenAI-compatible
// server: Ollama's own /v1 API (the real build of
// ../shared/tools/ollama-tiny, $QUERENT_OLLAMA_HOST), with its scripted
// models. It lists the models, streams an answer constrained by
// response_format json_schema with usage, maps an unknown model, and
// answers a question of the ask loop on Chinook.
func TestRealOpenAICompatible(t *testing.T) {
	host := ollamatest.RealHost(t)
	ollamatest.Scripted(t, host, "qa-oai-tracks", ollamatest.SQLAnswer("SELECT count(*) AS n FROM Track"), 32768)
	m, err := openai.New(openai.Config{BaseURL: host + "/v1", RequestTimeout: 6 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ms, err := m.Models(ctx)
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(ms))
	for i, mi := range ms {
		names[i] = mi.Name
	}
	if !slices.Contains(names, "tiny:latest") || !slices.Contains(names, "qa-oai-tracks:latest") {
		t.Fatalf("models %v", names)
	}

	var pieces []string
	schema := json.RawMessage(`{"type":"object","properties":{"sql":{"type":"string"}},"required":["sql"]}`)
	resp, err := m.Chat(ctx, engine.ChatRequest{Model: "tiny", Format: schema, NumPredict: 64,
		Messages: []engine.Message{{Role: "system", Content: "Answer with SQL."}, {Role: "user", Content: "How many artists?"}},
		OnToken:  func(s string) { pieces = append(pieces, s) }})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Content != `{"sql":"SELECT 1"}` || strings.Join(pieces, "") != resp.Content || len(pieces) < 2 ||
		resp.PromptTokens == 0 || resp.OutputTokens == 0 || resp.DoneReason != "stop" {
		t.Errorf("response %+v, %d pieces", resp, len(pieces))
	}
	t.Logf("tiny over /v1: %+v in %d pieces", resp, len(pieces))

	_, err = m.Chat(ctx, engine.ChatRequest{Model: "no-such-model-here", Messages: []engine.Message{{Role: "user", Content: "hi"}}})
	if engine.ErrorCode(err) != engine.CodeModelMissing {
		t.Errorf("an unknown model: %v", err)
	}
	t.Logf("an unknown model: %v", err)

	// Cancelled while the server reads a long prompt: the request ends.
	cctx, cancel := context.WithCancel(ctx)
	stop := time.AfterFunc(300*time.Millisecond, cancel)
	defer stop.Stop()
	start := time.Now()
	_, err = m.Chat(cctx, engine.ChatRequest{Model: "qa-oai-tracks", Messages: []engine.Message{{Role: "user", Content: strings.Repeat("How many tracks are there? ", 400)}}})
	if engine.ErrorCode(err) != engine.CodeCancelled {
		t.Errorf("a cancelled chat: %v", err)
	}
	t.Logf("cancelled after %s", time.Since(start).Round(time.Millisecond))

	a := &ask.Asker{DB: chinook(t, t.TempDir()), Model: m, ModelName: "qa-oai-tracks"}
	ans, err := a.Ask(ctx, "How many tracks are there?", nil, ask.Options{Client: "test", NoExplain: true, NoVote: true})
	if err != nil {
		t.Fatal(err)
	}
	if ans.RowCount != 1 || ans.Results.Values[0][0] != int64(3503) || ans.ModelStats == nil || len(ans.ModelStats.Rounds) != 1 ||
		ans.ModelStats.Rounds[0].PromptTokens == 0 || ans.ModelStats.Rounds[0].GeneratedTokens == 0 {
		t.Fatalf("answer %+v errors %+v stats %+v", ans, ans.Errors, ans.ModelStats)
	}
	// The API has no num_ctx: the server's own window holds the prompt
	// (Ollama's /v1 keeps the model's default, and says so in usage).
	t.Logf("the ask loop over /v1: %+v", ans.ModelStats.Rounds)
}
