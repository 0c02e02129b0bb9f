package ask_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"querent/engine"
	"querent/engine/ask"
	"querent/engine/glossary"
	"querent/engine/ollama"
	"querent/engine/ollama/ollamatest"
	"querent/engine/sqlite"
)

// glossaryRig is an Asker on a copy of Chinook with a glossary in a
// temporary data folder, and a scripted model that answers every question
// with one count.
type glossaryRig struct {
	fake  *ollamatest.Server
	path  string
	store *sqlite.GlossaryStore
	g     *glossary.Glossary
	model engine.Model
}

func newGlossaryRig(t *testing.T) *glossaryRig {
	t.Helper()
	ctx := context.Background()
	fake := ollamatest.New(t)
	fake.Respond(func(ollamatest.Request) ollamatest.Reply {
		return ollamatest.Answer("SELECT count(*) FROM Customer", "x")
	})
	m, err := ollama.New(ollama.Config{Host: fake.URL, RequestTimeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	st, err := sqlite.OpenGlossary(ctx, filepath.Join(t.TempDir(), "glossary.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return &glossaryRig{fake: fake, path: chinook(t), store: st, g: glossary.New(st), model: m}
}

// asker opens the database as it is now.
func (r *glossaryRig) asker(t *testing.T) *ask.Asker {
	t.Helper()
	db, err := sqlite.Open(context.Background(), r.path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return &ask.Asker{DB: db, Model: r.model, ModelName: "qwen2.5-coder:7b", Glossary: r.g}
}

// prompt asks q and returns the question's message and the answer.
func (r *glossaryRig) prompt(t *testing.T, a *ask.Asker, q string) (string, *engine.Answer) {
	t.Helper()
	n := len(r.fake.Requests())
	ans, err := a.Ask(context.Background(), q, nil, ask.Options{Today: today, NoExplain: true, NoVote: true})
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	reqs := r.fake.Requests()
	if len(reqs) != n+1 {
		t.Fatalf("%s: %d requests", q, len(reqs)-n)
	}
	return lastMessage(reqs[n]), ans
}

const loyalSQL = "CustomerId IN (SELECT CustomerId FROM Invoice GROUP BY CustomerId HAVING count(*) > 6)"

// An entry is sent to the model only when the question uses its term or a
// synonym (a plural, without accents, in French, in Chinese), and the
// answer lists it; a question that does not use it gets none.
func TestAskSendsTheGlossaryTheQuestionUses(t *testing.T) {
	r := newGlossaryRig(t)
	a := r.asker(t)
	if _, err := r.g.Add(context.Background(), a.DB, glossary.Entry{Term: "client fidèle", Meaning: "a customer with more than 6 invoices",
		Synonyms: []string{"loyal customer", "忠实客户"}, SQL: loyalSQL}); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"How many loyal customers are there?",
		"combien de clients fideles au Canada ?",
		"Combien de CLIENTS FIDÈLES ?",
		"有多少忠实客户？",
	} {
		p, ans := r.prompt(t, a, q)
		if !strings.Contains(p, "## The analyst's glossary") || !strings.Contains(p, `- "client fidèle" (also "loyal customer", "忠实客户"): a customer with more than 6 invoices`) ||
			!strings.Contains(p, "SQL (a condition, for WHERE): "+loyalSQL) {
			t.Errorf("%s: the prompt lacks the entry:\n%s", q, p)
		}
		if len(ans.GlossaryUsed) != 1 || ans.GlossaryUsed[0] != (engine.GlossaryUse{Term: "client fidèle", Meaning: "a customer with more than 6 invoices", SQL: loyalSQL}) {
			t.Errorf("%s: glossary_used %+v", q, ans.GlossaryUsed)
		}
		if !strings.HasSuffix(p, "\n"+q) {
			t.Errorf("%s: the question is not last", q)
		}
	}
	for _, q := range []string{"How many customers are there?", "combien de clients au Canada ?", "有多少客户？", "which customer is the most loyal?"} {
		p, ans := r.prompt(t, a, q)
		if strings.Contains(p, "glossary") || strings.Contains(p, loyalSQL) {
			t.Errorf("%s: the prompt carries the glossary:\n%s", q, p)
		}
		if ans.GlossaryUsed == nil || len(ans.GlossaryUsed) != 0 {
			t.Errorf("%s: glossary_used %#v, want []", q, ans.GlossaryUsed)
		}
	}
}

// After a schema change that breaks an entry's SQL, the entry is stale and
// never sent; an entry still right is.
func TestAskLeavesOutAStaleEntry(t *testing.T) {
	r := newGlossaryRig(t)
	ctx := context.Background()
	a := r.asker(t)
	for _, e := range []glossary.Entry{
		{Term: "long track", Meaning: "a track over five minutes", SQL: "Milliseconds > 300000"},
		{Term: "loyal customer", Meaning: "a customer with more than 6 invoices", SQL: loyalSQL},
	} {
		if _, err := r.g.Add(ctx, a.DB, e); err != nil {
			t.Fatal(err)
		}
	}
	if p, _ := r.prompt(t, a, "loyal customers who bought long tracks"); !strings.Contains(p, "Milliseconds > 300000") {
		t.Fatalf("the entry is not sent before the change:\n%s", p)
	}
	a.DB.Close()
	raw, err := sql.Open("sqlite", r.path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec("ALTER TABLE Track RENAME COLUMN Milliseconds TO DurationMs"); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	a = r.asker(t)
	p, ans := r.prompt(t, a, "loyal customers who bought long tracks")
	if strings.Contains(p, `"long track"`) || strings.Contains(p, "Milliseconds") || !strings.Contains(p, loyalSQL) {
		t.Errorf("after the change, the prompt:\n%s", p)
	}
	if len(ans.GlossaryUsed) != 1 || ans.GlossaryUsed[0].Term != "loyal customer" {
		t.Errorf("glossary_used %+v", ans.GlossaryUsed)
	}
	st, err := r.g.List(ctx, a.DB)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range st {
		if (s.Term == "long track") != s.Stale {
			t.Errorf("%s: stale %v", s.Term, s.Stale)
		}
		if s.Stale && (s.Problem == nil || !strings.Contains(s.Problem.Hint, "DurationMs")) {
			t.Errorf("%s: problem %+v, want a hint naming DurationMs", s.Term, s.Problem)
		}
	}
}

// A glossary entry the question uses is a promise: an answer whose SQL
// does not hold the entry's condition is doubtful (unused_glossary), one
// whose SQL holds it (spaces, case and a table's alias aside) is not.
func TestAskDoubtsAnAnswerWithoutTheGlossarysSQL(t *testing.T) {
	r := newGlossaryRig(t)
	a := r.asker(t)
	if _, err := r.g.Add(context.Background(), a.DB, glossary.Entry{Term: "big invoice", Meaning: "an invoice over 20", SQL: "Total > 20"}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		sql    string
		doubts bool
	}{
		{"SELECT count(*) FROM Invoice", true},
		{"SELECT count(*) FROM Invoice i WHERE i.total>20", false},
	} {
		r.fake.Respond(func(ollamatest.Request) ollamatest.Reply { return ollamatest.Answer(c.sql, "x") })
		ans, err := a.Ask(context.Background(), "How many big invoices are there?", nil, ask.Options{Today: today, NoExplain: true, NoVote: true})
		if err != nil {
			t.Fatal(err)
		}
		if ans.Confidence == nil {
			t.Fatalf("%s: no confidence", c.sql)
		}
		got := slices.Contains(ans.Confidence.Signals, "unused_glossary")
		if got != c.doubts || got == (ans.Confidence.Level == engine.ConfidenceHigh) {
			t.Errorf("%s: signals %v, level %s", c.sql, ans.Confidence.Signals, ans.Confidence.Level)
		}
	}
}
