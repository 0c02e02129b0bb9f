package ask_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"querent/engine"
	"querent/engine/ask"
	"querent/engine/ollama/ollamatest"
)

// TestRealOllamaVotes: a doubtful answer (a join on no key) through a real
// Ollama server: the rows come first, then other readings at a temperature
// above 0, each a round of its own in model_stats with Ollama's counts; the
// model is not loaded again for them, and each reuses the prompt the server
// holds (it evaluates a small part of it). A scripted model reads the
// question the same way every time: the readings agree, and the level rises.
func TestRealOllamaVotes(t *testing.T) {
	host := ollamatest.RealHost(t)
	run := time.Now().UnixNano()
	name := fmt.Sprintf("qa-vote-%d", run)
	sql := fmt.Sprintf("SELECT count(*) AS n FROM Track t JOIN Genre g ON t.MediaTypeId = g.GenreId WHERE %d > 0", run%1000)
	ollamatest.Scripted(t, host, name, ollamatest.SQLAnswer(sql), 32768)
	a, _ := realAsker(t, name, "")
	var rows *engine.Answer
	ans, err := a.Ask(context.Background(), "How many tracks per media type?", nil, ask.Options{Today: today, NoExplain: true,
		OnRows: func(r *engine.Answer) { c := *r; cc := *r.Confidence; c.Confidence = &cc; rows = &c }})
	if err != nil {
		t.Fatal(err)
	}
	if rows == nil || rows.Confidence.Votes != "pending" || rows.Confidence.Signals[0] != "unkeyed_join" {
		t.Fatalf("the rows came with %+v", rows)
	}
	c := ans.Confidence
	if c.Votes != "done" || c.Samples != 3 || c.Agreeing != 3 || c.Level != engine.ConfidenceHigh || len(c.Alternatives) != 0 {
		t.Fatalf("confidence %+v", c)
	}
	st := ans.ModelStats.Rounds
	if len(st) != 3 || st[0].Stage != "sql" || st[1].Stage != "vote" || st[2].Stage != "vote" {
		t.Fatalf("rounds %+v", st)
	}
	for _, r := range st[1:] {
		if r.LoadS >= engine.LoadThreshold || r.GeneratedTokens == 0 || r.PromptTokens == 0 || r.PromptTokensEvaluated*4 > r.PromptTokens {
			t.Errorf("a vote round %+v: loaded again, or evaluated more than a quarter of its prompt", r)
		}
	}
	t.Logf("rows after %.2fs; rounds %+v", *ans.TimeToRowsS, st)
}
