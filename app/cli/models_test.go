package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"querent/engine"
	"querent/engine/ollama/ollamatest"
)

// querent ask --list-models lists each model's window, capabilities and
// size, in text and as JSON.
func TestAskListModels(t *testing.T) {
	fake := ollamatest.New(t)
	fake.SetModels("qwen3:8b", "qwen2.5-coder:7b", "nomic-embed-text:latest")
	fake.SetSpec("qwen3:8b", ollamatest.Spec{ContextLength: 40960, Capabilities: []string{"completion", "tools", "thinking"}})
	fake.SetSpec("qwen2.5-coder:7b", ollamatest.Spec{ContextLength: 32768, Capabilities: []string{"completion", "tools", "insert"}})
	fake.SetSpec("nomic-embed-text:latest", ollamatest.Spec{ContextLength: 2048, Capabilities: []string{"embedding"}})
	c := askCLI(t, fake)
	code, out, errs := runWith(t, c, "", "ask", "--list-models")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"MODEL", "WINDOW", "qwen3:8b", "40,960", "completion, tools, thinking", "qwen2.5-coder:7b (default)", "32,768", "embedding", "7.6B", "Q4_K_M"} {
		if !strings.Contains(out, want) {
			t.Errorf("the list lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = runWith(t, c, "", "ask", "--list-models", "--format", "json")
	var doc struct {
		Models []struct {
			engine.ModelInfo
			FitsMemory *bool `json:"fits_memory"`
		} `json:"models"`
		MemoryBytes int64  `json:"memory_bytes"`
		Default     string `json:"default"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil || len(doc.Models) != 3 {
		t.Fatalf("exit %d: %s", code, out)
	}
	q := doc.Models[0]
	if q.Name != "qwen3:8b" || q.ContextLength != 40960 || !q.Has(engine.CapThinking) || q.SizeBytes != 1000 || doc.Default != "qwen2.5-coder:7b" {
		t.Errorf("json list: %s", out)
	}
	if doc.MemoryBytes > 0 && (q.FitsMemory == nil || !*q.FitsMemory) {
		t.Errorf("a 1,000-byte model does not fit %d bytes: %s", doc.MemoryBytes, out)
	}
	if code, _, errs := runWith(t, c, "", "ask", "--list-models", "how many?"); code == 0 || !strings.Contains(errs, "takes no question") {
		t.Errorf("--list-models with a question: exit %d, %s", code, errs)
	}
}

// A thinking model is told not to think; --think lets it, --verbose shows
// its thinking on standard error, and the JSON counts it. The sub-agent
// input's think does the same.
func TestAskThink(t *testing.T) {
	rep := ollamatest.Answer("SELECT count(*) AS n FROM Track", "Counted.")
	rep.Thinking = "Track has one row per track."
	fake := ollamatest.New(t, rep, rep, rep)
	fake.SetModels("qwen3:8b")
	fake.SetSpec("qwen3:8b", ollamatest.Spec{ContextLength: 40960, Capabilities: []string{"completion", "thinking"}})
	c := askCLI(t, fake)
	code, _, errs := runWith(t, c, "", "ask", "--no-vote", "How many tracks?")
	if code != 0 || strings.Contains(errs, "Track has one row") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if th := fake.Requests()[0].Think; th == nil || *th {
		t.Errorf("think %v by default, want false", th)
	}
	code, out, errs := runWith(t, c, "", "ask", "--no-vote", "--think", "--verbose", "--format", "json", "How many tracks?")
	if code != 0 || !strings.Contains(errs, "thinking:\nTrack has one row per track.\n") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var doc struct {
		ModelStats *engine.ModelStats `json:"model_stats"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || doc.ModelStats == nil || doc.ModelStats.Rounds[0].ThinkingTokens == 0 {
		t.Errorf("model_stats without thinking tokens: %s", out)
	}
	req := filepath.Join(t.TempDir(), "req.json")
	os.WriteFile(req, []byte(`{"question": "How many tracks?", "think": true, "vote": false, "explain_results": false}`), 0o644)
	if code, out, _ := runWith(t, c, "", "ask", "--input", req); code != 0 || !strings.Contains(out, `"thinking_tokens": 7`) {
		t.Errorf("exit %d: %s", code, out)
	}
	reqs := fake.Requests()
	if th := reqs[len(reqs)-1].Think; th == nil || !*th {
		t.Errorf("the request's think: true sent think %v", th)
	}
}

// --prompt-family sends a specialist's prompt; an unknown one is a usage
// error.
func TestAskPromptFamily(t *testing.T) {
	fake := ollamatest.New(t, ollamatest.Reply{Content: "```sql\nSELECT count(*) AS n FROM Track\n```"})
	c := askCLI(t, fake)
	code, out, errs := runWith(t, c, "", "ask", "--no-explain", "--prompt-family", "sqlcoder", "How many tracks?")
	if code != 0 || !strings.Contains(out, "3503") {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	if m := fake.Requests()[0].Messages; len(m) != 1 || !strings.HasPrefix(m[0].Content, "### Task") {
		t.Errorf("the prompt: %+v", m)
	}
	if code, _, errs := runWith(t, c, "", "ask", "--prompt-family", "gpt", "How many tracks?"); code != 2 || !strings.Contains(errs, "unknown prompt family") {
		t.Errorf("exit %d: %s", code, errs)
	}
}
