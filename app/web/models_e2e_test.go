package web_test

import (
	"testing"
	"time"

	"querent/engine/ollama/ollamatest"
)

// TestModelPickerEndToEnd looks at the model picker in the real browser
// (frontend/e2e/models.e2e.mjs): each model with its window, size and
// whether it thinks, in the Model panel and in Settings, where a thinking
// model gets its "let it think" box.
func TestModelPickerEndToEnd(t *testing.T) {
	needsBrowser(t, "")
	out := reportDir(t)
	fake := ollamatest.New(t)
	fake.SetModels("qwen2.5-coder:7b", "qwen3:8b", "nomic-embed-text:latest")
	fake.SetSpec("qwen2.5-coder:7b", ollamatest.Spec{ContextLength: 32768, Capabilities: []string{"completion", "tools", "insert"}})
	fake.SetSpec("qwen3:8b", ollamatest.Spec{ContextLength: 40960, Capabilities: []string{"completion", "tools", "thinking"}})
	runScript(t, "models.e2e.mjs", 2*time.Minute, []string{out, serveDemo(t, fake.URL, "en")})
}
