package page_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"querent/app/page"
	"querent/engine"
	"querent/engine/ollama/ollamatest"
)

// The conversation's context as the page drives it (issue 25): an
// unrelated question is read on its own and a follow-up with the one
// before; "yes" follows up whatever the question; a restored thread's
// turns become the context (as the page sends them, through JSON); a turn
// is dropped by its time; NewConversation empties it.
func TestServicesContext(t *testing.T) {
	svc, _ := newServices(t)
	if err := svc.Ask.RestoreContext(nil); engine.ErrorCode(err) != engine.CodeUsage {
		t.Errorf("no database open: %v", err)
	}
	fake := ollamatest.New(t)
	fake.Respond(func(ollamatest.Request) ollamatest.Reply {
		return ollamatest.Answer("SELECT count(*) AS n FROM Artist", "Counts them.")
	})
	if _, err := svc.Settings.Save(page.SettingsData{OllamaHost: fake.URL, SkipExplanation: true, SkipVotes: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Datasets.OpenDemo(); err != nil {
		t.Fatal(err)
	}
	ask := func(q, follow string) *engine.Answer {
		t.Helper()
		ans, err := svc.Ask.QuestionWith(q, follow)
		if err != nil || len(ans.Errors) > 0 {
			t.Fatalf("%s: %v %+v", q, err, ans.Errors)
		}
		return ans
	}
	ask("Which artist has the most albums?", "")
	if ans := ask("Top 10 customers", ""); len(ans.ContextUsed) != 0 || len(turnsOf(svc)) != 1 {
		t.Errorf("an unrelated question was read with the one before: %+v", ans.ContextUsed)
	}
	if ans := ask("and for 2012?", ""); len(ans.ContextUsed) != 1 || ans.ContextUsed[0].Question != "Top 10 customers" {
		t.Errorf("a follow-up: %+v", ans.ContextUsed)
	}
	if ans := ask("Count the genres", "yes"); len(ans.ContextUsed) != 2 {
		t.Errorf("a chosen follow-up: %+v", ans.ContextUsed)
	}
	turns := turnsOf(svc)
	if len(turns) != 3 {
		t.Fatalf("context: %+v", turns)
	}
	// The page keeps the turns as JSON and sends them back after a reload.
	b, _ := json.Marshal(turns)
	var back []engine.Turn
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if err := svc.Ask.NewConversation(); err != nil || len(turnsOf(svc)) != 0 {
		t.Fatalf("new conversation: %v %+v", err, turnsOf(svc))
	}
	if err := svc.Ask.RestoreContext(back); err != nil || len(turnsOf(svc)) != 3 {
		t.Fatalf("restore: %v %+v", err, turnsOf(svc))
	}
	var at time.Time
	if err := json.Unmarshal([]byte(`"`+back[1].Time.Format(time.RFC3339Nano)+`"`), &at); err != nil {
		t.Fatal(err)
	}
	left, _ := svc.Ask.DropContext(at)
	if len(left) != 2 || left[0].Question != "Top 10 customers" || left[1].Question != "Count the genres" {
		t.Errorf("drop %q: %+v", back[1].Question, left)
	}
	if ans := ask("and of those?", ""); len(ans.ContextUsed) != 2 || strings.Contains(lastQuestions(ans), "and for 2012?") {
		t.Errorf("after dropping, the follow-up was read with %+v", ans.ContextUsed)
	}
}

func lastQuestions(ans *engine.Answer) string {
	var qs []string
	for _, t := range ans.ContextUsed {
		qs = append(qs, t.Question)
	}
	return strings.Join(qs, "|")
}

func turnsOf(svc *page.Services) []engine.Turn {
	turns, _ := svc.Ask.Context()
	return turns
}
