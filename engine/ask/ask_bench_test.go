package ask_test

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"querent/engine"
	"querent/engine/ask"
	"querent/engine/eval"
	"querent/engine/ollama"
	"querent/engine/ollama/ollamatest"
	"querent/engine/schemactx"
	"querent/engine/sqlite"
)

// instantModel answers at once with a fixed SQL: what remains of a
// question's time is the engine's own.
type instantModel struct {
	sql     string
	prompts []int // tokens of each prompt
}

func (m *instantModel) Chat(_ context.Context, req engine.ChatRequest) (*engine.ChatResponse, error) {
	n := 0
	for _, msg := range req.Messages {
		n += schemactx.EstimateTokens(msg.Content)
	}
	m.prompts = append(m.prompts, n)
	if strings.Contains(string(req.Format), `"explanation"`) {
		return &engine.ChatResponse{Content: ollamatest.ExplainAnswer("x"), DoneReason: "stop"}, nil
	}
	return &engine.ChatResponse{Content: ollamatest.SQLAnswer(m.sql), DoneReason: "stop"}, nil
}
func (m *instantModel) Models(context.Context) ([]engine.ModelInfo, error) {
	return []engine.ModelInfo{{Name: "fake"}}, nil
}
func (m *instantModel) Embed(context.Context, string, []string) ([][]float32, error) {
	return nil, engine.Errorf(engine.CodeModelError, "no embeddings")
}
func (m *instantModel) Pull(context.Context, string, func(engine.PullProgress)) error { return nil }

// wideDB builds a SQLite file of n tables linked by foreign keys, with a few
// rows each, and a view over each named like a real application's object.
func wideDB(tb testing.TB, n int) string {
	path := filepath.Join(tb.TempDir(), fmt.Sprintf("wide%d.db", n))
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path)}
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	rng := rand.New(rand.NewSource(7))
	words := strings.Fields(`account address agent asset audit batch bill branch budget campaign carrier case category channel
		claim client contact contract cost coupon course currency customer delivery department device discount document employee
		event expense fee forecast grade grant inventory invoice item journal lead ledger license loan location machine member
		message milestone order package partner payment payroll permit plan policy portfolio price product project promotion
		purchase quote rate receipt region rental request reservation return review route salary sale schedule segment shift
		shipment site skill store subscription supplier survey task tax team ticket timesheet training transfer trip unit vehicle
		vendor visit voucher warehouse warranty`)
	stmts := []string{"PRAGMA journal_mode = OFF", "BEGIN"}
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("%s_%s_%d", words[i%len(words)], words[rng.Intn(len(words))], i)
		ref := ""
		if i > 0 {
			ref = fmt.Sprintf(", parent_id INTEGER REFERENCES t_%d(id)", i-1)
		}
		stmts = append(stmts, fmt.Sprintf(`CREATE TABLE t_%d (id INTEGER PRIMARY KEY, name TEXT, %s_code TEXT, amount REAL, created TEXT, status TEXT%s)`, i, strings.Split(name, "_")[0], ref),
			fmt.Sprintf(`CREATE VIEW %s AS SELECT * FROM t_%d`, name, i),
			fmt.Sprintf(`INSERT INTO t_%d (name, %s_code, amount, created, status) VALUES ('first %s', 'C%d', 10.5, '2024-01-01', 'open'), ('second', 'C2', 3, '2024-02-01', 'closed')`, i, strings.Split(name, "_")[0], name, i))
	}
	stmts = append(stmts, "COMMIT")
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			tb.Fatal(s, err)
		}
	}
	return path
}

func benchAsk(b *testing.B, path, question, sqlText string) {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	m := &instantModel{sql: sqlText}
	a := &ask.Asker{DB: db, Model: m, ModelName: "fake"}
	// The loop's own time: no other readings (BenchmarkVoteTimeToRows
	// measures those, after the rows).
	opts := ask.Options{NoVote: true}
	if _, err := a.Ask(ctx, question, nil, opts); err != nil { // builds the value index
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := a.Ask(ctx, question, nil, opts); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAskChinook(b *testing.B) {
	benchAsk(b, chinookB(b), "Which artist has the most albums?",
		"SELECT ar.Name, count(*) AS albums FROM Artist ar JOIN Album al USING (ArtistId) GROUP BY ar.ArtistId ORDER BY albums DESC LIMIT 1")
}

func BenchmarkAsk300Tables(b *testing.B) {
	benchAsk(b, wideDB(b, 300), "total amount of open invoice records per status", "SELECT status, sum(amount) FROM t_12 GROUP BY status")
}

func chinookB(tb testing.TB) string {
	b, err := os.ReadFile("../sqlite/demo/Chinook_Sqlite.sqlite")
	if err != nil {
		tb.Fatal(err)
	}
	p := filepath.Join(tb.TempDir(), "chinook.db")
	os.WriteFile(p, b, 0o644)
	return p
}

// TestAskBenchReport prints the engine's own time per question (the model
// answering at once) and the prompt's size with and without pruning.
func TestAskBenchReport(t *testing.T) {
	if os.Getenv("QUERENT_BENCH") == "" {
		t.Skip("set QUERENT_BENCH=1 (make bench) to measure")
	}
	ctx := context.Background()
	var out strings.Builder
	line := func(format string, args ...any) {
		s := fmt.Sprintf(format, args...)
		out.WriteString(s + "\n")
		fmt.Println(s)
	}
	line("ASK BENCHMARKS: the engine's own time per question (a model that answers at once)")
	for _, c := range []struct {
		name, path, q, sql string
		goal               time.Duration
	}{
		{"Chinook", chinookB(t), "Which artist has the most albums?", "SELECT ar.Name, count(*) AS albums FROM Artist ar JOIN Album al USING (ArtistId) GROUP BY ar.ArtistId ORDER BY albums DESC LIMIT 1", 50 * time.Millisecond},
		{"300 tables + 300 views", wideDB(t, 300), "total amount of open invoice records per status", "SELECT status, sum(amount) FROM t_12 GROUP BY status", 200 * time.Millisecond},
	} {
		db, err := sqlite.Open(ctx, c.path, sqlite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		m := &instantModel{sql: c.sql}
		a := &ask.Asker{DB: db, Model: m, ModelName: "fake"}
		start := time.Now()
		if _, err := a.Ask(ctx, c.q, nil, ask.Options{NoVote: true}); err != nil { // the loop's own time, as BenchmarkAsk*
			t.Fatal(err)
		}
		cold := time.Since(start)
		const n = 20
		start = time.Now()
		for i := 0; i < n; i++ {
			if _, err := a.Ask(ctx, c.q, nil, ask.Options{NoVote: true}); err != nil {
				t.Fatal(err)
			}
		}
		warm := time.Since(start) / n
		s, _ := db.Schema(ctx)
		full := schemactx.PruneSchema(ctx, s, c.q, 1<<30, nil)
		pruned := schemactx.PruneSchema(ctx, s, c.q, schemactx.DefaultBudgetTokens, nil)
		line("%s: per question %s (goal < %s); the first, which reads the schema and indexes the values, %s; prompt ≈ %d tokens; schema part %d tokens unpruned, %d as sent (%d of %d tables)",
			c.name, warm.Round(10*time.Microsecond), c.goal, cold.Round(time.Millisecond), m.prompts[len(m.prompts)-1], full.FullTokens, pruned.Tokens, len(pruned.Tables), len(full.Tables))
		db.Close()
	}
	timeToRows(t, line)
	mistakeRounds(t, line)
	if d := os.Getenv("QUERENT_REPORT_DIR"); d != "" {
		os.MkdirAll(d, 0o755)
		os.WriteFile(filepath.Join(d, "bench-ask.txt"), []byte(out.String()), 0o644)
	}
}

// timeToRows measures what the analyst waits for with a model that writes
// 10 tokens a second (a 7B model on a laptop's CPU): the rows come when the
// SQL is written, not when the whole answer is.
func timeToRows(t *testing.T, line func(string, ...any)) {
	ctx := context.Background()
	sqlText := "SELECT g.Name AS genre, round(sum(il.UnitPrice * il.Quantity), 2) AS revenue FROM InvoiceLine il JOIN Track t ON t.TrackId = il.TrackId JOIN Genre g ON g.GenreId = t.GenreId GROUP BY g.Name ORDER BY revenue DESC LIMIT 5"
	explanation := "It adds up the invoice lines of each genre's tracks and ranks the genres by that revenue: Rock leads with 826.65, far ahead of Latin, Metal, Alternative & Punk and TV Shows."
	followUps := []string{"Which artists bring the most Rock revenue?", "How did Rock revenue change per year?"}
	fake := ollamatest.New(t, ollamatest.Answer(sqlText, explanation, followUps...))
	fake.SetRate(10)
	m, err := ollama.New(ollama.Config{Host: fake.URL, RequestTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	db, err := sqlite.Open(ctx, chinookB(t), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	a := &ask.Asker{DB: db, Model: m, ModelName: "qwen2.5-coder:7b"}
	start := time.Now()
	ans, err := a.Ask(ctx, "Which genres bring the most revenue?", nil, ask.Options{})
	if err != nil {
		t.Fatal(err)
	}
	total := time.Since(start)
	sqlTokens := float64(len(sqlText)) / 4
	first := float64(len(ollamatest.SQLAnswer(sqlText))) / 4
	whole := float64(len(fmt.Sprintf(`{"sql":%q,"explanation":%q,"follow_up_questions":%q,"clarification_question":"","unanswerable_reason":""}`,
		sqlText, explanation, followUps))) / 4
	line("time to rows, a model writing 10 tokens/s: rows after %.2fs (the SQL's own %.0f tokens ÷ 10 + 0.5 s = %.2fs is the goal; the first answer, %.0f tokens, ends at %.1fs; one JSON answer holding the explanation too, %.0f tokens, would have shown them after %.1fs); the explanation, written from the rows, complete after %s",
		*ans.TimeToRowsS, sqlTokens, sqlTokens/10+0.5, first, first/10, whole, whole/10, total.Round(100*time.Millisecond))
}

// mistakeRounds asks the built-in Chinook gold set of a scripted model that
// makes the usual small-model mistakes on its first try and writes the gold
// query when told what went wrong: the rounds each answer takes.
func mistakeRounds(t *testing.T, line func(string, ...any)) {
	ctx := context.Background()
	g, err := eval.Load("chinook")
	if err != nil {
		t.Fatal(err)
	}
	db, err := sqlite.Open(ctx, chinookB(t), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	type kindStats struct{ questions, repairs, wrong int }
	stats := map[string]*kindStats{}
	var order []string
	rounds, answered := 0, 0
	n := 0
	for _, it := range g.Items {
		if !it.Answerable() {
			continue
		}
		kind, bad := mistakeOf(n, it.SQL)
		n++
		gold := it.SQL
		m := &scriptModel{answer: func(repair bool) string {
			if repair || kind == "" {
				return gold
			}
			return bad
		}}
		a := &ask.Asker{DB: db, Model: m, ModelName: "small"}
		ans, err := a.Ask(ctx, it.Question, nil, ask.Options{NoExplain: true})
		if kind == "" {
			kind = "none"
		}
		ks := stats[kind]
		if ks == nil {
			ks = &kindStats{}
			stats[kind] = ks
			order = append(order, kind)
		}
		ks.questions++
		if err != nil {
			ks.wrong++
			continue
		}
		answered++
		rounds += len(ans.ModelStats.Rounds)
		ks.repairs += len(ans.ModelStats.Rounds) - 1
	}
	var parts []string
	for _, k := range order {
		s := stats[k]
		parts = append(parts, fmt.Sprintf("%s: %d questions, %d repairs, %d unanswered", k, s.questions, s.repairs, s.wrong))
	}
	line("model rounds per answered question, the Chinook gold set (%d answerable) with a model that makes one usual mistake per question on its first try: mean %.2f (%d answered); %s",
		n, float64(rounds)/float64(max(answered, 1)), answered, strings.Join(parts, "; "))
}

// The usual mistakes of small models, each a rewrite of a correct query.
var mistakeKinds = []string{"double-quoted text", "YEAR()", "ILIKE", "misspelled column", "value in the wrong case"}

// mistakeOf applies the n-th mistake kind that fits sql (trying them in
// turn from n), or returns "" when none fits.
func mistakeOf(n int, sql string) (kind, bad string) {
	for k := 0; k < len(mistakeKinds); k++ {
		kind := mistakeKinds[(n+k)%len(mistakeKinds)]
		if bad, ok := applyMistake(kind, sql); ok {
			return kind, bad
		}
	}
	return "", sql
}

var (
	reLiteral   = regexp.MustCompile(`'([A-Za-z][^']*)'`)
	reYear      = regexp.MustCompile(`strftime\('%Y',\s*([^)]+)\)`)
	reLike      = regexp.MustCompile(`(?i)\bLIKE\b`)
	reColumnRef = regexp.MustCompile(`\b(BillingCountry|InvoiceDate|Milliseconds|UnitPrice|Quantity|Country|Title|Total)\b`)
)

func applyMistake(kind, sql string) (string, bool) {
	switch kind {
	case "double-quoted text":
		if m := reLiteral.FindStringSubmatchIndex(sql); m != nil {
			return sql[:m[0]] + `"` + sql[m[2]:m[3]] + `"` + sql[m[1]:], true
		}
	case "YEAR()":
		if reYear.MatchString(sql) {
			return reYear.ReplaceAllString(sql, "YEAR($1)"), true
		}
	case "ILIKE":
		if reLike.MatchString(sql) {
			return reLike.ReplaceAllString(sql, "ILIKE"), true
		}
		if i := strings.Index(sql, " = '"); i >= 0 {
			return sql[:i] + " ILIKE '" + sql[i+4:], true // PostgreSQL's case-blind comparison
		}
	case "misspelled column":
		if m := reColumnRef.FindStringIndex(sql); m != nil {
			w := sql[m[0]:m[1]]
			return sql[:m[0]] + w[:len(w)-2] + w[len(w)-1:] + sql[m[1]:], true // Total → Totl
		}
	case "value in the wrong case":
		if m := reLiteral.FindStringSubmatchIndex(sql); m != nil && strings.Contains(sql[m[0]-4:m[0]], "=") {
			v := sql[m[2]:m[3]]
			if low := strings.ToLower(v); low != v {
				return sql[:m[2]] + low + sql[m[3]:], true
			}
		}
	}
	return "", false
}

// scriptModel answers the first round of a question one way and a repair
// (a message telling it what went wrong) another.
type scriptModel struct{ answer func(repair bool) string }

func (m *scriptModel) Chat(_ context.Context, req engine.ChatRequest) (*engine.ChatResponse, error) {
	last := req.Messages[len(req.Messages)-1].Content
	repair := strings.HasPrefix(last, "That query") || strings.HasPrefix(last, "Your answer was not")
	return &engine.ChatResponse{Content: ollamatest.SQLAnswer(m.answer(repair)), DoneReason: "stop", PromptTokens: 1, OutputTokens: 1}, nil
}
func (m *scriptModel) Models(context.Context) ([]engine.ModelInfo, error) {
	return []engine.ModelInfo{{Name: "small"}}, nil
}
func (m *scriptModel) Embed(context.Context, string, []string) ([][]float32, error) {
	return nil, engine.Errorf(engine.CodeModelError, "no embeddings")
}
func (m *scriptModel) Pull(context.Context, string, func(engine.PullProgress)) error { return nil }
