package page_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"querent/app/page"
	"querent/engine"
	"querent/engine/ollama/ollamatest"
	"querent/engine/sensitive"
)

// The schema view's sensitive columns: the demo's Customer.Email is offered
// (never marked silently); a wrong name is refused with the closest ones;
// marked, the next answers carry the mark on its column and on one computed
// from it, the model never gets its values, and the command line's store
// (the data folder's) has it; unmarked, it is offered again.
func TestServicesSensitive(t *testing.T) {
	svc, _ := newServices(t)
	if _, err := svc.Sensitive.List(); engine.ErrorCode(err) != engine.CodeUsage {
		t.Errorf("no database open: %v", err)
	}
	fake := ollamatest.New(t)
	fake.Respond(func(ollamatest.Request) ollamatest.Reply {
		return ollamatest.Answer("SELECT FirstName, Email FROM Customer LIMIT 3", "The first customers.")
	})
	if _, err := svc.Settings.Save(page.SettingsData{OllamaHost: fake.URL}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Datasets.OpenDemo(); err != nil {
		t.Fatal(err)
	}
	list, err := svc.Sensitive.List()
	if err != nil || len(list.Marks) != 0 || !hasLikely(list.Likely, "Customer.Email") {
		t.Fatalf("on open: %v %+v", err, list)
	}
	// Warm the asker first, so that its value index must be rebuilt.
	if _, err := svc.Ask.Question("who are the first customers?"); err != nil {
		t.Fatal(err)
	}
	_, err = svc.Sensitive.Add("Customer.Emial")
	if engine.ErrorCode(err) == "" || !strings.Contains(page.ErrorDoc(err).Hint, "Email") {
		t.Errorf("a wrong name: %+v", page.ErrorDoc(err))
	}
	list, err = svc.Sensitive.Add("Customer.Email")
	if err != nil || len(list.Marks) != 1 || list.Marks[0].Name() != "Customer.Email" || hasLikely(list.Likely, "Customer.Email") {
		t.Fatalf("add: %v %+v", err, list)
	}
	ans, err := svc.Results.Run("SELECT FirstName, Email, lower(Email) AS m FROM Customer LIMIT 3")
	if err != nil || len(ans.Columns) != 3 || ans.Columns[0].Sensitive || !ans.Columns[1].Sensitive || !ans.Columns[2].Sensitive {
		t.Fatalf("run: %v %+v", err, ans.Columns)
	}
	if s, _ := ans.Results.Values[0][1].(string); !strings.Contains(s, "@") {
		t.Errorf("the analyst sees the values: %v", ans.Results.Values[0])
	}
	n := len(fake.Requests())
	if _, err := svc.Ask.Question("what are the customers' email addresses?"); err != nil {
		t.Fatal(err)
	}
	for _, r := range fake.Requests()[n:] {
		for _, m := range r.Messages {
			if strings.Contains(m.Content, "luisg@embraer.com.br") {
				t.Fatalf("the model got a marked value:\n%s", m.Content)
			}
		}
	}
	// The command line's store, the data folder's, has the mark.
	if b, err := os.ReadFile(filepath.Join(os.Getenv("QUERENT_DATA_DIR"), sensitive.FileName)); err != nil || !strings.Contains(string(b), `"Email"`) {
		t.Errorf("the data folder's marks: %v %s", err, b)
	}
	if _, err := svc.Sensitive.Remove("Customer.Phone"); engine.ErrorCode(err) != engine.CodeUsage {
		t.Errorf("removing an unmarked column: %v", err)
	}
	list, err = svc.Sensitive.Remove("customer.email")
	if err != nil || len(list.Marks) != 0 || !hasLikely(list.Likely, "Customer.Email") {
		t.Fatalf("remove: %v %+v", err, list)
	}
	if ans, _ := svc.Results.Run("SELECT Email FROM Customer LIMIT 1"); ans == nil || ans.Columns[0].Sensitive {
		t.Errorf("unmarked, still marked: %+v", ans)
	}
}

func hasLikely(likely []sensitive.Likely, name string) bool {
	for _, l := range likely {
		if l.Name() == name {
			return true
		}
	}
	return false
}
