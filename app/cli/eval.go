package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"querent/engine"
	"querent/engine/ask"
	"querent/engine/eval"
	"querent/engine/verified"
)

const evalUsage = `Usage: querent eval --db FILE --gold GOLD.toml|chinook|verified
                    (--model NAME... [--k N] [--compare VARIANT,...] | --predictions FILE | --regrade RECORDS.jsonl)
                    [--lenient] [--out DIR] [--format text|json]
                    [--ollama HOST] [--model-timeout DUR] [--timeout DUR]
       querent eval init --db FILE --out GOLD.toml [--model NAME] [--n 30] [--force]

Measures how well a model answers questions about a database: every question
of a gold set is asked through the same loop as querent ask (the guard, the
repairs, the sessions of follow-up questions), and each answer's result is
compared with the gold query's result: the Spider test-suite execution match
(same rows and columns, columns in any order, rows as a multiset unless the
gold query orders them; 1 = 1.0). A question the schema cannot answer is
right when the model declines it. The built-in gold set "chinook" covers the
bundled demo database (then --db may be left out). --gold verified is the
database's own gold set: the answers the analyst approved or corrected
(querent history approve|correct), each scored against what its SQL
returns on the database now.

  querent eval --gold chinook --model qwen2.5-coder:7b --out runs/qwen7b
  querent eval --gold chinook --model qwen2.5-coder:7b --model llama3.1:8b --k 3
  querent eval --db shop.sqlite --gold shop.toml --predictions predictions.jsonl
  querent eval --gold chinook --regrade runs/qwen7b/records.jsonl --lenient

--model may be repeated (or list names separated by commas): each model gets
its own report. --k asks each question k times (pass@k, pass^k).
--predictions scores ready-made SQL: JSONL lines {"id": "...", "sql": "..."},
or plain text with one SQL a line in the gold set's order (a blank line is a
missing prediction; "-- unanswerable: REASON" declines). --regrade scores the
records.jsonl of an earlier --out again, under today's gold set and flags.
--lenient also lets text "10" equal the number 10 and floats match to 1e-6
relative. --out DIR writes records.jsonl, report.json and report.md. A run
with wrong answers still exits 0; --format json prints the report.

--compare runs the same gold set once per prompt variant and prints one
table: execution accuracy, abstention, model rounds, tokens and time per
variant (--format json: the table as JSON; --out DIR: compare.json and each
variant's report in DIR/VARIANT). Variants are separated by commas, each
made of settings joined by +: ddl or mschema (the schema as DDL, or in a
compact M-Schema-like form: type, keys and example values per column),
glossary or no-glossary (the glossary's entries the question uses),
examples or no-examples (the analyst's verified answers to like questions;
never the answer to the question asked), vote or no-vote (other readings
of a doubtful answer). A setting not given is off, and the schema DDL: the
plain eval's prompt; "ask" is what querent ask does (ddl+glossary+examples
+vote) and the settings after it change it.

  querent eval --gold chinook --model qwen2.5-coder:7b --compare ddl,mschema,ask,ask+mschema

querent eval init drafts a gold set from your own database: the model writes
questions with their SQL, and only the queries that run and return rows are
kept. Review every item before trusting a score.
`

// stringList is a repeatable flag; a value may also list names separated
// by commas.
type stringList []string

func (l *stringList) String() string { return strings.Join(*l, ",") }

func (l *stringList) Set(s string) error {
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			*l = append(*l, x)
		}
	}
	return nil
}

func (c *CLI) runEval(ctx context.Context, args []string, s *stdio) int {
	if len(args) > 0 && args[0] == "init" {
		return c.runEvalInit(ctx, args[1:], s)
	}
	a, ok, code := parseEvalArgs(args, s)
	if !ok {
		return code
	}
	if err := a.check(); err != nil {
		return a.fail(s, err)
	}
	db, gold, err := c.verifiedGold(ctx, a)
	if err != nil {
		return a.fail(s, err)
	}
	if db != nil {
		defer db.Close()
	}
	opts, err := a.options(gold)
	if err != nil {
		return a.fail(s, err)
	}
	if db == nil {
		if db, err = c.open(ctx, a.db); err != nil {
			return a.fail(s, err)
		}
		defer db.Close()
	}
	opts.DB = db
	// A built-in set's queries in the database's dialect (same items).
	if opts.Gold, err = opts.Gold.ForDialect(db.Dialect()); err != nil {
		return a.fail(s, err)
	}
	if a.format == "text" {
		printWarnings(s.err, db.Warnings())
	}
	if len(a.models) > 0 {
		if err := c.evalModels(ctx, a, &opts); err != nil {
			return a.fail(s, err)
		}
		if len(a.variants) > 0 {
			return c.runCompare(ctx, a, opts, s)
		}
	}
	line := newProgress(s.err, a.format, "Ctrl-C stops")
	if line != nil {
		opts.Progress = func(pr eval.Progress) {
			if pr.Record == nil {
				line.set(evalStage(pr), false)
			}
		}
	}
	rep, err := eval.Run(ctx, opts)
	line.clear()
	if rep == nil {
		return a.fail(s, err)
	}
	return a.report(s, rep, err)
}

// evalArgs are querent eval's flags.
type evalArgs struct {
	db                                    *dbFlags
	gold, predictions, regrade, out, host string
	llmURL                                string
	models                                stringList
	k                                     int
	compare                               string
	variants                              []eval.Variant
	lenient                               bool
	format                                string
	modelTimeout, timeout                 time.Duration
	extra                                 []string // positional arguments (none is valid)
}

// parseEvalArgs reads querent eval's flags; ok is false when the command
// is done (help, or a usage error, with its exit status).
func parseEvalArgs(args []string, s *stdio) (*evalArgs, bool, int) {
	a := &evalArgs{format: "text", modelTimeout: ask.RequestTimeout, timeout: engine.DefaultTimeout}
	fs := newFlags("eval", evalUsage)
	a.db = addDBFlags(fs, "the gold set is about", " (default with --gold chinook: the bundled demo)")
	fs.StringVar(&a.gold, "gold", "", "the gold set: a TOML file, or the name of a built-in one ("+strings.Join(eval.BuiltinNames(), ", ")+")")
	fs.Var(&a.models, "model", "an Ollama model to evaluate (repeat for several)")
	fs.IntVar(&a.k, "k", 1, "ask each question this many times (pass@k and pass^k)")
	fs.StringVar(&a.compare, "compare", "", "run the gold set once per prompt variant (ddl,mschema,glossary,examples,vote,ask joined by +) and print one table")
	fs.StringVar(&a.predictions, "predictions", "", "score ready-made predictions (JSONL or one SQL a line) instead of asking a model")
	fs.StringVar(&a.regrade, "regrade", "", "score the records.jsonl of an earlier run again")
	fs.BoolVar(&a.lenient, "lenient", false, "also let text \"10\" equal 10 and floats match to 1e-6 relative")
	fs.StringVar(&a.out, "out", "", "a folder to write records.jsonl, report.json and report.md into")
	fs.Var(enumFlag{&a.format, []string{"text", "json"}}, "format", "output: text (for people) or json (the report)")
	fs.StringVar(&a.host, "ollama", "", "Ollama's address (default: $OLLAMA_HOST, else 127.0.0.1:11434)")
	fs.StringVar(&a.llmURL, "llm-url", "", llmURLUsage)
	fs.Var(durationFlag{&a.modelTimeout}, "model-timeout", "the longest each model request may take (default 2m)")
	fs.Var(durationFlag{&a.timeout}, "timeout", "the longest each query may run (default 30s)")
	if ok, code := parseFlags(fs, args, s, evalUsage); !ok {
		return nil, false, code
	}
	a.extra = fs.Args()
	return a, true, 0
}

// fail prints err (as the report's JSON document, or as text) and returns
// its exit status.
func (a *evalArgs) fail(s *stdio, err error) int {
	if a.format == "json" {
		doc := &eval.ModelReport{Items: []eval.ItemScore{}, ByDifficulty: map[string]eval.DifficultyScore{}, Outcomes: map[string]int{},
			Lenient: a.lenient, Warnings: []string{}, Errors: []engine.ErrorDoc{engine.NewErrorDoc(err)}}
		if werr := writeJSON(s.out, doc); werr != nil {
			return 2
		}
	} else {
		printError(s.err, "eval", err)
	}
	return engine.ExitCode(engine.ErrorCode(err))
}

func evalUsageError(format string, args ...any) *engine.Error {
	return engine.Errorf(engine.CodeUsage, format, args...)
}

// check refuses flags that do not make one evaluation.
func (a *evalArgs) check() error {
	sources := 0
	for _, set := range []bool{len(a.models) > 0, a.predictions != "", a.regrade != ""} {
		if set {
			sources++
		}
	}
	switch {
	case len(a.extra) > 0:
		return evalUsageError("unexpected argument %q", a.extra[0]).WithHint("querent eval takes flags only; run querent eval --help")
	case a.gold == "":
		return evalUsageError("no gold set: --gold is required").WithHint("--gold chinook evaluates on the bundled demo; querent eval init drafts a gold set for your own database")
	case sources != 1:
		return evalUsageError("give one of --model, --predictions or --regrade").WithHint(
			"--model NAME asks a model; --predictions FILE scores ready-made SQL; --regrade RECORDS.jsonl scores an earlier run again")
	case a.k < 1:
		return evalUsageError("--k must be at least 1")
	case a.k > 1 && len(a.models) == 0:
		return evalUsageError("--k is for --model: predictions and records are scored as they are")
	case a.compare != "" && len(a.models) == 0:
		return evalUsageError("--compare compares the prompts of a model: give --model").WithHint(
			"for example querent eval --gold chinook --model qwen2.5-coder:7b --compare ddl,mschema")
	case a.compare != "":
		var err error
		a.variants, err = eval.ParseVariants(a.compare)
		return err
	}
	return nil
}

// options loads the gold set (unless given: the verified answers) and the
// predictions or records to score.
func (a *evalArgs) options(gold *eval.GoldSet) (eval.Options, error) {
	var err error
	if gold == nil {
		if gold, err = eval.Load(a.gold); err != nil {
			return eval.Options{}, evalUsageError("%v", err).WithErr(err).WithHint("see README.md, \"Evaluating models\", for the gold set format")
		}
	}
	if a.db.target == "" && !(gold.Builtin && gold.Name == "chinook") && a.gold != verified.GoldName {
		return eval.Options{}, evalUsageError("--db is required with the gold set %s", gold.Name).WithHint("name the database (a SQLite file or a PostgreSQL URL) the gold set was written for; only the built-in chinook set defaults to the demo database")
	}
	opts := eval.Options{Gold: gold, Lenient: a.lenient, Timeout: a.timeout}
	switch {
	case a.predictions != "":
		b, err := os.ReadFile(a.predictions)
		if err != nil {
			return opts, evalUsageError("cannot read the predictions %s: %v", a.predictions, err).WithErr(err)
		}
		if opts.Predictions, err = eval.ParsePredictions(a.predictions, b, gold); err != nil {
			return opts, evalUsageError("%v", err).WithErr(err)
		}
	case a.regrade != "":
		f, err := os.Open(a.regrade)
		if err != nil {
			return opts, evalUsageError("cannot read the records %s: %v", a.regrade, err).WithErr(err)
		}
		opts.Records, err = eval.ReadRecords(a.regrade, f)
		f.Close()
		if err != nil {
			return opts, evalUsageError("%v", err).WithErr(err).WithHint("--regrade reads the records.jsonl that --out wrote")
		}
	}
	return opts, nil
}

// verifiedGold opens the database and reads its verified answers as the
// gold set, for --gold verified (nil, nil otherwise; without --db, the
// demo's, as the history commands do): each item's expected
// rows are what its verified SQL returns now, on the database as it is.
// The model is not shown them as examples while it is scored on them (the
// eval's asker has no history).
func (c *CLI) verifiedGold(ctx context.Context, a *evalArgs) (engine.Database, *eval.GoldSet, error) {
	if a.gold != verified.GoldName {
		return nil, nil, nil
	}
	st, closeH, err := c.verifiedStore(ctx)
	if err != nil {
		return nil, nil, err
	}
	defer closeH()
	db, err := c.open(ctx, a.db)
	if err != nil {
		return nil, nil, err
	}
	g, err := verified.Gold(ctx, st, db)
	if err != nil {
		db.Close()
		return nil, nil, err
	}
	return db, g, nil
}

// evalModels connects to Ollama and picks the models to evaluate.
func (c *CLI) evalModels(ctx context.Context, a *evalArgs, opts *eval.Options) error {
	connect, err := c.connector(a.host, a.llmURL)
	if err != nil {
		return err
	}
	srv, err := ask.Connect(ctx, connect, a.host, a.modelTimeout)
	if err != nil {
		return err
	}
	for _, want := range a.models {
		name, err := srv.Pick(want)
		if err != nil {
			return err
		}
		opts.Models = append(opts.Models, name)
	}
	opts.Model, opts.K = srv.Model, a.k
	opts.EmbedModel = srv.Embedding()
	opts.Ask = ask.Options{Timeout: a.timeout, NoExplain: true, NoVote: true} // one reading per item: voting is a variant to compare (issue 23)
	return nil
}

// report writes the report (the folder, then JSON or text) and returns the
// exit status; err is the run's own error.
func (a *evalArgs) report(s *stdio, rep *eval.Report, err error) int {
	code := engine.ExitCode(engine.ErrorCode(err))
	written := false
	if a.out != "" {
		if werr := rep.WriteDir(a.out); werr == nil {
			written = true
		} else {
			werr := engine.Errorf(engine.CodeExport, "%v", werr).WithErr(werr)
			if a.format == "text" {
				printError(s.err, "eval", werr)
			}
			rep.Errors = append(rep.Errors, engine.NewErrorDoc(werr))
			for _, m := range rep.Models {
				m.Errors = rep.Errors
			}
			code = max(code, 1)
		}
	}
	if a.format == "json" {
		js, jerr := rep.JSON()
		if jerr != nil {
			fmt.Fprintf(s.err, "querent eval: cannot write the report: %v\n", jerr)
			return 2
		}
		if _, werr := s.out.Write(append(js, '\n')); werr != nil {
			return 2
		}
		return code
	}
	printWarnings(s.err, rep.Warnings)
	if werr := writeEvalText(s.out, rep, a.predictions); werr != nil {
		return 2
	}
	if written {
		fmt.Fprintf(s.out, "\nWritten: %s, %s, %s\n", filepath.Join(a.out, "records.jsonl"), filepath.Join(a.out, "report.json"), filepath.Join(a.out, "report.md"))
	}
	if err != nil {
		printError(s.err, "eval", err)
	}
	return code
}

// writeEvalText writes the report for people: per model, the summary and
// the questions that did not match; several models side by side.
func writeEvalText(w io.Writer, rep *eval.Report, predictions string) error {
	var b bytes.Buffer
	rule := "strict match rule"
	if rep.Lenient {
		rule = "lenient match rule"
	}
	items := 0
	if len(rep.Models) > 0 {
		items = rep.Models[0].Questions / max(rep.K, 1)
	}
	fmt.Fprintf(&b, "Gold set %s (%d questions) on %s, %s", rep.Gold, items, rep.Database, rule)
	if rep.K > 1 {
		fmt.Fprintf(&b, ", %d tries each", rep.K)
	}
	b.WriteString(".\n")
	for _, m := range rep.Models {
		writeModelText(&b, rep, m, predictions)
	}
	if len(rep.Models) > 1 {
		if err := writeSideBySide(&b, rep); err != nil {
			return err
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}

// writeModelText writes one model's (or the predictions') scores and the
// items it did not match.
func writeModelText(b *bytes.Buffer, rep *eval.Report, m *eval.ModelReport, predictions string) {
	name := "predictions"
	if m.Model != nil {
		name = *m.Model
	} else if predictions != "" {
		name = "predictions (" + predictions + ")"
	}
	fmt.Fprintf(b, "\n%s\n", name)
	row := func(label, value string) { fmt.Fprintf(b, "  %-20s %s\n", label, value) }
	row("execution accuracy", fmt.Sprintf("%.1f%% (%d of %d)", m.ExecutionAccuracy*100, m.Matches, m.Questions))
	var diffs []string
	for _, d := range eval.Difficulties {
		if x, ok := m.ByDifficulty[d]; ok {
			diffs = append(diffs, fmt.Sprintf("%s %.1f%% (%d/%d)", d, x.ExecutionAccuracy*100, x.Matches, x.Questions))
		}
	}
	row("by difficulty", strings.Join(diffs, ", "))
	if m.Abstention != nil {
		row("abstention", fmt.Sprintf("%.1f%% of %d unanswerable", *m.Abstention*100, m.Unanswerable))
	}
	row("false refusals", fmt.Sprint(m.FalseRefusals))
	if m.PassAtK != nil {
		row(fmt.Sprintf("pass@%d / pass^%d", m.K, m.K), fmt.Sprintf("%.1f%% / %.1f%%", *m.PassAtK*100, *m.PassHatK*100))
	}
	if m.Model != nil {
		questions := "questions"
		if m.RepairedItems == 1 {
			questions = "question"
		}
		row("repairs", fmt.Sprintf("%d (on %d %s)", m.Repairs, m.RepairedItems, questions))
	}
	if m.LatencyP50S != nil {
		row("latency", fmt.Sprintf("p50 %.2f s, p95 %.2f s", *m.LatencyP50S, *m.LatencyP95S))
	}
	if m.Model != nil {
		row("tokens", fmt.Sprint(m.TokensTotal))
	}
	if m.RelaxedMatches > 0 {
		row("relaxed matches", fmt.Sprintf("%d needed ranking, extra_columns or lenient", m.RelaxedMatches))
	}
	first := true
	var missing []string
	for _, it := range m.Items {
		if it.Match {
			continue
		}
		id := it.ID
		if rep.K > 1 {
			id = fmt.Sprintf("%s#%d", it.ID, it.Try)
		}
		if it.Outcome == eval.OutcomeMissing {
			missing = append(missing, id)
			continue
		}
		if first {
			b.WriteString("  not matched:\n")
			first = false
		}
		fmt.Fprintf(b, "    %-28s %-12s %s\n", id, it.Outcome, oneLine(it.Reason, 160))
	}
	if len(missing) > 0 {
		fmt.Fprintf(b, "  missing (%d): %s\n", len(missing), oneLine(strings.Join(missing, ", "), 300))
	}
}

// writeSideBySide writes the models' scores as one table.
func writeSideBySide(b *bytes.Buffer, rep *eval.Report) error {
	b.WriteString("\nside by side:\n")
	cols := []engine.Column{{Name: "model"}, {Name: "accuracy"}, {Name: "easy"}, {Name: "medium"}, {Name: "hard"},
		{Name: "abstention"}, {Name: "false refusals"}, {Name: "p50 s"}}
	var rows [][]engine.Value
	pct := func(x *float64) engine.Value {
		if x == nil {
			return nil
		}
		return fmt.Sprintf("%.1f%%", *x*100)
	}
	for _, m := range rep.Models {
		r := []engine.Value{*m.Model, pct(&m.ExecutionAccuracy)}
		for _, d := range eval.Difficulties {
			if x, ok := m.ByDifficulty[d]; ok {
				r = append(r, pct(&x.ExecutionAccuracy))
			} else {
				r = append(r, nil)
			}
		}
		var p50 engine.Value
		if m.LatencyP50S != nil {
			p50 = *m.LatencyP50S
		}
		r = append(r, pct(m.Abstention), int64(m.FalseRefusals), p50)
		rows = append(rows, r)
	}
	return writeTable(b, cols, rows, tableOptions{maxWidth: 40})
}

// evalStage says in words which question of the run is being asked.
func evalStage(pr eval.Progress) string {
	who := pr.Model
	if who == "" {
		who = "scoring"
	}
	try := ""
	if pr.K > 1 {
		try = fmt.Sprintf(", try %d of %d", pr.Try, pr.K)
	}
	return fmt.Sprintf("%s: %d/%d %s%s…", who, pr.Done+1, pr.Total, cut(pr.Item.ID, 40), try)
}

const evalInitUsage = `Usage: querent eval init --db FILE --out GOLD.toml [--model NAME] [--n 30] [--force]
                         [--ollama HOST] [--model-timeout DUR] [--format text|json]

Drafts a gold set for your own database: the model is shown the schema and
writes n questions of mixed difficulty with their SQL; each query is checked
through the guard, and only those that run and return rows are kept. The
file starts with a note to review every item: a query that runs is not
necessarily right. An existing file is replaced only with --force.

  querent eval init --db shop.sqlite --out shop.toml --n 40
  querent eval --db shop.sqlite --gold shop.toml --model qwen2.5-coder:7b
`

func (c *CLI) runEvalInit(ctx context.Context, args []string, s *stdio) int {
	fs := newFlags("eval init", evalInitUsage)
	dbf := addDBFlags(fs, "to draft questions about", "")
	dbPath := &dbf.target
	out := fs.String("out", "", "the gold set file to write (.toml)")
	model := fs.String("model", "", "the Ollama model to draft with (default: the best SQL model installed)")
	n := fs.Int("n", 30, "how many questions to keep")
	force := fs.Bool("force", false, "replace the file if it exists")
	host := fs.String("ollama", "", "Ollama's address (default: $OLLAMA_HOST, else 127.0.0.1:11434)")
	llmURL := addLLMURLFlag(fs)
	modelTimeout := 10 * time.Minute
	fs.Var(durationFlag{&modelTimeout}, "model-timeout", "the longest each model request may take (default 10m: drafting is long)")
	format := "text"
	fs.Var(enumFlag{&format, []string{"text", "json"}}, "format", "output: text (for people) or json")
	if ok, code := parseFlags(fs, args, s, evalInitUsage); !ok {
		return code
	}
	type initDoc struct {
		Out      string            `json:"out"`
		Database string            `json:"database"`
		Model    string            `json:"model"`
		Items    int               `json:"items"`
		Dropped  int               `json:"dropped"`
		Errors   []engine.ErrorDoc `json:"errors"`
	}
	doc := initDoc{Out: *out, Errors: []engine.ErrorDoc{}}
	fail := func(err error) int {
		if format == "json" {
			doc.Errors = append(doc.Errors, engine.NewErrorDoc(err))
			if werr := writeJSON(s.out, doc); werr != nil {
				return 2
			}
		} else {
			printError(s.err, "eval init", err)
		}
		return engine.ExitCode(engine.ErrorCode(err))
	}
	switch {
	case fs.NArg() > 0:
		return fail(engine.Errorf(engine.CodeUsage, "unexpected argument %q", fs.Arg(0)))
	case *dbPath == "":
		return fail(engine.Errorf(engine.CodeUsage, "no database: --db is required").WithHint("name the database (a SQLite file or a PostgreSQL URL) to draft questions about (the demo has the built-in gold set: --gold chinook)"))
	case *out == "":
		return fail(engine.Errorf(engine.CodeUsage, "no file to write: --out is required").WithHint("for example --out gold.toml"))
	case *n < 1 || *n > 500:
		return fail(engine.Errorf(engine.CodeUsage, "--n must be between 1 and 500"))
	case c.Model == nil:
		return fail(engine.Errorf(engine.CodeInternal, "this build cannot ask models"))
	}
	if _, err := os.Stat(*out); err == nil && !*force {
		return fail(engine.Errorf(engine.CodeExport, "%s already exists", *out).WithHint("choose another file, or replace it with --force"))
	}
	db, err := c.open(ctx, dbf)
	if err != nil {
		return fail(err)
	}
	defer db.Close()
	doc.Database = db.Name()
	connect, err := c.connector(*host, *llmURL)
	if err != nil {
		return fail(err)
	}
	srv, err := ask.Connect(ctx, connect, *host, modelTimeout)
	if err != nil {
		return fail(err)
	}
	name, err := srv.Pick(*model)
	if err != nil {
		return fail(err)
	}
	doc.Model = name
	opts := eval.DraftOptions{DB: db, Model: srv.Model, ModelName: name, N: *n}
	line := newProgress(s.err, format, "Ctrl-C stops")
	if line != nil {
		line.set(fmt.Sprintf("%s is drafting %d questions…", name, *n), true)
		opts.Progress = func(kept, want int) {
			line.set(fmt.Sprintf("%s is drafting questions: %d of %d kept…", name, kept, want), true)
		}
	}
	d, err := eval.Draft(ctx, opts)
	line.clear()
	if err != nil {
		return fail(err)
	}
	if err := eval.WriteFile(*out, d.TOML(db.Name(), name, time.Now()), *force); err != nil {
		return fail(err)
	}
	doc.Items, doc.Dropped = len(d.Gold.Items), len(d.Dropped)
	if format == "json" {
		if werr := writeJSON(s.out, doc); werr != nil {
			return 2
		}
		return 0
	}
	fmt.Fprintf(s.out, "Wrote %d questions drafted by %s to %s", doc.Items, name, *out)
	if doc.Dropped > 0 {
		fmt.Fprintf(s.out, " (%d more were dropped: their SQL did not run or returned no rows; they are listed at the end)", doc.Dropped)
	}
	fmt.Fprintf(s.out, ".\nReview every item before trusting a score: a query that runs is not necessarily right.\nThen: querent eval --db %s --gold %s --model %s\n",
		shellQuote(c.shown(*dbPath)), shellQuote(*out), shellQuote(name))
	return 0
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
