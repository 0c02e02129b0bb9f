package page_test

import (
	"strings"
	"testing"

	"querent/app/page"
	"querent/engine"
	"querent/engine/ollama/ollamatest"
)

// The Glossary panel's services: an entry with a wrong column is refused
// with the closest names (in the page's words too), a right one is saved,
// listed and sent with the questions that use it; removed, it is gone.
func TestServicesGlossary(t *testing.T) {
	svc, _ := newServices(t)
	if _, err := svc.Glossary.List(); engine.ErrorCode(err) != engine.CodeUsage {
		t.Errorf("no database open: %v", err)
	}
	fake := ollamatest.New(t)
	fake.Respond(func(ollamatest.Request) ollamatest.Reply {
		return ollamatest.Answer("SELECT count(*) FROM Invoice WHERE Total > 20", "Counts them.")
	})
	if _, err := svc.Settings.Save(page.SettingsData{OllamaHost: fake.URL}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Datasets.OpenDemo(); err != nil {
		t.Fatal(err)
	}
	_, err := svc.Glossary.Add(page.GlossaryInput{Term: "big invoice", Meaning: "an invoice over 20", SQL: "Totl > 20"})
	doc := page.ErrorDoc(err)
	if doc.Type != engine.CodeUnknownColumn || !strings.Contains(doc.Hint, "Total") || doc.Key != "glossary.sql_refused" || !strings.Contains(doc.MessageSaid["fr"], "ne compile pas") {
		t.Errorf("a wrong column: %+v", doc)
	}
	e, err := svc.Glossary.Add(page.GlossaryInput{Term: "big invoice", Meaning: "an invoice over 20", SQL: "Total > 20", Synonyms: []string{"grosse facture"}})
	if err != nil || e.Kind != "condition" {
		t.Fatalf("add: %v %+v", err, e)
	}
	list, err := svc.Glossary.List()
	if err != nil || len(list) != 1 || list[0].Term != "big invoice" || list[0].Stale {
		t.Errorf("list: %v %+v", err, list)
	}
	ans, err := svc.Ask.Question("combien de grosses factures ?")
	if err != nil || len(ans.GlossaryUsed) != 1 || ans.GlossaryUsed[0].SQL != "Total > 20" {
		t.Errorf("question: %v %+v", err, ans.GlossaryUsed)
	}
	reqs := fake.Requests()
	if last := reqs[0].Messages[len(reqs[0].Messages)-1].Content; !strings.Contains(last, "SQL (a condition, for WHERE): Total > 20") {
		t.Errorf("the prompt lacks the entry:\n%s", last)
	}
	if err := svc.Glossary.Remove("Big Invoices"); err != nil {
		t.Fatal(err)
	}
	if err := svc.Glossary.Remove("big invoice"); engine.ErrorCode(err) != engine.CodeUsage {
		t.Errorf("removed twice: %v", err)
	}
	if list, _ := svc.Glossary.List(); len(list) != 0 {
		t.Errorf("after the removal: %+v", list)
	}
}
