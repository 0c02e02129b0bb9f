package ask_test

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"querent/engine"
	"querent/engine/ask"
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
	return &engine.ChatResponse{Content: fmt.Sprintf(`{"sql": %q, "explanation": "x", "follow_up_questions": [], "clarification_question": "", "unanswerable_reason": ""}`, m.sql), DoneReason: "stop"}, nil
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
	if _, err := a.Ask(ctx, question, nil, ask.AskOptions{}); err != nil { // builds the value index
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := a.Ask(ctx, question, nil, ask.AskOptions{}); err != nil {
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
		if _, err := a.Ask(ctx, c.q, nil, ask.AskOptions{}); err != nil {
			t.Fatal(err)
		}
		cold := time.Since(start)
		const n = 20
		start = time.Now()
		for i := 0; i < n; i++ {
			if _, err := a.Ask(ctx, c.q, nil, ask.AskOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		warm := time.Since(start) / n
		s, _ := db.Schema(ctx)
		full := schemactx.PruneSchema(ctx, s, c.q, 1<<30, nil)
		pruned := schemactx.PruneSchema(ctx, s, c.q, schemactx.DefaultSchemaBudgetTokens, nil)
		line("%s: per question %s (goal < %s); the first, which reads the schema and indexes the values, %s; prompt ≈ %d tokens; schema part %d tokens unpruned, %d as sent (%d of %d tables)",
			c.name, warm.Round(10*time.Microsecond), c.goal, cold.Round(time.Millisecond), m.prompts[len(m.prompts)-1], full.FullTokens, pruned.Tokens, len(pruned.Tables), len(full.Tables))
		db.Close()
	}
	if d := os.Getenv("QUERENT_REPORT_DIR"); d != "" {
		os.MkdirAll(d, 0o755)
		os.WriteFile(filepath.Join(d, "bench-ask.txt"), []byte(out.String()), 0o644)
	}
}
