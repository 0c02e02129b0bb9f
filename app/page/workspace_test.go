package page_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"querent/app/page"
	"querent/engine"
	"querent/engine/ollama/ollamatest"
)

// TestStatusHostInUse: with no host in the settings, the model status
// names the host in use ($OLLAMA_HOST here) and where it comes from, so
// that Settings shows it instead of the default's placeholder.
func TestStatusHostInUse(t *testing.T) {
	t.Setenv("OLLAMA_HOST", "gpu-box.invalid:11500")
	svc, _ := newServices(t)
	st, err := svc.Ask.Status()
	if err != nil {
		t.Fatal(err)
	}
	if st.Host != "http://gpu-box.invalid:11500" || st.HostSource != "OLLAMA_HOST" || st.Running {
		t.Errorf("status %+v: want the host of OLLAMA_HOST, not running", st)
	}
	t.Setenv("OLLAMA_HOST", "")
	st, _ = svc.Ask.Status()
	if st.Host != "http://127.0.0.1:11434" || st.HostSource != "default" {
		t.Errorf("status %+v: want the default host", st)
	}
}

// TestResultsPagesAndCounts: a truncated result pages on ("load the next
// 1,000") and is counted whole in the background; a table's preview starts
// with the first 1,000 rows and pages through the rest.
func TestResultsPagesAndCounts(t *testing.T) {
	svc, _ := newServices(t)
	if _, err := svc.Datasets.OpenDemo(); err != nil {
		t.Fatal(err)
	}
	const q = "SELECT TrackId FROM Track ORDER BY TrackId DESC;"
	ans, _ := svc.Results.Run(q)
	if ans.RowCount != 1000 || !ans.Truncated {
		t.Fatalf("run: %d rows, truncated %v", ans.RowCount, ans.Truncated)
	}
	next, err := svc.Results.Page(page.PageRequest{SQL: q, Offset: 1000, Limit: 1000})
	if err != nil || next.RowCount != 1000 || !next.Truncated || next.Results.Values[0][0] != int64(2503) {
		t.Fatalf("page 2: %v %d rows, truncated %v, first %v", err, next.RowCount, next.Truncated, next.Results.Values[0])
	}
	last, _ := svc.Results.Page(page.PageRequest{SQL: q, Offset: 3000})
	if last.RowCount != 503 || last.Truncated || last.Results.Values[502][0] != int64(1) {
		t.Errorf("last page: %d rows, truncated %v", last.RowCount, last.Truncated)
	}
	n, err := svc.Results.Count(q + " -- every track")
	if err != nil || n.Rows != 3503 {
		t.Errorf("count: %v %+v", err, n)
	}
	if _, err := svc.Results.Count("SELECT 1; SELECT 2"); engine.ErrorCode(err) != engine.CodeUsage {
		t.Errorf("count of two statements: %v", err)
	}
	if ans, _ := svc.Results.Page(page.PageRequest{SQL: "DELETE FROM Track", Offset: 10}); len(ans.Errors) != 1 || ans.Errors[0].Type != engine.CodeRefused {
		t.Errorf("page of a write: %+v", ans.Errors)
	}
	prev, _ := svc.Results.Preview("Track")
	if prev.RowCount != page.PreviewRows || !prev.Truncated {
		t.Errorf("preview: %d rows, truncated %v", prev.RowCount, prev.Truncated)
	}
	// A count is cancelled by the next query (it would hold it up).
	done := make(chan error, 1)
	go func() {
		_, err := svc.Results.Count("WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT x FROM r")
		done <- err
	}()
	time.Sleep(200 * time.Millisecond)
	svc.Results.CancelCount()
	select {
	case err := <-done:
		if engine.ErrorCode(err) != engine.CodeCancelled {
			t.Errorf("cancelled count: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the count was not cancelled")
	}
}

// TestHistoryService: search, save under a name, mark wrong (never an
// example for the model again), delete; a follow-up knows what it
// followed; the export's file name comes from the question.
func TestHistoryService(t *testing.T) {
	svc, _ := newServices(t)
	const topSQL = "SELECT CustomerId, sum(Total) AS spent FROM Invoice GROUP BY 1 ORDER BY 2 DESC LIMIT 10"
	fake := ollamatest.New(t,
		ollamatest.Answer(topSQL, "The ten best customers.", "And in Europe?"),
		ollamatest.Answer("SELECT 1 AS europe", "Europe."),
		ollamatest.Answer("SELECT 2 AS again", "Again."))
	if _, err := svc.Settings.Save(page.SettingsData{OllamaHost: fake.URL}); err != nil {
		t.Fatal(err)
	}
	svc.Datasets.OpenDemo()
	if _, err := svc.Ask.Question("Top 10 customers by spending"); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Ask.Question("And in Europe?"); err != nil {
		t.Fatal(err)
	}
	items, err := svc.History.List(page.HistoryQuery{})
	if err != nil || len(items) != 2 || items[0].FollowsUp != "Top 10 customers by spending" || items[1].FollowsUp != "" {
		t.Fatalf("history %v %+v", err, items)
	}
	top := items[1]
	if found, _ := svc.History.List(page.HistoryQuery{Text: "customers top"}); len(found) != 1 || found[0].ID != top.ID {
		t.Errorf("search: %+v", found)
	}
	// Marked wrong: the next question's prompt shows it as no example.
	if err := svc.History.MarkWrong(top.ID, true); err != nil {
		t.Fatal(err)
	}
	svc.Ask.NewConversation()
	if _, err := svc.Ask.Question("Top 10 customers by spending, again"); err != nil {
		t.Fatal(err)
	}
	reqs := fake.Requests()
	last := reqs[len(reqs)-2] // the SQL request (the explanation follows)
	if prompt := last.Messages[len(last.Messages)-1].Content; strings.Contains(prompt, "GROUP BY 1 ORDER BY 2 DESC LIMIT 10") {
		t.Errorf("an answer marked wrong is an example in the prompt:\n%s", prompt)
	}
	if items, _ = svc.History.List(page.HistoryQuery{Text: "spending"}); len(items) != 2 || !items[1].Wrong {
		t.Errorf("the mark is not listed: %+v", items)
	}
	if err := svc.History.Save(top.ID, "Best customers"); err != nil {
		t.Fatal(err)
	}
	if saved, _ := svc.History.List(page.HistoryQuery{Saved: true}); len(saved) != 1 || saved[0].Name != "Best customers" {
		t.Errorf("saved: %+v", saved)
	}
	if err := svc.History.Delete(top.ID); err != nil {
		t.Fatal(err)
	}
	if all, _ := svc.History.List(page.HistoryQuery{All: true}); len(all) != 2 {
		t.Errorf("after delete: %d entries", len(all))
	}
	name, _ := svc.Export.DefaultName("xlsx", "Top 10 customers by spending")
	if filepath.Base(name) != "top-10-customers-by-spending.xlsx" {
		t.Errorf("default name %q", name)
	}
}

// TestAsQuestion: text that compiles as SQL runs as SQL from the question
// box; "Ask as a question" sends the same text to the model.
func TestAsQuestion(t *testing.T) {
	svc, _ := newServices(t)
	fake := ollamatest.New(t, ollamatest.Answer("SELECT count(*) AS n FROM Artist", "Counts the artists."))
	if _, err := svc.Settings.Save(page.SettingsData{OllamaHost: fake.URL}); err != nil {
		t.Fatal(err)
	}
	svc.Datasets.OpenDemo()
	const text = "SELECT Name FROM Artist LIMIT 2"
	ans, _ := svc.Ask.Question(text)
	if ans.Question != nil || ans.RowCount != 2 || len(fake.Requests()) != 0 {
		t.Errorf("as SQL: question %v, %d rows, %d model requests", ans.Question, ans.RowCount, len(fake.Requests()))
	}
	ans, _ = svc.Ask.AsQuestion(text)
	if ans.Question == nil || *ans.Question != text || ans.Query != "SELECT count(*) AS n FROM Artist" || len(fake.Requests()) == 0 {
		t.Errorf("as a question: %+v", ans)
	}
}
