package ask_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"querent/engine"
	"querent/engine/ask"
	"querent/engine/ollama"
	"querent/engine/ollama/ollamatest"
	"querent/engine/sqlite"
)

// modelRig is a rig on the database at path whose model the fake
// describes with spec.
func modelRig(t *testing.T, path string, spec ollamatest.Spec, script ...ollamatest.Reply) *rig {
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	fake := ollamatest.New(t, script...)
	fake.SetSpec("qwen2.5-coder:7b", spec)
	m, err := ollama.New(ollama.Config{Host: fake.URL, RequestTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return &rig{fake: fake, path: path, asker: &ask.Asker{DB: db, Model: m, ModelName: "qwen2.5-coder:7b"}}
}

// promptTokens is a recorded request's prompt as the fake counts it.
func promptTokens(req ollamatest.Request) int {
	n := 0
	for _, m := range req.Messages {
		n += len(m.Role) + len(m.Content) + 2
	}
	return n / 4
}

// checkFits fails unless every request asked for num_ctx within window and
// its prompt and its answer's room fit in num_ctx.
func checkFits(t *testing.T, reqs []ollamatest.Request, window int) {
	t.Helper()
	if len(reqs) == 0 {
		t.Fatal("no request")
	}
	for i, req := range reqs {
		numCtx := req.NumCtx()
		predict, _ := req.Options["num_predict"].(float64)
		if numCtx <= 0 || numCtx > window {
			t.Errorf("request %d: num_ctx %d, want 1..%d", i+1, numCtx, window)
		}
		if p := promptTokens(req); p+int(predict) > numCtx {
			t.Errorf("request %d: a prompt of %d tokens and %d for the answer do not fit num_ctx %d", i+1, p, int(predict), numCtx)
		}
	}
}

// A 4k model never gets num_ctx over 4,096, and its prompts fit: on
// Chinook, whose whole prompt does not, and on 300 tables.
func TestFourKWindowFits(t *testing.T) {
	for _, tc := range []struct {
		name, path, question, sql string
	}{
		{"Chinook", chinook(t), "How many tracks are there?", "SELECT count(*) AS n FROM Track"},
		{"300 tables", wideDB(t, 300), "total amount of open invoice records per status", "SELECT status, sum(amount) AS total FROM t_12 GROUP BY status"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := modelRig(t, tc.path, ollamatest.Spec{ContextLength: 4096}, ollamatest.Answer(tc.sql, "Counted."),
				ollamatest.Answer(tc.sql, "Counted again."))
			for range 2 {
				ans, err := r.ask(t, tc.question, nil)
				if err != nil {
					t.Fatalf("ask: %v (%+v)", err, ans.Errors)
				}
				if ans.RowCount == 0 || ans.ModelStats == nil {
					t.Fatalf("no rows or no stats: %+v", ans)
				}
				t.Logf("%d tables shown of the database, %d rounds", len(ans.TablesShown), len(ans.ModelStats.Rounds))
				for _, rd := range ans.ModelStats.Rounds {
					if rd.PromptCut || rd.PromptTokens >= 4096 {
						t.Errorf("round %s: %d tokens read of %d sent, cut %v", rd.Stage, rd.PromptTokens, rd.PromptTokensSent, rd.PromptCut)
					}
				}
				for _, w := range ans.Warnings {
					if strings.Contains(w, "cut") {
						t.Errorf("a warning of a cut: %q", w)
					}
				}
			}
			checkFits(t, r.fake.Requests(), 4096)
			for i, req := range r.fake.Requests() {
				t.Logf("request %d: %d prompt tokens, num_ctx %d, num_predict %v", i+1, promptTokens(req), req.NumCtx(), req.Options["num_predict"])
			}
			if r.fake.Shows() != 1 {
				t.Errorf("/api/show was read %d times for two questions, want once", r.fake.Shows())
			}
		})
	}
}

// Without a window to keep to, the same question asks for more than
// 4,096 (the cap is the model's, not a constant).
func TestNoWindowKeepsTheDefault(t *testing.T) {
	r := modelRig(t, wideDB(t, 300), ollamatest.Spec{}, ollamatest.Answer("SELECT status FROM t_12", "x"))
	if _, err := r.ask(t, "total amount of open invoice records per status", nil); err != nil {
		t.Fatal(err)
	}
	t.Logf("num_ctx %d without a known window", r.fake.Requests()[0].NumCtx())
	if n := r.fake.Requests()[0].NumCtx(); n <= 4096 {
		t.Errorf("num_ctx %d without a known window; the pruned 300 tables want more than 4,096", n)
	}
}

// A 2k model on Chinook is never cut silently: its prompt is fitted (the
// question's own tables, without samples, no examples) and every request
// fits num_ctx.
func TestTwoKWindowChinook(t *testing.T) {
	r := modelRig(t, chinook(t), ollamatest.Spec{ContextLength: 2048}, ollamatest.Answer("SELECT count(*) AS n FROM Track", "Counted."))
	ans, err := r.ask(t, "How many tracks are there?", nil)
	if err != nil {
		t.Fatalf("ask: %v", err)
	}
	reqs := r.fake.Requests()
	checkFits(t, reqs, 2048)
	for i, req := range reqs {
		t.Logf("request %d: %d prompt tokens, num_ctx %d, num_predict %v", i+1, promptTokens(req), req.NumCtx(), req.Options["num_predict"])
	}
	if ans.RowCount != 1 || len(ans.TablesShown) == 0 || len(ans.TablesShown) > 5 || !slices.Contains(ans.TablesShown, "Track") {
		t.Errorf("rows %d, tables shown %v", ans.RowCount, ans.TablesShown)
	}
}

// When even the question's own tables do not fit (a 1k window on
// Chinook), the answer is an error that names the window and what would
// fit, and nothing is sent.
func TestWindowTooSmall(t *testing.T) {
	r := modelRig(t, chinook(t), ollamatest.Spec{ContextLength: 1024}, ollamatest.Answer("SELECT count(*) AS n FROM Track", "Counted."))
	ans, err := r.ask(t, "How many tracks are there?", nil)
	e := engine.AsError(err)
	if e == nil || e.Code != engine.CodeTooBig || !strings.Contains(e.Message, "1,024 tokens") || !strings.Contains(e.Message, "qwen2.5-coder:7b") ||
		!strings.Contains(e.Hint, "4,096") || !strings.Contains(e.Hint, "--list-models") {
		t.Fatalf("error %v (hint %q)", err, e.Hint)
	}
	if n := len(r.fake.Requests()); n != 0 {
		t.Errorf("%d requests sent with a prompt that does not fit", n)
	}
	if len(ans.Errors) != 1 || ans.Errors[0].Type != engine.CodeTooBig {
		t.Errorf("errors %+v", ans.Errors)
	}
}

// A server whose prompt_eval_count shows that it cut the prompt (it reads
// 1,024 tokens whatever it says) gives a warning in the answer.
func TestPromptCutWarns(t *testing.T) {
	r := modelRig(t, chinook(t), ollamatest.Spec{ContextLength: 32768, Reads: 1024}, ollamatest.Answer("SELECT count(*) AS n FROM Track", "Counted."))
	ans, err := r.ask(t, "How many tracks are there?", nil)
	if err != nil {
		t.Fatal(err)
	}
	cut := 0
	for _, rd := range ans.ModelStats.Rounds {
		if rd.PromptCut {
			cut++
			if rd.PromptTokens != 1024 || rd.PromptTokensSent <= 1024 {
				t.Errorf("round %+v", rd)
			}
		}
	}
	if cut == 0 {
		t.Fatalf("no round marked cut: %+v", ans.ModelStats.Rounds)
	}
	found := false
	for _, w := range ans.Warnings {
		found = found || (strings.Contains(w, "read only 1,024 tokens") && strings.Contains(w, "the prompt was cut"))
	}
	if !found {
		t.Errorf("warnings %q: none says the prompt was cut", ans.Warnings)
	}
}

func TestPromptCut(t *testing.T) {
	for _, tc := range []struct {
		sent, read, numCtx int
		want               bool
	}{
		{3000, 3400, 4096, false}, // a real tokenizer counts more than the estimate
		{3000, 2200, 4096, false}, // within the estimate's error
		{3000, 1024, 32768, true}, // read far less than sent
		{5000, 4096, 4096, true},  // filled the window, sent more
		{5000, 4090, 4096, true},
		{3000, 4096, 4096, true},  // filled it: longer than the estimate, no room left
		{3000, 3900, 4096, false}, // room left for the answer
		{100, 40, 0, false},       // too short to tell
		{3000, 0, 4096, false},    // no count
	} {
		if got := ask.PromptCut(tc.sent, tc.read, tc.numCtx); got != tc.want {
			t.Errorf("PromptCut(%d, %d, %d) = %v, want %v", tc.sent, tc.read, tc.numCtx, got, tc.want)
		}
	}
}

// thinkingRig is a rig whose model thinks.
func thinkingRig(t *testing.T, script ...ollamatest.Reply) *rig {
	return modelRig(t, chinook(t), ollamatest.Spec{ContextLength: 32768, Capabilities: []string{engine.CapCompletion, engine.CapThinking}}, script...)
}

const thought = "The question asks for the number of tracks. The Track table has one row per track, so count(*) over Track answers it."

// A thinking model is told think: false by default: it does not think,
// and no thinking is counted.
func TestThinkingOffByDefault(t *testing.T) {
	rep := ollamatest.Answer("SELECT count(*) AS n FROM Track", "Counted.")
	rep.Thinking = thought
	r := thinkingRig(t, rep)
	ans, err := r.ask(t, "How many tracks are there?", nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, req := range r.fake.Requests() {
		if req.Think == nil || *req.Think {
			t.Errorf("request %d: think %v, want false", i+1, req.Think)
		}
	}
	for _, rd := range ans.ModelStats.Rounds {
		if rd.ThinkingTokens != 0 {
			t.Errorf("round %s counted %d thinking tokens", rd.Stage, rd.ThinkingTokens)
		}
	}
}

// With thinking on, the SQL round thinks: its thinking streams (to
// OnThinking and Progress), is counted, and the explanation does not
// think. A model that cannot think is sent no think at all.
func TestThinkingOn(t *testing.T) {
	rep := ollamatest.Answer("SELECT count(*) AS n FROM Track", "Counted.")
	rep.Thinking = thought
	r := thinkingRig(t, rep)
	var mu sync.Mutex
	var streamed strings.Builder
	stages := map[string]bool{}
	ans, err := r.asker.Ask(context.Background(), "How many tracks are there?", nil, ask.Options{Today: today, NoVote: true, Think: true,
		OnThinking: func(s string) { mu.Lock(); streamed.WriteString(s); mu.Unlock() },
		Progress:   func(p ask.Progress) { mu.Lock(); stages[p.Stage] = true; mu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	reqs := r.fake.Requests()
	if reqs[0].Think == nil || !*reqs[0].Think || reqs[1].Think == nil || *reqs[1].Think {
		t.Errorf("think %v then %v, want true for the SQL and false for the explanation", reqs[0].Think, reqs[1].Think)
	}
	if streamed.String() != thought || !stages["thinking"] {
		t.Errorf("streamed %q, stages %v", streamed.String(), stages)
	}
	sql := ans.ModelStats.Rounds[0]
	if want := engine.EstimateThinkingTokens(thought); sql.ThinkingTokens != want || sql.GeneratedTokens <= sql.ThinkingTokens {
		t.Errorf("round %+v: want %d thinking tokens, fewer than the generated", sql, want)
	}
	if ans.RowCount != 1 {
		t.Errorf("rows %d", ans.RowCount)
	}

	plain := modelRig(t, chinook(t), ollamatest.Spec{ContextLength: 32768}, ollamatest.Answer("SELECT count(*) AS n FROM Track", "Counted."))
	if _, err := plain.asker.Ask(context.Background(), "How many tracks are there?", nil, ask.Options{Today: today, NoVote: true, Think: true}); err != nil {
		t.Fatalf("a model that does not think, asked to: %v", err)
	}
	if th := plain.fake.Requests()[0].Think; th != nil {
		t.Errorf("a model without the thinking capability was sent think %v", *th)
	}
}

// Thinking past its budget ends the question with an error that says so,
// and costs no repair round.
func TestThinkingBounded(t *testing.T) {
	rep := ollamatest.Answer("SELECT count(*) AS n FROM Track", "Counted.")
	rep.Thinking = strings.Repeat("Let me think again about the tables. ", 40)
	r := thinkingRig(t, rep, rep)
	ans, err := r.asker.Ask(context.Background(), "How many tracks are there?", nil, ask.Options{Today: today, NoVote: true, Think: true, ThinkBudget: 50})
	e := engine.AsError(err)
	if e == nil || e.Code != engine.CodeModelError || !strings.Contains(e.Message, "more than 50 tokens") || !strings.Contains(e.Hint, "--think") {
		t.Fatalf("error %v", err)
	}
	if n := len(r.fake.Requests()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
	if ans.RowCount != 0 {
		t.Errorf("rows %d", ans.RowCount)
	}
}

// A <think> block inside the content (an older build) is taken out before
// the answer is read.
func TestThinkBlockInContent(t *testing.T) {
	r := newRig(t, ollamatest.Reply{Content: `<think>maybe {"sql": "SELECT 0"}? no.</think>` + "\n" + ollamatest.SQLAnswer("SELECT count(*) AS n FROM Track")})
	ans, err := r.ask(t, "How many tracks are there?", nil)
	if err != nil {
		t.Fatal(err)
	}
	if ans.Query != "SELECT count(*) AS n FROM Track" || len(ans.Attempts) != 1 {
		t.Errorf("query %q, %d attempts", ans.Query, len(ans.Attempts))
	}
}

// A reply that holds SQL outside the JSON format answers in one round,
// with a note; only a reply with no SQL costs a repair round.
func TestRepliesOutsideTheFormat(t *testing.T) {
	for _, tc := range []struct {
		name, reply string
	}{
		{"fenced", "Here is the query: ```sql SELECT count(*) AS n FROM Track```"},
		{"fenced on lines", "Here is the query:\n\n```sql\nSELECT count(*) AS n\nFROM Track;\n```\n\nIt counts the tracks."},
		{"label", "SQL: SELECT count(*) AS n FROM Track"},
		{"bare", "SELECT count(*) AS n FROM Track;"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, ollamatest.Reply{Content: tc.reply})
			ans, err := r.ask(t, "How many tracks are there?", nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(ans.Attempts) != 1 || ans.RowCount != 1 || ans.Results.Values[0][0] != int64(3503) {
				t.Fatalf("attempts %+v, rows %v", ans.Attempts, ans.Results.Values)
			}
			if !ans.ModelStats.Rounds[0].FormatIgnored {
				t.Errorf("round %+v: the format was ignored", ans.ModelStats.Rounds[0])
			}
			found := false
			for _, w := range ans.Warnings {
				found = found || strings.Contains(w, "did not answer in the JSON format")
			}
			if !found {
				t.Errorf("warnings %q", ans.Warnings)
			}
		})
	}
	r := newRig(t, ollamatest.Reply{Content: "I would count the rows of the Track table."}, ollamatest.Answer("SELECT count(*) AS n FROM Track", "x"))
	ans, err := r.ask(t, "How many tracks are there?", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ans.Attempts) != 2 || ans.Attempts[0].Error == nil || ans.ModelStats.Rounds[0].FormatIgnored {
		t.Errorf("a reply without SQL: attempts %+v", ans.Attempts)
	}
}

func TestLooseSQL(t *testing.T) {
	for _, tc := range []struct{ reply, want string }{
		{"Here is the query: ```sql SELECT count(*) AS n FROM Track```", "SELECT count(*) AS n FROM Track"},
		{"```\nWITH t AS (SELECT 1) SELECT * FROM t\n```", "WITH t AS (SELECT 1) SELECT * FROM t"},
		{"```sqlite\nSELECT 'a;b' AS x; SELECT 2\n```", "SELECT 'a;b' AS x"},
		{"Sql query: select Name from Artist", "select Name from Artist"},
		{"The answer:\nSELECT Name FROM Artist\n\nThis lists the artists.", "SELECT Name FROM Artist"},
		{"```python\nprint(1)\n```", ""},
		{"I cannot answer that: no table holds salaries.", ""},
		{"Selecting the right table is hard.", ""},
		{`{"sql": ""}`, ""},
		{"", ""},
	} {
		if got := ask.LooseSQL(tc.reply); got != tc.want {
			t.Errorf("LooseSQL(%q) = %q, want %q", tc.reply, got, tc.want)
		}
	}
}

func TestFamilyFor(t *testing.T) {
	for model, want := range map[string]string{
		"sqlcoder:7b": ask.FamilySQLCoder, "hf.co/seeklhy/OmniSQL-7B-GGUF:Q4_K_M": ask.FamilyOmniSQL,
		"Snowflake/Arctic-Text2SQL-R1-7B": ask.FamilyOmniSQL, "qwen2.5-coder:7b": ask.FamilyQuerent, "": ask.FamilyQuerent,
	} {
		if got := ask.FamilyFor(model); got != want {
			t.Errorf("FamilyFor(%q) = %q, want %q", model, got, want)
		}
	}
	if ask.CheckFamily("omnisql") != nil || ask.CheckFamily("") != nil || engine.ErrorCode(ask.CheckFamily("gpt")) != engine.CodeUsage {
		t.Error("CheckFamily")
	}
}

// A SQL specialist gets its card's prompt, free text, and its fenced
// answer is read without a note; its repair asks for a fence. The family
// can be overridden.
func TestPromptFamilies(t *testing.T) {
	for _, tc := range []struct {
		model, override, marker string
	}{
		{"omnisql-7b:latest", "", "Task Overview:"},
		{"sqlcoder:7b", "", "### Task"},
		{"qwen2.5-coder:7b", ask.FamilyOmniSQL, "Task Overview:"},
	} {
		t.Run(tc.model, func(t *testing.T) {
			r := newRig(t, ollamatest.Reply{Content: "```sql\nSELECT nope FROM Track\n```"}, ollamatest.Reply{Content: "```sql\nSELECT count(*) AS n FROM Track\n```"})
			r.fake.SetModels(tc.model)
			r.asker.ModelName = tc.model
			ans, err := r.asker.Ask(context.Background(), "How many tracks are there?", nil, ask.Options{Today: today, PromptFamily: tc.override})
			if err != nil {
				t.Fatal(err)
			}
			reqs := r.fake.Requests()
			first := reqs[0]
			if len(first.Messages) != 1 || !strings.Contains(first.Messages[0].Content, tc.marker) || !strings.Contains(first.Messages[0].Content, "CREATE TABLE") ||
				!strings.Contains(first.Messages[0].Content, "How many tracks are there?") || len(first.Format) != 0 {
				t.Fatalf("the first request: format %s, messages %+v", first.Format, first.Messages)
			}
			if repair := lastMessage(reqs[1]); !strings.Contains(repair, "```sql code block") || strings.Contains(repair, "JSON") {
				t.Errorf("the repair prompt: %q", repair)
			}
			if len(ans.Attempts) != 2 || ans.RowCount != 1 || ans.Results.Values[0][0] != int64(3503) {
				t.Fatalf("attempts %+v, rows %v", ans.Attempts, ans.Results.Values)
			}
			for _, rd := range ans.ModelStats.Rounds {
				if rd.FormatIgnored || rd.Stage == "vote" {
					t.Errorf("round %+v", rd)
				}
			}
			for _, w := range ans.Warnings {
				if strings.Contains(w, "JSON format") {
					t.Errorf("a specialist following its own format got a note: %q", w)
				}
			}
		})
	}
}
