package web_test

import (
	"context"
	"database/sql"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"querent/app/page"
	"querent/app/web"
	"querent/engine/eval"
	"querent/engine/eval/evaltest"
	"querent/engine/ollama/ollamatest"
	"querent/frontend"
	"querent/internal/wiring"
)

// TestEndToEnd drives the page in a real browser (Debian's Chromium through
// playwright-core; frontend/e2e/app.e2e.mjs) against two browser-mode
// servers on the demo database: one with a scripted fake Ollama, one whose
// Ollama is down. make test runs it (QUERENT_E2E=1); it saves a screenshot
// of each screen in $QUERENT_REPORT_DIR/screenshots.
func TestEndToEnd(t *testing.T) {
	needsBrowser(t, "")
	t.Setenv("QUERENT_DATA_DIR", t.TempDir())
	fake := ollamatest.New(t)
	fake.Respond(e2eResponder(t))
	up := serveFor(t, fake.URL, "")
	down := serveFor(t, "127.0.0.1:1", "")
	// A generated database for the workspace: a 100,000-row table to page
	// through, 576 days to chart, long text, JSON and blobs for the grid.
	big := serveFor(t, fake.URL, bigDB(t))
	// A third server for "Evaluate models": two models, one answering the
	// built-in Chinook gold set right, one wrong.
	gold, err := eval.Builtin("chinook")
	if err != nil {
		t.Fatal(err)
	}
	evalFake := ollamatest.New(t)
	evalFake.SetModels("qwen2.5-coder:7b", "llama3.1:8b", "nomic-embed-text:latest")
	evalFake.Respond(evaltest.GoldResponder(t, gold, "qwen2.5-coder:7b"))
	evalURL := serveFor(t, evalFake.URL, "")
	out := reportDir(t)
	b := runScript(t, "app.e2e.mjs", 5*time.Minute, []string{up, out, down}, "EVAL_URL="+evalURL, "BIG_URL="+big)
	checkFormats(t, filepath.Join(out, "top-10-customers-by-spending.xlsx"))
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

// needsBrowser skips t unless the browser tests are asked for
// (QUERENT_E2E, which make e2e sets), and fails it when the page is not
// built; needs names what else the test needs, for the skip's message.
func needsBrowser(t *testing.T, needs string) {
	t.Helper()
	if os.Getenv("QUERENT_E2E") == "" {
		t.Skip("set QUERENT_E2E=1 (make e2e): needs the built page, frontend/node_modules, /usr/bin/chromium" + needs)
	}
	if !frontend.Built() {
		t.Fatal("the page is not built: run make frontend")
	}
}

// runScript runs the browser script frontend/e2e/NAME with node and args,
// Chromium and env in its environment, within limit; it logs what the
// script printed and fails t when it fails.
func runScript(t *testing.T, name string, limit time.Duration, args []string, env ...string) []byte {
	t.Helper()
	script, err := filepath.Abs(filepath.Join("../../frontend/e2e", name))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(script); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", append([]string{script}, args...)...)
	cmd.Dir = filepath.Dir(filepath.Dir(script))
	cmd.Env = append(append(os.Environ(), "CHROMIUM="+chromium()), env...)
	b, err := cmd.CombinedOutput()
	t.Logf("%s", b)
	if err != nil {
		t.Fatalf("the browser script %s failed: %v", name, err)
	}
	return b
}

// reportDir is where the screenshots go: $QUERENT_REPORT_DIR/screenshots,
// else a temporary folder.
func reportDir(t *testing.T) string {
	if d := os.Getenv("QUERENT_REPORT_DIR"); d != "" {
		out := filepath.Join(d, "screenshots")
		os.MkdirAll(out, 0o755)
		return out
	}
	return t.TempDir()
}

func chromium() string {
	if c := os.Getenv("CHROMIUM"); c != "" {
		return c
	}
	return "/usr/bin/chromium"
}

// serveFor starts a browser-mode server whose Ollama is at host, with the
// database at open open ("": none, the page starts on its start screen),
// and returns its URL.
func serveFor(t *testing.T, host, open string) string {
	return serveIn(t, host, open, t.TempDir())
}

// serveIn is serveFor with its data folder (settings, history, saved
// connections) in dir.
func serveIn(t *testing.T, host, open, dir string) string {
	return serveLang(t, host, open, dir, "")
}

// serveLang is serveIn with the page in lang ("" follows the browser).
func serveLang(t *testing.T, host, open, dir, lang string) string {
	deps := wiring.PageDeps("e2e")
	deps.DataDir = dir
	svc := page.New(deps, nil, nil)
	t.Cleanup(svc.Close)
	if _, err := svc.Settings.Save(page.SettingsData{OllamaHost: host, Language: lang}); err != nil {
		t.Fatal(err)
	}
	if open != "" {
		if _, err := svc.Datasets.Open(open); err != nil {
			t.Fatal(err)
		}
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

// The questions the scripted model answers (frontend/e2e/app.e2e.mjs asks
// them), with their SQL, explanation and follow-ups.
var e2eAnswers = []struct {
	question string
	reply    ollamatest.Reply
}{
	{"Which artist has the most albums?", ollamatest.Answer("SELECT ar.Name AS artist, count(*) AS albums FROM Artist ar JOIN Album al USING (ArtistId) GROUP BY ar.ArtistId ORDER BY albums DESC LIMIT 10",
		"Counts albums per artist.", "Which artist has the most tracks?")},
	{"Which artist has the most tracks?", ollamatest.Answer("SELECT ar.Name AS artist, count(*) AS tracks FROM Artist ar JOIN Album al USING (ArtistId) JOIN Track t USING (AlbumId) GROUP BY ar.ArtistId ORDER BY tracks DESC LIMIT 10",
		"Counts tracks per artist.", "And their albums?")},
	{"Delete the old invoices", ollamatest.Answer("DELETE FROM Invoice WHERE InvoiceDate < '2010-01-01'", "Deletes the old invoices.")},
	{"How much do we pay in salaries?", ollamatest.Abstain("", "the tables hold no salaries: Employee has names, titles and addresses, not pay")},
	{"Top 10 customers by spending", ollamatest.Answer(`SELECT c.CustomerId, c.FirstName || ' ' || c.LastName AS customer, c.Country AS country, count(*) AS invoices,
  sum(i.Total) AS total_spent, sum(i.Total) / (SELECT sum(Total) FROM Invoice) AS share_of_sales,
  100.0 * sum(i.Total) / (SELECT sum(Total) FROM Invoice) AS pct_of_sales, max(i.InvoiceDate) AS last_invoice
FROM Customer c JOIN Invoice i USING (CustomerId) GROUP BY c.CustomerId ORDER BY total_spent DESC LIMIT 10`,
		"The ten customers who spent the most, with their share of all sales.", "Which countries are they from?")},
	{"A slow question", ollamatest.Reply{Content: ollamatest.SQLAnswer("SELECT 1 AS n"), Delay: time.Minute}},
}

// e2eResponder answers each question of e2eAnswers: the one that appears
// last in the request's last user message (the question comes last, after
// the examples from the history), matched without regard to case, so that
// "Select the top 10 customers by spending" gets the top 10's answer.
func e2eResponder(t *testing.T) func(ollamatest.Request) ollamatest.Reply {
	return func(req ollamatest.Request) ollamatest.Reply {
		var last string
		for _, m := range req.Messages {
			if m.Role == "user" {
				last = strings.ToLower(m.Content)
			}
		}
		best, at := -1, -1
		for i, a := range e2eAnswers {
			if j := strings.LastIndex(last, strings.ToLower(a.question)); j > at || (j == at && j >= 0 && len(a.question) > len(e2eAnswers[best].question)) {
				best, at = i, j
			}
		}
		if best < 0 {
			t.Errorf("e2e: the scripted model got a question it does not know: %.300s", last)
			return ollamatest.Abstain("", "the scripted model does not know this question")
		}
		return e2eAnswers[best].reply
	}
}

// bigDB writes the generated database of the workspace's tests: events
// (100,000 rows: an id, a day, a country — "United Kingdom" among them —,
// an amount, a long note or a JSON document, a blob now and then) and daily
// (576 days of cases, 2020-01-22 on).
func bigDB(t *testing.T) string {
	path := filepath.Join(t.TempDir(), "workspace.sqlite")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		`CREATE TABLE events(id INTEGER PRIMARY KEY, day DATE, country TEXT, amount REAL, note TEXT, payload BLOB)`,
		`WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 100000)
INSERT INTO events SELECT i, date('2020-01-01', '+' || (i % 1000) || ' days'),
  CASE i % 5 WHEN 0 THEN 'United Kingdom' WHEN 1 THEN 'Germany' WHEN 2 THEN 'United States of America' WHEN 3 THEN 'Brazil' ELSE 'Côte d''Ivoire' END,
  round((i * 7919 % 100000) / 100.0, 2),
  CASE WHEN i % 10 = 0 THEN '{"id": ' || i || ', "tags": ["new", "priority"], "ok": true}'
       ELSE 'Event ' || i || ': ' || printf('%.*c', 60 + i % 120, 'x') || ' (end)' END,
  CASE WHEN i % 50 = 0 THEN x'00ff10203040506070809a' ELSE NULL END
FROM r`,
		`CREATE TABLE daily(id INTEGER PRIMARY KEY, day DATE, cases INTEGER)`,
		`WITH RECURSIVE r(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM r WHERE i < 575)
INSERT INTO daily SELECT i + 1, date('2020-01-22', '+' || i || ' days'), 1000 + (i * 37 % 101) + 3 * i FROM r`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// checkFormats reads the workbook the page exported for "Top 10 customers
// by spending" and checks that its cells carry the number formats a person
// would give them.
func checkFormats(t *testing.T, path string) {
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatalf("the exported workbook: %v", err)
	}
	defer f.Close()
	want := map[string]string{
		"CustomerId": "", "customer": "", "country": "", "invoices": "#,##0", "total_spent": "#,##0.00",
		"share_of_sales": "0.0%", "pct_of_sales": `0.0"%"`, "last_invoice": "yyyy-mm-dd hh:mm:ss",
	}
	head, err := f.GetRows("Data")
	if err != nil || len(head) != 11 {
		t.Fatalf("the Data sheet: %v, %d rows (want the header and 10)", err, len(head))
	}
	for j, name := range head[0] {
		w, ok := want[name]
		if !ok {
			t.Errorf("unexpected column %s", name)
			continue
		}
		for _, row := range []int{2, 11} {
			cell, _ := excelize.CoordinatesToCellName(j+1, row)
			id, _ := f.GetCellStyle("Data", cell)
			st, _ := f.GetStyle(id)
			got := ""
			if st != nil && st.CustomNumFmt != nil {
				got = *st.CustomNumFmt
			}
			if got != w {
				t.Errorf("%s (%s): number format %q, want %q", cell, name, got, w)
			}
		}
	}
	if v, _ := f.GetCellValue("Data", "E2"); !strings.Contains(v, ".") || !strings.Contains(v, "4") {
		t.Errorf("total_spent shows %q", v)
	}
	if sheets := f.GetSheetList(); len(sheets) != 4 || sheets[3] != "Chart" {
		t.Errorf("sheets %v: want the chart on screen on a Chart sheet", sheets)
	}
	note, _ := f.GetCellValue("Chart", "A1")
	if !strings.HasPrefix(note, "Bar (column) chart of total_spent by customer") {
		t.Errorf("the chart exported is not the one on screen: %q", note)
	}
	t.Logf("%s: number formats and the chart checked", filepath.Base(path))
}
