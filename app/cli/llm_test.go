package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"querent/engine"
	"querent/engine/ollama/ollamatest"
	"querent/engine/openai"
	"querent/engine/openai/openaitest"
	"querent/engine/sqlite"
)

const cliKey = "sk-cli-test-0b7e2f"

// openaiCLI is a CLI wired to Ollama's fake (which must stay unused) and to
// OpenAI-compatible servers, with a history in dir.
func openaiCLI(t *testing.T, dir string) (*CLI, *ollamatest.Server) {
	ofake := ollamatest.New(t)
	c := askCLI(t, ofake)
	c.History = func(ctx context.Context) (engine.History, func(), error) {
		h, err := sqlite.OpenHistory(ctx, filepath.Join(dir, "history.sqlite"))
		if err != nil {
			return nil, nil, err
		}
		return h, func() { h.Close() }, nil
	}
	c.OpenAI = func(baseURL, apiKey string, timeout time.Duration) (engine.Model, error) {
		return openai.New(openai.Config{BaseURL: baseURL, APIKey: apiKey, RequestTimeout: timeout})
	}
	return c, ofake
}

func TestAskWithLLMURL(t *testing.T) {
	dir := t.TempDir()
	c, ofake := openaiCLI(t, dir)
	fake := openaitest.New(t,
		ollamatest.Answer("SELECT count(*) AS n FROM Track", "Counts the tracks."),
		ollamatest.Answer("SELECT count(*) AS n FROM Album", "Counts the albums."))
	fake.RequireKey(cliKey)
	t.Setenv("OPENAI_API_KEY", cliKey)
	var stderr strings.Builder
	code, out, errs := runWith(t, c, "", "ask", "--llm-url", fake.URL, "--format", "json", "How many tracks are there?")
	stderr.WriteString(errs)
	var doc map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil {
		t.Fatalf("exit %d: %s\n%s", code, out, errs)
	}
	rows, _ := doc["results"].([]any)
	if doc["model"] != "qwen2.5-coder-7b-instruct" || len(rows) != 1 || rows[0].(map[string]any)["n"] != 3503.0 {
		t.Errorf("answer %s", out)
	}
	stats := doc["model_stats"].(map[string]any)["rounds"].([]any)
	if len(stats) != 2 || stats[0].(map[string]any)["prompt_tokens"].(float64) < 100 || stats[0].(map[string]any)["generated_tokens"].(float64) < 2 {
		t.Errorf("model_stats %v", stats)
	}
	if strings.Contains(out, cliKey) {
		t.Error("the answer names the API key")
	}
	if len(ofake.Requests()) != 0 {
		t.Errorf("Ollama was asked too: %d requests", len(ofake.Requests()))
	}
	// OPENAI_BASE_URL chooses the server when no flag names one; the text
	// output streams to standard error.
	t.Setenv("OPENAI_BASE_URL", fake.URL)
	code, out, errs = runWith(t, c, "", "ask", "How many albums are there?")
	stderr.WriteString(errs)
	if code != 0 || !strings.Contains(out, "347") {
		t.Fatalf("exit %d: %s\n%s", code, out, errs)
	}
	// A wrong key: a clear error, without the key.
	t.Setenv("OPENAI_API_KEY", "sk-wrong-key-1")
	code, out, errs = runWith(t, c, "", "ask", "--format", "json", "How many artists are there?")
	stderr.WriteString(errs + out)
	if code != 2 || !strings.Contains(out, "llm_unavailable") || !strings.Contains(out, "refused the API key") || strings.Contains(out+errs, "sk-wrong-key-1") {
		t.Errorf("exit %d: %s\n%s", code, out, errs)
	}
	// --ollama and --llm-url together name two servers.
	code, out, errs = runWith(t, c, "", "ask", "--ollama", ofake.URL, "--llm-url", fake.URL, "How many?")
	if code != 2 || !strings.Contains(errs+out, "two model servers") {
		t.Errorf("exit %d: %s %s", code, out, errs)
	}
	if strings.Contains(stderr.String(), cliKey) {
		t.Errorf("standard error names the API key:\n%s", stderr.String())
	}
	// Nothing of the history's files holds the key.
	files, _ := filepath.Glob(filepath.Join(dir, "history.sqlite*"))
	if len(files) == 0 {
		t.Fatal("no history was written")
	}
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil || strings.Contains(string(b), cliKey) {
			t.Errorf("%s holds the key (%v)", filepath.Base(p), err)
		}
	}
}

func TestAskWithLLMURLOnAHungServer(t *testing.T) {
	c, _ := openaiCLI(t, t.TempDir())
	fake := openaitest.New(t, ollamatest.Reply{Delay: openaitest.Hang})
	code, out, errs := runWith(t, c, "", "ask", "--llm-url", fake.URL, "--model-timeout", "300ms", "--format", "json", "How many tracks are there?")
	if code != 2 || !strings.Contains(out, `"llm_unavailable"`) || !strings.Contains(out, "did not answer within 300ms") {
		t.Errorf("exit %d: %s\n%s", code, out, errs)
	}
	select {
	case <-fake.Gone():
	case <-time.After(10 * time.Second):
		t.Fatal("the server never saw the request end")
	}
}

func TestAskPullOnAnOpenAIServer(t *testing.T) {
	c, _ := openaiCLI(t, t.TempDir())
	fake := openaitest.New(t)
	code, out, errs := runWith(t, c, "", "ask", "--llm-url", fake.URL, "--model", "sqlcoder:7b", "--pull", "--format", "json", "How many tracks are there?")
	if code != 2 || !strings.Contains(out, `"model_missing"`) {
		t.Errorf("exit %d: %s\n%s", code, out, errs)
	}
}

// TestRealOpenAICompatibleAsk runs querent ask --llm-url against a real
// OpenAI-compatible server: Ollama's own /v1 API (make ollama starts one),
// with a scripted model that writes the SQL in a few tokens.
func TestRealOpenAICompatibleAsk(t *testing.T) {
	host := ollamatest.RealHost(t)
	ollamatest.Scripted(t, host, "qa-cli-oai-tracks", ollamatest.SQLAnswer("SELECT count(*) AS n FROM Track"), 32768)
	c, _ := openaiCLI(t, t.TempDir())
	code, out, errs := runWith(t, c, "", "ask", "--llm-url", host+"/v1", "--model", "qa-cli-oai-tracks:latest", "--no-explain", "--no-vote",
		"--model-timeout", "360s", "--format", "json", "How many tracks are there?")
	var doc struct {
		Results    []map[string]any   `json:"results"`
		Model      string             `json:"model"`
		ModelStats *engine.ModelStats `json:"model_stats"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != 0 || len(doc.Results) != 1 || doc.Results[0]["n"] != 3503.0 {
		t.Fatalf("exit %d (%v): %s\n%s", code, err, out, errs)
	}
	if doc.ModelStats == nil || len(doc.ModelStats.Rounds) != 1 || doc.ModelStats.Rounds[0].PromptTokens == 0 || doc.ModelStats.Rounds[0].GeneratedTokens == 0 {
		t.Errorf("model stats %+v", doc.ModelStats)
	}
	t.Logf("querent ask --llm-url %s/v1: %+v", host, doc.ModelStats.Rounds)
}
