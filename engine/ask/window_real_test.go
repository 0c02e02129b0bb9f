package ask_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"querent/engine"
	"querent/engine/ask"
	"querent/engine/ollama"
	"querent/engine/ollama/ollamatest"
	"querent/engine/sqlite"
)

// TestRealOllamaSmallWindow asks a real Ollama server's 4,096-token model
// on Chinook: Querent reads the window from /api/show and keeps num_ctx to
// it; the scripted model reads one character a token, four times what the
// estimate counts, so the server cuts the prompt, its prompt_eval_count
// shows it, and the answer says so instead of staying silent.
func TestRealOllamaSmallWindow(t *testing.T) {
	host := ollamatest.RealHost(t)
	ollamatest.Scripted(t, host, "qa-window-4k", ollamatest.SQLAnswer("SELECT count(*) AS n FROM Track"), 4096)
	m, err := ollama.New(ollama.Config{Host: host, RequestTimeout: 6 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	info, err := m.Describe(context.Background(), "qa-window-4k")
	if err != nil || info.ContextLength != 4096 || !info.Has(engine.CapCompletion) || info.Has(engine.CapThinking) {
		t.Fatalf("Describe: %+v, %v", info, err)
	}
	db, err := sqlite.Open(context.Background(), chinook(t), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	a := &ask.Asker{DB: db, Model: m, ModelName: "qa-window-4k"}
	ans, err := a.Ask(context.Background(), "How many tracks are there?", nil, ask.Options{Today: today, NoExplain: true, NoVote: true})
	if err != nil {
		t.Fatalf("ask: %v", err)
	}
	rd := ans.ModelStats.Rounds[0]
	t.Logf("round: %d prompt tokens read of %d estimated, cut %v; %d tables shown; warnings %q", rd.PromptTokens, rd.PromptTokensSent, rd.PromptCut, len(ans.TablesShown), ans.Warnings)
	if rd.PromptTokens > 4096 {
		t.Errorf("the server read %d tokens: num_ctx went past the window", rd.PromptTokens)
	}
	if !rd.PromptCut {
		t.Errorf("the round %+v is not marked cut", rd)
	}
	found := false
	for _, w := range ans.Warnings {
		found = found || strings.Contains(w, "the prompt was cut")
	}
	if !found {
		t.Errorf("no warning of the cut: %q", ans.Warnings)
	}
	if ans.RowCount != 1 || ans.Results.Values[0][0] != int64(3503) {
		t.Errorf("rows %v", ans.Results.Values)
	}
}
