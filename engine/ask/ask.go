package ask

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"querent/engine"
	"querent/engine/describe"
	"querent/engine/glossary"
	"querent/engine/schemactx"
	"querent/engine/sensitive"
	"querent/engine/valuehints"
	"querent/engine/words"
)

// MaxQuestionChars bounds a question: a long paste would push the rules and
// the schema out of the model's context window.
const MaxQuestionChars = 4000

// Options bound one question.
type Options struct {
	// MaxRows and Timeout bound running each query (defaults 1000, 30 s).
	MaxRows int
	Timeout time.Duration
	// MaxRepairs is how many times the model may repair its SQL (default 3).
	MaxRepairs int
	// SchemaBudget is the prompt's schema budget in tokens (default 8000).
	SchemaBudget int
	// NumPredict caps the model's answer in tokens (default 1024).
	NumPredict int
	// NoExplain skips the second request, which explains the result and
	// proposes follow-up questions (the sub-agent input's
	// explain_results: false, --no-explain, the app's setting): the answer
	// is the rows, the SQL and the statistics.
	NoExplain bool
	// Today is the date the prompt gives for "this year" (default: now).
	Today time.Time
	// Client names who asks, for the history ("cli", "app", "mcp:…").
	Client string
	// ForAgent is set when the answer goes to an agent (MCP, ask --input):
	// the marked columns read as NULL wherever the SQL reads them
	// (engine.RunOptions.Hide), so that no filter over one tells its
	// values; the face masks the answer (sensitive.Masked).
	ForAgent bool
	// Progress, when set, follows the loop. It may be called from two
	// goroutines at once (the SQL runs while the model still writes).
	Progress func(Progress)
	// OnRows, when set, receives the answer as soon as the rows are there,
	// before the explanation is written (the page shows them at once).
	OnRows func(*engine.Answer)
	// NoVote draws no other readings of a doubtful answer (--no-vote, the
	// sub-agent input's vote: false, the page's setting); OnVotes, when
	// set, receives the answer once its votes are counted, before the
	// explanation; Promises are what the question promises besides its
	// value hints (the glossary's terms). See vote.go, confidence.go.
	NoVote   bool
	OnVotes  func(*engine.Answer)
	Promises []Promise
	// SchemaForm is how the prompt shows the tables: schemactx.FormDDL
	// (or "", the default) or schemactx.FormMSchema (querent eval
	// --compare measures which a model answers better from).
	SchemaForm string
	// FollowUp says whether the question is read with the session's
	// earlier questions: FollowUpAuto ("", when it reads as a follow-up),
	// FollowUpYes or FollowUpNo (followup.go).
	FollowUp string
	// Think lets a thinking model think in the SQL rounds (--think, the
	// page's setting per model, the sub-agent input's think: true); off,
	// a model with the thinking capability is sent think: false. The
	// thinking is bounded by ThinkBudget tokens (default 2,048) and
	// ThinkTimeout (default 90 s) a round, and streams to OnThinking
	// and to Progress (stage "thinking"). See think.go.
	Think        bool
	ThinkBudget  int
	ThinkTimeout time.Duration
	OnThinking   func(string)

	// PromptFamily is the SQL round's prompt: FamilyQuerent, FamilyOmniSQL
	// or FamilySQLCoder; "" chooses from the model's name (FamilyFor).
	// See family.go.
	PromptFamily string

	// lean leaves the verified examples, the earlier turns and most value
	// hints out of the prompt, for a small window (fit.go).
	lean bool
}

// Progress is one step of the ask loop, for progress displays.
type Progress struct {
	// Stage is "preparing", "thinking", "writing SQL", "checking",
	// "running", "repairing", "checking values", "voting", "explaining" or
	// "done".
	Stage string `json:"stage"`
	// Attempt counts from 1; Attempts is the most there can be.
	Attempt  int `json:"attempt"`
	Attempts int `json:"attempts"`
	// Tokens is the answer streamed so far (while writing or explaining).
	Tokens int `json:"tokens"`
	// Text is the explanation written so far (stage "explaining"), or
	// the thinking so far (stage "thinking").
	Text string `json:"text,omitempty"`
	// Vote counts the other readings from 1 (stage "voting"), of Votes
	// at most.
	Vote  int `json:"vote,omitempty"`
	Votes int `json:"votes,omitempty"`
}

// Asker answers questions about one database with one model. It keeps what
// it learns about the database between questions: the value index, and the
// context window, chosen once so that the model server never reloads the
// model for a longer prompt (Ollama reloads when num_ctx changes).
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
	// Glossary, when set, gives the analyst's glossary entries a question
	// uses: the prompt carries them, the answer lists them (glossary_used).
	Glossary Glossary
	// ExplainModel, when set, writes the explanations instead of ModelName
	// (a smaller model writes prose well enough; the integration tests'
	// scripted models answer one text each).
	ExplainModel string
	// ContextWindow, when set, is the num_ctx of every request instead of
	// the one chosen from the first prompt (for a model whose tokens are
	// far from four characters: the integration tests' scripted models
	// read one character a token).
	ContextWindow int
	// ValueIndex bounds the index of stored values built on the first
	// question (zero: valuehints' defaults, a 2 s budget); the columns that
	// budget does not reach are indexed on the next questions, each with
	// the same budget.
	ValueIndex valuehints.IndexOptions
	// Joins, when set, gives the joins read from the values (engine/profile's
	// Joins, without those the analyst dropped): the model sees them as
	// foreign keys marked as inferred, and the pruning follows them.
	Joins JoinHinter

	mu sync.Mutex
	// hints are Joins' hints, read once; hintsRead says they were.
	hints     map[string][]engine.ForeignKey
	hintsRead bool
	values    *valuehints.Index
	// valuesMarks are the marks (marksKey) the index was built under.
	valuesMarks string
	// info describes the model (its window, whether it thinks), read once
	// (infoRead) by modelInfo; nil when the port cannot say.
	info     *engine.ModelInfo
	infoRead bool
	// numCtx is the context window of every request of this Asker.
	numCtx int
	// lastModel and lastPrompt are the previous request's, whose prefix the
	// model server keeps.
	lastModel, lastPrompt string
}

func (o Options) withDefaults() Options {
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
		o.SchemaBudget = schemactx.DefaultBudgetTokens
	}
	if o.NumPredict <= 0 {
		o.NumPredict = 1024
	}
	if o.Today.IsZero() {
		o.Today = time.Now()
	}
	return o
}

// Ask answers a question in two steps, so that the analyst sees rows as soon
// as the SQL is written. First the model writes the SQL (or a clarifying
// question, or why the tables cannot answer); the SQL runs as soon as its
// closing quote arrives, while the model finishes its answer; a failure the
// model can fix goes back to it with the precise error, at most MaxRepairs
// times. Then, unless NoExplain, the model sees a summary of the rows and
// explains them, with follow-up questions; cancelling that step keeps the
// rows (a warning says the explanation was cancelled).
//
// The answer always comes back (with its attempts, its model_stats and its
// errors); the error is the final failure, if any. session, when not nil,
// gives the previous turns and receives this one.
func (a *Asker) Ask(ctx context.Context, question string, session *engine.Session, opts Options) (*engine.Answer, error) {
	opts = opts.withDefaults()
	start := time.Now()
	contextUsed := startContext(session, opts.FollowUp, question)
	follows := ""
	if len(contextUsed) > 0 {
		follows = contextUsed[len(contextUsed)-1].Question
	}
	ans := a.newAnswer(question)
	ans.ContextUsed = contextUsed
	var pmu sync.Mutex
	progress := func(p Progress) {
		if opts.Progress != nil {
			p.Attempts = 1 + opts.MaxRepairs
			pmu.Lock()
			defer pmu.Unlock()
			opts.Progress(p)
		}
	}
	stats := &engine.ModelStats{Rounds: []engine.ModelRound{}}
	finish := func(err error) (*engine.Answer, error) {
		if session != nil {
			ans.SessionContext = session.Context()
		}
		if len(stats.Rounds) > 0 {
			ans.ModelStats = stats
			a.warnCuts(ans, stats)
			a.warnFormat(ans, stats)
		}
		a.record(ctx, question, follows, ans, err, time.Since(start), opts)
		progress(Progress{Stage: "done"})
		return ans, err
	}
	if err := checkQuestion(question); err != nil {
		ans.AddError(err)
		return finish(err)
	}
	progress(Progress{Stage: "preparing"})
	used, warning := a.glossaryUsed(ctx, question)
	ans.GlossaryUsed = glossaryUses(used)
	opts.Promises = append(opts.Promises, glossaryPromises(used)...)
	if warning != "" {
		ans.Warnings = append(ans.Warnings, warning)
	}
	a.modelInfo(ctx)
	if window := a.window(); window > 0 {
		opts.NumPredict = answerReserve(window, opts.NumPredict)
	}
	b, err := a.fitPrompt(ctx, question, session, used, opts)
	msgs := b.msgs
	ans.TablesShown, ans.ExamplesUsed = b.shown, b.examples
	if err != nil {
		ans.AddError(err)
		return finish(err)
	}
	fence := false
	if family := a.family(opts); family != FamilyQuerent {
		// A specialist's own prompt, answered in a fence: no votes.
		msgs, fence, opts.NoVote = a.familyPrompt(family, b, question), true, true
	}
	l := &loop{a: a, question: question, msgs: msgs, first: msgs, opts: opts, progress: progress, start: start, fence: fence}
	var lastErr error
	var empty *attemptResult // a run that returned no rows, kept in case nothing better comes
	tried := map[string]bool{}
	for n := 1; n <= 1+opts.MaxRepairs; n++ {
		r := l.attempt(ctx, n)
		if r.round != nil {
			stats.Rounds = append(stats.Rounds, *r.round)
		}
		if r.record {
			ans.Attempts = append(ans.Attempts, r.attempt)
		}
		l.msgs = append(l.msgs, r.next...)
		if r.answer != nil && r.kind != abstained {
			ans.Query = r.answer.SQL
		}
		if err := repeatedFailure(tried, r); err != nil {
			ans.AddError(err)
			return finish(err)
		}
		switch r.kind {
		case failed:
			ans.AddError(r.err)
			return finish(r.err)
		case abstained:
			ans.AddError(r.err)
			return finish(r.err)
		case answered:
			a.success(ctx, ans, r, question, session, l, stats, opts)
			return finish(nil)
		case ranEmpty:
			empty = &r
		case repair:
			lastErr = r.err
		}
	}
	if empty != nil {
		// The empty answer stands: the repairs found nothing better.
		a.success(ctx, ans, *empty, question, session, l, stats, opts)
		return finish(nil)
	}
	e := noWorkingQuery(lastErr, len(ans.Attempts))
	ans.AddError(e)
	return finish(e)
}

// newAnswer starts the answer to question: the model that writes it and the
// database's warnings.
func (a *Asker) newAnswer(question string) *engine.Answer {
	q := question
	ans := engine.NewAnswer("")
	ans.Question = &q
	if a.ModelName != "" {
		m := a.ModelName
		ans.Model = &m
	}
	ans.Warn(engine.DatabaseWarnings(a.DB)...)
	return ans
}

// checkQuestion refuses a question that is empty, or too long to fit beside
// the database's tables in the model's prompt.
func checkQuestion(question string) error {
	if strings.TrimSpace(question) == "" {
		return engine.Errorf(engine.CodeUsage, "the question is empty").WithHint("ask a question about the data, for example: which customers spent the most?")
	}
	if n := utf8.RuneCountInString(question); n > MaxQuestionChars {
		return engine.Errorf(engine.CodeUsage, "the question is %s characters long; at most %s fit beside the database's tables in the model's prompt",
			engine.GroupThousands(int64(n)), engine.GroupThousands(MaxQuestionChars)).WithHint(
			"ask a shorter question; to run SQL of your own, send it as SQL (it starts with SELECT or WITH)")
	}
	return nil
}

// repeatedFailure notes in tried the query of a round that ends in a repair
// and returns the error that ends the loop when the model wrote it before:
// another round would cost the same time for the same failure.
func repeatedFailure(tried map[string]bool, r attemptResult) error {
	if r.kind != repair || r.answer == nil || r.answer.SQL == "" {
		return nil
	}
	key := strings.Join(strings.Fields(r.answer.SQL), " ")
	if !tried[key] {
		tried[key] = true
		return nil
	}
	e := engine.AsError(r.err)
	return &engine.Error{Code: e.Code, Query: e.Query, Position: e.Position, Err: r.err,
		Message: "the model wrote the same failing query again: " + e.Message,
		Hint:    "rephrase the question (name the tables or columns you mean), try another model, or write the SQL yourself"}
}

// noWorkingQuery is the error of a question whose every attempt ended in a
// repair; lastErr is the last attempt's failure.
func noWorkingQuery(lastErr error, attempts int) *engine.Error {
	final := engine.AsError(lastErr)
	e := &engine.Error{Code: final.Code, Position: final.Position, Query: final.Query, Err: lastErr,
		Message: fmt.Sprintf("the model did not write a working query in %d attempts; the last one failed: %s", attempts, final.Message)}
	return e.SayHint(words.New("hint.no_working_query", words.Model, words.SQL))
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
	// question was cancelled, the database cannot be read, the question
	// asks for a change).
	failed
)

// attemptResult is what one attempt did.
type attemptResult struct {
	kind outcome
	// attempt is the attempt as the answer lists it, when record is set (a
	// model server that is down makes no attempt).
	attempt engine.Attempt
	record  bool
	// round is what the model request cost (nil when it never answered).
	round *engine.ModelRound
	// err is the failure (repair, abstained, failed).
	err error
	// next are the messages for the following round.
	next []engine.Message
	// said is the model's answer, as a message of the conversation.
	said   engine.Message
	answer *ModelAnswer
	res    *engine.Result
	// rowsAt is when the rows were there.
	rowsAt time.Time
}

// loop is the state of one question's rounds.
type loop struct {
	a            *Asker
	question     string
	msgs         []engine.Message
	first        []engine.Message // the question's own prompt, for the votes
	opts         Options
	progress     func(Progress)
	start        time.Time
	checkedEmpty bool
	// fence: the model answers in a fence, not in Querent's JSON (a
	// specialist's prompt family): free text is asked for, and the
	// repairs ask for a fence.
	fence bool
}

// run is the result of checking and running the SQL.
type run struct {
	res *engine.Result
	err error
	at  time.Time
}

// attempt runs round n: the model writes (or repairs) the SQL; as soon as
// the SQL is written whole the guard checks it and the database runs it,
// while the model finishes its answer.
func (l *loop) attempt(ctx context.Context, n int) attemptResult {
	stage := "writing SQL"
	if n > 1 {
		stage = "repairing"
	}
	l.progress(Progress{Stage: stage, Attempt: n})
	sr := &sqlRunner{l: l, n: n, ran: make(chan run, 1)}
	req := l.request(ctx, stage, n, sr)
	rctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	if req.Think != nil && *req.Think {
		w := newThinkWatch(l, n, cancel)
		req.OnThinking, req.NumPredict = w.piece, req.NumPredict+w.budget
	}
	resp, err := l.a.Model.Chat(rctx, req)
	round := l.a.round(stageName(n), req, resp)
	var long *errThoughtTooLong
	if errors.As(context.Cause(rctx), &long) && ctx.Err() == nil {
		sr.wait()
		return attemptResult{kind: failed, err: thoughtTooLong(req.Model, long, err), round: round}
	}
	if err != nil {
		e := engine.AsError(err)
		if e.Code != engine.CodeModelError {
			// Not running, not installed, too slow, cancelled: a repair
			// would meet the same fate.
			sr.wait()
			return attemptResult{kind: failed, err: err, round: round}
		}
		if sr.started == "" {
			return attemptResult{kind: repair, err: err, record: true, round: round,
				attempt: engine.Attempt{Error: &engine.AttemptError{Type: e.Code, Message: e.Message}},
				next:    []engine.Message{{Role: "user", Content: renderPrompt("malformed.tmpl", map[string]any{"Problem": e.Message, "Fence": l.fence})}}}
		}
		// The answer was cut off after its SQL, which is all that matters.
		resp = &engine.ChatResponse{Content: fmt.Sprintf(`{"sql":%q,"clarification_question":"","unanswerable_reason":""}`, sr.started)}
	}
	said := engine.Message{Role: "assistant", Content: resp.Content}
	ma, perr := ParseModelAnswer(resp.Content)
	if perr != nil && sr.started != "" {
		ma, perr = &ModelAnswer{SQL: sr.started}, nil
	}
	if perr != nil {
		if sql := looseSQL(resp.Content); sql != "" {
			ma, perr = &ModelAnswer{SQL: sql}, nil
			if round != nil && !l.fence {
				round.FormatIgnored = true
			}
		}
	}
	if perr != nil {
		e := engine.Errorf(engine.CodeModelError, "the model's answer was unusable: %v", perr).WithErr(perr).SayHint(words.New("hint.another_model", words.Model))
		return attemptResult{kind: repair, err: e, record: true, round: round,
			attempt: engine.Attempt{Error: &engine.AttemptError{Type: e.Code, Message: e.Message}},
			next:    []engine.Message{said, {Role: "user", Content: renderPrompt("malformed.tmpl", map[string]any{"Problem": perr.Error(), "Fence": l.fence})}}}
	}
	if sr.started != "" {
		ma.SQL = sr.started
	}
	if ma.SQL == "" && (ma.Clarification != "" || ma.Unanswerable != "") {
		return abstention(ma, said, round)
	}
	if sr.started == "" {
		sr.start(ctx, ma.SQL)
	}
	rn := sr.wait()
	if rn.err != nil {
		return l.failedRun(ma, said, rn.err, round)
	}
	r := attemptResult{kind: answered, answer: ma, res: rn.res, record: true, round: round, said: said, rowsAt: rn.at,
		attempt: engine.Attempt{SQL: ma.SQL}}
	if len(rn.res.Rows) == 0 && !l.checkedEmpty && n <= l.opts.MaxRepairs {
		l.checkedEmpty = true
		if checks := l.a.emptyChecks(ctx, ma.SQL); len(checks) > 0 {
			l.progress(Progress{Stage: "checking values", Attempt: n})
			r.kind = ranEmpty
			r.next = []engine.Message{said, {Role: "user", Content: renderPrompt("empty.tmpl", map[string]any{"Checks": checks, "Fence": l.fence})}}
		}
	}
	return r
}

// request is round n's request to the model. As it streams, the answer's
// "sql" is watched for, and handed to sr as soon as its closing quote
// arrives; meanwhile progress counts the tokens (stage).
func (l *loop) request(ctx context.Context, stage string, n int, sr *sqlRunner) engine.ChatRequest {
	var (
		buf    strings.Builder
		tokens int
	)
	scanner := fieldScanner{key: "sql"}
	msgs := l.a.trimmed(l.msgs, l.first, l.opts)
	format := AnswerSchema()
	if l.fence {
		format = nil // free text: the specialist writes its fence
	}
	return engine.ChatRequest{
		Model: l.a.ModelName, Messages: msgs, Format: format, Temperature: 0,
		NumCtx: l.a.contextWindow(msgs, l.opts), NumPredict: l.opts.NumPredict, Think: l.a.thinkSwitch(l.opts.Think),
		OnToken: func(piece string) {
			tokens++
			buf.WriteString(piece)
			if sr.started != "" {
				return
			}
			if sql, found, complete := scanner.scan(buf.String()); found && complete && strings.TrimSpace(sql) != "" {
				sr.start(ctx, strings.TrimSpace(sql))
				return
			}
			if tokens%8 == 0 {
				l.progress(Progress{Stage: stage, Attempt: n, Tokens: tokens})
			}
		},
	}
}

// sqlRunner checks and runs one round's SQL in the background, so that it runs
// while the model still writes the rest of its answer.
type sqlRunner struct {
	l       *loop
	n       int      // the round
	started string   // the SQL being run, once its closing quote came
	ran     chan run // the run's result, once
}

// start checks sql with the guard and runs it, in the background.
func (sr *sqlRunner) start(ctx context.Context, sql string) {
	sr.started = sql
	go func() {
		sr.l.progress(Progress{Stage: "checking", Attempt: sr.n})
		if _, err := sr.l.a.DB.Validate(ctx, sql); err != nil {
			sr.ran <- run{err: err}
			return
		}
		sr.l.progress(Progress{Stage: "running", Attempt: sr.n})
		res, err := sr.l.a.DB.Run(ctx, sql, engine.RunOptions{MaxRows: sr.l.opts.MaxRows, Timeout: sr.l.opts.Timeout, Hide: sr.l.a.hide(sr.l.opts)})
		sr.ran <- run{res: res, err: err, at: time.Now()}
	}()
}

// wait waits for the run to end; the zero run when none was started.
func (sr *sqlRunner) wait() run {
	if sr.started == "" {
		return run{}
	}
	return <-sr.ran
}

// abstention is the outcome of an answer with no SQL: the model asked for a
// clarification, or said why the tables cannot answer.
func abstention(ma *ModelAnswer, said engine.Message, round *engine.ModelRound) attemptResult {
	code, msg, hint := engine.CodeClarification, ma.Clarification, words.Plain("answer the question by asking again with the missing detail")
	if ma.Clarification == "" {
		code, msg, hint = engine.CodeUnanswerable, ma.Unanswerable, words.New("hint.tables_hold", words.Schema)
	}
	e := engine.Errorf(code, "%s", msg).SayHint(hint)
	return attemptResult{kind: abstained, err: e, answer: ma, record: true, round: round, said: said,
		attempt: engine.Attempt{SQL: ma.SQL, Error: &engine.AttemptError{Type: code, Message: msg}}}
}

// failedRun turns a failure of the SQL into the attempt's outcome: a repair
// for what the model can fix, the end for what it cannot — a database that
// cannot be read, a cancel, and a question that asks for a change (Querent
// only reads: asking again would be refused again).
func (l *loop) failedRun(ma *ModelAnswer, said engine.Message, rerr error, round *engine.ModelRound) attemptResult {
	e := engine.AsError(rerr)
	r := attemptResult{kind: repair, err: rerr, answer: ma, record: true, round: round, said: said,
		attempt: engine.Attempt{SQL: ma.SQL, Error: &engine.AttemptError{Type: e.Code, Message: e.Message}}}
	switch {
	case !repairable(e.Code):
		r.kind = failed
		return r
	case e.Code == engine.CodeRefused && isWrite(ma.SQL):
		r.kind = failed
		r.err = writeRefused(ma.SQL, e)
		return r
	}
	r.next = []engine.Message{said, {Role: "user", Content: renderPrompt("repair.tmpl", map[string]any{
		"SQL": ma.SQL, "Type": e.Code, "Message": e.Message, "Hint": e.Hint, "Question": l.question, "Fence": l.fence})}}
	return r
}

// repairable reports whether a model can fix a query that failed with code.
func repairable(code string) bool {
	switch code {
	case engine.CodeSyntax, engine.CodeUnknownTable, engine.CodeUnknownColumn, engine.CodeRefused,
		engine.CodeTimeout, engine.CodeTooBig, engine.CodeModelError:
		return true
	}
	return false
}

// stageName is a round's stage in model_stats.
func stageName(n int) string {
	if n > 1 {
		return "repair"
	}
	return "sql"
}

// success fills the answer from a result: the rows at once (OnRows), then
// the explanation, from the rows.
func (a *Asker) success(ctx context.Context, ans *engine.Answer, r attemptResult, question string, session *engine.Session, l *loop,
	stats *engine.ModelStats, opts Options) {
	res := r.res
	describe.SetResult(ans, res)
	if !r.rowsAt.IsZero() {
		t := engine.Seconds(r.rowsAt.Sub(l.start))
		ans.TimeToRowsS = &t
	}
	hctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	if hints, err := a.DB.Explain(hctx, res.Query); err == nil && len(hints) > 0 {
		ans.OptimizationHints = hints
	}
	cancel()
	if session != nil {
		cols := make([]string, len(res.Columns))
		for i, c := range res.Columns {
			cols[i] = c.Name
		}
		session.Add(engine.Turn{Question: question, SQL: res.Query, Columns: cols, RowCount: len(res.Rows), Time: time.Now().UTC()})
	}
	a.judge(ctx, ans, question, r, opts)
	if opts.OnRows != nil {
		opts.OnRows(ans)
	}
	r = a.vote(ctx, ans, r, l, stats, session, opts)
	res = r.res
	if opts.NoExplain {
		return
	}
	l.progress(Progress{Stage: "explaining"})
	explanation, followUps, round, err := a.explain(ctx, l, r, ans)
	if round != nil {
		stats.Rounds = append(stats.Rounds, *round)
	}
	switch {
	case err == nil:
		ans.Explanation, ans.FollowUpQuestions = explanation, followUps
	case ctx.Err() != nil:
		ans.Explanation = resultSummary(res)
		ans.Warnings = append(ans.Warnings, "the explanation was cancelled; the rows above are the answer")
	default:
		ans.Explanation = resultSummary(res)
		ans.Warnings = append(ans.Warnings, "the model could not explain the result ("+engine.AsError(err).Message+"); the rows above are the answer")
	}
}

// explain asks the model, in a second request that continues the first, to
// explain the rows and propose follow-up questions; the explanation streams
// through Progress as it is written.
func (a *Asker) explain(ctx context.Context, l *loop, r attemptResult, ans *engine.Answer) (string, []string, *engine.ModelRound, error) {
	msgs := append(append([]engine.Message(nil), l.msgs...), r.said, engine.Message{Role: "user",
		Content: renderPrompt("explain.tmpl", map[string]any{"Summary": explainSummary(sensitive.Masked(ans)), "Empty": ans.RowCount == 0})})
	var buf strings.Builder
	tokens := 0
	scanner := fieldScanner{key: "explanation"}
	model := a.ModelName
	if a.ExplainModel != "" {
		model = a.ExplainModel
	}
	req := engine.ChatRequest{Model: model, Messages: msgs, Format: ExplainSchema(), Temperature: 0,
		NumCtx: a.contextWindow(msgs, l.opts), NumPredict: min(l.opts.NumPredict, 512), Think: a.thinkSwitch(false),
		OnToken: func(piece string) {
			tokens++
			buf.WriteString(piece)
			if text, found, _ := scanner.scan(buf.String()); found && tokens%2 == 0 {
				l.progress(Progress{Stage: "explaining", Tokens: tokens, Text: text})
			}
		}}
	resp, err := a.Model.Chat(ctx, req)
	round := a.round("explain", req, resp)
	if err != nil {
		return "", nil, round, err
	}
	ma, perr := parseExplanation(resp.Content)
	if perr != nil {
		return "", nil, round, engine.Errorf(engine.CodeModelError, "%v", perr).WithErr(perr)
	}
	return ma.Explanation, ma.FollowUps, round, nil
}

// round is what one model request cost, for model_stats: the server's own
// counts and times, and the part of the prompt it had to evaluate — what
// follows the longest prefix shared with the previous request to the same
// model, which the server still holds (Ollama reuses it; its
// prompt_eval_count counts it all the same).
func (a *Asker) round(stage string, req engine.ChatRequest, resp *engine.ChatResponse) *engine.ModelRound {
	model, msgs := req.Model, req.Messages
	var b strings.Builder
	for _, m := range msgs {
		b.WriteString(m.Role)
		b.WriteByte(0)
		b.WriteString(m.Content)
		b.WriteByte(0)
	}
	text := b.String()
	a.mu.Lock()
	prev := ""
	if a.lastModel == model {
		prev = a.lastPrompt
	}
	a.lastModel, a.lastPrompt = model, text
	a.mu.Unlock()
	if resp == nil {
		return nil
	}
	shared := 0
	for shared < len(text) && shared < len(prev) && text[shared] == prev[shared] {
		shared++
	}
	evaluated := resp.PromptTokens
	if len(text) > 0 && shared > 0 {
		evaluated = max(1, int(float64(resp.PromptTokens)*float64(len(text)-shared)/float64(len(text))+0.5))
	}
	sent := sentTokens(msgs)
	return &engine.ModelRound{Stage: stage, PromptTokens: resp.PromptTokens, PromptTokensEvaluated: evaluated,
		GeneratedTokens: resp.OutputTokens, LoadS: engine.Seconds(resp.Load), FirstTokenS: engine.Seconds(resp.FirstToken),
		TotalS: engine.Seconds(resp.Duration), PromptEvalS: engine.Seconds(resp.PromptEval),
		PromptTokensSent: sent, PromptCut: promptCut(sent, resp.PromptTokens, req.NumCtx), ThinkingTokens: resp.ThinkingTokens}
}

// contextWindow is the num_ctx of every request of this Asker: chosen on the
// first request from the prompt's real size (and, on a pruned schema, the
// largest the schema part can be) plus room for the conversation, three
// repairs and the answer, in steps of 2,048 tokens; kept after, so that the
// model is loaded once for the session. Only a prompt that would not fit
// any more (a long conversation) makes it grow, which reloads the model.
func (a *Asker) contextWindow(msgs []engine.Message, opts Options) int {
	need := opts.NumPredict + 256 + a.thinkBudget(opts)
	for _, m := range msgs {
		need += schemactx.EstimateTokens(m.Content) + 8
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.ContextWindow > 0 {
		return a.ContextWindow
	}
	if a.numCtx == 0 || need > a.numCtx {
		room := need + 3*700 + 1024 // three repairs (an answer and its error each), the conversation growing
		if len(msgs) > 0 && !strings.Contains(msgs[0].Content, "\nCREATE TABLE") {
			room += opts.SchemaBudget // pruned: the question's tables come in its own message
		}
		a.numCtx = min(max((room+2047)/2048*2048, 4096), 32768)
	}
	if a.info != nil {
		return capWindow(a.numCtx, a.info.ContextLength)
	}
	return a.numCtx
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

// prompt builds the messages of a question: the system prompt about the
// database (the same for every question on it), the session's previous
// turns, and the question's own message — its pruned tables, the stored
// values it mentions, the glossary's entries the question uses, the
// verified answers to like questions, the question last. It also returns
// the tables and the verified examples the prompt shows.
func (a *Asker) prompt(ctx context.Context, question string, session *engine.Session, used []glossary.Entry, opts Options) (built, error) {
	s, err := a.DB.Schema(ctx)
	if err != nil {
		return built{shown: []string{}, examples: []engine.ExampleUsed{}}, err
	}
	s = a.marks().MaskSchema(a.withJoins(ctx, s))
	// Follow-ups ("and in 2012?") need the earlier questions to find tables.
	pruneQuery := question
	var turns []engine.Turn
	if session != nil && !opts.lean {
		turns = session.Turns
		if len(turns) > contextTurns {
			turns = turns[len(turns)-contextTurns:]
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
	var hints []valuehints.Hint
	if vi := a.valueIndex(ctx, true); vi != nil {
		hints = vi.Hints(question, 8)
		if opts.lean && len(hints) > 3 {
			hints = hints[:3]
		}
		for _, h := range hints {
			pruneQuery += " " + h.Table
		}
	}
	// So do the glossary's entries the question uses (their SQL's tables).
	for _, e := range used {
		pruneQuery += " " + strings.Join(e.Tables, " ")
	}
	sc := schemactx.PruneSchemaAs(ctx, s, pruneQuery, opts.SchemaBudget, rerank, opts.SchemaForm)
	total := 0
	for _, t := range s.Tables {
		if !t.Internal {
			total++
		}
	}
	sp := SystemPrompt{Dialect: a.DB.Dialect(), Database: displayName(s.Database), TotalTables: total, Pruned: sc.Pruned, Today: opts.Today.Format("2006-01-02"), Form: opts.SchemaForm}
	qp := QuestionPrompt{Question: question, TotalTables: total}
	if sc.Pruned {
		qp.Schema, qp.Tables = sc.Text, sc.Tables
	} else {
		sp.Schema = sc.Text
	}
	for _, h := range hints {
		qp.Hints = append(qp.Hints, h.String())
	}
	qp.Glossary = glossaryLines(used)
	if !opts.lean {
		qp.Examples = a.maskExamples(ctx, a.examples(ctx, question))
	}
	msgs := []engine.Message{{Role: "system", Content: sp.Render()}}
	for _, t := range turns {
		prev, _ := json.Marshal(map[string]any{"sql": t.SQL, "clarification_question": "", "unanswerable_reason": ""})
		msgs = append(msgs, engine.Message{Role: "user", Content: t.Question}, engine.Message{Role: "assistant", Content: string(prev)})
		qp.Earlier = append(qp.Earlier, fmt.Sprintf("%q returned %d rows with the columns %s", t.Question, t.RowCount, strings.Join(t.Columns, ", ")))
	}
	msgs = append(msgs, engine.Message{Role: "user", Content: qp.Render()})
	shown := make([]string, len(sc.Tables))
	for i, t := range sc.Tables {
		shown[i] = t.Name
	}
	return built{msgs: msgs, shown: shown, examples: examplesUsed(qp.Examples), schemaTokens: sc.Tokens, schemaText: sc.Text, hints: qp.Hints}, nil
}

// displayName shortens a database path to its file name for the prompt.
func displayName(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		return name[i+1:]
	}
	return name
}

// record writes the question to the history (if any), with the question it
// followed up (follows); a failure to record never fails the answer, but
// becomes a warning.
func (a *Asker) record(ctx context.Context, question, follows string, ans *engine.Answer, err error, d time.Duration, opts Options) {
	if a.History == nil {
		return
	}
	e := engine.HistoryEntry{Time: time.Now(), Database: a.DB.Name(), Question: question, SQL: ans.Query, Status: "ok",
		RowCount: ans.RowCount, DurationS: engine.Seconds(d), Model: a.ModelName, Client: opts.Client, Attempts: ans.Attempts,
		TimeToRowsS: ans.TimeToRowsS, FollowsUp: follows}
	if len(ans.Attempts) > 0 || ans.ModelStats != nil {
		stats := &engine.ModelStats{}
		if ans.ModelStats != nil {
			stats.Rounds = ans.ModelStats.Rounds
		}
		e.ModelStats = stats
	}
	if err != nil {
		e.Status = engine.ErrorCode(err)
	}
	id := engine.IdentityOf(ctx, a.DB)
	e.DatabaseSHA256, e.SchemaSHA256 = id.SHA256, id.SchemaSHA256
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if rerr := a.History.Record(rctx, e); rerr != nil {
		ans.Warnings = append(ans.Warnings, "the question was not saved in the history: "+engine.AsError(rerr).Message)
	}
}
