package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"querent/engine"
	"querent/engine/ollama/ollamatest"
)

type historyJSON struct {
	Entries []struct {
		ID          int64  `json:"id"`
		Question    string `json:"question"`
		SQL         string `json:"sql"`
		RowCount    int    `json:"row_count"`
		VerifiedAs  string `json:"verified_as"`
		OriginalSQL string `json:"original_sql"`
	} `json:"entries"`
}

const (
	wrongBest = "SELECT Name FROM Track ORDER BY Milliseconds DESC LIMIT 1"
	rightBest = "SELECT t.Name FROM InvoiceLine il JOIN Track t USING (TrackId) GROUP BY t.TrackId ORDER BY sum(il.Quantity) DESC, t.TrackId LIMIT 1"
)

// TestHistoryApproveAndCorrect: the analyst's way from an answer nobody
// checked to a verified example, on the command line: the ids in the
// history, a correction that does not compile refused (the entry as it
// was), one that runs replacing the answer, an approval; then a new
// question's prompt quotes them as verified and the answer lists them.
func TestHistoryApproveAndCorrect(t *testing.T) {
	db := chinookCopy(t)
	fake := ollamatest.New(t,
		ollamatest.Answer(wrongBest, "The longest track."),
		ollamatest.Answer("SELECT count(*) FROM Track", "3,503 tracks."),
		ollamatest.Answer(rightBest, "The best seller."))
	c := askCLI(t, fake)
	for _, q := range []string{"Which track sold best?", "How many tracks are there?"} {
		if code, _, errs := runWith(t, c, "", "ask", "--db", db, q); code != 0 {
			t.Fatalf("ask %q: exit %d: %s", q, code, errs)
		}
	}
	hist := func() historyJSON {
		t.Helper()
		code, out, errs := runWith(t, c, "", "history", "--format", "json")
		var h historyJSON
		if code != 0 || json.Unmarshal([]byte(out), &h) != nil || len(h.Entries) < 2 {
			t.Fatalf("history: exit %d: %s %s", code, out, errs)
		}
		return h
	}
	h := hist()
	best, count := h.Entries[1], h.Entries[0]
	if best.Question != "Which track sold best?" || best.ID == 0 || best.VerifiedAs != "" || count.ID == best.ID {
		t.Fatalf("history entries: %+v", h.Entries)
	}
	id := fmt.Sprint(best.ID)
	code, _, errs := runWith(t, c, "", "history", "correct", "--sql", strings.Replace(rightBest, "Quantity", "Quantiti", 1), id)
	if code != 1 || !strings.Contains(errs, "unknown_column: the correction of entry "+id+" was refused, the answer is unchanged") || !strings.Contains(errs, "Quantity") {
		t.Errorf("a correction that does not compile: exit %d\n%s", code, errs)
	}
	if h = hist(); h.Entries[1].SQL != wrongBest || h.Entries[1].VerifiedAs != "" {
		t.Errorf("a refused correction changed the entry: %+v", h.Entries[1])
	}
	code, out, errs := runWith(t, c, "", "history", "correct", "--sql", "-", id)
	if code != 2 || !strings.Contains(errs, "--sql SQL") {
		t.Errorf("no SQL on standard input: exit %d %s %s", code, out, errs)
	}
	code, out, errs = runWith(t, c, rightBest, "history", "correct", "--sql", "-", id)
	if code != 0 || !strings.Contains(out, "Balls to the Wall") || !strings.Contains(errs, "Corrected #"+id) {
		t.Fatalf("correct: exit %d\n%s\n%s", code, out, errs)
	}
	if code, out, errs = runWith(t, c, "", "history", "approve", fmt.Sprint(count.ID)); code != 0 || !strings.Contains(out, "Approved #") {
		t.Fatalf("approve: exit %d %s %s", code, out, errs)
	}
	h = hist()
	if e := h.Entries[1]; e.SQL != rightBest || e.OriginalSQL != wrongBest || e.VerifiedAs != "corrected" || e.RowCount != 1 || h.Entries[0].VerifiedAs != "approved" {
		t.Errorf("after correcting and approving: %+v", h.Entries)
	}
	if code, _, errs = runWith(t, c, "", "history", "approve", "x12"); code != 2 || !strings.Contains(errs, "querent history --format json lists the entries") {
		t.Errorf("a bad id: exit %d %s", code, errs)
	}
	// A later question, in a new session: the corrected SQL is quoted as
	// verified, the model's first one is not.
	code, out, errs = runWith(t, c, "", "ask", "--db", db, "--format", "json", "which track sold the most copies")
	var ans struct {
		ExamplesUsed []engine.ExampleUsed `json:"examples_used"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &ans) != nil {
		t.Fatalf("ask: exit %d %s %s", code, out, errs)
	}
	prompt := lastMessage(fake.Requests()[len(fake.Requests())-2])
	if !strings.Contains(prompt, "verified on this database") || !strings.Contains(prompt, rightBest) || strings.Contains(prompt, wrongBest) {
		t.Errorf("the prompt's examples:\n%s", prompt)
	}
	// The most like question first; the count shares its table.
	if len(ans.ExamplesUsed) != 2 || ans.ExamplesUsed[0].ID != best.ID || ans.ExamplesUsed[0].VerifiedAs != "corrected" || ans.ExamplesUsed[0].SQL != rightBest {
		t.Errorf("examples_used %+v", ans.ExamplesUsed)
	}
}

// TestVerifiedGoldShared: the verified answers, exported as a gold set,
// imported into a teammate's history (an item the guard refuses does not
// count), and scored by querent eval --gold verified against what their
// SQL returns now.
func TestVerifiedGoldShared(t *testing.T) {
	db := chinookCopy(t)
	fake := ollamatest.New(t, ollamatest.Answer(wrongBest, "x"), ollamatest.Answer("SELECT count(*) FROM Track", "x"))
	c := askCLI(t, fake)
	for _, q := range []string{"Which track sold best?", "How many tracks are there?"} {
		if code, _, errs := runWith(t, c, "", "ask", "--db", db, "--no-explain", q); code != 0 {
			t.Fatalf("ask %q: exit %d: %s", q, code, errs)
		}
	}
	if code, _, errs := runWith(t, c, "", "eval", "--db", db, "--gold", "verified", "--predictions", "x.jsonl"); code != 2 || !strings.Contains(errs, "has no verified answers yet") || !strings.Contains(errs, "querent history approve ID") {
		t.Errorf("nothing verified: exit %d %s", code, errs)
	}
	runWith(t, c, "", "history", "approve", "2")
	if code, _, errs := runWith(t, c, "", "history", "correct", "--sql", rightBest, "1"); code != 0 {
		t.Fatalf("correct: exit %d %s", code, errs)
	}
	team := filepath.Join(t.TempDir(), "team.toml")
	code, out, errs := runWith(t, c, "", "history", "export-verified", "--db", db, "--out", team)
	if code != 0 || !strings.Contains(out, "2 verified answers") {
		t.Fatalf("export: exit %d %s %s", code, out, errs)
	}
	if code, _, errs = runWith(t, c, "", "history", "export-verified", "--db", db, "--out", team); code != 1 || !strings.Contains(errs, "--force") {
		t.Errorf("export over a file: exit %d %s", code, errs)
	}
	// Scored on them: the model's first SQL is wrong, the count right.
	preds := filepath.Join(t.TempDir(), "preds.jsonl")
	os.WriteFile(preds, []byte(`{"id": "verified-1", "sql": "`+wrongBest+`"}`+"\n"+`{"id": "verified-2", "sql": "SELECT count(TrackId) FROM Track"}`+"\n"), 0o644)
	code, out, errs = runWith(t, c, "", "eval", "--db", db, "--gold", "verified", "--predictions", preds, "--format", "json")
	var rep struct {
		Accuracy float64 `json:"execution_accuracy"`
		Items    []struct {
			ID      string `json:"id"`
			Outcome string `json:"outcome"`
		} `json:"items"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil || rep.Accuracy != 0.5 || len(rep.Items) != 2 || rep.Items[0].Outcome != "wrong_result" {
		t.Errorf("eval --gold verified: exit %d %s %s", code, out, errs)
	}
	// A teammate imports them, with one more item whose column is wrong.
	b, _ := os.ReadFile(team)
	os.WriteFile(team, append(b, []byte("\n[[item]]\nid = \"bad\"\nquestion = \"Longest track\"\ndifficulty = \"easy\"\nsql = \"SELECT Name FROM Track ORDER BY Millis DESC\"\n")...), 0o644)
	mate := askCLI(t, fake)
	mine := chinookCopy(t)
	code, out, errs = runWith(t, mate, "", "history", "import-verified", "--db", mine, "--format", "json", team)
	var imp struct {
		Added, Skipped, Refused []struct {
			ID    string           `json:"id"`
			Error *engine.ErrorDoc `json:"error"`
		}
	}
	if code != 1 || json.Unmarshal([]byte(out), &imp) != nil || len(imp.Added) != 2 || len(imp.Refused) != 1 || imp.Refused[0].Error.Type != engine.CodeUnknownColumn {
		t.Errorf("import: exit %d %s %s", code, out, errs)
	}
	if code, out, _ = runWith(t, mate, "", "history", "--format", "json"); code != 0 || !strings.Contains(out, `"verified_as": "approved"`) || strings.Count(out, `"id":`) != 2 {
		t.Errorf("the teammate's history: exit %d %s", code, out)
	}
}

func lastMessage(req ollamatest.Request) string { return req.Messages[len(req.Messages)-1].Content }

// TestVerifiedOnTheDemo: without --db, the history's verified commands and
// eval --gold verified use the bundled demo, as sql and ask do.
func TestVerifiedOnTheDemo(t *testing.T) {
	c := askCLI(t, ollamatest.New(t))
	dir := t.TempDir()
	gold := filepath.Join(dir, "demo.toml")
	os.WriteFile(gold, []byte("[[item]]\nid = \"n\"\nquestion = \"How many tracks?\"\ndifficulty = \"easy\"\nsql = \"SELECT count(*) FROM Track\"\n"), 0o644)
	if code, out, errs := runWith(t, c, "", "history", "import-verified", gold); code != 0 || !strings.Contains(out, "Imported 1 item into the verified answers of Chinook demo") {
		t.Fatalf("import on the demo: exit %d %s %s", code, out, errs)
	}
	preds := filepath.Join(dir, "p.jsonl")
	os.WriteFile(preds, []byte(`{"id": "verified-1", "sql": "SELECT count(TrackId) FROM Track"}`+"\n"), 0o644)
	if code, out, errs := runWith(t, c, "", "eval", "--gold", "verified", "--predictions", preds); code != 0 || !strings.Contains(out, "100.0% (1 of 1)") {
		t.Errorf("eval --gold verified on the demo: exit %d %s %s", code, out, errs)
	}
}
