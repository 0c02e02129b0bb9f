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
	"querent/engine/ollama"
	"querent/engine/ollama/ollamatest"
	"querent/engine/sqlite"
)

// askCLI is a CLI wired to a fake Ollama and a history in a temporary folder.
func askCLI(t *testing.T, fake *ollamatest.Server) *CLI {
	dir := t.TempDir()
	return &CLI{Open: open, Version: "test",
		Model: func(host string, timeout time.Duration) (engine.Model, error) {
			if host == "" {
				host = fake.URL
			}
			return ollama.New(ollama.Config{Host: host, RequestTimeout: timeout})
		},
		History: func(ctx context.Context) (engine.History, func(), error) {
			h, err := sqlite.OpenHistory(ctx, filepath.Join(dir, "history.sqlite"))
			if err != nil {
				return nil, nil, err
			}
			return h, func() { h.Close() }, nil
		}}
}

func runWith(t *testing.T, c *CLI, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb strings.Builder
	code := c.Run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func TestAskCommand(t *testing.T) {
	fake := ollamatest.New(t,
		ollamatest.Answer("SELECT ar.Name AS artist, count(*) AS albums FROM Artist ar JOIN Album al USING (ArtistId) GROUP BY ar.ArtistId ORDER BY albums DESC LIMIT 1",
			"Counts albums per artist and keeps the first.", "Which artist has the most tracks?"),
		ollamatest.Answer("SELECT Titel FROM Album", "x"),
		ollamatest.Answer("SELECT Title FROM Album LIMIT 2", "Two album titles."))
	c := askCLI(t, fake)
	code, out, errs := runWith(t, c, "", "ask", "Which artist has the most albums?")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"SQL by qwen2.5-coder:7b:", "SELECT ar.Name AS artist", "Iron Maiden", "(1 row,", "Counts albums per artist", "You could ask next:", "Which artist has the most tracks?"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// A repaired question, as JSON: attempts with their errors.
	code, out, _ = runWith(t, c, "", "ask", "--format", "json", "Two album titles")
	var doc map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil {
		t.Fatalf("exit %d: %s", code, out)
	}
	att := doc["attempts"].([]any)
	if len(att) != 2 || att[0].(map[string]any)["error"].(map[string]any)["type"] != "unknown_column" || doc["question"] != "Two album titles" || doc["model"] != "qwen2.5-coder:7b" {
		t.Errorf("json answer: %s", out)
	}
	// The history has both questions.
	code, out, _ = runWith(t, c, "", "history", "--format", "json")
	var h struct {
		Entries []engine.HistoryEntry `json:"entries"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &h) != nil || len(h.Entries) != 2 || h.Entries[0].Question != "Two album titles" || h.Entries[1].Model != "qwen2.5-coder:7b" {
		t.Errorf("history: %s", out)
	}
	code, out, _ = runWith(t, c, "", "history")
	if code != 0 || !strings.Contains(out, "Which artist has the most albums?") {
		t.Errorf("history text: %s", out)
	}
}

func TestAskCommandSessionAndAbstain(t *testing.T) {
	fake := ollamatest.New(t,
		ollamatest.Answer("SELECT BillingCountry, count(*) AS n FROM Invoice GROUP BY 1 ORDER BY 2 DESC LIMIT 3", "Invoices per country."),
		ollamatest.Answer("SELECT BillingCountry, count(*) AS n FROM Invoice WHERE strftime('%Y', InvoiceDate) = '2012' GROUP BY 1 ORDER BY 2 DESC LIMIT 3", "The same for 2012."),
		ollamatest.Abstain("", "The database has no salaries."))
	c := askCLI(t, fake)
	sess := filepath.Join(t.TempDir(), "s.json")
	if code, _, errs := runWith(t, c, "", "ask", "--session", sess, "Top countries by invoices"); code != 0 {
		t.Fatal(errs)
	}
	if code, _, errs := runWith(t, c, "", "ask", "--session", sess, "and only 2012"); code != 0 {
		t.Fatal(errs)
	}
	reqs := fake.Requests()
	if msgs := reqs[1].Messages; len(msgs) != 4 || msgs[1].Content != "Top countries by invoices" {
		t.Errorf("the follow-up did not carry the session: %+v", msgs)
	}
	b, _ := os.ReadFile(sess)
	var s engine.Session
	if json.Unmarshal(b, &s) != nil || len(s.Turns) != 2 {
		t.Errorf("session file: %s", b)
	}
	code, out, errs := runWith(t, c, "", "ask", "What is the average salary?")
	if code != 1 || !strings.Contains(out, "This database cannot answer that: The database has no salaries.") || !strings.Contains(errs, "hint:") {
		t.Errorf("unanswerable: exit %d %q %q", code, out, errs)
	}
}

func TestAskCommandInputAndSQL(t *testing.T) {
	fake := ollamatest.New(t, ollamatest.Answer("SELECT count(*) AS n FROM Track", "Counts tracks."))
	c := askCLI(t, fake)
	req := `{"question": "How many tracks?", "connection": {"db_type": "sqlite", "host": ""}, "max_rows": 5, "timeout_s": 10, "session_context": {}, "explain_results": true}`
	code, out, errs := runWith(t, c, req, "ask", "--input", "-")
	var doc struct {
		Results        []map[string]any `json:"results"`
		SessionContext map[string]any   `json:"session_context"`
		Errors         []any            `json:"errors"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil || doc.Results[0]["n"] != 3503.0 || doc.SessionContext["turns"] == nil {
		t.Fatalf("--input: exit %d %s %s", code, out, errs)
	}
	// A question that is SQL runs as SQL, without the model.
	code, out, _ = runWith(t, c, `{"question": "SELECT count(*) AS albums FROM Album", "connection": {"host": ""}}`, "ask", "--input", "-")
	if code != 0 || !strings.Contains(out, `"albums": 347`) || len(fake.Requests()) != 2 {
		t.Errorf("SQL question: exit %d %s", code, out)
	}
	// A write sent as a question is refused, never sent to the model.
	code, out, _ = runWith(t, c, `{"question": "DELETE FROM Track", "connection": {"host": ""}}`, "ask", "--input", "-")
	if code != 1 || !strings.Contains(out, `"refused"`) || len(fake.Requests()) != 2 {
		t.Errorf("write question: exit %d %s", code, out)
	}
	for _, bad := range []struct{ req, want string }{
		{`{"question": "x", "read_only": false}`, "read_only cannot be switched off"},
		{`{"question": "x", "connection": {"db_type": "mysql"}}`, "not supported"},
		{`{"question": "x", "connection": {"db_type": "postgresql", "ssl": "maybe"}}`, "not valid JSON"},
		{`{"nope": 1}`, "no question"},
		{`not json`, "not valid JSON"},
	} {
		code, out, _ := runWith(t, c, bad.req, "ask", "--input", "-")
		if code != 2 || !strings.Contains(out, bad.want) {
			t.Errorf("%s: exit %d %s", bad.req, code, out)
		}
	}
}

func TestAskCommandOllamaDown(t *testing.T) {
	c := askCLI(t, ollamatest.New(t))
	code, _, errs := runWith(t, c, "", "ask", "--ollama", "127.0.0.1:1", "How many tracks?")
	if code != 2 || !strings.Contains(errs, "llm_unavailable") || !strings.Contains(errs, "ollama serve") {
		t.Errorf("exit %d %s", code, errs)
	}
	fake := ollamatest.New(t)
	fake.SetModels("nomic-embed-text:latest")
	c = askCLI(t, fake)
	code, _, errs = runWith(t, c, "", "ask", "How many tracks?")
	if code != 2 || !strings.Contains(errs, "model_missing") || !strings.Contains(errs, "ollama pull qwen2.5-coder") {
		t.Errorf("no chat model: exit %d %s", code, errs)
	}
	code, _, errs = runWith(t, c, "", "ask", "--model", "llama3.2", "How many tracks?")
	if code != 2 || !strings.Contains(errs, "ollama pull llama3.2") {
		t.Errorf("missing model: exit %d %s", code, errs)
	}
}

func TestAskCommandPull(t *testing.T) {
	fake := ollamatest.New(t, ollamatest.Answer("SELECT count(*) AS n FROM Genre", "Counts genres."))
	fake.SetModels()
	c := askCLI(t, fake)
	code, out, errs := runWith(t, c, "", "ask", "--pull", "--model", "sqlcoder:7b", "How many genres?")
	if code != 0 || !strings.Contains(errs, "downloading sqlcoder:7b") || !strings.Contains(errs, "sqlcoder:7b is installed") || !strings.Contains(out, "SQL by sqlcoder:7b") {
		t.Errorf("pull: exit %d\n%s\n%s", code, out, errs)
	}
	code, _, errs = runWith(t, c, "", "ask", "--pull", "--model", "no-such-model", "How many genres?")
	if code != 2 || !strings.Contains(errs, "model_missing") {
		t.Errorf("failed pull: exit %d %s", code, errs)
	}
}

// TestRealOllamaAsk runs querent ask against a real Ollama server (make
// ollama starts one) with a scripted model that writes the SQL in a few
// tokens: the question's rows, the JSON document with the server's counts,
// the database untouched. Nothing waits on a model writing filler.
func TestRealOllamaAsk(t *testing.T) {
	host := ollamatest.RealHost(t)
	ollamatest.Scripted(t, host, "qa-cli-tracks", ollamatest.SQLAnswer("SELECT count(*) AS n FROM Track"), 32768)
	c := askCLI(t, ollamatest.New(t))
	code, out, errs := runWith(t, c, "", "ask", "--ollama", host, "--model", "qa-cli-tracks", "--no-explain", "--model-timeout", "360s",
		"--format", "json", "How many tracks are there?")
	var doc struct {
		Results    []map[string]any   `json:"results"`
		Attempts   []engine.Attempt   `json:"attempts"`
		Errors     []engine.ErrorDoc  `json:"errors"`
		Model      string             `json:"model"`
		ModelStats *engine.ModelStats `json:"model_stats"`
		TimeToRows *float64           `json:"time_to_rows_s"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("exit %d, not JSON: %v\n%s\n%s", code, err, out, errs)
	}
	if code != 0 || len(doc.Results) != 1 || doc.Results[0]["n"] != 3503.0 || len(doc.Attempts) != 1 || !strings.HasPrefix(doc.Model, "qa-cli-tracks") {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	if doc.ModelStats == nil || len(doc.ModelStats.Rounds) != 1 || doc.ModelStats.Rounds[0].PromptTokens == 0 || doc.TimeToRows == nil {
		t.Errorf("model stats %+v, time to rows %v", doc.ModelStats, doc.TimeToRows)
	}
	t.Logf("rows after %.2fs: %+v", *doc.TimeToRows, doc.ModelStats.Rounds)
}

// With --session, an unrelated question starts the conversation anew and a
// follow-up carries it; --follow-up yes and the request's follow_up decide
// instead (issue 25).
func TestAskCommandFollowUpChoice(t *testing.T) {
	fake := ollamatest.New(t)
	fake.Respond(func(ollamatest.Request) ollamatest.Reply {
		return ollamatest.Answer("SELECT count(*) AS n FROM Artist", "Counts the artists.")
	})
	c := askCLI(t, fake)
	sess := filepath.Join(t.TempDir(), "s.json")
	contextOf := func(args ...string) []engine.Turn {
		t.Helper()
		code, out, errs := runWith(t, c, "", append([]string{"ask", "--session", sess, "--no-explain", "--format", "json"}, args...)...)
		var ans struct {
			ContextUsed []engine.Turn `json:"context_used"`
		}
		if code != 0 || json.Unmarshal([]byte(out), &ans) != nil {
			t.Fatalf("exit %d: %s %s", code, out, errs)
		}
		return ans.ContextUsed
	}
	contextOf("Which artist has the most albums?")
	if got := contextOf("Top 10 customers"); len(got) != 0 {
		t.Errorf("an unrelated question was read with the session: %+v", got)
	}
	if got := contextOf("and for 2012?"); len(got) != 1 || got[0].Question != "Top 10 customers" {
		t.Errorf("a follow-up: %+v", got)
	}
	if got := contextOf("--follow-up", "yes", "Count the genres"); len(got) != 2 {
		t.Errorf("--follow-up yes: %+v", got)
	}
	if got := contextOf("--follow-up", "no", "and of those?"); len(got) != 0 {
		t.Errorf("--follow-up no: %+v", got)
	}
	b, _ := os.ReadFile(sess)
	req := `{"question": "Count the media types", "connection": {"db_type": "sqlite", "host": ""}, "follow_up": true, "explain_results": false, "session_context": ` + string(b) + `}`
	code, out, errs := runWith(t, c, req, "ask", "--input", "-")
	var ans struct {
		ContextUsed []engine.Turn `json:"context_used"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &ans) != nil || len(ans.ContextUsed) != 1 || ans.ContextUsed[0].Question != "and of those?" {
		t.Errorf("follow_up: true in the request: exit %d %s %s", code, out, errs)
	}
}
