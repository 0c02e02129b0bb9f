package web_test

import (
	"testing"
	"time"

	"querent/engine/ollama/ollamatest"
)

// TestChartsEndToEnd drives the charts of long data in the real browser
// (frontend/e2e/charts.e2e.mjs), in English, French and Chinese, at
// 900×700, 1360×880 and 1920×1080: sales per country per year is one line
// per country on a time axis of years with the missing year a gap; the
// grid's filter narrows the chart; a single value draws no chart until
// asked. The SQL is typed, so the scripted model is never asked.
func TestChartsEndToEnd(t *testing.T) {
	needsBrowser(t, "")
	out := reportDir(t)
	fake := ollamatest.New(t)
	fake.Respond(func(req ollamatest.Request) ollamatest.Reply {
		t.Errorf("the model was asked: %v", req.Messages)
		return ollamatest.Abstain("", "no model in this test")
	})
	args := []string{out}
	for _, lang := range []string{"en", "fr", "zh"} {
		args = append(args, lang+"="+serveDemo(t, fake.URL, lang))
	}
	runScript(t, "charts.e2e.mjs", 3*time.Minute, args)
}
