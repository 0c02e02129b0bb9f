package openai_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"querent/engine"
	"querent/engine/ask"
	"querent/engine/ollama/ollamatest"
	"querent/engine/openai"
	"querent/engine/openai/openaitest"
	"querent/engine/sqlite"
)

const key = "sk-ask-test-51d0e"

// rig is the ask loop over the fake OpenAI-compatible server, on a copy of
// Chinook, with a history file.
func rig(t *testing.T, timeout time.Duration, script ...ollamatest.Reply) (*openaitest.Server, *ask.Asker, string) {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	db := chinook(t, dir)
	histPath := filepath.Join(dir, "history.sqlite")
	h, err := sqlite.OpenHistory(ctx, histPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	fake := openaitest.New(t, script...)
	fake.RequireKey(key)
	m, err := openai.New(openai.Config{BaseURL: fake.URL, APIKey: key, RequestTimeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	return fake, &ask.Asker{DB: db, Model: m, ModelName: "qwen2.5-coder-7b-instruct", History: h}, histPath
}

// chinook opens a copy of the demo database in dir.
func chinook(t *testing.T, dir string) engine.Database {
	t.Helper()
	b, err := os.ReadFile("../sqlite/demo/Chinook_Sqlite.sqlite")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "chinook.db")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	db, err := sqlite.Open(context.Background(), path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestAskOverAnOpenAIServer(t *testing.T) {
	fake, asker, histPath := rig(t, 5*time.Second,
		ollamatest.Answer("SELECT BillingCountry, sum(Totl) AS total FROM Invoice GROUP BY 1 ORDER BY 2 DESC LIMIT 3", "Sums invoice totals by country."),
		ollamatest.Answer("SELECT BillingCountry, sum(Total) AS total FROM Invoice GROUP BY 1 ORDER BY 2 DESC LIMIT 3", "Sums invoice totals by country.", "What about 2012?"))
	var mu sync.Mutex
	streamed := 0
	ans, err := asker.Ask(context.Background(), "Which three countries bought the most?", nil, ask.Options{Client: "test", NoVote: true,
		Progress: func(p ask.Progress) {
			mu.Lock()
			defer mu.Unlock()
			streamed = max(streamed, p.Tokens)
		}})
	if err != nil {
		t.Fatal(err)
	}
	// The same rounds as over Ollama: the SQL, its repair, the explanation.
	if ans.RowCount != 3 || ans.Results.Values[0][0] != "USA" || len(ans.Attempts) != 2 || ans.Explanation != "Sums invoice totals by country." ||
		len(ans.FollowUpQuestions) != 1 {
		t.Fatalf("answer %+v", ans)
	}
	if streamed < 2 {
		t.Errorf("the progress saw %d streamed tokens", streamed)
	}
	st := ans.ModelStats
	if st == nil || len(st.Rounds) != 3 || st.Rounds[0].Stage != "sql" || st.Rounds[1].Stage != "repair" || st.Rounds[2].Stage != "explain" {
		t.Fatalf("model stats %+v", st)
	}
	// usage's counts are the rounds' counts.
	for i, r := range st.Rounds {
		if r.PromptTokens < 100 || r.GeneratedTokens < 2 || r.TotalS <= 0 || r.LoadS != 0 {
			t.Errorf("round %d: %+v", i, r)
		}
	}
	for _, r := range st.Rounds {
		t.Logf("round %s: %d prompt tokens, %d generated (usage), %.3fs", r.Stage, r.PromptTokens, r.GeneratedTokens, r.TotalS)
	}
	reqs := fake.Requests()
	if len(reqs) != 3 || !strings.Contains(string(reqs[0].Format), `"sql"`) || !strings.Contains(string(reqs[2].Format), `"explanation"`) ||
		reqs[0].MaxTokens == 0 || !reqs[0].Stream || !reqs[0].IncludeUsage {
		t.Errorf("requests %+v", reqs)
	}
	// The key travels in the header only: not in the answer, not in the history.
	doc, _ := json.Marshal(ans)
	if strings.Contains(string(doc), key) {
		t.Error("the answer names the API key")
	}
	asker.History.(*sqlite.HistoryStore).Close()
	for _, p := range []string{histPath, histPath + "-wal"} {
		b, err := os.ReadFile(p)
		if err == nil && strings.Contains(string(b), key) {
			t.Errorf("%s holds the API key", filepath.Base(p))
		}
	}
}

func TestAskOnAHungOpenAIServer(t *testing.T) {
	fake, asker, _ := rig(t, 300*time.Millisecond, ollamatest.Reply{Delay: openaitest.Hang})
	ans, err := asker.Ask(context.Background(), "How many tracks are there?", nil, ask.Options{Client: "test", NoVote: true})
	if err == nil {
		err = firstError(ans)
	}
	if engine.ErrorCode(err) != engine.CodeLLMUnavailable || !strings.Contains(err.Error(), "did not answer within 300ms") {
		t.Fatalf("%v (answer %+v)", err, ans)
	}
	select {
	case <-fake.Gone():
	case <-time.After(10 * time.Second):
		t.Fatal("the server never saw the request end")
	}
}

func TestAskCancelledOverAnOpenAIServer(t *testing.T) {
	fake, asker, _ := rig(t, time.Minute, ollamatest.Reply{Delay: openaitest.Hang})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-fake.Started()
		cancel()
	}()
	ans, err := asker.Ask(ctx, "How many tracks are there?", nil, ask.Options{Client: "test", NoVote: true})
	if err == nil {
		err = firstError(ans)
	}
	if engine.ErrorCode(err) != engine.CodeCancelled {
		t.Fatalf("%v", err)
	}
	select {
	case <-fake.Gone():
	case <-time.After(10 * time.Second):
		t.Fatal("the server never saw the request end")
	}
}

func firstError(a *engine.Answer) error {
	if a == nil || len(a.Errors) == 0 {
		return nil
	}
	e := a.Errors[0]
	return &engine.Error{Code: e.Type, Message: e.Message}
}
