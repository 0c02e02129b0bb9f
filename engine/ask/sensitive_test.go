package ask_test

import (
	"context"
	"database/sql"
	"strings"
	"testing"

	_ "modernc.org/sqlite"

	"querent/engine"
	"querent/engine/ask"
	"querent/engine/ollama/ollamatest"
	"querent/engine/sensitive"
)

// emails reads every value of Customer.Email from the file itself.
func emails(t *testing.T, path string) []string {
	raw, err := sql.Open("sqlite", "file:"+path+"?mode=ro&immutable=1")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	rows, err := raw.Query(`SELECT Email FROM Customer`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		rows.Scan(&s)
		out = append(out, s)
	}
	if len(out) != 59 {
		t.Fatalf("%d emails", len(out))
	}
	return out
}

// TestSensitiveNeverReachesTheModel reproduces issue 28: with
// Customer.Email marked, no request the model receives holds any of its
// values — not the schema's samples, not the stored values a question
// names, not a verified example, not the rows it explains, not the
// readings it votes on, not the values a zero-row check offers — while
// the analyst's answer still has them, marked.
func TestSensitiveNeverReachesTheModel(t *testing.T) {
	ctx := context.Background()
	r := newRig(t)
	db := r.asker.DB.(engine.SensitiveMarker)
	db.SetSensitive(sensitive.New("Customer.Email"))
	all := emails(t, r.path)
	r.fake.Respond(func(req ollamatest.Request) ollamatest.Reply {
		q := req.Messages[len(req.Messages)-1].Content
		switch {
		case strings.Contains(q, "that person") || strings.Contains(q, "matches no stored value"):
			// A value written slightly wrong: a check of stored values
			// would offer the right one.
			return ollamatest.Answer("SELECT FirstName FROM Customer WHERE Email = 'luisg@embraer.com'", "x")
		case strings.Contains(q, "Which customers") && !strings.Contains(q, "no such column"):
			// A wrong column first: the repaired answer is doubtful, and
			// other readings are drawn (votes).
			return ollamatest.Answer("SELECT FirstName, Emial FROM Customer ORDER BY CustomerId LIMIT 5", "x")
		}
		return ollamatest.Answer("SELECT FirstName, Email, lower(Email) AS mail, length(Email) AS n FROM Customer ORDER BY CustomerId LIMIT 5",
			"Lists five customers with their addresses.")
	})
	// A verified example that reads the column, with a value in its SQL and
	// its question.
	if err := r.hist.Record(ctx, engine.HistoryEntry{Database: r.path, DatabaseSHA256: sha(t, r.path), Question: "who is luisg@embraer.com.br",
		SQL: "SELECT FirstName FROM Customer WHERE Email = 'luisg@embraer.com.br'", Status: "ok", RowCount: 1, Client: "test",
		Verified: engine.VerifiedApproved}); err != nil {
		t.Fatal(err)
	}
	ans, err := r.asker.Ask(ctx, "Which customers work for embraer, and what are their addresses?", nil,
		ask.Options{Today: today, Client: "test"})
	if err != nil {
		t.Fatal(err)
	}
	// The analyst sees the values, marked.
	if ans.RowCount != 5 || ans.Results.Values[0][1] != "luisg@embraer.com.br" || !ans.Columns[1].Sensitive || !ans.Columns[2].Sensitive ||
		!ans.Columns[3].Sensitive || ans.Columns[0].Sensitive || len(ans.MaskedColumns) != 0 {
		t.Fatalf("the analyst's answer: %+v %v", ans.Columns, ans.Results.Values)
	}
	if _, err := r.asker.Ask(ctx, "Who is that person at embraer?", nil, ask.Options{Today: today, Client: "test", NoVote: true}); err != nil {
		t.Fatal(err)
	}
	reqs := r.fake.Requests()
	stages := map[string]bool{}
	for _, st := range ans.ModelStats.Rounds {
		stages[st.Stage] = true
	}
	if !stages["vote"] || !stages["explain"] || !stages["repair"] {
		t.Fatalf("the rounds %v do not cover votes, a repair and the explanation", stages)
	}
	var sent strings.Builder
	for _, req := range reqs {
		for _, m := range req.Messages {
			sent.WriteString(m.Content + "\n")
		}
	}
	text := strings.ToLower(sent.String())
	for _, e := range all {
		if strings.Contains(text, strings.ToLower(e)) {
			t.Errorf("a request holds %s", e)
		}
	}
	for _, want := range []string{"email", engine.MaskText, "luís | [masked] | [masked] | [masked]"} {
		if !strings.Contains(text, strings.ToLower(want)) {
			t.Errorf("the requests lack %q", want)
		}
	}
	// The question's own words go as written (the analyst typed them), but
	// the example's value is masked where its question and SQL quote it.
	if !strings.Contains(text, "who is [masked]") || !strings.Contains(text, "email = '[masked]'") {
		t.Errorf("the example is not masked:\n%s", text)
	}
}
