package ask_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"querent/engine"
	"querent/engine/ask"
	"querent/engine/ollama"
	"querent/engine/ollama/ollamatest"
	"querent/engine/schemactx"
	"querent/engine/sqlite"
)

// chinook copies the demo database to a temporary file.
func chinook(t *testing.T) string {
	b, err := os.ReadFile("../sqlite/demo/Chinook_Sqlite.sqlite")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "chinook.db")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func sha(t *testing.T, p string) string {
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

type rig struct {
	fake  *ollamatest.Server
	asker *ask.Asker
	path  string
	hist  *sqlite.HistoryStore
}

func newRig(t *testing.T, script ...ollamatest.Reply) *rig {
	ctx := context.Background()
	path := chinook(t)
	db, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	fake := ollamatest.New(t, script...)
	m, err := ollama.New(ollama.Config{Host: fake.URL, RequestTimeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	h, err := sqlite.OpenHistory(ctx, filepath.Join(t.TempDir(), "history.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return &rig{fake: fake, path: path, hist: h, asker: &ask.Asker{DB: db, Model: m, ModelName: "qwen2.5-coder:7b", History: h}}
}

var today = time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)

func (r *rig) ask(t *testing.T, q string, s *engine.Session) (*engine.Answer, error) {
	// The loop's tests draw no other readings; vote_test.go tests those.
	return r.asker.Ask(context.Background(), q, s, ask.Options{Today: today, Client: "test", NoVote: true})
}

func TestAskRepairsAWrongColumn(t *testing.T) {
	r := newRig(t,
		ollamatest.Answer("SELECT BillingCountry, sum(Totl) AS total FROM Invoice GROUP BY 1 ORDER BY 2 DESC LIMIT 3", "Sums invoice totals by country."),
		ollamatest.Answer("SELECT BillingCountry, sum(Total) AS total FROM Invoice GROUP BY 1 ORDER BY 2 DESC LIMIT 3", "Sums invoice totals by country.",
			"What about 2012?", "Which genre sells best?"))
	before := sha(t, r.path)
	ans, err := r.ask(t, "Which three countries bought the most?", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ans.Attempts) != 2 || ans.Attempts[0].Error == nil || ans.Attempts[0].Error.Type != engine.CodeUnknownColumn || ans.Attempts[1].Error != nil {
		t.Fatalf("attempts %+v", ans.Attempts)
	}
	// The second request carries SQLite's error and the closest names.
	second := r.fake.Requests()[1].Messages
	last := second[len(second)-1].Content
	for _, want := range []string{"no such column: Totl", "did you mean Total?", "sum(Totl)", "Which three countries bought the most?"} {
		if !strings.Contains(last, want) {
			t.Errorf("the repair request lacks %q:\n%s", want, last)
		}
	}
	if second[len(second)-2].Role != "assistant" {
		t.Errorf("the failed answer is not in the conversation")
	}
	if len(ans.TablesShown) != 11 {
		t.Errorf("tables shown %v", ans.TablesShown)
	}
	if ans.RowCount != 3 || ans.Results.Values[0][0] != "USA" || *ans.Question != "Which three countries bought the most?" || *ans.Model != "qwen2.5-coder:7b" {
		t.Errorf("answer %+v", ans)
	}
	if ans.Explanation != "Sums invoice totals by country." || len(ans.FollowUpQuestions) != 2 {
		t.Errorf("explanation %q follow-ups %v", ans.Explanation, ans.FollowUpQuestions)
	}
	// The explanation is asked for after the rows, with the rows.
	reqs := r.fake.Requests()
	if len(reqs) != 3 || !strings.Contains(string(reqs[2].Format), `"explanation"`) || !strings.Contains(lastMessage(reqs[2]), "3 rows.") ||
		!strings.Contains(lastMessage(reqs[2]), "USA") {
		t.Errorf("the explanation request: %d requests, %s", len(reqs), lastMessage(reqs[len(reqs)-1]))
	}
	if ans.ModelStats == nil || len(ans.ModelStats.Rounds) != 3 || ans.ModelStats.Rounds[0].Stage != "sql" ||
		ans.ModelStats.Rounds[1].Stage != "repair" || ans.ModelStats.Rounds[2].Stage != "explain" || ans.TimeToRowsS == nil {
		t.Errorf("model stats %+v, time to rows %v", ans.ModelStats, ans.TimeToRowsS)
	}
	// Each request asks for the answer schema, temperature 0, a context size.
	req := r.fake.Requests()[0]
	if !strings.Contains(string(req.Format), `"sql"`) || req.Options["temperature"] != 0.0 || req.Options["num_ctx"] == nil || req.Options["num_predict"] == nil {
		t.Errorf("request format %s options %v", req.Format, req.Options)
	}
	if sha(t, r.path) != before {
		t.Error("the database changed")
	}
	hist, _ := r.hist.List(context.Background(), "", 5)
	if len(hist) != 1 || hist[0].Status != "ok" || hist[0].Client != "test" || len(hist[0].Attempts) != 2 || hist[0].DatabaseSHA256 != before {
		t.Errorf("history %+v", hist)
	}
}

func TestAskRefusesAWrite(t *testing.T) {
	r := newRig(t,
		ollamatest.Answer("DELETE FROM Invoice WHERE Total < 1", "Removes small invoices."),
		ollamatest.Answer("SELECT count(*) AS small FROM Invoice WHERE Total < 1", "Counts small invoices."))
	before := sha(t, r.path)
	ans, err := r.ask(t, "Delete the invoices under one dollar", nil)
	// One refusal is the answer: asking again would be refused again.
	if engine.ErrorCode(err) != engine.CodeRefused || len(ans.Attempts) != 1 || len(r.fake.Requests()) != 1 {
		t.Fatalf("%v, attempts %+v, %d requests", err, ans.Attempts, len(r.fake.Requests()))
	}
	e := ans.Errors[0]
	if !strings.Contains(e.Message, "Querent only reads") || !strings.Contains(e.Hint, "SELECT * FROM Invoice WHERE Total < 1") {
		t.Errorf("the refusal %+v", e)
	}
	if sha(t, r.path) != before {
		t.Error("the database changed")
	}
	if sha(t, r.path) != before {
		t.Fatal("the database changed")
	}
}

func lastMessage(req ollamatest.Request) string { return req.Messages[len(req.Messages)-1].Content }

func TestAskGivesUpCleanly(t *testing.T) {
	r := newRig(t,
		ollamatest.Answer("SELECT nope FROM Invoice", "x"), ollamatest.Answer("SELECT nope2 FROM Invoice", "x"),
		ollamatest.Reply{Content: "Sure! I would look at the invoices first."}, ollamatest.Answer("SELECT * FROM Nowhere", "x"))
	ans, err := r.ask(t, "What is the meaning of the data?", nil)
	e := engine.AsError(err)
	if e == nil || e.Code != engine.CodeUnknownTable || !strings.Contains(e.Message, "did not write a working query in 4 attempts") || e.Hint == "" {
		t.Fatalf("error %v", err)
	}
	if len(ans.Attempts) != 4 || len(r.fake.Requests()) != 4 {
		t.Fatalf("%d attempts, %d requests", len(ans.Attempts), len(r.fake.Requests()))
	}
	if ans.Attempts[2].Error.Type != engine.CodeModelError || !strings.Contains(ans.Attempts[2].Error.Message, "not valid JSON") {
		t.Errorf("the malformed answer: %+v", ans.Attempts[2])
	}
	if !strings.Contains(lastMessage(r.fake.Requests()[3]), "was not the JSON object asked for") {
		t.Errorf("no malformed-answer prompt: %s", lastMessage(r.fake.Requests()[3]))
	}
	if len(ans.Errors) != 1 || ans.Errors[0].Type != engine.CodeUnknownTable {
		t.Errorf("errors %+v", ans.Errors)
	}
	hist, _ := r.hist.List(context.Background(), "", 5)
	if len(hist) != 1 || hist[0].Status != engine.CodeUnknownTable {
		t.Errorf("history %+v", hist)
	}
}

func TestAskModelFailures(t *testing.T) {
	tests := []struct {
		name  string
		reply ollamatest.Reply
		code  string
		msg   string
	}{
		{"length", ollamatest.Reply{Content: `{"sql": "SELECT`, DoneReason: "length"}, engine.CodeModelError, "cut off"},
		{"404 model", ollamatest.Reply{Status: 404, Error: "model 'qwen2.5-coder:7b' not found"}, engine.CodeModelMissing, "not installed"},
		{"slow", ollamatest.Reply{Delay: 5 * time.Second}, engine.CodeLLMUnavailable, "did not answer within"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			script := []ollamatest.Reply{tt.reply}
			if tt.code == engine.CodeModelError {
				// A cut-off answer is repaired; script four of them.
				script = []ollamatest.Reply{tt.reply, tt.reply, tt.reply, tt.reply}
			}
			r := newRig(t, script...)
			start := time.Now()
			_, err := r.ask(t, "How many tracks?", nil)
			e := engine.AsError(err)
			if e == nil || e.Code != tt.code || !strings.Contains(e.Message+" "+e.Hint, tt.msg) {
				t.Fatalf("got %v, want %s with %q", err, tt.code, tt.msg)
			}
			if time.Since(start) > 4*time.Second {
				t.Errorf("took %s", time.Since(start))
			}
		})
	}
}

func TestAskAbstains(t *testing.T) {
	r := newRig(t, ollamatest.Abstain("Do you mean the invoice date or the hire date?", ""))
	ans, err := r.ask(t, "What happened in 2010?", nil)
	if engine.ErrorCode(err) != engine.CodeClarification || ans.Errors[0].Message != "Do you mean the invoice date or the hire date?" {
		t.Fatalf("%v %+v", err, ans.Errors)
	}
	r = newRig(t, ollamatest.Abstain("", "The database has no employee salaries."))
	ans, err = r.ask(t, "What is the average salary?", nil)
	if engine.ErrorCode(err) != engine.CodeUnanswerable || !strings.Contains(ans.Errors[0].Message, "no employee salaries") || ans.RowCount != 0 {
		t.Fatalf("%v %+v", err, ans.Errors)
	}
}

func TestAskFollowUp(t *testing.T) {
	first := "SELECT BillingCountry, count(*) AS invoices FROM Invoice GROUP BY 1 ORDER BY 2 DESC LIMIT 5"
	r := newRig(t, ollamatest.Answer(first, "Counts invoices per country."),
		ollamatest.Answer("SELECT BillingCountry, count(*) AS invoices FROM Invoice WHERE strftime('%Y', InvoiceDate) = '2012' GROUP BY 1 ORDER BY 2 DESC LIMIT 5", "The same for 2012."))
	s := &engine.Session{}
	if _, err := r.ask(t, "Which countries have the most invoices?", s); err != nil {
		t.Fatal(err)
	}
	ans, err := r.ask(t, "same but for 2012", s)
	if err != nil {
		t.Fatal(err)
	}
	msgs := r.fake.Requests()[2].Messages
	// system, previous question, previous answer (with its SQL), this question.
	if len(msgs) != 4 || msgs[1].Content != "Which countries have the most invoices?" || !strings.Contains(msgs[2].Content, first) ||
		!strings.HasSuffix(msgs[3].Content, "same but for 2012") || !strings.Contains(msgs[3].Content, "returned 5 rows with the columns BillingCountry, invoices") {
		t.Fatalf("follow-up messages %+v", msgs)
	}
	// The system message is the same, byte for byte, for both questions.
	if msgs[0].Content != r.fake.Requests()[0].Messages[0].Content {
		t.Error("the system message changed between questions")
	}
	if len(s.Turns) != 2 || ans.SessionContext["turns"] == nil {
		t.Errorf("session %+v, context %v", s, ans.SessionContext)
	}
	back := engine.SessionFromContext(ans.SessionContext)
	if len(back.Turns) != 2 || back.Turns[1].Question != "same but for 2012" {
		t.Errorf("session round trip %+v", back)
	}
}

func TestAskEmptyResultChecksLiterals(t *testing.T) {
	r := newRig(t,
		ollamatest.Answer("SELECT FirstName, LastName FROM Customer WHERE Country = 'Brasil'", "Customers in Brazil."),
		ollamatest.Answer("SELECT FirstName, LastName FROM Customer WHERE Country = 'Brazil'", "Customers in Brazil."))
	ans, err := r.ask(t, "List the customers from Brasil", nil)
	if err != nil {
		t.Fatal(err)
	}
	if ans.RowCount != 5 || len(ans.Attempts) != 2 {
		t.Fatalf("rows %d, attempts %+v", ans.RowCount, ans.Attempts)
	}
	if check := lastMessage(r.fake.Requests()[1]); !strings.Contains(check, "Country = 'Brasil' matches no stored value of Country; it has 'Brazil'") {
		t.Errorf("the empty-result check: %s", check)
	}
	// A genuinely empty answer stands after one check.
	r = newRig(t, ollamatest.Answer("SELECT * FROM Invoice WHERE Total > 1000", "No invoice is over 1000."))
	ans, err = r.ask(t, "Invoices over 1000?", nil)
	if err != nil || ans.RowCount != 0 || len(r.fake.Requests()) != 2 || ans.Explanation != "No invoice is over 1000." ||
		!strings.Contains(lastMessage(r.fake.Requests()[1]), "0 rows.") {
		t.Errorf("empty answer: %v, %d rows, %d requests, %q", err, ans.RowCount, len(r.fake.Requests()), ans.Explanation)
	}
}

func TestAskValueHintsAndExamples(t *testing.T) {
	r := newRig(t, ollamatest.Answer("SELECT count(*) FROM Customer WHERE Country = 'Brazil'", "x"),
		ollamatest.Answer("SELECT count(*) FROM Customer WHERE Country = 'Germany'", "x"),
		ollamatest.Answer("SELECT count(*) FROM Customer WHERE Country = 'France'", "x"))
	if _, err := r.ask(t, "how many customers in brasil", nil); err != nil {
		t.Fatal(err)
	}
	last := lastMessage(r.fake.Requests()[0])
	if !strings.Contains(last, "Customer.Country = 'Brazil'") {
		t.Errorf("no value hint for brasil in the prompt")
	}
	// Nobody checked the answer: in a later session, it is no example.
	ans, err := r.ask(t, "how many customers in germany", nil)
	if err != nil {
		t.Fatal(err)
	}
	last = lastMessage(r.fake.Requests()[2])
	if strings.Contains(last, "how many customers in brasil") || strings.Contains(last, "'Brazil'") || len(ans.ExamplesUsed) != 0 {
		t.Errorf("an unverified answer of another session is quoted (%+v):\n%s", ans.ExamplesUsed, last)
	}
	// Approved, it is: labelled as verified, and listed in the answer.
	es, _ := r.hist.Search(context.Background(), engine.HistoryQuery{Text: "brasil"})
	if len(es) != 1 {
		t.Fatalf("history %+v", es)
	}
	es[0].Verified = engine.VerifiedApproved
	if err := r.hist.SetVerified(context.Background(), es[0]); err != nil {
		t.Fatal(err)
	}
	if ans, err = r.ask(t, "how many customers in france", nil); err != nil {
		t.Fatal(err)
	}
	last = lastMessage(r.fake.Requests()[4])
	if !strings.Contains(last, "verified on this database") || !strings.Contains(last, "Q: how many customers in brasil\nSQL: SELECT count(*) FROM Customer WHERE Country = 'Brazil'") {
		t.Errorf("the approved answer is not quoted as verified:\n%s", last)
	}
	want := []engine.ExampleUsed{{ID: es[0].ID, Question: "how many customers in brasil", SQL: "SELECT count(*) FROM Customer WHERE Country = 'Brazil'", VerifiedAs: "approved"}}
	if !reflect.DeepEqual(ans.ExamplesUsed, want) {
		t.Errorf("examples_used %+v, want %+v", ans.ExamplesUsed, want)
	}
}

// TestAskVerifiedExamplesByIdentity: a verified answer is quoted for a copy
// of its database elsewhere (the same sha256), never for another database
// at the same path.
func TestAskVerifiedExamplesByIdentity(t *testing.T) {
	ctx := context.Background()
	r := newRig(t, ollamatest.Answer("SELECT count(*) FROM Track", "x"), ollamatest.Answer("SELECT count(*) FROM Track", "x"),
		ollamatest.Answer("SELECT count(*) FROM history", "x"))
	ans, err := r.ask(t, "How many tracks are there?", nil)
	if err != nil {
		t.Fatal(err)
	}
	es, _ := r.hist.Search(ctx, engine.HistoryQuery{})
	es[0].Verified = engine.VerifiedApproved
	if err := r.hist.SetVerified(ctx, es[0]); err != nil || len(ans.ExamplesUsed) != 0 {
		t.Fatal(err, ans.ExamplesUsed)
	}
	askOn := func(path, q string) *engine.Answer {
		db, err := sqlite.Open(ctx, path, sqlite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		a := &ask.Asker{DB: db, Model: r.asker.Model, ModelName: r.asker.ModelName, History: r.hist}
		ans, err := a.Ask(ctx, q, nil, ask.Options{Today: today})
		if err != nil {
			t.Fatal(err)
		}
		return ans
	}
	cp := filepath.Join(t.TempDir(), "copy.db")
	b, _ := os.ReadFile(r.path)
	os.WriteFile(cp, b, 0o644)
	if got := askOn(cp, "how many tracks"); len(got.ExamplesUsed) != 1 || got.ExamplesUsed[0].SQL != "SELECT count(*) FROM Track" {
		t.Errorf("a copy of the database: examples %+v", got.ExamplesUsed)
	}
	// Another database at the same path: not a word of Chinook's examples.
	os.Remove(r.path)
	other, err := sqlite.OpenHistory(ctx, r.path) // any SQLite file with other tables
	if err != nil {
		t.Fatal(err)
	}
	other.Close()
	if got := askOn(r.path, "how many tracks"); len(got.ExamplesUsed) != 0 || strings.Contains(lastMessage(r.fake.Requests()[4]), "verified") {
		t.Errorf("another database at the same path: examples %+v", got.ExamplesUsed)
	}
}

// TestChooseExamplesBySimilarity: the verified answers most like the
// question come first, by folded and stemmed words (plural, case, accents),
// Chinese by characters; an unrelated one is not quoted at all.
func TestChooseExamplesBySimilarity(t *testing.T) {
	past := []engine.HistoryEntry{
		{ID: 1, Question: "Total sales per country"},
		{ID: 2, Question: "Which artist has the most albums?"},
		{ID: 3, Question: "Quelles sont les ventes par pays en 2012 ?"},
		{ID: 4, Question: "每个国家的销售额"},
		{ID: 5, Question: "How many employees are there?"},
	}
	cases := []struct {
		q    string
		want []int64
	}{
		{"ARTISTS with the most ALBUMS", []int64{2}},
		{"total sale by country in 2013", []int64{1}},
		{"ventes par pays", []int64{3}},
		{"各国家销售额是多少", []int64{4}},
		{"what is the weather like", nil},
	}
	for _, c := range cases {
		var got []int64
		for _, e := range ask.ChooseExamples(c.q, past, 3) {
			got = append(got, e.ID)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: %v, want %v", c.q, got, c.want)
		}
	}
}

func TestAskCancelled(t *testing.T) {
	r := newRig(t, ollamatest.Reply{Delay: 5 * time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := r.asker.Ask(ctx, "How many tracks?", nil, ask.Options{Today: today})
	if c := engine.ErrorCode(err); c != engine.CodeCancelled && c != engine.CodeTimeout {
		t.Fatalf("got %v", err)
	}
}

var update = flag.Bool("update", false, "rewrite golden files")

// TestPromptGolden keeps the prompts of a few Chinook questions in golden
// files (go test ./engine/ask -run TestPromptGolden -update after a deliberate change).
func TestPromptGolden(t *testing.T) {
	for _, q := range []struct{ name, question, form string }{
		{"artist-most-albums", "Which artist has the most albums?", ""},
		{"sales-by-country-2012", "Total sales per country in 2012", ""},
		{"brasil-customers", "List the customers in brasil", ""},
		{"acdc-tracks", "How many tracks by acdc are longer than 5 minutes?", ""},
		// The M-Schema form (querent eval --compare, issue 23 §4).
		{"mschema-artist-most-albums", "Which artist has the most albums?", schemactx.FormMSchema},
	} {
		r := newRig(t, ollamatest.Answer("SELECT 1", "x"))
		if _, err := r.asker.Ask(context.Background(), q.question, nil, ask.Options{Today: today, Client: "test", NoVote: true, SchemaForm: q.form}); err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, m := range r.fake.Requests()[0].Messages {
			fmt.Fprintf(&b, "=== %s\n%s\n", m.Role, strings.ReplaceAll(m.Content, r.path, "chinook.db"))
		}
		golden := filepath.Join("testdata", "prompts", q.name+".golden")
		if *update {
			os.MkdirAll(filepath.Dir(golden), 0o755)
			os.WriteFile(golden, []byte(b.String()), 0o644)
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run with -update)", err)
		}
		if b.String() != string(want) {
			t.Errorf("%s: the prompt differs from %s (run with -update after checking)", q.name, golden)
		}
	}
}

// TestAskEmitsEveryStage: every stage the page can show is emitted, in the
// loop's order, the repair's included.
func TestAskEmitsEveryStage(t *testing.T) {
	r := newRig(t,
		ollamatest.Answer("SELECT sum(Totl) FROM Invoice", "Sums."),
		ollamatest.Answer("SELECT sum(Total) AS total FROM Invoice", "Sums."),
		// The repair leaves a doubt: two more readings agree, and decide.
		ollamatest.Answer("SELECT sum(Total) AS total FROM Invoice", "Sums."),
		ollamatest.Answer("SELECT sum(Total) AS total FROM Invoice", "Sums."))
	var stages []string
	_, err := r.asker.Ask(context.Background(), "How much was sold?", nil, ask.Options{Today: today,
		Progress: func(p ask.Progress) {
			if p.Tokens == 0 && (len(stages) == 0 || stages[len(stages)-1] != p.Stage) {
				stages = append(stages, p.Stage)
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"preparing", "writing SQL", "checking", "repairing", "checking", "running", "voting", "explaining", "done"}
	if !reflect.DeepEqual(stages, want) {
		t.Errorf("stages %q, want %q", stages, want)
	}
}

// TestAskOneLoadAndTheCache: over a session of ten questions, three of them
// repaired, the model is loaded once (num_ctx never changes), and a later
// question evaluates only its own part of the prompt: the system message is
// byte-identical, so the server keeps it.
func TestAskOneLoadAndTheCache(t *testing.T) {
	var script []ollamatest.Reply
	for i := 0; i < 10; i++ {
		if i%3 == 1 {
			script = append(script, ollamatest.Answer("SELECT count(*) FROM Trak", "x"))
		}
		script = append(script, ollamatest.Answer(fmt.Sprintf("SELECT count(*) AS n FROM Track WHERE TrackId > %d", i), "Counts tracks."))
	}
	r := newRig(t, script...)
	s := &engine.Session{}
	var second *engine.Answer
	for i := 0; i < 10; i++ {
		ans, err := r.ask(t, fmt.Sprintf("How many tracks have an id over %d?", i), s)
		if err != nil {
			t.Fatal(err)
		}
		if i == 1 {
			second = ans
		}
	}
	if n := r.fake.Loads(); n != 1 {
		t.Errorf("the model was loaded %d times over the session, want 1", n)
	}
	ctxs := map[any]bool{}
	for _, req := range r.fake.Requests() {
		ctxs[req.Options["num_ctx"]] = true
	}
	if len(ctxs) != 1 {
		t.Errorf("num_ctx took %d values: %v", len(ctxs), ctxs)
	}
	first := second.ModelStats.Rounds[0]
	if first.PromptTokensEvaluated*4 > first.PromptTokens {
		t.Errorf("the second question evaluated %d of its %d prompt tokens, want at most 25%%", first.PromptTokensEvaluated, first.PromptTokens)
	}
	t.Logf("second question: %d of %d prompt tokens evaluated", first.PromptTokensEvaluated, first.PromptTokens)
}

// TestAskStopsOnARepeatedQuery: a repair that returns a query that already
// failed ends the loop instead of spending two more rounds.
func TestAskStopsOnARepeatedQuery(t *testing.T) {
	r := newRig(t, ollamatest.Answer("SELECT Nme FROM Artist", "x"), ollamatest.Answer("SELECT  Nme FROM Artist", "x"),
		ollamatest.Answer("SELECT Name FROM Artist", "x"))
	ans, err := r.ask(t, "List the artists", nil)
	if engine.ErrorCode(err) != engine.CodeUnknownColumn || len(ans.Attempts) != 2 || !strings.Contains(err.Error(), "same failing query") {
		t.Fatalf("%v, attempts %+v", err, ans.Attempts)
	}
}

// TestAskRefusesLongQuestions: a question over 4,000 characters is refused
// before any model request.
func TestAskRefusesLongQuestions(t *testing.T) {
	r := newRig(t)
	_, err := r.ask(t, strings.Repeat("how many tracks ", 300), nil)
	if engine.ErrorCode(err) != engine.CodeUsage || len(r.fake.Requests()) != 0 {
		t.Fatalf("%v, %d requests", err, len(r.fake.Requests()))
	}
}

// TestAskRowsBeforeProse: the rows reach OnRows before the explanation is
// written, and cancelling the explanation keeps them.
func TestAskRowsBeforeProse(t *testing.T) {
	r := newRig(t, ollamatest.Answer("SELECT count(*) AS n FROM Track", "Counts."), ollamatest.Reply{Delay: 10 * time.Second, ForExplain: true})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var rows *engine.Answer
	ans, err := r.asker.Ask(ctx, "How many tracks?", nil, ask.Options{Today: today,
		OnRows: func(a *engine.Answer) { rows = a; go func() { time.Sleep(100 * time.Millisecond); cancel() }() }})
	if err != nil {
		t.Fatal(err)
	}
	if rows == nil || rows.RowCount != 1 || ans.RowCount != 1 || ans.Results.Values[0][0] != int64(3503) {
		t.Fatalf("rows %+v, answer %+v", rows, ans)
	}
	if !strings.Contains(strings.Join(ans.Warnings, " "), "explanation was cancelled") || ans.Explanation == "" {
		t.Errorf("warnings %q, explanation %q", ans.Warnings, ans.Explanation)
	}
}

// TestAskAnswersInTheQuestionsLanguage: the prompts ask for the analyst's
// language in everything written for them, and a French answer comes back
// as the model wrote it — SQL and names unchanged.
func TestAskAnswersInTheQuestionsLanguage(t *testing.T) {
	explanation := "La requête compte les pistes de chaque genre ; le Rock arrive en tête avec 1 297 pistes."
	r := newRig(t, ollamatest.Answer("SELECT g.Name AS genre, count(*) AS pistes FROM Track t JOIN Genre g USING (GenreId) GROUP BY g.Name ORDER BY pistes DESC",
		explanation, "Quels artistes ont le plus de pistes de Rock ?", "Combien de minutes de Rock y a-t-il ?"),
		ollamatest.Abstain("Voulez-vous dire la date de facture ou la date d'embauche ?", ""))
	ans, err := r.ask(t, "Combien de pistes par genre ?", nil)
	if err != nil {
		t.Fatal(err)
	}
	if ans.Explanation != explanation || len(ans.FollowUpQuestions) != 2 || ans.FollowUpQuestions[0] != "Quels artistes ont le plus de pistes de Rock ?" {
		t.Errorf("explanation %q, follow-ups %q", ans.Explanation, ans.FollowUpQuestions)
	}
	reqs := r.fake.Requests()
	if !strings.Contains(reqs[0].Messages[0].Content, "in the language of the analyst's question") ||
		!strings.Contains(lastMessage(reqs[1]), "Write both in the language of the analyst's question") {
		t.Error("the prompts do not ask for the analyst's language")
	}
	_, err = r.ask(t, "Qu'est-ce qui s'est passé en 2010 ?", nil)
	if e := engine.AsError(err); e == nil || e.Message != "Voulez-vous dire la date de facture ou la date d'embauche ?" {
		t.Errorf("clarification %v", err)
	}
}
