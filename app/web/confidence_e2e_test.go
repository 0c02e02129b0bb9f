package web_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"querent/app/page"
	"querent/app/web"
	"querent/engine/ollama/ollamatest"
	"querent/frontend"
	"querent/internal/wiring"
)

// TestConfidenceEndToEnd drives an answer's confidence in the real browser
// (frontend/e2e/confidence.e2e.mjs), in English, French and Chinese: a
// clean count is high confidence; a doubtful answer shows its rows, then
// the majority's result, the badge, the reasons and the other result,
// which "Use this result" runs in the card.
func TestConfidenceEndToEnd(t *testing.T) {
	needsBrowser(t, "")
	out := reportDir(t)
	fake := ollamatest.New(t)
	fake.Respond(func(req ollamatest.Request) ollamatest.Reply {
		var last string
		for _, m := range req.Messages {
			if m.Role == "user" {
				last = m.Content
			}
		}
		temp, _ := req.Options["temperature"].(float64)
		switch {
		case !strings.Contains(last, "What are the total sales?"): // the earlier question is in its message too
			return ollamatest.Answer("SELECT count(*) AS tracks FROM Track", "Counts the tracks.")
		case temp > 0:
			return ollamatest.Answer("SELECT sum(Total) AS sales FROM Invoice", "Adds up the invoices.")
		case strings.Contains(last, "Milisecond"):
			return ollamatest.Answer("SELECT sum(Milliseconds) AS sales FROM Track", "Adds up the tracks.")
		}
		return ollamatest.Answer("SELECT sum(Milisecond) FROM Track", "x")
	})
	args := []string{out}
	for _, lang := range []string{"en", "fr", "zh"} {
		args = append(args, lang+"="+serveDemo(t, fake.URL, lang))
	}
	runScript(t, "confidence.e2e.mjs", 2*time.Minute, args)
}

// serveDemo starts a browser-mode server on the demo database, its page in
// lang, its Ollama at host, and returns its URL.
func serveDemo(t *testing.T, host, lang string) string {
	deps := wiring.PageDeps("e2e")
	deps.DataDir = t.TempDir()
	svc := page.New(deps, nil, nil)
	t.Cleanup(svc.Close)
	if _, err := svc.Settings.Save(page.SettingsData{OllamaHost: host, Language: lang}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Datasets.OpenDemo(); err != nil {
		t.Fatal(err)
	}
	srv, err := web.New(svc, frontend.Assets())
	if err != nil {
		t.Fatal(err)
	}
	ln, err := srv.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { srv.Serve(ctx, ln); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return srv.URL()
}
