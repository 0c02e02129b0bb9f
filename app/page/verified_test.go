package page_test

import (
	"strings"
	"testing"

	"querent/app/page"
	"querent/engine"
	"querent/engine/ollama/ollamatest"
)

// TestApproveAndCorrectFromTheCard: the page's History approves an answer
// (the next question's prompt quotes it as verified, and the answer lists
// it) and corrects one: SQL that does not compile is refused with the
// database's error said in the page's words, the entry unchanged; SQL that
// runs replaces the answer.
func TestApproveAndCorrectFromTheCard(t *testing.T) {
	svc, _ := newServices(t)
	const wrong = "SELECT Name FROM Track ORDER BY Milliseconds DESC LIMIT 1"
	const right = "SELECT t.Name FROM InvoiceLine il JOIN Track t USING (TrackId) GROUP BY t.TrackId ORDER BY sum(il.Quantity) DESC, t.TrackId LIMIT 1"
	fake := ollamatest.New(t,
		ollamatest.Answer("SELECT count(*) AS n FROM Track", "3503 tracks."),
		ollamatest.Answer(wrong, "The longest."),
		ollamatest.Answer("SELECT count(*) FROM Track WHERE GenreId = 1", "Rock tracks."))
	if _, err := svc.Settings.Save(page.SettingsData{OllamaHost: fake.URL}); err != nil {
		t.Fatal(err)
	}
	svc.Datasets.OpenDemo()
	for _, q := range []string{"How many tracks are there?", "Which track sold best?"} {
		if _, err := svc.Ask.Question(q); err != nil {
			t.Fatal(err)
		}
	}
	items, err := svc.History.List(page.HistoryQuery{})
	if err != nil || len(items) != 2 {
		t.Fatalf("history %v %+v", err, items)
	}
	best, count := items[0], items[1]
	if it, err := svc.History.Approve(count.ID); err != nil || it.VerifiedAs != "approved" {
		t.Fatalf("approve: %v %+v", err, it)
	}
	_, err = svc.History.Correct(best.ID, strings.Replace(right, "Quantity", "Quantiti", 1))
	d := page.ErrorDoc(err)
	if d.Type != engine.CodeUnknownColumn || !strings.Contains(d.Message, "was refused, the answer is unchanged") || !strings.Contains(d.MessageSaid["fr"], "la correction de l’entrée 2 a été refusée") || !strings.Contains(d.HintSaid["en"], "Quantity") {
		t.Errorf("a correction that does not compile: %+v", d)
	}
	ans, err := svc.History.Correct(best.ID, right)
	if err != nil || ans.RowCount != 1 || ans.Results.Values[0][0] != "Balls to the Wall" {
		t.Fatalf("correct: %v %+v", err, ans)
	}
	items, _ = svc.History.List(page.HistoryQuery{})
	if items[0].VerifiedAs != "corrected" || items[0].SQL != right || items[1].VerifiedAs != "approved" {
		t.Errorf("after the verdicts: %+v", items)
	}
	svc.Ask.NewConversation()
	ans, err = svc.Ask.Question("How many rock tracks are there?")
	if err != nil {
		t.Fatal(err)
	}
	reqs := fake.Requests()
	last := reqs[len(reqs)-2]
	if prompt := last.Messages[len(last.Messages)-1].Content; !strings.Contains(prompt, "verified on this database") || !strings.Contains(prompt, "Q: How many tracks are there?") {
		t.Errorf("the approved answer is not an example:\n%s", prompt)
	}
	if len(ans.ExamplesUsed) == 0 || ans.ExamplesUsed[0].ID != count.ID {
		t.Errorf("examples_used %+v", ans.ExamplesUsed)
	}
}
