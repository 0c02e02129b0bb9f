package web_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"querent/app/page"
	"querent/app/web"
	"querent/engine/ollama/ollamatest"
	"querent/engine/openai/openaitest"
	"querent/frontend"
	"querent/internal/wiring"
)

// TestOpenAIEndToEnd drives an OpenAI-compatible server in the real browser
// (frontend/e2e/openai.e2e.mjs): chosen in Settings with its key, its
// models in the panel and no download, a question answered, and the key
// neither in the page nor in any file of the data folder but settings.json.
func TestOpenAIEndToEnd(t *testing.T) {
	needsBrowser(t, "")
	out := reportDir(t)
	const key = "sk-e2e-4c2f81a9"
	fake := openaitest.New(t)
	fake.RequireKey(key)
	fake.SetModels("qwen2.5-coder-7b-instruct", "llama-3.2-3b-instruct", "nomic-embed-text")
	fake.Respond(func(openaitest.Request) ollamatest.Reply {
		return ollamatest.Answer("SELECT count(*) AS tracks FROM Track", "Counts the tracks.")
	})
	dir := t.TempDir()
	deps := wiring.PageDeps("e2e")
	deps.DataDir = dir
	svc := page.New(deps, nil, nil)
	t.Cleanup(svc.Close)
	if _, err := svc.Settings.Save(page.SettingsData{OllamaHost: "127.0.0.1:1"}); err != nil {
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
	runScript(t, "openai.e2e.mjs", 2*time.Minute, []string{srv.URL(), out}, "OPENAI_URL="+fake.URL, "OPENAI_KEY="+key)
	if reqs := fake.Requests(); len(reqs) == 0 || reqs[0].Authorization != "Bearer "+key {
		t.Errorf("the server got %d chats, the first with %q", len(reqs), firstAuth(reqs))
	}
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || filepath.Base(p) == "settings.json" {
			return nil
		}
		if b, _ := os.ReadFile(p); strings.Contains(string(b), key) {
			t.Errorf("%s holds the API key", filepath.Base(p))
		}
		return nil
	})
}

func firstAuth(reqs []openaitest.Request) string {
	if len(reqs) == 0 {
		return ""
	}
	return reqs[0].Authorization
}
