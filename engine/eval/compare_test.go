package eval_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"querent/engine"
	"querent/engine/eval"
	"querent/engine/glossary"
	"querent/engine/schemactx"
	"querent/engine/words"
)

func TestParseVariants(t *testing.T) {
	vs, err := eval.ParseVariants(" ddl, mschema+glossary ,ask+no-vote,examples+vote")
	if err != nil {
		t.Fatal(err)
	}
	want := []eval.Variant{
		{Name: "ddl", Schema: schemactx.FormDDL},
		{Name: "mschema+glossary", Schema: schemactx.FormMSchema, Glossary: true},
		{Name: "ask+no-vote", Schema: schemactx.FormDDL, Glossary: true, Examples: true},
		{Name: "examples+vote", Schema: schemactx.FormDDL, Examples: true, Vote: true},
	}
	if len(vs) != len(want) {
		t.Fatalf("%+v", vs)
	}
	for i := range want {
		if vs[i] != want[i] {
			t.Errorf("%d: %+v, want %+v", i, vs[i], want[i])
		}
	}
	for _, bad := range []string{"", "ddl,sql", "ddl+mschema", "vote+no-vote", "ddl,ddl+no-vote", "glossary+ask", "a,b,c,d,e,f,g,h,i"} {
		_, err := eval.ParseVariants(bad)
		var e *engine.Error
		if !errors.As(err, &e) || e.Code != engine.CodeUsage {
			t.Errorf("%q: %v, want a usage error", bad, err)
			continue
		}
		for _, lang := range words.Languages {
			hint := words.Speaker{Lang: lang}.Say(e.HintSentence())
			for _, s := range eval.Settings {
				if !strings.Contains(hint, s) {
					t.Errorf("%q: the %s hint %q does not list %s", bad, lang, hint, s)
				}
			}
		}
	}
}

// fakeGlossary says what "catalogue" means to every question that uses it.
type fakeGlossary struct{}

func (fakeGlossary) Used(_ context.Context, _ engine.Database, q string) ([]glossary.Entry, error) {
	if !strings.Contains(q, "tracks") {
		return nil, nil
	}
	return []glossary.Entry{{Term: "tracks", Meaning: "the rows of Track, every song"}}, nil
}

// fakeHistory holds two verified answers: the gold answer to a question
// of the set (never quoted while that question is asked) and a like one.
type fakeHistory struct{ engine.History }

func (fakeHistory) Verified(context.Context, engine.DatabaseIdentity, int) ([]engine.HistoryEntry, error) {
	return []engine.HistoryEntry{
		{ID: 1, Question: "How many  tracks are there?", SQL: "SELECT count(*) FROM Track", Verified: "approved"},
		{ID: 2, Question: "How many genres do we have?", SQL: "SELECT count(*) FROM Genre", Verified: "approved"},
	}, nil
}

// The same items run under each variant: the M-Schema form, the glossary
// and the examples reach the model, and the table is computed from the
// runs (the fake answers right only from the M-Schema form).
func TestRunCompare(t *testing.T) {
	g, err := eval.Parse("small.toml", []byte(smallGold))
	if err != nil {
		t.Fatal(err)
	}
	db := openDemo(t)
	perVariant := map[string][]engine.ChatRequest{}
	variant := ""
	m := &fakeModel{answer: func(q string, req engine.ChatRequest) string {
		perVariant[variant] = append(perVariant[variant], req)
		system := req.Messages[0].Content
		if !strings.Contains(system, "# Table: Track") {
			return sqlAnswer("SELECT count(*) FROM Album") // wrong from DDL
		}
		return oracle(g)(q, req)
	}}
	vs, err := eval.ParseVariants("ddl,mschema+glossary+examples")
	if err != nil {
		t.Fatal(err)
	}
	c, err := eval.RunCompare(context.Background(), eval.Options{Gold: g, DB: db, Model: m, Models: []string{"fake"},
		Glossary: fakeGlossary{}, Examples: fakeHistory{},
		Progress: func(p eval.Progress) { variant = p.Variant }}, vs)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Rows) != 2 || len(c.Reports) != 2 || c.Items != len(g.Items) {
		t.Fatalf("%d rows, %d reports, %d items", len(c.Rows), len(c.Reports), c.Items)
	}
	ddl, ms := c.Rows[0], c.Rows[1]
	for _, req := range perVariant["ddl"] {
		if s := req.Messages[0].Content; !strings.Contains(s, "CREATE TABLE Track") || strings.Contains(s, "# Table:") {
			t.Fatalf("ddl's prompt:\n%.2000s", s)
		}
		if last := req.Messages[len(req.Messages)-1].Content; strings.Contains(last, "glossary") || strings.Contains(last, "verified") {
			t.Errorf("ddl's question has a glossary or examples:\n%s", last)
		}
	}
	sawGlossary, sawExample := false, false
	for _, req := range perVariant["mschema+glossary+examples"] {
		last := req.Messages[len(req.Messages)-1].Content
		if strings.Contains(last, "How many tracks are there?") {
			sawGlossary = sawGlossary || strings.Contains(last, `"tracks": the rows of Track`)
			if strings.Contains(last, "SELECT count(*) FROM Track") {
				t.Errorf("the item's own gold answer was quoted as an example:\n%s", last)
			}
		}
		if strings.Contains(last, "How many genres are there?") {
			sawExample = sawExample || strings.Contains(last, "Q: How many genres do we have?")
		}
	}
	if !sawGlossary || !sawExample {
		t.Errorf("the glossary (%v) or the example (%v) did not reach the model", sawGlossary, sawExample)
	}
	if ddl.Schema != "ddl" || ms.Schema != "mschema" || !ms.Glossary || !ms.Examples || ms.Vote {
		t.Errorf("rows: %+v / %+v", ddl.Variant, ms.Variant)
	}
	// From the runs: from DDL the fake answers every question wrong (and
	// declines none), from M-Schema every one right.
	if ddl.ExecutionAccuracy >= ms.ExecutionAccuracy || ms.ExecutionAccuracy != 1 || ms.Matches != len(g.Items) {
		t.Errorf("accuracy: ddl %v, mschema %v (%d of %d)", ddl.ExecutionAccuracy, ms.ExecutionAccuracy, ms.Matches, ms.Questions)
	}
	if ddl.Abstention == nil || *ddl.Abstention != 0 || ms.Abstention == nil || *ms.Abstention != 1 {
		t.Errorf("abstention: ddl %v, mschema %v", ddl.Abstention, ms.Abstention)
	}
	for i, row := range c.Rows {
		reqs := perVariant[row.Name]
		if row.RoundsTotal != len(reqs) || row.TokensTotal != c.Reports[i].Models[0].TokensTotal || row.TokensTotal <= 0 || row.Asked != len(g.Items) {
			t.Errorf("%s: %d rounds, %d tokens, %d asked; the fake saw %d requests", row.Name, row.RoundsTotal, row.TokensTotal, row.Asked, len(reqs))
		}
		if row.TimeS <= 0 || row.RoundsPerQuestion != float64(len(reqs))/float64(len(g.Items)) {
			t.Errorf("%s: %v s, %v rounds a question", row.Name, row.TimeS, row.RoundsPerQuestion)
		}
	}
	if _, err := c.JSON(); err != nil {
		t.Fatal(err)
	}
	// A variant that asks for what the options do not give warns.
	c, err = eval.RunCompare(context.Background(), eval.Options{Gold: g, DB: db, Model: m, Models: []string{"fake"}}, vs[1:])
	if err != nil || len(c.Warnings) != 2 {
		t.Errorf("without a glossary or a history: %v, warnings %q", err, c.Warnings)
	}
}

// Voting on reaches the ask loop: a doubtful answer (here an empty result)
// draws other readings, which the table counts as rounds.
func TestRunCompareVote(t *testing.T) {
	g, err := eval.Parse("small.toml", []byte(smallGold))
	if err != nil {
		t.Fatal(err)
	}
	db := openDemo(t)
	m := &fakeModel{answer: func(q string, req engine.ChatRequest) string {
		if q == "How many tracks are there?" {
			return sqlAnswer("SELECT TrackId FROM Track WHERE 0") // empty: doubtful
		}
		return oracle(g)(q, req)
	}}
	vs, err := eval.ParseVariants("no-vote,vote")
	if err != nil {
		t.Fatal(err)
	}
	c, err := eval.RunCompare(context.Background(), eval.Options{Gold: g, DB: db, Model: m, Models: []string{"fake"}}, vs)
	if err != nil {
		t.Fatal(err)
	}
	off, on := c.Rows[0], c.Rows[1]
	if off.RoundsTotal != len(g.Items) || on.RoundsTotal <= off.RoundsTotal || on.RoundsPerQuestion <= 1 {
		t.Errorf("rounds: %d without votes, %d with (%v a question)", off.RoundsTotal, on.RoundsTotal, on.RoundsPerQuestion)
	}
}
