package ask

import (
	"context"
	"encoding/json"
	"fmt"
	"querent/engine"
	"querent/engine/schemactx"
	"querent/engine/sqltext"
	"querent/engine/valuehints"
	"regexp"
	"strings"
	"sync"
	"time"
)

// AskOptions bound one question.
type AskOptions struct {
	// MaxRows and Timeout bound running each query (defaults 1000, 30 s).
	MaxRows int
	Timeout time.Duration
	// MaxRepairs is how many times the model may repair its SQL (default 3).
	MaxRepairs int
	// SchemaBudget is the prompt's schema budget in tokens (default 8000).
	SchemaBudget int
	// NumPredict caps the model's answer in tokens (default 1024).
	NumPredict int
	// Today is the date the prompt gives for "this year" (default: now).
	Today time.Time
	// Client names who asks, for the history ("cli", "app", "mcp:…").
	Client string
	// Progress, when set, follows the loop.
	Progress func(AskProgress)
}

// AskProgress is one step of the ask loop, for progress displays.
type AskProgress struct {
	// Stage is "preparing", "writing SQL", "checking", "running",
	// "repairing", "checking values" or "done".
	Stage string `json:"stage"`
	// Attempt counts from 1; Attempts is the most there can be.
	Attempt  int `json:"attempt"`
	Attempts int `json:"attempts"`
	// Tokens is the answer streamed so far (while writing SQL).
	Tokens int `json:"tokens"`
}

// Asker answers questions about one database with one model. It keeps what
// it learns about the database (the value index) between questions.
type Asker struct {
	DB        engine.Database
	Model     engine.Model
	ModelName string
	// EmbedModel, when set, re-ranks tables by embeddings when the schema
	// must be pruned.
	EmbedModel string
	// History, when set, records every question and feeds the prompt's
	// examples with past successful ones.
	History engine.History

	mu     sync.Mutex
	values *valuehints.ValueIndex
}

func (o AskOptions) withDefaults() AskOptions {
	if o.MaxRows <= 0 {
		o.MaxRows = engine.DefaultMaxRows
	}
	if o.Timeout <= 0 {
		o.Timeout = engine.DefaultTimeout
	}
	if o.MaxRepairs <= 0 {
		o.MaxRepairs = 3
	}
	if o.SchemaBudget <= 0 {
		o.SchemaBudget = 8000
	}
	if o.NumPredict <= 0 {
		o.NumPredict = 1024
	}
	if o.Today.IsZero() {
		o.Today = time.Now()
	}
	return o
}

// Ask answers a question: the model writes SQL, the guard checks it, the
// database runs it; a failure goes back to the model with the precise error,
// at most MaxRepairs times. The answer always comes back (with its attempts
// and errors); the error is the final failure, if any. session, when not
// nil, gives the previous turns and receives this one.
func (a *Asker) Ask(ctx context.Context, question string, session *engine.Session, opts AskOptions) (*engine.Answer, error) {
	opts = opts.withDefaults()
	start := time.Now()
	q := question
	ans := engine.NewAnswer("")
	ans.Question = &q
	if a.ModelName != "" {
		m := a.ModelName
		ans.Model = &m
	}
	ans.Warnings = append(ans.Warnings, a.DB.Warnings()...)
	progress := func(p AskProgress) {
		if opts.Progress != nil {
			p.Attempts = 1 + opts.MaxRepairs
			opts.Progress(p)
		}
	}
	finish := func(err error) (*engine.Answer, error) {
		if session != nil {
			ans.SessionContext = session.Context()
		}
		a.record(ctx, question, ans, err, time.Since(start), opts)
		progress(AskProgress{Stage: "done"})
		return ans, err
	}
	if strings.TrimSpace(question) == "" {
		err := engine.Errorf(engine.CodeUsage, "the question is empty").WithHint("ask a question about the data, for example: which customers spent the most?")
		ans.AddError(err)
		return finish(err)
	}
	progress(AskProgress{Stage: "preparing"})
	msgs, shown, err := a.prompt(ctx, question, session, opts)
	ans.TablesShown = shown
	if err != nil {
		ans.AddError(err)
		return finish(err)
	}
	l := &loop{a: a, question: question, msgs: msgs, opts: opts, progress: progress}
	var lastErr error
	var empty *attemptResult // a run that returned no rows, kept in case nothing better comes
	for n := 1; n <= 1+opts.MaxRepairs; n++ {
		r := l.attempt(ctx, n)
		if r.record {
			ans.Attempts = append(ans.Attempts, r.attempt)
		}
		l.msgs = append(l.msgs, r.next...)
		if r.answer != nil && r.kind != abstained {
			ans.Query = r.answer.SQL
		}
		switch r.kind {
		case failed:
			ans.AddError(r.err)
			return finish(r.err)
		case abstained:
			ans.Explanation = r.answer.Explanation
			ans.AddError(r.err)
			return finish(r.err)
		case answered:
			a.success(ctx, ans, r.res, r.answer, question, session)
			return finish(nil)
		case ranEmpty:
			empty = &r
		case repair:
			lastErr = r.err
		}
	}
	if empty != nil {
		// The empty answer stands: the repairs found nothing better.
		a.success(ctx, ans, empty.res, empty.answer, question, session)
		return finish(nil)
	}
	final := engine.AsError(lastErr)
	e := &engine.Error{Code: final.Code, Position: final.Position, Query: final.Query, Err: lastErr,
		Message: fmt.Sprintf("the model did not write a working query in %d attempts; the last one failed: %s", len(ans.Attempts), final.Message),
		Hint:    "rephrase the question (name the tables or columns you mean), try another model with --model, or write the SQL yourself with querent sql"}
	ans.AddError(e)
	return finish(e)
}

// outcome is how one attempt of the loop ended.
type outcome int

const (
	// repair: the model's answer or its SQL failed in a way the model can
	// fix; the next round tells it what went wrong.
	repair outcome = iota
	// ranEmpty: the SQL ran and returned no rows while comparing a column
	// with a value it does not hold; the next round tells it what it holds.
	ranEmpty
	// answered: the SQL ran; the answer is done.
	answered
	// abstained: the model asked for a clarification or said why the
	// question cannot be answered.
	abstained
	// failed: a failure no repair can fix (the model server is down, the
	// question was cancelled, the database cannot be read).
	failed
)

// attemptResult is what one attempt did.
type attemptResult struct {
	kind outcome
	// attempt is the attempt as the answer lists it, when record is set (a
	// model server that is down makes no attempt).
	attempt engine.Attempt
	record  bool
	// err is the failure (repair, abstained, failed).
	err error
	// next are the messages for the following round.
	next   []engine.Message
	answer *ModelAnswer
	res    *engine.Result
}

// loop is the state of one question's rounds.
type loop struct {
	a            *Asker
	question     string
	msgs         []engine.Message
	opts         AskOptions
	progress     func(AskProgress)
	checkedEmpty bool
}

// attempt runs round n: the model writes (or repairs) the SQL, the guard
// checks it, the database runs it.
func (l *loop) attempt(ctx context.Context, n int) attemptResult {
	stage := "writing SQL"
	if n > 1 {
		stage = "repairing"
	}
	l.progress(AskProgress{Stage: stage, Attempt: n})
	tokens := 0
	resp, err := l.a.Model.Chat(ctx, engine.ChatRequest{
		Model: l.a.ModelName, Messages: l.msgs, Format: AnswerSchema(), Temperature: 0,
		NumCtx: numCtx(l.msgs, l.opts.NumPredict), NumPredict: l.opts.NumPredict,
		OnToken: func(string) {
			tokens++
			if tokens%8 == 0 {
				l.progress(AskProgress{Stage: stage, Attempt: n, Tokens: tokens})
			}
		},
	})
	if err != nil {
		e := engine.AsError(err)
		if e.Code != engine.CodeModelError {
			// Not running, not installed, too slow, cancelled: a repair
			// would meet the same fate.
			return attemptResult{kind: failed, err: err}
		}
		return attemptResult{kind: repair, err: err, record: true,
			attempt: engine.Attempt{Error: &engine.AttemptError{Type: e.Code, Message: e.Message}},
			next:    []engine.Message{{Role: "user", Content: renderPrompt("malformed.tmpl", map[string]string{"Problem": e.Message})}}}
	}
	said := engine.Message{Role: "assistant", Content: resp.Content}
	ma, perr := ParseModelAnswer(resp.Content)
	if perr != nil {
		e := engine.Errorf(engine.CodeModelError, "the model's answer was unusable: %v", perr).WithHint("try again, or try another model (--model)")
		return attemptResult{kind: repair, err: e, record: true,
			attempt: engine.Attempt{Error: &engine.AttemptError{Type: e.Code, Message: e.Message}},
			next:    []engine.Message{said, {Role: "user", Content: renderPrompt("malformed.tmpl", map[string]string{"Problem": perr.Error()})}}}
	}
	if ma.Clarification != "" || ma.Unanswerable != "" {
		code, msg, hint := engine.CodeClarification, ma.Clarification, "answer the question by asking again with the missing detail"
		if ma.Clarification == "" {
			code, msg, hint = engine.CodeUnanswerable, ma.Unanswerable, "ask about what the tables hold (querent schema lists them)"
		}
		e := engine.Errorf(code, "%s", msg).WithHint("%s", hint)
		return attemptResult{kind: abstained, err: e, answer: ma, record: true,
			attempt: engine.Attempt{SQL: ma.SQL, Error: &engine.AttemptError{Type: code, Message: msg}}}
	}
	failedRun := func(rerr error) attemptResult {
		e := engine.AsError(rerr)
		r := attemptResult{kind: repair, err: rerr, answer: ma, record: true,
			attempt: engine.Attempt{SQL: ma.SQL, Error: &engine.AttemptError{Type: e.Code, Message: e.Message}}}
		if e.Code == engine.CodeCancelled || e.Code == engine.CodeDatabase || e.Code == engine.CodeInternal {
			r.kind = failed
			return r
		}
		r.next = []engine.Message{said, {Role: "user", Content: renderPrompt("repair.tmpl", map[string]string{
			"SQL": ma.SQL, "Type": e.Code, "Message": e.Message, "Hint": e.Hint, "Question": l.question})}}
		return r
	}
	l.progress(AskProgress{Stage: "checking", Attempt: n})
	if _, verr := l.a.DB.Validate(ctx, ma.SQL); verr != nil {
		return failedRun(verr)
	}
	l.progress(AskProgress{Stage: "running", Attempt: n})
	res, rerr := l.a.DB.Run(ctx, ma.SQL, engine.RunOptions{MaxRows: l.opts.MaxRows, Timeout: l.opts.Timeout})
	if rerr != nil {
		return failedRun(rerr)
	}
	r := attemptResult{kind: answered, answer: ma, res: res, record: true, attempt: engine.Attempt{SQL: ma.SQL}}
	if len(res.Rows) == 0 && !l.checkedEmpty && n <= l.opts.MaxRepairs {
		l.checkedEmpty = true
		if checks := l.a.emptyChecks(ctx, ma.SQL); len(checks) > 0 {
			l.progress(AskProgress{Stage: "checking values", Attempt: n})
			r.kind = ranEmpty
			r.next = []engine.Message{said, {Role: "user", Content: renderPrompt("empty.tmpl", map[string]any{"Checks": checks})}}
		}
	}
	return r
}

// success fills the answer from a result and adds the turn to the session.
func (a *Asker) success(ctx context.Context, ans *engine.Answer, res *engine.Result, ma *ModelAnswer, question string, session *engine.Session) {
	ans.SetResult(res)
	ans.Explanation = strings.TrimSpace(ma.Explanation + " " + resultSummary(res))
	if ma.FollowUps != nil {
		ans.FollowUpQuestions = ma.FollowUps
	}
	hctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if hints, err := a.DB.Explain(hctx, res.Query); err == nil && len(hints) > 0 {
		ans.OptimizationHints = hints
	}
	if session != nil {
		cols := make([]string, len(res.Columns))
		for i, c := range res.Columns {
			cols[i] = c.Name
		}
		session.Add(engine.Turn{Question: question, SQL: res.Query, Columns: cols, RowCount: len(res.Rows), Time: time.Now().UTC()})
	}
}

// resultSummary says in one sentence what came back, from the data itself
// (the model wrote its explanation before seeing the result).
func resultSummary(res *engine.Result) string {
	switch {
	case len(res.Rows) == 0:
		return "The query returned no rows."
	case len(res.Rows) == 1 && len(res.Columns) == 1:
		return fmt.Sprintf("The answer is %s.", summaryValue(res.Rows[0][0]))
	case res.Truncated:
		return fmt.Sprintf("It returned more than %d rows; the first %d are shown.", len(res.Rows), len(res.Rows))
	case len(res.Rows) == 1:
		return "It returned one row."
	}
	return fmt.Sprintf("It returned %d rows.", len(res.Rows))
}

func summaryValue(v engine.Value) string {
	switch x := v.(type) {
	case nil:
		return "empty (NULL)"
	case float64:
		return engine.FormatFloat(x)
	case []byte:
		return fmt.Sprintf("a %d-byte blob", len(x))
	case string:
		if len([]rune(x)) > 80 {
			x = string([]rune(x)[:80]) + "…"
		}
		return fmt.Sprintf("%q", x)
	}
	return fmt.Sprint(v)
}

// comparisonRE finds text comparisons: col = 'x', t.col LIKE '%x%', col IN ('a', 'b').
var comparisonRE = regexp.MustCompile(`(?i)((?:[A-Za-z_][A-Za-z0-9_]*|"[^"]+")(?:\.(?:[A-Za-z_][A-Za-z0-9_]*|"[^"]+"))?)\s*(=|==|<>|!=|\bnot\s+like\b|\blike\b|\bglob\b|\bin\s*\()\s*('(?:[^']|'')*'(?:\s*,\s*'(?:[^']|'')*')*)`)

// emptyChecks looks at what a query that returned nothing compares text
// columns with: a value that is not stored in that column, but resembles
// stored values, is the usual reason ('Brasil' for 'Brazil').
func (a *Asker) emptyChecks(ctx context.Context, sql string) []string {
	vi := a.valueIndex(ctx)
	if vi == nil {
		return nil
	}
	var checks []string
	seen := map[string]bool{}
	for _, m := range comparisonRE.FindAllStringSubmatch(sql, -1) {
		col, op := m[1], strings.ToLower(strings.Join(strings.Fields(m[2]), " "))
		like := strings.Contains(op, "like") || op == "glob"
		for _, lit := range sqltext.StringLiterals(m[3]) {
			bare := lit
			if like {
				bare = strings.Trim(lit, "%_*? ")
			}
			if bare == "" || len(bare) > 100 || seen[col+"\x00"+lit] {
				continue
			}
			seen[col+"\x00"+lit] = true
			indexed, present := vi.Stored(col, bare, like)
			if !indexed || present {
				continue
			}
			var similar []string
			for _, v := range vi.Similar(col, bare, 3) {
				similar = append(similar, "'"+strings.ReplaceAll(v, "'", "''")+"'")
			}
			msg := fmt.Sprintf("%s %s '%s' matches no stored value of %s", col, strings.ToUpper(op), strings.ReplaceAll(lit, "'", "''"), col)
			if len(similar) > 0 {
				msg += "; it has " + strings.Join(similar, ", ")
			}
			checks = append(checks, msg)
		}
	}
	return checks
}

// valueIndex builds (once) the index of stored text values.
func (a *Asker) valueIndex(ctx context.Context) *valuehints.ValueIndex {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.values != nil {
		return a.values
	}
	s, err := a.DB.Schema(ctx)
	if err != nil {
		return nil
	}
	vi, err := valuehints.BuildValueIndex(ctx, a.DB, s, valuehints.ValueIndexOptions{})
	if err != nil {
		return nil
	}
	a.values = vi
	return vi
}

// prompt builds the messages of a question: the system prompt with the
// (pruned) schema, value hints and examples, the session's previous turns,
// and the question. It also returns the tables the prompt shows.
func (a *Asker) prompt(ctx context.Context, question string, session *engine.Session, opts AskOptions) ([]engine.Message, []string, error) {
	s, err := a.DB.Schema(ctx)
	if err != nil {
		return nil, []string{}, err
	}
	// Follow-ups ("and in 2012?") need the earlier questions to find tables.
	pruneQuery := question
	var turns []engine.Turn
	if session != nil {
		turns = session.Turns
		if len(turns) > 3 {
			turns = turns[len(turns)-3:]
		}
		for _, t := range turns {
			pruneQuery += " " + t.Question
		}
	}
	var rerank schemactx.Reranker
	if a.EmbedModel != "" && a.Model != nil {
		rerank = schemactx.EmbeddingReranker(a.Model, a.EmbedModel)
	}
	// The values the question names point at their tables too ("songs by
	// acdc" → Artist), which words alone would miss.
	var hints []valuehints.ValueHint
	if vi := a.valueIndex(ctx); vi != nil {
		hints = vi.Hints(question, 8)
		for _, h := range hints {
			pruneQuery += " " + h.Table
		}
	}
	sc := schemactx.PruneSchema(ctx, s, pruneQuery, opts.SchemaBudget, rerank)
	total := 0
	for _, t := range s.Tables {
		if !t.Internal {
			total++
		}
	}
	sp := SystemPrompt{Database: displayName(s.Database), Schema: sc.Text, Tables: sc.Tables, TotalTables: total,
		Pruned: sc.Pruned, Today: opts.Today.Format("2006-01-02")}
	for _, h := range hints {
		sp.Hints = append(sp.Hints, h.String())
	}
	if a.History != nil {
		sha := ""
		if f, ok := a.DB.(engine.Fingerprinter); ok {
			sha, _ = f.SHA256(ctx)
		}
		if past, err := a.History.Successes(ctx, a.DB.Name(), sha, 200); err == nil {
			sp.Examples = chooseExamples(question, past, 3)
		}
	}
	sp.StyleExamples = len(sp.Examples) < 2
	msgs := []engine.Message{{Role: "system", Content: sp.Render()}}
	for _, t := range turns {
		prev, _ := json.Marshal(map[string]any{"sql": t.SQL, "explanation": fmt.Sprintf("(returned %d rows with columns %s)", t.RowCount, strings.Join(t.Columns, ", ")),
			"follow_up_questions": []string{}, "clarification_question": "", "unanswerable_reason": ""})
		msgs = append(msgs, engine.Message{Role: "user", Content: t.Question}, engine.Message{Role: "assistant", Content: string(prev)})
	}
	msgs = append(msgs, engine.Message{Role: "user", Content: question})
	shown := make([]string, len(sc.Tables))
	for i, t := range sc.Tables {
		shown[i] = t.Name
	}
	return msgs, shown, nil
}

// displayName shortens a database path to its file name for the prompt.
func displayName(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		return name[i+1:]
	}
	return name
}

// numCtx sizes the context window to the prompt and the answer, in steps of
// 2,048 tokens (Ollama's default context is small and cuts long prompts).
func numCtx(msgs []engine.Message, predict int) int {
	n := predict + 256
	for _, m := range msgs {
		n += schemactx.EstimateTokens(m.Content) + 8
	}
	n = (n + 2047) / 2048 * 2048
	return min(max(n, 4096), 32768)
}

// record writes the question to the history (if any); a failure to record
// never fails the answer, but becomes a warning.
func (a *Asker) record(ctx context.Context, question string, ans *engine.Answer, err error, d time.Duration, opts AskOptions) {
	if a.History == nil {
		return
	}
	e := engine.HistoryEntry{Time: time.Now(), Database: a.DB.Name(), Question: question, SQL: ans.Query, Status: "ok",
		RowCount: ans.RowCount, DurationS: engine.Seconds(d), Model: a.ModelName, Client: opts.Client, Attempts: ans.Attempts}
	if err != nil {
		e.Status = engine.ErrorCode(err)
	}
	if f, ok := a.DB.(engine.Fingerprinter); ok {
		e.DatabaseSHA256, _ = f.SHA256(ctx)
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if rerr := a.History.Record(rctx, e); rerr != nil {
		ans.Warnings = append(ans.Warnings, "the question was not saved in the history: "+engine.AsError(rerr).Message)
	}
}
