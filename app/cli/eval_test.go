package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"querent/engine/eval/evaltest"

	"querent/engine"
	"querent/engine/eval"
	"querent/engine/ollama"
	"querent/engine/ollama/ollamatest"
	"querent/engine/sqlite"
)

// evalCLI is a CLI wired to a fake Ollama, where the database "demo.sqlite"
// is the bundled demo.
func evalCLI(t *testing.T, fake *ollamatest.Server) *CLI {
	return &CLI{Version: "test",
		Open: func(ctx context.Context, path string, _ engine.OpenOptions) (engine.Database, error) {
			if path == "" || path == "demo.sqlite" {
				return sqlite.OpenDemo(ctx, sqlite.Options{})
			}
			return sqlite.Open(ctx, path, sqlite.Options{})
		},
		Model: func(host string, timeout time.Duration) (engine.Model, error) {
			if host == "" && fake != nil {
				host = fake.URL
			}
			return ollama.New(ollama.Config{Host: host, RequestTimeout: timeout})
		}}
}

const evalGold = evaltest.SmallGold

func writeGold(t *testing.T, text string) string {
	path := filepath.Join(t.TempDir(), "gold.toml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestEvalCommandModel(t *testing.T) {
	topArtist := "SELECT ar.Name, count(*) AS albums FROM Artist ar JOIN Album al USING (ArtistId) GROUP BY ar.ArtistId ORDER BY albums DESC LIMIT 1"
	fake := ollamatest.New(t,
		// Try 1.
		ollamatest.Answer("SELECT count(*) AS tracks FROM Track", "right"),
		ollamatest.Answer(topArtist, "right, with the count"),
		ollamatest.Answer("SELECT Title FROM Album WHERE ArtistId = 22", "the wrong artist"),
		ollamatest.Abstain("", "There are no salaries."),    // right: declines
		ollamatest.Abstain("Which genres do you mean?", ""), // a false refusal
		// Try 2.
		ollamatest.Answer("SELECT count(*) FROM Trak", "a typo, repaired next"),
		ollamatest.Answer("SELECT count(*) FROM Track", "repaired"),
		ollamatest.Answer(topArtist, "right"),
		ollamatest.Answer("SELECT al.Title FROM Album al JOIN Artist ar USING (ArtistId) WHERE ar.Name = 'Iron Maiden'", "right"),
		ollamatest.Answer("SELECT avg(Total) FROM Invoice", "answers what cannot be answered"),
		ollamatest.Answer("SELECT count(*) FROM Genre", "right"),
	)
	c := evalCLI(t, fake)
	gold := writeGold(t, evalGold)
	out := filepath.Join(t.TempDir(), "run")
	code, stdout, errs := runWith(t, c, "", "eval", "--db", "demo.sqlite", "--gold", gold, "--model", "qwen2.5-coder:7b", "--k", "2", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, stdout, errs)
	}
	for _, w := range []string{"Gold set gold (5 questions) on Chinook demo (built in), strict match rule, 2 tries each.", "qwen2.5-coder:7b",
		"execution accuracy   70.0% (7 of 10)", "easy 75.0% (3/4), medium 75.0% (3/4), hard 50.0% (1/2)", "abstention           50.0% of 2 unanswerable",
		"false refusals       1", "pass@2 / pass^2      100.0% / 40.0%", "repairs              1 (on 1 question)",
		"top-artist-albums#1          wrong_result 14 rows, gold has 21", "genres#1                     abstained    a false refusal (clarification_needed): Which genres do you mean?",
		"salaries#2                   wrong_result answered (1 row) a question the schema cannot answer: no salaries", "Written: "} {
		if !strings.Contains(stdout, w) {
			t.Errorf("the output lacks %q:\n%s", w, stdout)
		}
	}
	if !regexp.MustCompile(`tokens +[1-9][0-9,]*`).MatchString(stdout) {
		t.Errorf("no token count (the model server's own, from the answers):\n%s", stdout)
	}
	// The follow-up was asked in the session of the question it follows.
	reqs := fake.Requests()
	if len(reqs) != 11 {
		t.Fatalf("%d requests", len(reqs))
	}
	if msgs := reqs[2].Messages; len(msgs) != 4 || msgs[1].Content != "Which artist has the most albums?" || !strings.HasSuffix(msgs[3].Content, "List that artist's album titles.") {
		t.Errorf("the follow-up did not carry the first question: %+v", msgs[1:])
	}
	if msgs := reqs[8].Messages; len(msgs) != 4 || msgs[1].Content != "Which artist has the most albums?" {
		t.Errorf("the second try's follow-up: %+v", msgs[1:])
	}
	if n := len(reqs[4].Messages); n != 2 {
		t.Errorf("a question outside a chain had %d messages", n)
	}
	if reqs[0].Options["temperature"] != 0.0 {
		t.Errorf("temperature: %v", reqs[0].Options["temperature"])
	}
	// The files.
	var rep map[string]any
	b, _ := os.ReadFile(filepath.Join(out, "report.json"))
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if rep["execution_accuracy"] != 0.7 || rep["pass_at_k"] != 1.0 || rep["pass_hat_k"] != 0.4 || rep["false_refusals"] != 1.0 || rep["model"] != "qwen2.5-coder:7b" {
		t.Errorf("report.json: %s", b)
	}
	md, _ := os.ReadFile(filepath.Join(out, "report.md"))
	if !strings.Contains(string(md), "| execution accuracy | 70.0% (7 of 10) |") || !strings.Contains(string(md), "| repairs used | 1 (on 1 question) |") {
		t.Errorf("report.md:\n%s", md)
	}
	recs, _ := os.ReadFile(filepath.Join(out, "records.jsonl"))
	if n := bytes.Count(recs, []byte("\n")); n != 10 || !bytes.Contains(recs, []byte(`"sql":"SELECT count(*) FROM Trak"`)) {
		t.Errorf("records.jsonl: %d lines\n%s", n, recs)
	}

	// --regrade reproduces the scores, with no model.
	noModel := evalCLI(t, nil)
	noModel.Model = nil
	code, stdout, errs = runWith(t, noModel, "", "eval", "--db", "demo.sqlite", "--gold", gold, "--regrade", filepath.Join(out, "records.jsonl"), "--format", "json")
	var again map[string]any
	if code != 0 || json.Unmarshal([]byte(stdout), &again) != nil {
		t.Fatalf("regrade: exit %d %s %s", code, stdout, errs)
	}
	for _, k := range []string{"execution_accuracy", "abstention", "false_refusals", "pass_at_k", "pass_hat_k", "latency_p50_s", "latency_p95_s", "tokens_total", "by_difficulty"} {
		x, _ := json.Marshal(rep[k])
		y, _ := json.Marshal(again[k])
		if !bytes.Equal(x, y) {
			t.Errorf("regrade %s: %s, was %s", k, y, x)
		}
	}
	if again["source"] != "regrade" {
		t.Errorf("source %v", again["source"])
	}
	// Regraded leniently: nothing here needed it, and the report says the rule.
	code, stdout, _ = runWith(t, noModel, "", "eval", "--db", "demo.sqlite", "--gold", gold, "--regrade", filepath.Join(out, "records.jsonl"), "--lenient")
	if code != 0 || !strings.Contains(stdout, "lenient match rule") || !strings.Contains(stdout, "70.0% (7 of 10)") {
		t.Errorf("lenient regrade: %d %s", code, stdout)
	}
}

func TestEvalCommandSeveralModels(t *testing.T) {
	fake := ollamatest.New(t,
		ollamatest.Answer("SELECT count(*) FROM Track", ""),
		ollamatest.Answer("SELECT count(*) FROM Album", ""),
	)
	fake.SetModels("a:1b", "b:2b")
	gold := writeGold(t, `[[item]]
id = "tracks"
question = "How many tracks?"
difficulty = "easy"
sql = "SELECT count(*) FROM Track"
`)
	out := filepath.Join(t.TempDir(), "run")
	code, stdout, errs := runWith(t, evalCLI(t, fake), "", "eval", "--db", "demo.sqlite", "--gold", gold, "--model", "a:1b,b:2b", "--format", "json", "--out", out)
	var doc struct {
		Models map[string]struct {
			ExecutionAccuracy float64 `json:"execution_accuracy"`
			Model             string  `json:"model"`
		} `json:"models"`
		Errors []any `json:"errors"`
	}
	if code != 0 || json.Unmarshal([]byte(stdout), &doc) != nil {
		t.Fatalf("exit %d: %s %s", code, stdout, errs)
	}
	if doc.Models["a:1b"].ExecutionAccuracy != 1 || doc.Models["b:2b"].ExecutionAccuracy != 0 || doc.Errors == nil {
		t.Errorf("models: %s", stdout)
	}
	if strings.Index(stdout, `"a:1b"`) > strings.Index(stdout, `"b:2b"`) {
		t.Errorf("the models are not in the order they ran:\n%s", stdout)
	}
	md, _ := os.ReadFile(filepath.Join(out, "report.md"))
	if !strings.Contains(string(md), "## Models side by side") || !strings.Contains(string(md), "| a:1b | 100.0% |") || !strings.Contains(string(md), "| b:2b | 0.0% |") {
		t.Errorf("report.md:\n%s", md)
	}
	// The text output puts them side by side too.
	fake2 := ollamatest.New(t, ollamatest.Answer("SELECT count(*) FROM Track", ""), ollamatest.Answer("SELECT count(*) FROM Album", ""))
	fake2.SetModels("a:1b", "b:2b")
	code, stdout, _ = runWith(t, evalCLI(t, fake2), "", "eval", "--db", "demo.sqlite", "--gold", gold, "--model", "a:1b", "--model", "b:2b")
	if code != 0 || !strings.Contains(stdout, "side by side:") || !strings.Contains(stdout, "model  accuracy") {
		t.Errorf("text: %s", stdout)
	}
}

// The gold SQL scored as predictions is 100%, in both forms.
func TestEvalCommandPredictions(t *testing.T) {
	g, err := eval.Builtin("chinook")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var jsonl, text bytes.Buffer
	for _, it := range g.Items {
		if it.Answerable() {
			b, _ := json.Marshal(map[string]string{"id": it.ID, "sql": it.SQL})
			jsonl.Write(append(b, '\n'))
			text.WriteString(it.SQL + "\n")
		} else {
			b, _ := json.Marshal(map[string]string{"id": it.ID, "unanswerable": it.Unanswerable})
			jsonl.Write(append(b, '\n'))
			text.WriteString("-- unanswerable: " + it.Unanswerable + "\n")
		}
	}
	os.WriteFile(filepath.Join(dir, "p.jsonl"), jsonl.Bytes(), 0o644)
	os.WriteFile(filepath.Join(dir, "p.sql"), text.Bytes(), 0o644)
	c := evalCLI(t, nil)
	for _, f := range []string{"p.jsonl", "p.sql"} {
		code, stdout, errs := runWith(t, c, "", "eval", "--gold", "chinook", "--predictions", filepath.Join(dir, f))
		want := "execution accuracy   100.0% (69 of 69)"
		if code != 0 || !strings.Contains(stdout, want) || strings.Contains(stdout, "not matched") {
			t.Errorf("%s: exit %d, want %q:\n%s%s", f, code, want, stdout, errs)
		}
		code, stdout, _ = runWith(t, c, "", "eval", "--gold", "chinook", "--predictions", filepath.Join(dir, f), "--format", "json")
		var doc struct {
			ExecutionAccuracy float64  `json:"execution_accuracy"`
			Abstention        *float64 `json:"abstention"`
			Model             *string  `json:"model"`
			Items             []any    `json:"items"`
		}
		if code != 0 || json.Unmarshal([]byte(stdout), &doc) != nil || doc.ExecutionAccuracy != 1 || *doc.Abstention != 1 || doc.Model != nil || len(doc.Items) != 69 {
			t.Errorf("%s json: %d %.300s", f, code, stdout)
		}
	}
	// A wrong prediction is a mismatch, and still exit 0.
	lines := strings.Split(text.String(), "\n")
	lines[0] = "SELECT count(*) + 1 FROM Track"
	lines[1] = "SELECT nope FROM Customer"
	os.WriteFile(filepath.Join(dir, "bad.sql"), []byte(strings.Join(lines, "\n")), 0o644)
	code, stdout, _ := runWith(t, c, "", "eval", "--gold", "chinook", "--predictions", filepath.Join(dir, "bad.sql"))
	if code != 0 || !strings.Contains(stdout, "tracks-count                 wrong_result gold row (3503) is missing; the prediction has (3504) instead") ||
		!strings.Contains(stdout, "customers-count              failed       the SQL did not run (unknown_column)") {
		t.Errorf("exit %d:\n%s", code, stdout)
	}
}

func TestEvalCommandUsage(t *testing.T) {
	fake := ollamatest.New(t)
	c := evalCLI(t, fake)
	gold := writeGold(t, evalGold)
	bad := writeGold(t, "[[item]]\nid = \"a\"\nquestion = \"q\"\ndifficulty = \"simple\"\nsql = \"SELECT 1\"\n")
	preds := filepath.Join(t.TempDir(), "p.sql")
	os.WriteFile(preds, []byte("SELECT 1\n"), 0o644)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"eval", "--model", "x"}, 2, "no gold set: --gold is required"},
		{[]string{"eval", "--gold", "chinook"}, 2, "give one of --model, --predictions or --regrade"},
		{[]string{"eval", "--gold", "chinook", "--model", "x", "--predictions", preds}, 2, "give one of --model, --predictions or --regrade"},
		{[]string{"eval", "--gold", "chinook", "--predictions", preds, "--k", "2"}, 2, "--k is for --model"},
		{[]string{"eval", "--gold", gold, "--predictions", preds}, 2, "--db is required with the gold set gold"},
		{[]string{"eval", "--gold", bad, "--db", "demo.sqlite", "--predictions", preds}, 2, `gold.toml:1: item 1 (id "a"): difficulty "simple" is not one of easy, medium, hard`},
		{[]string{"eval", "--gold", "nope.toml", "--predictions", preds}, 2, "the gold set nope.toml does not exist (built-in sets: chinook)"},
		{[]string{"eval", "--gold", "chinook", "--model", "no-such-model"}, 2, "model_missing: the model no-such-model is not installed"},
		{[]string{"eval", "--gold", "chinook", "--regrade", preds}, 2, "not a record"},
		{[]string{"eval", "--gold", "chinook", "--predictions", preds, "extra"}, 2, `unexpected argument "extra"`},
		{[]string{"eval", "--gold", "chinook", "--k", "0", "--model", "x"}, 2, "--k must be at least 1"},
		{[]string{"eval", "--help"}, 0, "Usage: querent eval --db FILE --gold GOLD.toml|chinook"},
		{[]string{"eval", "init", "--help"}, 0, "Usage: querent eval init"},
		{[]string{"eval", "init", "--out", "x.toml"}, 2, "no database: --db is required"},
		{[]string{"eval", "init", "--db", "demo.sqlite"}, 2, "no file to write: --out is required"},
	} {
		code, out, errs := runWith(t, c, "", tc.args...)
		if code != tc.code || !strings.Contains(out+errs, tc.want) {
			t.Errorf("%v: exit %d %q %q, want %d with %q", tc.args, code, out, errs, tc.code, tc.want)
		}
	}
	// With --format json, a usage error is a report with errors.
	code, out, _ := runWith(t, c, "", "eval", "--gold", "chinook", "--format", "json")
	var doc struct {
		Items  []any `json:"items"`
		Errors []struct {
			Type string `json:"type"`
		} `json:"errors"`
	}
	if code != 2 || json.Unmarshal([]byte(out), &doc) != nil || doc.Items == nil || len(doc.Errors) != 1 || doc.Errors[0].Type != "usage" {
		t.Errorf("json usage error: %d %s", code, out)
	}
}

func TestEvalInitCommand(t *testing.T) {
	draft, _ := json.Marshal(map[string]any{"items": []map[string]string{
		{"question": "How many tracks are there?", "difficulty": "easy", "sql": "SELECT count(*) FROM Track"},
		{"question": "Which artist has the most albums?", "difficulty": "medium", "sql": "SELECT ar.Name FROM Artist ar JOIN Album al USING (ArtistId) GROUP BY ar.ArtistId ORDER BY count(*) DESC LIMIT 1"},
		{"question": "Invoices in 1990?", "difficulty": "easy", "sql": "SELECT * FROM Invoice WHERE InvoiceDate < '1991-01-01'"},
		{"question": "Broken", "difficulty": "hard", "sql": "SELECT FROM"},
	}})
	fake := ollamatest.New(t, ollamatest.Reply{Content: string(draft)}, ollamatest.Reply{Content: string(draft)})
	c := evalCLI(t, fake)
	out := filepath.Join(t.TempDir(), "mine.toml")
	code, stdout, errs := runWith(t, c, "", "eval", "init", "--db", "demo.sqlite", "--out", out, "--n", "2")
	if code != 0 || !strings.Contains(stdout, "Wrote 2 questions drafted by qwen2.5-coder:7b to "+out) || !strings.Contains(stdout, "Review every item") {
		t.Fatalf("exit %d: %s %s", code, stdout, errs)
	}
	b, _ := os.ReadFile(out)
	if !strings.HasPrefix(string(b), "# Gold set drafted by querent eval init") {
		t.Errorf("no header:\n%s", b)
	}
	g, err := eval.Parse(out, b)
	if err != nil || len(g.Items) != 2 {
		t.Fatalf("the draft does not parse: %v\n%s", err, b)
	}
	req := fake.Requests()[0]
	if req.Options["temperature"] != 0.0 || !strings.Contains(string(req.Format), `"difficulty"`) || !strings.Contains(req.Messages[0].Content, "CREATE TABLE Invoice") {
		t.Errorf("request: %+v", req)
	}
	// An existing file is kept without --force.
	code, _, errs = runWith(t, c, "", "eval", "init", "--db", "demo.sqlite", "--out", out, "--n", "2")
	if code != 1 || !strings.Contains(errs, "already exists") {
		t.Errorf("existing file: %d %s", code, errs)
	}
	code, stdout, errs = runWith(t, c, "", "eval", "init", "--db", "demo.sqlite", "--out", out, "--n", "5", "--force", "--format", "json")
	var doc struct {
		Items, Dropped int
		Errors         []any
	}
	if code != 0 || json.Unmarshal([]byte(stdout), &doc) != nil || doc.Items != 2 || doc.Dropped != 2 {
		t.Errorf("--force: %d %s %s", code, stdout, errs)
	}
	// The draft evaluates.
	preds := filepath.Join(t.TempDir(), "p.sql")
	os.WriteFile(preds, []byte("SELECT count(*) FROM Track\n"), 0o644)
	code, stdout, _ = runWith(t, c, "", "eval", "--db", "demo.sqlite", "--gold", out, "--predictions", preds)
	if code != 0 || !strings.Contains(stdout, "50.0% (1 of 2)") {
		t.Errorf("evaluating the draft: %d %s", code, stdout)
	}
}

// TestRealOllamaEval runs querent eval against a real Ollama server (make
// ollama starts one) with a scripted model that always writes one query:
// right for one question, wrong for the other, and the token counts of the
// report are the server's own.
func TestRealOllamaEval(t *testing.T) {
	host := ollamatest.RealHost(t)
	ollamatest.Scripted(t, host, "qa-eval-tracks", ollamatest.SQLAnswer("SELECT count(*) AS n FROM Track"), 32768)
	gold := writeGold(t, `[[item]]
id = "tracks"
question = "How many tracks are there?"
difficulty = "easy"
sql = "SELECT count(*) FROM Track"

[[item]]
id = "albums"
question = "How many albums are there?"
difficulty = "easy"
sql = "SELECT count(*) FROM Album"
`)
	out := filepath.Join(t.TempDir(), "run")
	code, stdout, errs := runWith(t, evalCLI(t, nil), "", "eval", "--db", "demo.sqlite", "--gold", gold, "--ollama", host, "--model", "qa-eval-tracks",
		"--model-timeout", "360s", "--format", "json", "--out", out)
	var doc struct {
		Items []struct {
			ID, Outcome string
			Tokens      int
		} `json:"items"`
		TokensTotal int `json:"tokens_total"`
		Errors      []engine.ErrorDoc
	}
	if code != 0 || json.Unmarshal([]byte(stdout), &doc) != nil {
		t.Fatalf("exit %d: %s %s", code, stdout, errs)
	}
	if len(doc.Items) != 2 || doc.TokensTotal <= 0 || len(doc.Errors) != 0 {
		t.Errorf("report: %s", stdout)
	}
	outcomes := map[string]string{}
	for _, it := range doc.Items {
		outcomes[it.ID] = it.Outcome
		if it.Tokens <= 0 {
			t.Errorf("%+v", it)
		}
	}
	if outcomes["tracks"] != "match" || outcomes["albums"] != "wrong_result" {
		t.Errorf("outcomes %v", outcomes)
	}
	if _, err := os.Stat(filepath.Join(out, "records.jsonl")); err != nil {
		t.Error(err)
	}
}
