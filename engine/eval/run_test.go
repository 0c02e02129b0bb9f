package eval_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"querent/engine"
	"querent/engine/eval"
	"querent/engine/eval/evaltest"
)

// fakeModel answers at once: answer maps the question (the last user
// message) to the model's JSON answer. It records the requests.
type fakeModel struct {
	mu     sync.Mutex
	answer func(question string, req engine.ChatRequest) string
	// fail, when set and returning an error, fails the request.
	fail func(question string) error
	reqs []engine.ChatRequest
}

var _ engine.Model = (*fakeModel)(nil)

func (m *fakeModel) Chat(_ context.Context, req engine.ChatRequest) (*engine.ChatResponse, error) {
	m.mu.Lock()
	m.reqs = append(m.reqs, req)
	m.mu.Unlock()
	q := ""
	for _, msg := range req.Messages {
		if msg.Role == "user" {
			q = msg.Content
		}
	}
	// The question is the last part of its message.
	if i := strings.LastIndex(q, "## The question\n"); i >= 0 {
		q = q[i+len("## The question\n"):]
	}
	if m.fail != nil {
		if err := m.fail(q); err != nil {
			return nil, err
		}
	}
	return &engine.ChatResponse{Content: m.answer(q, req), PromptTokens: 100, OutputTokens: 10, DoneReason: "stop"}, nil
}
func (m *fakeModel) Models(context.Context) ([]engine.ModelInfo, error) {
	return []engine.ModelInfo{{Name: "fake"}}, nil
}
func (m *fakeModel) Embed(context.Context, string, []string) ([][]float32, error) {
	return nil, engine.Errorf(engine.CodeModelError, "no embeddings")
}
func (m *fakeModel) Pull(context.Context, string, func(engine.PullProgress)) error { return nil }

func sqlAnswer(sql string) string {
	b, _ := json.Marshal(map[string]any{"sql": sql, "explanation": "", "follow_up_questions": []string{},
		"clarification_question": "", "unanswerable_reason": ""})
	return string(b)
}

func abstainAnswer(reason string) string {
	b, _ := json.Marshal(map[string]any{"sql": "", "explanation": "", "follow_up_questions": []string{},
		"clarification_question": "", "unanswerable_reason": reason})
	return string(b)
}

// oracle answers every question of g with its gold SQL, and declines the
// unanswerable ones.
func oracle(g *eval.GoldSet) func(string, engine.ChatRequest) string {
	byQ := map[string]*eval.Item{}
	for _, it := range g.Items {
		byQ[it.Question] = it
	}
	return func(q string, _ engine.ChatRequest) string {
		it := byQ[q]
		if it == nil {
			return sqlAnswer("SELECT 'unknown question'")
		}
		if !it.Answerable() {
			return abstainAnswer(it.Unanswerable)
		}
		return sqlAnswer(it.SQL)
	}
}

func TestGoldAsPredictions(t *testing.T) {
	g, err := eval.Builtin("chinook")
	if err != nil {
		t.Fatal(err)
	}
	db := openDemo(t)
	var jsonl, text bytes.Buffer
	for _, it := range g.Items {
		p := map[string]string{"id": it.ID, "sql": it.SQL}
		line := it.SQL
		if !it.Answerable() {
			p = map[string]string{"id": it.ID, "unanswerable": it.Unanswerable}
			line = "-- unanswerable: " + it.Unanswerable
		}
		b, _ := json.Marshal(p)
		jsonl.Write(append(b, '\n'))
		text.WriteString(line + "\n")
	}
	for name, data := range map[string][]byte{"predictions.jsonl": jsonl.Bytes(), "predictions.sql": text.Bytes()} {
		preds, err := eval.ParsePredictions(name, data, g)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := eval.Run(context.Background(), eval.Options{Gold: g, DB: db, Predictions: preds})
		if err != nil {
			t.Fatal(err)
		}
		m := rep.Models[0]
		if m.ExecutionAccuracy != 1 || m.Matches != len(g.Items) || m.Abstention == nil || *m.Abstention != 1 || m.FalseRefusals != 0 || m.Model != nil {
			for _, it := range m.Items {
				if !it.Match {
					t.Errorf("%s: %s: %s", name, it.ID, it.Reason)
				}
			}
			t.Fatalf("%s: accuracy %v (%d of %d)", name, m.ExecutionAccuracy, m.Matches, m.Questions)
		}
		if m.LatencyP50S != nil || m.PassAtK != nil || m.RelaxedMatches != 0 {
			t.Errorf("%s: latency %v, pass@k %v, relaxed %d", name, m.LatencyP50S, m.PassAtK, m.RelaxedMatches)
		}
	}
	// Without the abstentions and with one blank line: missing items.
	lines := strings.Split(text.String(), "\n")
	lines[0] = ""
	preds, err := eval.ParsePredictions("p.sql", []byte(strings.Join(lines[:10], "\n")), g)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := eval.Run(context.Background(), eval.Options{Gold: g, DB: db, Predictions: preds})
	if err != nil {
		t.Fatal(err)
	}
	m := rep.Models[0]
	if m.Matches != 9 || m.Outcomes["missing"] != len(g.Items)-9 || m.Abstention == nil || *m.Abstention != 0 {
		t.Errorf("partial predictions: %d matches, outcomes %v, abstention %v", m.Matches, m.Outcomes, m.Abstention)
	}
}

// smallGold is a gold set for scripted runs over the demo database.
const smallGold = evaltest.SmallGold

func TestRunWithModel(t *testing.T) {
	g, err := eval.Parse("small.toml", []byte(smallGold))
	if err != nil {
		t.Fatal(err)
	}
	db := openDemo(t)
	calls := map[string]int{}
	m := &fakeModel{answer: func(q string, _ engine.ChatRequest) string {
		calls[q]++
		switch q {
		case "How many tracks are there?":
			return sqlAnswer("SELECT count(*) AS n FROM Track") // right
		case "Which artist has the most albums?":
			return sqlAnswer("SELECT ar.Name, count(*) AS albums FROM Artist ar JOIN Album al USING (ArtistId) GROUP BY ar.ArtistId ORDER BY albums DESC LIMIT 1") // right, with a count
		case "List that artist's album titles.":
			if calls[q] == 1 {
				return sqlAnswer("SELECT Title FROM Album WHERE ArtistId = 22") // wrong on the first try
			}
			return sqlAnswer("SELECT Title FROM Album WHERE ArtistId = 90")
		case "What is the average salary?":
			return abstainAnswer("There are no salaries.") // right: declines
		case "How many genres are there?":
			return abstainAnswer("Which genres do you mean?") // a false refusal
		}
		return sqlAnswer("SELECT 1")
	}}
	var progress []string
	rep, err := eval.Run(context.Background(), eval.Options{Gold: g, DB: db, Model: m, Models: []string{"fake"}, K: 2,
		Progress: func(p eval.Progress) {
			if p.Record != nil {
				progress = append(progress, fmt.Sprintf("%d/%d %s#%d %s", p.Done, p.Total, p.Item.ID, p.Try, p.Record.Outcome))
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	if len(progress) != 10 || progress[9] != "10/10 genres#2 abstained" {
		t.Errorf("progress: %v", progress)
	}
	mr := rep.Models[0]
	want := map[string][2]string{ // id → outcome of try 1, try 2
		"tracks": {"match", "match"}, "top-artist": {"match", "match"}, "top-artist-albums": {"wrong_result", "match"},
		"salaries": {"abstained", "abstained"}, "genres": {"abstained", "abstained"},
	}
	for _, it := range mr.Items {
		if w := want[it.ID][it.Try-1]; it.Outcome != w {
			t.Errorf("%s#%d: %s (%s), want %s", it.ID, it.Try, it.Outcome, it.Reason, w)
		}
		if it.LatencyS == nil || it.Tokens <= 0 || it.Attempts != 1 {
			t.Errorf("%s: latency %v tokens %d attempts %d", it.ID, it.LatencyS, it.Tokens, it.Attempts)
		}
	}
	if mr.Questions != 10 || mr.Matches != 7 || mr.ExecutionAccuracy != 0.7 || mr.FalseRefusals != 2 || *mr.Abstention != 1 ||
		mr.TokensTotal <= 0 || mr.K != 2 || *mr.PassAtK != 0.8 || *mr.PassHatK != 0.6 || mr.RelaxedMatches != 2 {
		b, _ := json.MarshalIndent(mr, "", " ")
		t.Errorf("report: %s", b)
	}
	sum := 0
	for _, it := range mr.Items {
		sum += it.Tokens
	}
	if mr.TokensTotal != sum {
		t.Errorf("tokens total %d, the items' sum %d", mr.TokensTotal, sum)
	}
	if d := mr.ByDifficulty["medium"]; d.Questions != 4 || d.Matches != 3 {
		t.Errorf("medium: %+v", d)
	}
	for _, it := range mr.Items {
		if it.ID == "top-artist" && (len(it.Relaxed) != 1 || it.Relaxed[0] != "extra_columns") {
			t.Errorf("top-artist relaxed: %v", it.Relaxed)
		}
		if it.ID == "top-artist-albums" && it.Try == 1 && !strings.Contains(it.Reason, "rows, gold has 21") {
			t.Errorf("reason: %s", it.Reason)
		}
	}
	// The follow-up shared the session: its request carries the first
	// question and the SQL answered to it.
	for _, req := range m.reqs {
		last := req.Messages[len(req.Messages)-1].Content
		if last != "List that artist's album titles." {
			continue
		}
		if len(req.Messages) != 4 || req.Messages[1].Content != "Which artist has the most albums?" || !strings.Contains(req.Messages[2].Content, "ORDER BY albums DESC") {
			t.Errorf("the follow-up did not carry the session: %+v", req.Messages[1:])
		}
		if req.Temperature != 0 {
			t.Errorf("temperature %v", req.Temperature)
		}
	}
	// Questions outside a chain have no earlier turns.
	for _, req := range m.reqs {
		if last := req.Messages[len(req.Messages)-1].Content; last == "How many genres are there?" && len(req.Messages) != 2 {
			t.Errorf("a plain question carried a session: %d messages", len(req.Messages))
		}
	}

	// The files, and a regrade that reproduces the scores.
	dir := filepath.Join(t.TempDir(), "out")
	if err := rep.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	md, _ := os.ReadFile(filepath.Join(dir, "report.md"))
	if testing.Verbose() {
		t.Logf("report.md:\n%s", md)
	}
	for _, w := range []string{"# Querent evaluation: small on Chinook demo", "| execution accuracy | 70.0% (7 of 10) |", "| pass@2 | 80.0% |",
		"| false refusals | 2 |", "| top-artist-albums | 1 | medium | wrong_result |", "[extra_columns]"} {
		if !strings.Contains(string(md), w) {
			t.Errorf("report.md lacks %q:\n%s", w, md)
		}
	}
	f, err := os.Open(filepath.Join(dir, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := eval.ReadRecords("records.jsonl", f)
	if err != nil || len(recs) != 10 {
		t.Fatalf("records: %d, %v", len(recs), err)
	}
	if recs[2].SQL != "SELECT Title FROM Album WHERE ArtistId = 22" || recs[2].Question != "List that artist's album titles." || recs[2].Model != "fake" {
		t.Errorf("record: %+v", recs[2])
	}
	again, err := eval.Run(context.Background(), eval.Options{Gold: g, DB: db, Records: recs})
	if err != nil {
		t.Fatal(err)
	}
	a, b := again.Models[0], rep.Models[0]
	if again.Source != "regrade" || a.ExecutionAccuracy != b.ExecutionAccuracy || *a.PassAtK != *b.PassAtK || *a.PassHatK != *b.PassHatK ||
		a.FalseRefusals != b.FalseRefusals || *a.Abstention != *b.Abstention || a.TokensTotal != b.TokensTotal || *a.LatencyP95S != *b.LatencyP95S {
		t.Errorf("regrade: %+v\nwas %+v", a, b)
	}
	for i := range a.Items {
		if a.Items[i].Outcome != b.Items[i].Outcome || a.Items[i].Reason != b.Items[i].Reason {
			t.Errorf("regrade item %d: %+v, was %+v", i, a.Items[i], b.Items[i])
		}
	}
	js, err := rep.JSON()
	if err != nil || !json.Valid(js) {
		t.Fatalf("JSON: %v", err)
	}
	var doc map[string]any
	json.Unmarshal(js, &doc)
	for _, k := range []string{"items", "execution_accuracy", "abstention", "false_refusals", "by_difficulty", "pass_at_k", "pass_hat_k",
		"latency_p50_s", "latency_p95_s", "tokens_total", "lenient", "errors"} {
		if _, ok := doc[k]; !ok {
			t.Errorf("report.json lacks %q", k)
		}
	}
}

// A regrade under --lenient scores again: what only rounding separated
// now matches.
func TestRegradeLenient(t *testing.T) {
	g, err := eval.Parse("g.toml", []byte(`
[[item]]
id = "avg"
question = "Average price?"
difficulty = "easy"
sql = "SELECT round(avg(UnitPrice), 2) FROM Track"
`))
	if err != nil {
		t.Fatal(err)
	}
	db := openDemo(t)
	recs := []eval.Record{{ID: "avg", Try: 1, Model: "m", Source: "model", Question: "Average price?", SQL: "SELECT CAST(round(avg(UnitPrice), 2) AS TEXT) FROM Track"}}
	strict, err := eval.Run(context.Background(), eval.Options{Gold: g, DB: db, Records: recs})
	if err != nil {
		t.Fatal(err)
	}
	lenient, err := eval.Run(context.Background(), eval.Options{Gold: g, DB: db, Records: recs, Lenient: true})
	if err != nil {
		t.Fatal(err)
	}
	if s, l := strict.Models[0].Items[0], lenient.Models[0].Items[0]; s.Match || !l.Match || len(l.Relaxed) != 1 || l.Relaxed[0] != "lenient" || !lenient.Models[0].Lenient {
		t.Errorf("strict %+v, lenient %+v", s, l)
	}
	// A record of another gold set is left out with a warning.
	recs = append(recs, eval.Record{ID: "other", Try: 1, Model: "m", SQL: "SELECT 1"})
	rep, err := eval.Run(context.Background(), eval.Options{Gold: g, DB: db, Records: recs})
	if err != nil || len(rep.Warnings) != 1 || rep.Models[0].Questions != 1 {
		t.Errorf("foreign record: %v %v", rep.Warnings, err)
	}
}

func TestRunGoldMustFitTheDatabase(t *testing.T) {
	g, err := eval.Parse("g.toml", []byte(`
[[item]]
id = "x"
question = "q"
difficulty = "easy"
sql = "SELECT nope FROM Track"
`))
	if err != nil {
		t.Fatal(err)
	}
	_, err = eval.Run(context.Background(), eval.Options{Gold: g, DB: openDemo(t), Predictions: map[string]eval.Prediction{}})
	if engine.ErrorCode(err) != engine.CodeUsage || !strings.Contains(err.Error(), `item "x": the gold SQL does not run`) {
		t.Errorf("got %v", err)
	}
}

// A cancelled run returns what it did, the rest missing.
func TestRunCancelled(t *testing.T) {
	g, _ := eval.Parse("small.toml", []byte(smallGold))
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	m := &fakeModel{answer: func(q string, _ engine.ChatRequest) string {
		if n++; n == 2 {
			cancel()
		}
		return sqlAnswer("SELECT count(*) FROM Track")
	}}
	rep, err := eval.Run(ctx, eval.Options{Gold: g, DB: openDemo(t), Model: m, Models: []string{"fake"}})
	if engine.ErrorCode(err) != engine.CodeCancelled || rep == nil {
		t.Fatalf("got %v", err)
	}
	mr := rep.Models[0]
	if mr.Questions != 5 || mr.Outcomes["missing"] < 3 || len(mr.Errors) != 1 || mr.Errors[0].Type != "cancelled" {
		t.Errorf("outcomes %v errors %v", mr.Outcomes, mr.Errors)
	}
}

// A model server that is too slow fails the question; three in a row stop
// the run, and the questions not asked are missing.
func TestRunModelUnavailable(t *testing.T) {
	g, _ := eval.Parse("small.toml", []byte(smallGold))
	slow := map[string]bool{"Which artist has the most albums?": true, "List that artist's album titles.": true, "What is the average salary?": true}
	m := &fakeModel{answer: oracle(g), fail: func(q string) error {
		if slow[q] {
			return engine.Errorf(engine.CodeLLMUnavailable, "the model did not answer within 1s")
		}
		return nil
	}}
	rep, err := eval.Run(context.Background(), eval.Options{Gold: g, DB: openDemo(t), Model: m, Models: []string{"fake"}})
	if engine.ErrorCode(err) != engine.CodeLLMUnavailable || rep == nil {
		t.Fatalf("got %v", err)
	}
	var outcomes []string
	for _, it := range rep.Models[0].Items {
		outcomes = append(outcomes, it.Outcome)
	}
	if got := strings.Join(outcomes, " "); got != "match failed failed failed missing" {
		t.Errorf("outcomes: %s", got)
	}
	// One slow question alone is a failure, and the run goes on.
	slow = map[string]bool{"List that artist's album titles.": true}
	rep, err = eval.Run(context.Background(), eval.Options{Gold: g, DB: openDemo(t), Model: m, Models: []string{"fake"}})
	if err != nil || rep.Models[0].Outcomes["failed"] != 1 || rep.Models[0].Matches != 4 {
		t.Errorf("one slow question: %v %v", err, rep.Models[0].Outcomes)
	}
}

func TestDraft(t *testing.T) {
	db := openDemo(t)
	m := &fakeModel{answer: func(q string, req engine.ChatRequest) string {
		if !strings.Contains(req.Messages[0].Content, "CREATE TABLE Track") || req.Temperature != 0 || !strings.Contains(string(req.Format), `"items"`) {
			return "{}"
		}
		b, _ := json.Marshal(map[string]any{"items": []map[string]string{
			{"question": "How many tracks are there?", "difficulty": "easy", "sql": "SELECT count(*) FROM Track"},
			{"question": "How many tracks are there?", "difficulty": "easy", "sql": "SELECT count(*) FROM Track"},
			{"question": "Which genres have no tracks?", "difficulty": "medium", "sql": "SELECT Name FROM Genre WHERE GenreId NOT IN (SELECT GenreId FROM Track)"},
			{"question": "Top artist by albums", "difficulty": "Medium", "sql": "SELECT ar.Name FROM Artist ar JOIN Album al USING (ArtistId) GROUP BY 1 ORDER BY count(*) DESC LIMIT 1"},
			{"question": "Total \"sales\"?", "difficulty": "weird", "sql": "SELECT sum(Total) FROM Invoice"},
			{"question": "Bad", "difficulty": "hard", "sql": "SELECT nope FROM Track"},
			{"question": "Write", "difficulty": "hard", "sql": "DELETE FROM Track"},
		}})
		return string(b)
	}}
	d, err := eval.Draft(context.Background(), eval.DraftOptions{DB: db, Model: m, ModelName: "fake", N: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Gold.Items) != 3 || len(d.Dropped) != 2 || d.Requests != 1 {
		t.Fatalf("kept %d, dropped %+v, requests %d", len(d.Gold.Items), d.Dropped, d.Requests)
	}
	d, err = eval.Draft(context.Background(), eval.DraftOptions{DB: db, Model: m, ModelName: "fake", N: 10, Rounds: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Gold.Items) != 3 || len(d.Dropped) != 4 {
		t.Fatalf("kept %d, dropped %+v", len(d.Gold.Items), d.Dropped)
	}
	text := d.TOML("Chinook demo", "fake", time.Date(2025, 1, 2, 0, 0, 0, 0, time.UTC))
	for _, w := range []string{"# Gold set drafted by querent eval init from Chinook demo with fake on 2025-01-02.", "REVIEW EVERY ITEM",
		"# - Which genres have no tracks? (returns no rows)", "# - Bad (does not run:", "#   DELETE FROM Track", `question = "Total \"sales\"?"`} {
		if !strings.Contains(string(text), w) {
			t.Errorf("the draft lacks %q:\n%s", w, text)
		}
	}
	g, err := eval.Parse("draft.toml", text)
	if err != nil {
		t.Fatalf("the draft does not parse: %v\n%s", err, text)
	}
	if g.Items[0].ID != "many-tracks-there" || g.Items[1].Difficulty != "medium" || g.Items[2].Difficulty != "medium" {
		t.Errorf("items: %+v %+v %+v", g.Items[0], g.Items[1], g.Items[2])
	}
	// The draft is a valid gold set for the database it was drafted from.
	if _, err := eval.Run(context.Background(), eval.Options{Gold: g, DB: db, Predictions: map[string]eval.Prediction{}}); err != nil {
		t.Error(err)
	}
}
