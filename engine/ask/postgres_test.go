package ask_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"querent/engine/glossary"
	"querent/engine/sqlite"
	"querent/engine/valuehints"

	"querent/engine"
	"querent/engine/ask"
	"querent/engine/ollama"
	"querent/engine/ollama/ollamatest"
	"querent/engine/postgres"
	"querent/engine/postgres/pgtest"
)

// pgRig is the ask loop on the seeds' PostgreSQL Chinook in a private
// cluster, read by a SELECT-only role, with descriptions (COMMENT ON) on
// a table and a column and a mixed-case table in another schema.
func pgRig(t *testing.T, script ...ollamatest.Reply) (*rig, engine.Database) {
	t.Helper()
	srv, url := pgtest.StartChinook(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	extra := `COMMENT ON TABLE invoice IS 'One sale: what a customer bought at once';
COMMENT ON COLUMN invoice.total IS 'Amount paid in US dollars, taxes included';
CREATE SCHEMA sales;
CREATE TABLE sales."Targets" ("Region" text, "Goal" numeric);
INSERT INTO sales."Targets" VALUES ('Europe', 1000), ('Americas', 1500);
GRANT USAGE ON SCHEMA sales TO ` + pgtest.Reader + `;
GRANT SELECT ON sales."Targets" TO ` + pgtest.Reader + `;
ANALYZE;`
	if out, err := srv.Psql(ctx, "chinook", "-c", extra); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	db, err := postgres.Open(ctx, url, postgres.Options{RequireReadOnlyRole: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	fake := ollamatest.New(t, script...)
	m, err := ollama.New(ollama.Config{Host: fake.URL, RequestTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	// A budget for the stored values that a busy machine (the other
	// packages' tests beside this one) cannot exhaust: the test is of the
	// hints, not of the budget.
	return &rig{fake: fake, asker: &ask.Asker{DB: db, Model: m, ModelName: "qwen2.5-coder:7b",
		ValueIndex: valuehints.IndexOptions{Budget: time.Minute}}}, db
}

// TestAskOnPostgres: on PostgreSQL the prompt is PostgreSQL's (its rules,
// its examples, names quoted as PostgreSQL reads them, the descriptions),
// SQLite's strftime is refused by the guard with a precise error that the
// model repairs, the rows come from the server, value hints find a stored
// value, and the password is in no request.
func TestAskOnPostgres(t *testing.T) {
	r, _ := pgRig(t,
		ollamatest.Answer("SELECT strftime('%Y', invoice_date) AS year, SUM(total) AS sales FROM invoice GROUP BY 1", "x"),
		ollamatest.Answer("SELECT EXTRACT(YEAR FROM invoice_date)::int AS year, SUM(total) AS sales FROM invoice GROUP BY 1 ORDER BY 1",
			"Sales per year.", "Which country bought most?"),
		ollamatest.Answer("SELECT count(*) AS customers FROM customer WHERE country = 'Brazil'", "Counts them."))
	ans, err := r.ask(t, "Sales per year", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ans.Attempts) != 2 || ans.Attempts[0].Error == nil || ans.Attempts[1].Error != nil {
		t.Fatalf("attempts %+v", ans.Attempts)
	}
	if !strings.Contains(ans.Attempts[0].Error.Message, "strftime") {
		t.Errorf("the first attempt's error does not name strftime: %+v", ans.Attempts[0].Error)
	}
	if len(ans.Results.Values) != 5 || fmt.Sprint(ans.Results.Values[0][0]) != "2021" || ans.Explanation != "Sales per year." {
		t.Errorf("rows %v, explanation %q", ans.Results.Values, ans.Explanation)
	}
	reqs := r.fake.Requests()
	system := reqs[0].Messages[0].Content
	for _, want := range []string{
		"You write PostgreSQL queries", "EXTRACT(YEAR FROM col)", "ILIKE '%…%'", "PostgreSQL has no strftime()",
		"COUNT(*) FILTER (WHERE amount > 100)",
		"-- invoice: One sale: what a customer bought at once",
		"-- column descriptions: total: Amount paid in US dollars, taxes included",
		`CREATE TABLE sales."Targets" ("Region" text, "Goal" numeric)`,
	} {
		if !strings.Contains(system, want) {
			t.Errorf("the system prompt lacks %q", want)
		}
	}
	for _, not := range []string{"You write SQLite", "strftime('%Y', col) for the year", "SQLite has no ILIKE"} {
		if strings.Contains(system, not) {
			t.Errorf("the PostgreSQL prompt holds SQLite's rule %q", not)
		}
	}
	repair := reqs[1].Messages[len(reqs[1].Messages)-1].Content
	if !strings.Contains(repair, "strftime") {
		t.Errorf("the repair request does not carry the error:\n%s", repair)
	}
	golden := filepath.Join("testdata", "prompts", "postgres-sales-per-year.golden")
	var b strings.Builder
	for _, m := range reqs[0].Messages {
		fmt.Fprintf(&b, "=== %s\n%s\n", m.Role, m.Content)
	}
	// The server's port changes from run to run; the database's name does not.
	got := b.String()
	if *update {
		os.WriteFile(golden, []byte(got), 0o644)
	}
	if want, err := os.ReadFile(golden); err != nil {
		t.Errorf("%v (run with -update)", err)
	} else if got != string(want) {
		t.Errorf("the prompt differs from %s (run with -update after checking)", golden)
	}

	ans, err = r.ask(t, "How many customers are in brasil?", nil)
	if err != nil {
		t.Fatal(err)
	}
	last := r.fake.Requests()[3].Messages
	if q := last[len(last)-1].Content; !strings.Contains(q, "customer.country = 'Brazil'") {
		t.Errorf("no value hint for brasil:\n%s", q)
	}
	if len(ans.Results.Values) != 1 || fmt.Sprint(ans.Results.Values[0][0]) != "5" {
		t.Errorf("rows %v", ans.Results.Values)
	}
	for i, req := range r.fake.Requests() {
		for _, m := range req.Messages {
			if strings.Contains(m.Content, pgtest.ReaderPassword) {
				t.Errorf("request %d holds the password", i)
			}
		}
	}
}

// TestGlossaryOnPostgres: on PostgreSQL a glossary entry's SQL is checked
// by PostgreSQL's guard (a wrong column refused with the closest names),
// sent only with a question that uses the term, and, once the schema
// changed under it (a column renamed), flagged stale and no longer sent.
func TestGlossaryOnPostgres(t *testing.T) {
	srv, url := pgtest.StartChinook(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	db, err := postgres.Open(ctx, url, postgres.Options{RequireReadOnlyRole: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	st, err := sqlite.OpenGlossary(ctx, filepath.Join(t.TempDir(), "glossary.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	g := glossary.New(st)

	_, err = g.Add(ctx, db, glossary.Entry{Term: "big invoice", Meaning: "an invoice over 20 dollars", SQL: "invoice.totl > 20"})
	if e := engine.AsError(err); e == nil || e.Code != engine.CodeUnknownColumn || !strings.Contains(e.Hint, "total") {
		t.Fatalf("a wrong column: %v (hint %q), want unknown_column naming total", err, engine.AsError(err).Hint)
	}
	if _, err := g.Add(ctx, db, glossary.Entry{Term: "big invoice", Meaning: "an invoice over 20 dollars", SQL: "invoice.total > 20"}); err != nil {
		t.Fatal(err)
	}

	fake := ollamatest.New(t)
	fake.Respond(func(req ollamatest.Request) ollamatest.Reply {
		if strings.Contains(lastMessage(req), "invoice.total > 20") {
			return ollamatest.Answer("SELECT count(*) AS n FROM invoice WHERE invoice.total > 20", "Counts the big invoices.")
		}
		return ollamatest.Answer("SELECT count(*) AS n FROM track", "Counts the tracks.")
	})
	m, err := ollama.New(ollama.Config{Host: fake.URL, RequestTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	a := &ask.Asker{DB: db, Model: m, ModelName: "qwen2.5-coder:7b", Glossary: g}
	askFor := func(q string) (string, *engine.Answer) {
		n := len(fake.Requests())
		ans, err := a.Ask(ctx, q, nil, ask.Options{Today: today, NoExplain: true, NoVote: true})
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return lastMessage(fake.Requests()[n]), ans
	}
	prompt, ans := askFor("How many big invoices are there?")
	if !strings.Contains(prompt, `"big invoice"`) || len(ans.GlossaryUsed) != 1 || ans.GlossaryUsed[0].Term != "big invoice" {
		t.Fatalf("the term is not sent or not listed: %v\n%s", ans.GlossaryUsed, prompt)
	}
	if ans.RowCount != 1 || fmt.Sprint(ans.Results.Values[0][0]) != "4" {
		t.Errorf("big invoices: %v", ans.Results.Values)
	}
	if prompt, ans := askFor("How many tracks are there?"); strings.Contains(prompt, "big invoice") || len(ans.GlossaryUsed) != 0 {
		t.Errorf("a question without the term got it: %v\n%s", ans.GlossaryUsed, prompt)
	}

	if out, err := srv.Psql(ctx, "chinook", "-c", "ALTER TABLE invoice RENAME COLUMN total TO amount"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	db2, err := postgres.Open(ctx, url, postgres.Options{RequireReadOnlyRole: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db2.Close() })
	list, err := g.List(ctx, db2)
	if err != nil || len(list) != 1 || !list[0].Stale || list[0].Problem == nil || !strings.Contains(list[0].Problem.Message, "totl") && !strings.Contains(list[0].Problem.Message, "total") {
		t.Fatalf("after the rename the entry is not stale with its problem: %+v %v", list, err)
	}
	if used, err := g.Used(ctx, db2, "How many big invoices are there?"); err != nil || len(used) != 0 {
		t.Errorf("a stale entry is still used: %v %v", used, err)
	}
}
