package ask_test

import (
	"context"
	"strings"
	"testing"

	"querent/engine"
	"querent/engine/ask"
	"querent/engine/ollama/ollamatest"
)

// A question reads as a follow-up when it points back, opens like a
// continuation, or is a fragment; a question that stands alone does not
// (issue 25: "Top 10 customers" was sent as following "Which artist has
// the most albums?").
func TestReadsAsFollowUp(t *testing.T) {
	for q, want := range map[string]bool{
		"and for 2012?":                           true,
		"And in Europe?":                          true,
		"What about France?":                      true,
		"same but by month":                       true,
		"Only the rock ones":                      true,
		"Which of those are in Europe?":           true,
		"How many of them bought jazz?":           true,
		"by month":                                true,
		"sorted by total":                         true,
		"2012?":                                   true,
		"Europe?":                                 true,
		"2012 only":                               true,
		"Break it down by country":                true,
		"Et pour 2012 ?":                          true,
		"Et en France ?":                          true,
		"Parmi eux, combien sont en Europe ?":     true,
		"Combien de ces clients sont en France ?": true,
		"par mois":                                true,
		"Même chose par pays":                     true,
		"那2012年呢？":                                true,
		"其中有多少在欧洲？":                               true,
		"按月份":                                     true,
		"这些客户来自哪些国家？":                             true,
		"Top 10 customers":                        false,
		"Which artist has the most albums?":       false,
		"How many tracks are there?":              false,
		"Total sales per country, highest first":  false,
		"For each genre, count the tracks and their total length": false,
		"In which year were the most tracks sold?":                false,
		"Customers and their total spending":                      false,
		"Quel artiste a le plus d’albums ?":                       false,
		"Combien de morceaux y a-t-il ?":                          false,
		"Pour chaque pays, le chiffre d’affaires total":           false,
		"有多少首曲目？":                                                 false,
		"哪位艺术家的专辑最多？":                                             false,
		"Monthly revenue in 2012":                                 false,
		"":                                                        false,
	} {
		if got := ask.ReadsAsFollowUp(q); got != want {
			t.Errorf("ReadsAsFollowUp(%q) = %v, want %v", q, got, want)
		}
	}
}

// An unrelated question after another is read on its own: its prompt
// carries no earlier question, its answer lists no context, and the
// session starts anew from it; a follow-up is read with it and lists it;
// FollowUpYes and FollowUpNo override how the question reads.
func TestFollowUpContext(t *testing.T) {
	r := newRig(t)
	r.fake.Respond(func(ollamatest.Request) ollamatest.Reply {
		return ollamatest.Answer("SELECT count(*) AS n FROM Artist", "x")
	})
	s := &engine.Session{Database: "chinook"}
	askIt := func(q, choice string) (string, *engine.Answer) {
		t.Helper()
		n := len(r.fake.Requests())
		ans, err := r.asker.Ask(context.Background(), q, s, ask.Options{Today: today, NoExplain: true, NoVote: true, FollowUp: choice})
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return lastMessage(r.fake.Requests()[n]), ans
	}
	askIt("Which artist has the most albums?", "")
	prompt, ans := askIt("Top 10 customers", "")
	if strings.Contains(prompt, "most albums") || len(ans.ContextUsed) != 0 || len(s.Turns) != 1 {
		t.Errorf("an unrelated question was read as a follow-up: context %v, turns %d\n%s", ans.ContextUsed, len(s.Turns), prompt)
	}
	prompt, ans = askIt("and for 2012?", "")
	if !strings.Contains(prompt, "Top 10 customers") || len(ans.ContextUsed) != 1 || ans.ContextUsed[0].Question != "Top 10 customers" {
		t.Errorf("a follow-up was not read with its question: context %v\n%s", ans.ContextUsed, prompt)
	}
	if prompt, ans = askIt("Show the genres", ask.FollowUpYes); len(ans.ContextUsed) != 2 || !strings.Contains(prompt, "and for 2012?") {
		t.Errorf("FollowUpYes: context %v\n%s", ans.ContextUsed, prompt)
	}
	if prompt, ans = askIt("and of those?", ask.FollowUpNo); len(ans.ContextUsed) != 0 || strings.Contains(prompt, "Show the genres") {
		t.Errorf("FollowUpNo: context %v\n%s", ans.ContextUsed, prompt)
	}
}
