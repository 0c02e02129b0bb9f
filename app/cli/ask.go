package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"querent/engine"
	"querent/engine/ask"
	"querent/engine/describe"
	"querent/engine/files"
	"querent/engine/sensitive"
)

// ModelFactory connects to the model server at host ("" → $OLLAMA_HOST or
// the default), with a deadline for each model request.
type ModelFactory func(host string, requestTimeout time.Duration) (engine.Model, error)

const askUsage = `Usage: querent ask [--db FILE|URL] [--model NAME] [--ollama HOST|--llm-url URL] [--session FILE] [--max-rows N]
                   [--timeout DUR] [--model-timeout DUR] [--no-explain] [--no-vote] [--follow-up auto|yes|no] [--think] [--verbose]
                   [--prompt-family querent|omnisql|sqlcoder] [--format text|json] [--] QUESTION
       querent ask --input REQUEST.json|-
       querent ask --list-models [--ollama HOST] [--format text|json]

Asks a question in plain language. A local Ollama model writes the SQL;
SQLite's own compiler checks it and it runs read-only, with a timeout and a
row cap (on PostgreSQL: PostgreSQL's own parser, then a read-only
transaction); if it fails, the model gets the exact error and repairs it (at most
3 times). The rows come as soon as the SQL is written; then the model
explains them and proposes follow-up questions (--no-explain skips that
second request). Every answer says how sure it is (high, medium or low, from
Querent's own signals); when in doubt, up to 4 more readings of the question
are drawn after the rows and the majority's result is the answer, the others
listed (--no-vote turns that off). A question that is itself SQL runs as SQL,
without the model. Without --db, the bundled Chinook demo database is used.
--llm-url URL (or $OPENAI_BASE_URL) asks an OpenAI-compatible server instead
of Ollama: LM Studio, llama.cpp's llama-server, vLLM, Jan (its key, if it
wants one, in $OPENAI_API_KEY).

The prompt is fitted to the model's context window (read from Ollama): on a
small window fewer tables are shown; when even the question's own tables do
not fit, the answer says so. A thinking model (qwen3, deepseek-r1) is told
not to think unless --think is given; --verbose shows its thinking on
standard error. --list-models lists the installed models with their
windows, capabilities, sizes and whether they fit this machine's memory.

  querent ask "Which artist has the most albums?"
  querent ask --session s.json "Top 5 countries by sales"
  querent ask --session s.json "and only for 2012?"

With --session, a question is read with the conversation's earlier ones only
when it reads as a follow-up ("and only for 2012?", "which of those…", "by
month"); any other question starts the conversation anew. --follow-up yes
(or the request's "follow_up": true) always reads it so, --follow-up no never.

--input reads a JSON request (the sub-agent contract) and always answers with
the JSON document: {"question": "...", "connection": {"db_type": "sqlite",
"host": "FILE"}, "max_rows": 1000, "timeout_s": 30, "session_context": {...},
"explain_results": true, "vote": true, "think": false, "model": "..."}. A PostgreSQL connection is
{"db_type": "postgresql", "host": "...", "port": 5432, "database": "...",
"username": "...", "password": "...", "ssl": true}; a field left out comes
from PGHOST, PGUSER, ~/.pgpass and the other PG* variables. A superuser is
refused unless the request says "allow_superuser": true (or the command line
--allow-superuser).
`

// askRequest is the sub-agent input schema of --input.
type askRequest struct {
	Question   string            `json:"question"`
	Connection engine.Connection `json:"connection"`
	ReadOnly   *bool             `json:"read_only"`
	// AllowSuperuser lets the request's PostgreSQL connection be a
	// superuser's (with a warning), as --allow-superuser does; by default
	// one is refused.
	AllowSuperuser bool `json:"allow_superuser"`
	// MaxRows and TimeoutS are kept as written and read by requestBounds:
	// decoded into numbers, a value such as 1e300 or 2^63-1 would be
	// refused by the decoder or overflow instead of being clamped.
	MaxRows        json.RawMessage `json:"max_rows"`
	TimeoutS       json.RawMessage `json:"timeout_s"`
	SessionContext map[string]any  `json:"session_context"`
	ExplainResults *bool           `json:"explain_results"`
	// Vote false draws no other readings of a doubtful answer (--no-vote).
	Vote  *bool  `json:"vote"`
	Model string `json:"model"`
	// Think true lets a thinking model think before it writes the SQL
	// (--think); by default it is told not to.
	Think bool `json:"think"`
	// FollowUp says whether the question follows up on session_context's
	// earlier questions: true always, false never, absent when it reads as
	// one ("and for 2012?", "those…"), as --follow-up does.
	FollowUp *bool `json:"follow_up"`
}

func (c *CLI) runAsk(ctx context.Context, args []string, s *stdio) int {
	fs := newFlags("ask", askUsage)
	dbf := addDBFlags(fs, "to ask", " (default: the bundled Chinook demo)")
	model := fs.String("model", "", "the Ollama model to use (default: the best SQL model installed)")
	host := fs.String("ollama", "", "Ollama's address (default: $OLLAMA_HOST, else 127.0.0.1:11434)")
	llmURL := addLLMURLFlag(fs)
	sessionPath := fs.String("session", "", "a file that keeps the conversation, so follow-up questions work")
	maxRows := fs.Int64("max-rows", engine.DefaultMaxRows, "the most rows to return (at most 1,000,000)")
	timeout := engine.DefaultTimeout
	fs.Var(durationFlag{&timeout}, "timeout", "the longest each query may run (default 30s, at most 10m)")
	modelTimeout := ask.RequestTimeout
	fs.Var(durationFlag{&modelTimeout}, "model-timeout", "the longest each model request may take (default 2m)")
	format := "text"
	fs.Var(enumFlag{&format, []string{"text", "json"}}, "format", "output: text (for people) or json")
	input := fs.String("input", "", "a JSON request file (the sub-agent contract), or - for standard input")
	pull := fs.Bool("pull", false, "download the model first when it is not installed (with progress)")
	noExplain := fs.Bool("no-explain", false, "show the rows without asking the model to explain them (saves the second model request)")
	noVote := fs.Bool("no-vote", false, "draw no other readings of a doubtful answer (saves up to 4 model requests)")
	followUp := ask.FollowUpAuto
	fs.Var(enumFlag{&followUp, []string{ask.FollowUpAuto, ask.FollowUpYes, ask.FollowUpNo}}, "follow-up",
		"read the question with the --session's earlier ones: auto (when it reads as a follow-up: \"and for 2012?\"), yes or no")
	think := fs.Bool("think", false, "let a thinking model (qwen3, deepseek-r1…) think before it writes the SQL (default: it is told not to)")
	verbose := fs.Bool("verbose", false, "show a thinking model's thinking on standard error")
	family := fs.String("prompt-family", "", "the SQL prompt: querent, omnisql or sqlcoder (default: from the model's name; SQL specialists get their own)")
	listModels := fs.Bool("list-models", false, "list the installed models with their context windows, capabilities and sizes, and stop")
	if ok, code := parseFlags(fs, args, s, askUsage); !ok {
		return code
	}
	if *listModels {
		if fs.NArg() > 0 || *input != "" {
			return c.fail(s, "ask", format, "", engine.Errorf(engine.CodeUsage, "--list-models takes no question"))
		}
		return c.listModels(ctx, s, *host, modelTimeout, format)
	}
	if err := ask.CheckFamily(*family); err != nil {
		return c.fail(s, "ask", format, "", err)
	}
	var session *engine.Session
	if *input != "" {
		format = "json"
		req, err := readAskRequest(*input, s)
		if err != nil {
			return c.fail(s, "ask", format, "", err)
		}
		if fs.NArg() > 0 {
			return c.fail(s, "ask", format, "", engine.Errorf(engine.CodeUsage, "--input takes the question from the request, not from the command line"))
		}
		*model = firstNonEmpty(req.Model, *model)
		conn := req.Connection
		rows, timeout, bounds, err := requestBounds(req, *maxRows, timeout)
		if err != nil {
			return c.fail(s, "ask", format, "", err)
		}
		session = engine.SessionFromContext(req.SessionContext)
		dbf.allowSuperuser = dbf.allowSuperuser || req.AllowSuperuser
		return c.ask(ctx, s, askParams{db: dbf, conn: &conn, question: req.Question, model: *model, host: *host, llmURL: *llmURL, maxRows: rows,
			timeout: timeout, modelTimeout: modelTimeout, format: format, session: session,
			explain: req.ExplainResults == nil || *req.ExplainResults, vote: !*noVote && (req.Vote == nil || *req.Vote), pull: *pull, warnings: bounds,
			think: *think || req.Think, verbose: *verbose, family: *family, followUp: ask.FollowUpOf(req.FollowUp, followUp), agent: true})
	}
	question, err := readText(fs.Args(), s, "question")
	if err != nil {
		return c.fail(s, "ask", format, "", err)
	}
	rows, timeout, bounds, err := queryBounds(*maxRows, timeout)
	if err != nil {
		return c.fail(s, "ask", format, "", err)
	}
	if *sessionPath != "" {
		session, err = loadSession(*sessionPath)
		if err != nil {
			return c.fail(s, "ask", format, question, err)
		}
	}
	code := c.ask(ctx, s, askParams{db: dbf, question: question, model: *model, host: *host, llmURL: *llmURL, maxRows: rows,
		timeout: timeout, modelTimeout: modelTimeout, format: format, session: session, explain: !*noExplain, vote: !*noVote, pull: *pull, warnings: bounds,
		think: *think, verbose: *verbose, family: *family, followUp: followUp})
	if *sessionPath != "" && session != nil {
		if err := saveSession(*sessionPath, session); err != nil {
			printError(s.err, "ask", err)
			if code == 0 {
				code = 2
			}
		}
	}
	return code
}

type askParams struct {
	db *dbFlags
	// conn is the request's connection (--input); nil: db.target.
	conn                  *engine.Connection
	question, model, host string
	// llmURL is --llm-url: an OpenAI-compatible server instead of Ollama.
	llmURL                string
	maxRows               int
	timeout, modelTimeout time.Duration
	format                string
	session               *engine.Session
	explain, pull, vote   bool
	// think lets a thinking model think (--think, the request's think);
	// verbose shows its thinking on standard error.
	think, verbose bool
	// family is the SQL prompt's family (--prompt-family; "": the model's).
	family string
	// followUp is --follow-up (the request's follow_up): ask.FollowUp*.
	followUp string
	// warnings go into the answer: the values the ceilings lowered.
	warnings []string
	// agent is set for a request of the sub-agent contract (--input): the
	// marked columns read as NULL in its SQL and its answer is masked.
	agent bool
}

// requestBounds reads the request's max_rows and timeout_s (absent, null
// or 0: the flags' values, the defaults unless given) and applies the
// ceilings: too large is lowered with a warning; negative, fractional
// (rows), non-finite or non-numeric values are usage errors.
func requestBounds(req *askRequest, maxRows int64, timeout time.Duration) (int, time.Duration, []string, error) {
	rowsName := fmt.Sprintf("--max-rows %d", maxRows)
	v, literal, ok, err := requestNumber(req.MaxRows, "max_rows")
	switch {
	case err != nil:
		return 0, 0, nil, err
	case ok && (v < 0 || v != math.Trunc(v)):
		return 0, 0, nil, engine.Errorf(engine.CodeUsage, "max_rows %s is not a whole number of rows of at least 1", literal).WithHint(
			`set "max_rows" to a number such as 1000, or leave it out for the default`)
	case ok && v > engine.MaxRowsInMemory:
		// Compared as a float: 1e300 has no int64; ClampRows lowers it.
		rowsName, maxRows = "max_rows "+literal, engine.MaxRowsInMemory+1
	case ok && v > 0:
		rowsName, maxRows = "max_rows "+literal, int64(v)
	}
	if maxRows < 1 {
		return 0, 0, nil, engine.Errorf(engine.CodeUsage, "--max-rows must be at least 1 (got %d)", maxRows)
	}
	var warnings []string
	rows, w := engine.ClampRows(rowsName, maxRows)
	if w != "" {
		warnings = append(warnings, w)
	}
	v, literal, ok, err = requestNumber(req.TimeoutS, "timeout_s")
	switch {
	case err != nil:
		return 0, 0, nil, err
	case ok && v != 0:
		d, w, err := engine.DurationFromSeconds("timeout_s "+literal, v, engine.MaxTimeout, false)
		if err != nil {
			return 0, 0, nil, engine.AsError(err).WithHint(`set "timeout_s" to a number of seconds such as 30, or leave it out for the default`)
		}
		timeout = d
		if w != "" {
			warnings = append(warnings, w)
		}
	default:
		timeout, w = engine.ClampTimeout("--timeout", timeout, engine.MaxTimeout)
		if w != "" {
			warnings = append(warnings, w)
		}
	}
	return rows, timeout, warnings, nil
}

// requestNumber reads a numeric field of the request as written: ok is
// false when it is absent or null; text, true/false and other values are
// usage errors. A number beyond float64 (1e400) reads as ±Inf.
func requestNumber(raw json.RawMessage, name string) (v float64, literal string, ok bool, err error) {
	literal = strings.TrimSpace(string(raw))
	if literal == "" || literal == "null" {
		return 0, "", false, nil
	}
	v, perr := strconv.ParseFloat(literal, 64)
	if perr != nil && !errors.Is(perr, strconv.ErrRange) {
		return 0, "", false, engine.Errorf(engine.CodeUsage, "%s must be a number, not %s", name, oneLine(literal, 40)).WithHint(
			`write it as a JSON number, without quotes`)
	}
	if math.IsInf(v, 0) {
		return 0, "", false, engine.Errorf(engine.CodeUsage, "%s %s is not a finite number", name, literal).WithHint(
			`write it as a JSON number such as 1000`)
	}
	return v, literal, true, nil
}

func readAskRequest(path string, s *stdio) (*askRequest, error) {
	var r io.Reader = s.in
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, engine.Errorf(engine.CodeUsage, "cannot read the request %s: %v", path, err).WithErr(err)
		}
		defer f.Close()
		r = f
	}
	var req askRequest
	dec := json.NewDecoder(io.LimitReader(r, 16<<20))
	if err := dec.Decode(&req); err != nil {
		return nil, engine.Errorf(engine.CodeUsage, "the request is not valid JSON: %v", err).WithErr(err).WithHint(
			`send {"question": "...", "connection": {"db_type": "sqlite", "host": "file.sqlite"}}`)
	}
	switch {
	case strings.TrimSpace(req.Question) == "":
		return nil, engine.Errorf(engine.CodeUsage, "the request has no question").WithHint(`set "question"`)
	case req.Connection.DBType != "" && !strings.EqualFold(req.Connection.DBType, "sqlite") && !req.Connection.IsPostgres():
		return nil, engine.Errorf(engine.CodeUsage, "db_type %q is not supported", req.Connection.DBType).WithHint(
			`Querent reads SQLite files ("db_type": "sqlite", "host": FILE) and PostgreSQL databases ("db_type": "postgresql", "host", "port", "database", "username", "password", "ssl")`)
	case req.ReadOnly != nil && !*req.ReadOnly:
		return nil, engine.Errorf(engine.CodeUsage, "read_only cannot be switched off").WithHint("Querent only ever reads; remove read_only or set it to true")
	}
	return &req, nil
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// openAsked opens the database of a question: the request's connection
// (--input), else --db.
func (c *CLI) openAsked(ctx context.Context, p askParams) (engine.Database, error) {
	if p.conn == nil {
		return c.open(ctx, p.db)
	}
	if p.conn.IsPostgres() {
		if c.Connect == nil {
			return nil, engine.Errorf(engine.CodeInternal, "this build cannot connect to PostgreSQL")
		}
		return c.Connect(ctx, *p.conn, p.db.options())
	}
	return c.Open(ctx, p.conn.Host, p.db.options())
}

// ask answers one question: as SQL when it is SQL, else through the model.
func (c *CLI) ask(ctx context.Context, s *stdio, p askParams) int {
	db, err := c.openAsked(ctx, p)
	if err != nil {
		return c.finishAsk(s, p, askAnswer(p, err), err)
	}
	defer db.Close()
	if p.session != nil && p.session.Database != db.Name() {
		if len(p.session.Turns) > 0 {
			fmt.Fprintf(s.err, "warning: the session was about %s; it starts anew for %s\n", p.session.Database, db.Name())
		}
		*p.session = engine.Session{Database: db.Name()}
	}
	if ask.IsSQL(ctx, db, p.question) {
		return c.askSQL(ctx, s, db, p)
	}
	connect, err := c.connector(p.host, p.llmURL)
	if err != nil {
		return c.finishAsk(s, p, askAnswer(p, err), err)
	}
	srv, err := ask.Connect(ctx, connect, p.host, p.modelTimeout)
	if err != nil {
		return c.finishAsk(s, p, askAnswer(p, err), err)
	}
	name, err := srv.Pick(p.model)
	if err != nil && p.pull && engine.ErrorCode(err) == engine.CodeModelMissing {
		name = p.model
		if name == "" {
			name = ask.DefaultPullModel
		}
		if err = pullModel(ctx, s, srv.Model, name); err == nil {
			if err = srv.Refresh(ctx); err == nil {
				name, err = srv.Pick(name)
			}
		}
	}
	if err != nil {
		return c.finishAsk(s, p, askAnswer(p, err), err)
	}
	asker := srv.Asker(db, name, nil)
	if j := c.joins(); j != nil {
		asker.Joins = j
	}
	var warnings []string
	if c.History != nil {
		h, closeH, herr := c.History(ctx)
		if herr != nil {
			warnings = append(warnings, "the history is not available, so this question is not recorded: "+engine.AsError(herr).Message)
		} else {
			defer closeH()
			asker.History = h
		}
	}
	if g, closeG, gwarn := c.openGlossary(ctx); g != nil {
		defer closeG()
		asker.Glossary = g
	} else if gwarn != "" {
		warnings = append(warnings, gwarn)
	}
	opts := ask.Options{MaxRows: p.maxRows, Timeout: p.timeout, Client: "cli", NoExplain: !p.explain, NoVote: !p.vote, Think: p.think, PromptFamily: p.family, FollowUp: p.followUp, ForAgent: p.agent}
	line := newProgress(s.err, p.format, "Ctrl-C cancels")
	if p.verbose {
		// The thinking goes to standard error as it comes: the progress
		// line would overwrite it, so there is none.
		line = nil
		var endThinking func()
		opts.OnThinking, endThinking = thinkingPrinter(s)
		defer endThinking()
	}
	if line != nil {
		opts.Progress = func(pr ask.Progress) { line.set(askStage(name, pr), pr.Tokens == 0) }
	}
	ans, err := asker.Ask(ctx, p.question, p.session, opts)
	line.clear()
	ans.Warnings = append(ans.Warnings, warnings...)
	return c.finishAsk(s, p, ans, err)
}

// askAnswer is the answer document of a question that failed before the loop.
func askAnswer(p askParams, err error) *engine.Answer {
	ans := engine.NewAnswer("")
	q := p.question
	ans.Question = &q
	if p.session != nil {
		ans.SessionContext = p.session.Context()
	}
	ans.AddError(err)
	return ans
}

// askSQL runs a question that is SQL, like querent sql, in the ask document.
func (c *CLI) askSQL(ctx context.Context, s *stdio, db engine.Database, p askParams) int {
	ans := engine.NewAnswer(p.question)
	q := p.question
	ans.Question = &q
	ans.Warnings = append(ans.Warnings, db.Warnings()...)
	var hide []string
	if p.agent {
		hide = sensitive.Of(db).Columns()
	}
	res, err := db.Run(ctx, p.question, engine.RunOptions{MaxRows: p.maxRows, Timeout: p.timeout, Hide: hide})
	if err != nil {
		e := engine.AsError(err)
		ans.Attempts = append(ans.Attempts, engine.Attempt{SQL: p.question, Error: &engine.AttemptError{Type: e.Code, Message: e.Message}})
		ans.AddError(err)
	} else {
		describe.SetResult(ans, res)
		ans.Attempts = append(ans.Attempts, engine.Attempt{SQL: p.question})
		if hints, herr := db.Explain(ctx, p.question); herr == nil && len(hints) > 0 {
			ans.OptimizationHints = hints
		}
		if p.session != nil {
			cols := make([]string, len(res.Columns))
			for i, col := range res.Columns {
				cols[i] = col.Name
			}
			p.session.Add(engine.Turn{Question: p.question, SQL: p.question, Columns: cols, RowCount: len(res.Rows), Time: time.Now().UTC()})
		}
	}
	if p.session != nil {
		ans.SessionContext = p.session.Context()
	}
	if c.History != nil {
		if h, closeH, herr := c.History(ctx); herr == nil {
			e := engine.HistoryEntry{Time: time.Now(), Database: db.Name(), Question: "", SQL: p.question, Status: "ok",
				RowCount: ans.RowCount, DurationS: ans.ExecutionTimeS, Client: "cli"}
			if err != nil {
				e.Status = engine.ErrorCode(err)
			}
			if f, ok := db.(engine.Fingerprinter); ok {
				e.DatabaseSHA256, _ = f.SHA256(ctx)
			}
			_ = h.Record(ctx, e)
			closeH()
		}
	}
	return c.finishAsk(s, p, ans, err)
}

// finishAsk prints the answer of a question.
func (c *CLI) finishAsk(s *stdio, p askParams, ans *engine.Answer, err error) int {
	code := engine.ExitCode(engine.ErrorCode(err))
	if len(p.warnings) > 0 {
		ans.Warnings = append(append([]string{}, p.warnings...), ans.Warnings...)
	}
	if p.agent {
		ans = sensitive.Masked(ans)
	}
	if p.format == "json" {
		if werr := writeJSON(s.out, ans); werr != nil {
			fmt.Fprintf(s.err, "querent ask: cannot write the output: %v\n", werr)
			return 2
		}
		return code
	}
	printWarnings(s.err, ans.Warnings)
	model := "SQL"
	if ans.Model != nil {
		model = "SQL by " + *ans.Model
	}
	for i, a := range ans.Attempts {
		if a.Error == nil || i == len(ans.Attempts)-1 && err == nil {
			continue
		}
		if a.SQL != "" {
			fmt.Fprintf(s.err, "attempt %d: %s\n  → %s: %s\n", i+1, oneLine(a.SQL, 200), a.Error.Type, a.Error.Message)
		} else {
			fmt.Fprintf(s.err, "attempt %d: %s: %s\n", i+1, a.Error.Type, a.Error.Message)
		}
	}
	if err != nil {
		e := engine.AsError(err)
		switch e.Code {
		case engine.CodeClarification:
			fmt.Fprintf(s.out, "The question needs a detail first: %s\n", e.Message)
			fmt.Fprintf(s.err, "  hint: %s\n", e.Hint)
		case engine.CodeUnanswerable:
			fmt.Fprintf(s.out, "This database cannot answer that: %s\n", e.Message)
			fmt.Fprintf(s.err, "  hint: %s\n", e.Hint)
		default:
			printError(s.err, "ask", err)
		}
		return code
	}
	attempts := ""
	if n := len(ans.Attempts); n > 1 {
		attempts = fmt.Sprintf(", after %d attempts", n)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s%s:\n", model, attempts)
	for _, l := range strings.Split(strings.TrimSpace(ans.Query), "\n") {
		fmt.Fprintf(&b, "  %s\n", l)
	}
	b.WriteString("\n")
	if _, werr := io.WriteString(s.out, b.String()); werr != nil {
		return 2
	}
	if werr := writeTable(s.out, ans.Columns, ans.Results.Values, tableOptions{maxWidth: 40}); werr != nil {
		return 2
	}
	writeFooter(s.out, ans)
	noteSensitive(s, ans)
	writeConfidence(s.out, ans.Confidence)
	if ans.Explanation != "" {
		fmt.Fprintf(s.out, "\n%s\n", ans.Explanation)
	}
	if len(ans.FollowUpQuestions) > 0 {
		fmt.Fprintf(s.out, "\nYou could ask next:\n")
		for _, q := range ans.FollowUpQuestions {
			fmt.Fprintf(s.out, "  - %s\n", q)
		}
	}
	for _, h := range ans.OptimizationHints {
		fmt.Fprintf(s.err, "hint: %s\n", h)
	}
	return code
}

// askStage says in words where the ask loop is.
func askStage(model string, pr ask.Progress) string {
	msg := pr.Stage
	switch pr.Stage {
	case "thinking":
		msg = fmt.Sprintf("%s is thinking", model)
	case "writing SQL":
		msg = fmt.Sprintf("%s is writing the SQL", model)
	case "repairing":
		msg = fmt.Sprintf("%s is repairing the SQL (%d of %d)", model, pr.Attempt-1, pr.Attempts-1)
	case "checking":
		msg = "checking the query"
	case "running":
		msg = "running the query"
	case "checking values":
		msg = "no rows: checking the values the query compares with"
	case "voting":
		msg = fmt.Sprintf("the answer is doubtful: %s is drawing another reading (%d of at most %d)", model, pr.Vote, pr.Votes)
	case "preparing":
		msg = "reading the schema"
	case "done":
		return ""
	}
	if pr.Tokens > 0 {
		msg += fmt.Sprintf(" (%d tokens)", pr.Tokens)
	}
	return msg + "…"
}

// loadSession reads a session file; a missing file is a new session.
func loadSession(path string) (*engine.Session, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return &engine.Session{}, nil
	}
	if err != nil {
		return nil, engine.Errorf(engine.CodeUsage, "cannot read the session %s: %v", path, err).WithErr(err)
	}
	var s engine.Session
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, engine.Errorf(engine.CodeUsage, "the session file %s is not a Querent session: %v", path, err).WithErr(err).WithHint(
			"use another file name, or delete it to start a new conversation")
	}
	return &s, nil
}

// saveSession writes a session file atomically.
func saveSession(path string, s *engine.Session) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	if err := files.WriteFileAtomic(path, append(b, '\n'), 0o644); err != nil {
		return engine.Errorf(engine.CodeUsage, "cannot write the session %s: %v", path, err).WithErr(err)
	}
	return nil
}

// pullModel downloads a model, showing its progress on standard error.
func pullModel(ctx context.Context, s *stdio, m engine.Model, name string) error {
	fmt.Fprintf(s.err, "downloading %s from the Ollama library (Ctrl-C cancels)…\n", name)
	line := newProgress(s.err, "text", "Ctrl-C cancels")
	err := m.Pull(ctx, name, func(p engine.PullProgress) {
		if p.Total > 0 {
			line.bar(p.Status, float64(p.Completed)/float64(p.Total), "of "+engine.FormatSize(p.Total))
		}
	})
	line.clear()
	if err == nil {
		fmt.Fprintf(s.err, "%s is installed.\n", name)
	}
	return err
}
