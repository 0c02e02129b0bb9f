package web_test

import (
	"testing"
	"time"

	"querent/engine/ollama/ollamatest"
)

// TestStartEndToEnd drives the start view in the real browser
// (frontend/e2e/start.e2e.mjs), in English, French and Chinese: the
// tables as cards and the suggested questions; a suggestion's click shows
// its answer with rows; the Overview button brings the start view back.
func TestStartEndToEnd(t *testing.T) {
	needsBrowser(t, "")
	out := reportDir(t)
	fake := ollamatest.New(t)
	args := []string{out}
	for _, lang := range []string{"en", "fr", "zh"} {
		args = append(args, lang+"="+serveDemo(t, fake.URL, lang))
	}
	runScript(t, "start.e2e.mjs", 4*time.Minute, args)
}
