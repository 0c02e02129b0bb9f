package ask_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"querent/engine"
	"querent/engine/ask"
	"querent/engine/ollama"
	"querent/engine/ollama/ollamatest"
	"querent/engine/sqlite"
)

// The real-server tests use scripted models that answer one text each, in a
// few tokens: nothing waits on a model writing filler. Their tokens are one
// character each, so the whole Chinook prompt is about 10,000 tokens: they
// are made with a 32k context and asked with a 16k window.
const realCtx = 16384

func realAsker(t *testing.T, sqlModel, explainModel string) (*ask.Asker, string) {
	t.Helper()
	host := ollamatest.RealHost(t)
	path := chinook(t)
	db, err := sqlite.Open(context.Background(), path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	// A generous deadline: the tiny model reads a 10,000-token prompt in
	// seconds on an idle machine but took 40–75 s on a loaded one; these
	// tests check the flow and the counts, not the time.
	m, err := ollama.New(ollama.Config{Host: host, RequestTimeout: 6 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	return &ask.Asker{DB: db, Model: m, ModelName: sqlModel, ExplainModel: explainModel, ContextWindow: realCtx}, path
}

// TestRealOllamaAskFlow: question → SQL → rows → explanation, through a real
// Ollama server: the rows come before the explanation, which is written from
// them, and every round's cost is Ollama's own count.
func TestRealOllamaAskFlow(t *testing.T) {
	host := ollamatest.RealHost(t)
	ollamatest.Scripted(t, host, "qa-tracks", ollamatest.SQLAnswer("SELECT count(*) AS n FROM Track"), 32768)
	ollamatest.Scripted(t, host, "qa-tracks-explain", ollamatest.ExplainAnswer("There are 3503 tracks.", "Which genre has the most tracks?"), 32768)
	a, path := realAsker(t, "qa-tracks", "qa-tracks-explain")
	before := sha(t, path)
	var rowsFirst bool
	start := time.Now()
	ans, err := a.Ask(context.Background(), "How many tracks are there?", nil, ask.Options{Today: today,
		OnRows: func(r *engine.Answer) { rowsFirst = r.Explanation == "" && r.RowCount == 1 }})
	if err != nil {
		t.Fatal(err)
	}
	if ans.RowCount != 1 || ans.Results.Values[0][0] != int64(3503) || ans.Explanation != "There are 3503 tracks." ||
		len(ans.FollowUpQuestions) != 1 || !rowsFirst {
		t.Fatalf("answer %+v (rows first: %v)", ans, rowsFirst)
	}
	st := ans.ModelStats
	if st == nil || len(st.Rounds) != 2 || st.Rounds[0].Stage != "sql" || st.Rounds[1].Stage != "explain" ||
		st.Rounds[0].PromptTokensEvaluated == 0 || st.Rounds[0].GeneratedTokens == 0 || st.Rounds[0].TotalS == 0 || ans.TimeToRowsS == nil {
		t.Fatalf("model stats %+v, time to rows %v", st, ans.TimeToRowsS)
	}
	if sha(t, path) != before {
		t.Error("the database changed")
	}
	t.Logf("rows after %.2fs, answer after %s; rounds %+v", *ans.TimeToRowsS, time.Since(start).Round(time.Millisecond), st.Rounds)
}

// TestRealOllamaSession: ten questions with a repair each (a value that is
// not stored: the loop shows the model what is, and it answers again): the
// model is loaded once for the session, and the second question evaluates
// at most a quarter of its prompt — the system message stays in the
// server's cache.
func TestRealOllamaSession(t *testing.T) {
	host := ollamatest.RealHost(t)
	// A model of its own, new to the server: its first question finds
	// nothing cached, so the second one's prompt time can be compared.
	// (A different answer makes a different model file: the same one would
	// share the runner, and the cache, of an earlier run.)
	run := time.Now().UnixNano()
	name := fmt.Sprintf("qa-brasil-%d", run)
	ollamatest.Scripted(t, host, name, ollamatest.SQLAnswer(fmt.Sprintf("SELECT FirstName FROM Customer WHERE Country = 'Brasil' AND %d > 0", run%1000)), 32768)
	a, _ := realAsker(t, name, "")
	s := &engine.Session{}
	loads, rounds, repairs := 0, 0, 0
	var first, second engine.ModelRound
	for i := 0; i < 10; i++ {
		ans, err := a.Ask(context.Background(), fmt.Sprintf("Which customers live in Brasil? (%d)", i), s, ask.Options{Today: today, NoExplain: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range ans.ModelStats.Rounds {
			rounds++
			if r.LoadS >= engine.LoadThreshold {
				loads++
			}
			if r.Stage == "repair" {
				repairs++
			}
		}
		switch i {
		case 0:
			first = ans.ModelStats.Rounds[0]
		case 1:
			second = ans.ModelStats.Rounds[0]
		}
	}
	t.Logf("10 questions: %d rounds (%d repairs), %d model loads; the second question evaluated %d of %d prompt tokens "+
		"(the server's prompt time %.3fs, the first question's %.3fs)",
		rounds, repairs, loads, second.PromptTokensEvaluated, second.PromptTokens, second.PromptEvalS, first.PromptEvalS)
	if loads > 1 {
		t.Errorf("the model was loaded %d times over the session, want once", loads)
	}
	if repairs < 3 {
		t.Errorf("%d repairs, want at least 3", repairs)
	}
	if second.PromptTokensEvaluated*4 > second.PromptTokens {
		t.Errorf("the second question evaluated %d of its %d prompt tokens, want at most a quarter", second.PromptTokensEvaluated, second.PromptTokens)
	}
}
