package web_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"querent/app/desktop"
	"querent/app/desktop/wiring"
	"querent/app/web"
	"querent/engine/eval"
	"querent/engine/eval/evaltest"
	"querent/engine/ollama/ollamatest"
	"querent/frontend"
)

// TestEndToEnd drives the page in a real browser (Debian's Chromium through
// playwright-core; frontend/e2e/app.e2e.mjs) against two browser-mode
// servers on the demo database: one with a scripted fake Ollama, one whose
// Ollama is down. make test runs it (QUERENT_E2E=1); it saves a screenshot
// of each screen in $QUERENT_REPORT_DIR/screenshots.
func TestEndToEnd(t *testing.T) {
	if os.Getenv("QUERENT_E2E") == "" {
		t.Skip("set QUERENT_E2E=1 (make e2e): needs the built page, frontend/node_modules and /usr/bin/chromium")
	}
	if !frontend.Built() {
		t.Fatal("the page is not built: run make frontend")
	}
	script, err := filepath.Abs("../../frontend/e2e/app.e2e.mjs")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(script); err != nil {
		t.Fatal(err)
	}
	t.Setenv("QUERENT_DATA_DIR", t.TempDir())
	refused := ollamatest.Answer("DELETE FROM Invoice WHERE InvoiceDate < '2010-01-01'", "Deletes the old invoices.")
	fake := ollamatest.New(t,
		ollamatest.Answer("SELECT ar.Name AS artist, count(*) AS albums FROM Artist ar JOIN Album al USING (ArtistId) GROUP BY ar.ArtistId ORDER BY albums DESC LIMIT 10",
			"Counts albums per artist.", "Which artist has the most tracks?"),
		refused, refused, refused, refused)
	up := serveFor(t, fake.URL)
	down := serveFor(t, "127.0.0.1:1")
	// A third server for "Evaluate models": two models, one answering the
	// built-in Chinook gold set right, one wrong.
	gold, err := eval.Builtin("chinook")
	if err != nil {
		t.Fatal(err)
	}
	evalFake := ollamatest.New(t)
	evalFake.SetModels("qwen2.5-coder:7b", "llama3.1:8b", "nomic-embed-text:latest")
	evalFake.Respond(evaltest.GoldResponder(t, gold, "qwen2.5-coder:7b"))
	evalURL := serveFor(t, evalFake.URL)
	out := t.TempDir()
	if d := os.Getenv("QUERENT_REPORT_DIR"); d != "" {
		out = filepath.Join(d, "screenshots")
		os.MkdirAll(out, 0o755)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", script, up, out, down)
	cmd.Dir = filepath.Dir(filepath.Dir(script))
	cmd.Env = append(os.Environ(), "CHROMIUM="+chromium(), "EVAL_URL="+evalURL)
	b, err := cmd.CombinedOutput()
	t.Logf("%s", b)
	if err != nil {
		t.Fatalf("the end-to-end script failed: %v", err)
	}
	importEndToEnd(t, out) // the import dialog: import_e2e_test.go
	if d := os.Getenv("QUERENT_REPORT_DIR"); d != "" {
		var budgets []string
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "{") {
				budgets = append(budgets, l)
			}
		}
		os.WriteFile(filepath.Join(d, "e2e-budgets.txt"), []byte("END-TO-END BUDGETS (frontend/e2e)\n"+strings.Join(budgets, "\n")+"\n"), 0o644)
	}
}

func chromium() string {
	if c := os.Getenv("CHROMIUM"); c != "" {
		return c
	}
	return "/usr/bin/chromium"
}

// serveFor starts a browser-mode server whose Ollama is at host, with no
// database open, and returns its URL.
func serveFor(t *testing.T, host string) string {
	deps := wiring.DesktopDeps("e2e")
	deps.DataDir = t.TempDir()
	svc := desktop.New(deps, nil, nil)
	t.Cleanup(svc.Close)
	if _, err := svc.Settings.Save(desktop.SettingsData{OllamaHost: host}); err != nil {
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
	return srv.URL() // nothing open: the page starts on its start screen
}
