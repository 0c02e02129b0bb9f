package cli

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"querent/engine"
	"querent/engine/glossary"
	"querent/engine/ollama/ollamatest"
	"querent/engine/sqlite"
)

// withGlossary wires c to a glossary file in a temporary data folder.
func withGlossary(t *testing.T, c *CLI) *CLI {
	t.Helper()
	path := filepath.Join(t.TempDir(), "glossary.sqlite")
	c.Glossary = func(ctx context.Context) (glossary.Store, func(), error) {
		st, err := sqlite.OpenGlossary(ctx, path)
		if err != nil {
			return nil, nil, err
		}
		return st, func() { st.Close() }, nil
	}
	return c
}

// chinookCopy is a copy of the demo database that a test may change.
func chinookCopy(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../engine/sqlite/demo/Chinook_Sqlite.sqlite")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "chinook.db")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestGlossaryCommands(t *testing.T) {
	c := withGlossary(t, &CLI{Open: open, Version: "test"})
	db := chinookCopy(t)
	// A wrong column: refused (exit 1) with the closest names; nothing saved.
	code, _, errs := runWith(t, c, "", "glossary", "add", "--db", db, "big invoice", "--meaning", "an invoice over 20", "--sql", "Totl > 20")
	if code != 1 || !strings.Contains(errs, "unknown_column") || !strings.Contains(errs, "did you mean Total?") {
		t.Errorf("a wrong column: exit %d: %s", code, errs)
	}
	code, out, _ := runWith(t, c, "", "glossary", "add", "--db", db, "--format", "json", "big invoice", "--meaning", "x", "--sql", "Totl > 20")
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); code != 1 || err != nil || len(doc["errors"].([]any)) != 1 {
		t.Errorf("a wrong column as JSON: exit %d: %s", code, out)
	}
	// Flags after the term, a term of two words, synonyms repeated.
	code, out, errs = runWith(t, c, "", "glossary", "add", "--db", db, "big", "invoice", "--meaning", "an invoice over 20", "--sql", "Total > 20",
		"--synonym", "large invoice", "--synonym", "grosse facture")
	if code != 0 || !strings.Contains(out, `Saved "big invoice" (a condition on Invoice)`) {
		t.Fatalf("add: exit %d: %s%s", code, out, errs)
	}
	code, out, _ = runWith(t, c, "", "glossary", "add", "--db", db, "long track", "--meaning", "a track over five minutes", "--sql", "Milliseconds > 300000")
	if code != 0 {
		t.Fatalf("add: exit %d: %s", code, out)
	}
	// Usage: no meaning, an unknown subcommand, a term not there.
	for _, args := range [][]string{
		{"glossary", "add", "--db", db, "churn"},
		{"glossary", "rename", "--db", db},
		{"glossary", "remove", "--db", db, "churn"},
		{"glossary", "list", "--db", db, "extra"},
	} {
		if code, _, errs := runWith(t, c, "", args...); code != 2 || errs == "" {
			t.Errorf("%v: exit %d: %s", args, code, errs)
		}
	}
	code, out, _ = runWith(t, c, "", "glossary", "list", "--db", db, "--format", "json")
	var list struct {
		Database string            `json:"database"`
		Entries  []glossary.Status `json:"entries"`
		Errors   []engine.ErrorDoc `json:"errors"`
	}
	if err := json.Unmarshal([]byte(out), &list); code != 0 || err != nil || len(list.Entries) != 2 || list.Errors == nil {
		t.Fatalf("list: exit %d: %v: %s", code, err, out)
	}
	if e := list.Entries[0]; e.Term != "big invoice" || e.Kind != "condition" || len(e.Synonyms) != 2 || e.Stale {
		t.Errorf("list: %+v", e)
	}
	// The schema changes: check flags the entry whose column went (exit 1),
	// list shows it (exit 0).
	raw, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec("ALTER TABLE Track RENAME COLUMN Milliseconds TO DurationMs"); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	code, out, errs = runWith(t, c, "", "glossary", "check", "--db", db)
	if code != 1 || !strings.Contains(out, "long track  [stale]") || !strings.Contains(out, "no such column: Milliseconds") ||
		!strings.Contains(errs, "1 entry is stale") || !strings.Contains(errs, "querent glossary remove --db "+db+" TERM") {
		t.Errorf("check: exit %d:\n%s%s", code, out, errs)
	}
	code, out, _ = runWith(t, c, "", "glossary", "check", "--db", db, "--format", "json")
	if code != 1 || !strings.Contains(out, `"type": "unknown_column"`) || !strings.Contains(out, `"stale": true`) {
		t.Errorf("check as JSON: exit %d:\n%s", code, out)
	}
	if code, out, _ = runWith(t, c, "", "glossary", "list", "--db", db); code != 0 || !strings.Contains(out, "[stale]") {
		t.Errorf("list after the change: exit %d:\n%s", code, out)
	}
	// Removed by another form of its term, check passes again.
	if code, out, errs = runWith(t, c, "", "glossary", "remove", "--db", db, "Long Tracks"); code != 0 || !strings.Contains(out, "Removed") {
		t.Errorf("remove: exit %d: %s%s", code, out, errs)
	}
	if code, _, errs = runWith(t, c, "", "glossary", "check", "--db", db); code != 0 {
		t.Errorf("check after the removal: exit %d: %s", code, errs)
	}
}

// querent ask sends the entries the question uses and lists them in its
// document (glossary_used); a question that uses none lists none.
func TestAskUsesTheGlossary(t *testing.T) {
	fake := ollamatest.New(t)
	fake.Respond(func(ollamatest.Request) ollamatest.Reply {
		return ollamatest.Answer("SELECT count(*) AS n FROM Invoice WHERE Total > 20", "Counts them.")
	})
	c := withGlossary(t, askCLI(t, fake))
	if code, _, errs := runWith(t, c, "", "glossary", "add", "big invoice", "--meaning", "an invoice over 20", "--sql", "Total > 20"); code != 0 {
		t.Fatalf("add: %s", errs)
	}
	for _, c2 := range []struct {
		q    string
		used int
	}{{"How many big invoices are there?", 1}, {"How many invoices are there?", 0}} {
		n := len(fake.Requests())
		code, out, errs := runWith(t, c, "", "ask", "--format", "json", c2.q)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c2.q, code, errs)
		}
		var doc struct {
			GlossaryUsed []engine.GlossaryUse `json:"glossary_used"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil || doc.GlossaryUsed == nil || len(doc.GlossaryUsed) != c2.used {
			t.Errorf("%s: glossary_used %+v (%v)", c2.q, doc.GlossaryUsed, err)
		}
		prompt := fake.Requests()[n].Messages
		if got := strings.Contains(prompt[len(prompt)-1].Content, "SQL (a condition, for WHERE): Total > 20"); got != (c2.used == 1) {
			t.Errorf("%s: the prompt carries the entry: %v", c2.q, got)
		}
	}
}
