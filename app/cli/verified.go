package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"querent/engine"
	"querent/engine/eval"
	"querent/engine/verified"
	"querent/engine/words"
)

// The analyst's subcommands of querent history (issue 23): approve and
// correct an answer, and share the verified answers as a gold set. Agents
// have none of them: MCP has no such tool, the sub-agent input no such
// field.

const approveUsage = `Usage: querent history approve [--format text|json] ID

Marks the answer of history entry ID right: from now on it is an example
that Querent shows the model for like questions on the same database (by
its identity: the same file, or the same tables and columns; never by its
path), and an item of querent eval --gold verified. querent history
--format json lists the entries with their ids.
`

const correctUsage = `Usage: querent history correct [--db FILE|URL] [--max-rows N] [--timeout DUR] [--format table|json|csv] --sql SQL ID

Corrects the answer of history entry ID: the SQL is checked by the guard
and run on the same database (the entry's own file; --db names it if it
moved, or a PostgreSQL database, whose password the history does not
keep), and its result replaces the answer, which becomes a verified
example (the model's SQL is kept in original_sql). SQL that does not
compile, writes or fails is refused, and the entry stays as it was.
--sql - reads the SQL from standard input. The output is querent sql's.
`

const exportVerifiedUsage = `Usage: querent history export-verified --db FILE|URL --out FILE.toml [--force] [--format text|json]

Writes the verified answers (approved or corrected) of a database to a gold
set file (the format of querent eval --gold), to share them with a team or
score models on them: querent eval --db FILE --gold FILE.toml.
`

const importVerifiedUsage = `Usage: querent history import-verified --db FILE|URL [--format text|json] FILE.toml

Adds the items of a gold set file (querent history export-verified, or any
gold set) to the history as verified answers of the database. Each item's
SQL is checked by the guard on that database first: an item it refuses does
not count (the others are added; the exit status is then 1). Items already
verified, unanswerable items and follow-ups are skipped.
`

// historyItem is one entry of querent history --format json: the
// contract's fields and those of the verified answers (issue 23).
type historyItem struct {
	engine.HistoryEntry
	// ID is what approve and correct take.
	ID int64 `json:"id"`
	// VerifiedAs is "approved", "corrected", or "" (not verified).
	VerifiedAs string `json:"verified_as"`
	// OriginalSQL is the model's SQL of a corrected answer ("" otherwise).
	OriginalSQL string `json:"original_sql"`
}

func historyItems(es []engine.HistoryEntry) []historyItem {
	out := make([]historyItem, 0, len(es))
	for _, e := range es {
		out = append(out, historyItem{HistoryEntry: e, ID: e.ID, VerifiedAs: e.Verified, OriginalSQL: e.OriginalSQL})
	}
	return out
}

// verifiedCommands are the subcommands of querent history.
var verifiedCommands = map[string]func(c *CLI, ctx context.Context, args []string, s *stdio) int{
	"approve":         (*CLI).runApprove,
	"correct":         (*CLI).runCorrect,
	"export-verified": (*CLI).runExportVerified,
	"import-verified": (*CLI).runImportVerified,
}

// docFail prints err as the errors of a JSON document (doc's, through
// setErrors) or as text, and returns its exit status.
func docFail(s *stdio, cmd, format string, doc map[string]any, err error) int {
	if format == "json" {
		doc["errors"] = []engine.ErrorDoc{engine.NewErrorDoc(err)}
		writeJSON(s.out, doc)
	} else {
		printError(s.err, cmd, err)
	}
	return engine.ExitCode(engine.ErrorCode(err))
}

// verifiedStore opens the history as the store of verified answers.
func (c *CLI) verifiedStore(ctx context.Context) (verified.Store, func(), error) {
	if c.History == nil {
		return nil, nil, engine.Errorf(engine.CodeInternal, "this build keeps no history")
	}
	h, closeH, err := c.History(ctx)
	if err != nil {
		return nil, nil, err
	}
	st, ok := h.(verified.Store)
	if !ok {
		closeH()
		return nil, nil, engine.Errorf(engine.CodeInternal, "this build's history cannot keep verified answers")
	}
	return st, closeH, nil
}

// entryID reads the one positional argument: a history entry's id.
func entryID(args []string) (int64, error) {
	hint := words.New("hint.history_ids", words.History.With(words.Value("--format json")))
	if len(args) != 1 {
		return 0, engine.Errorf(engine.CodeUsage, "give one history entry id (got %d arguments)", len(args)).SayHint(hint)
	}
	id, err := strconv.ParseInt(strings.TrimPrefix(args[0], "#"), 10, 64)
	if err != nil || id < 1 {
		return 0, engine.Errorf(engine.CodeUsage, "%q is not a history entry id", args[0]).SayHint(hint)
	}
	return id, nil
}

func (c *CLI) runApprove(ctx context.Context, args []string, s *stdio) int {
	fs := newFlags("history approve", approveUsage)
	format := "text"
	fs.Var(enumFlag{&format, []string{"text", "json"}}, "format", "output: text (for people) or json")
	if ok, code := parseFlags(fs, args, s, approveUsage); !ok {
		return code
	}
	doc := map[string]any{"entry": nil, "errors": []engine.ErrorDoc{}}
	id, err := entryID(fs.Args())
	if err != nil {
		return docFail(s, "history approve", format, doc, err)
	}
	st, closeH, err := c.verifiedStore(ctx)
	if err != nil {
		return docFail(s, "history approve", format, doc, err)
	}
	defer closeH()
	e, err := verified.Approve(ctx, st, id)
	if err != nil {
		return docFail(s, "history approve", format, doc, err)
	}
	if format == "json" {
		doc["entry"] = historyItems([]engine.HistoryEntry{e})[0]
		if writeJSON(s.out, doc) != nil {
			return 2
		}
		return 0
	}
	fmt.Fprintf(s.out, "Approved #%d %q: it is now an example for like questions on %s.\n", e.ID, cut(e.Question, 70), filepathBase(e.Database))
	return 0
}

func (c *CLI) runCorrect(ctx context.Context, args []string, s *stdio) int {
	fs := newFlags("history correct", correctUsage)
	dbf := addDBFlags(fs, "the question was asked of", " (default: the entry's own file)")
	sql := fs.String("sql", "", "the right SQL (- reads it from standard input)")
	maxRows := fs.Int64("max-rows", engine.DefaultMaxRows, "the most rows to return")
	timeout := engine.DefaultTimeout
	fs.Var(durationFlag{&timeout}, "timeout", "the longest the query may run (default 30s)")
	format := "table"
	fs.Var(enumFlag{&format, []string{"table", "json", "csv"}}, "format", "output: table (for people), json or csv")
	if ok, code := parseFlags(fs, args, s, correctUsage); !ok {
		return code
	}
	fail := func(err error) int { return c.fail(s, "history correct", format, *sql, err) }
	id, err := entryID(fs.Args())
	if err != nil {
		return fail(err)
	}
	if *sql == "-" {
		if *sql, err = readText([]string{"-"}, s, "SQL"); err != nil {
			return fail(err)
		}
	}
	if strings.TrimSpace(*sql) == "" {
		return fail(engine.Say(engine.CodeUsage, words.New("history.no_sql", words.SQLText.With("SQL"))))
	}
	rows, timeout, bounds, err := queryBounds(*maxRows, timeout)
	if err != nil {
		return fail(err)
	}
	st, closeH, err := c.verifiedStore(ctx)
	if err != nil {
		return fail(err)
	}
	defer closeH()
	e, err := st.Get(ctx, id)
	if err != nil {
		return fail(err)
	}
	if dbf.target == "" {
		if dbf.target, err = entryTarget(e); err != nil {
			return fail(err)
		}
	}
	db, err := c.open(ctx, dbf)
	if err != nil {
		return fail(err)
	}
	defer db.Close()
	_, ans, err := verified.Correct(ctx, st, db, id, *sql, engine.RunOptions{MaxRows: rows, Timeout: timeout})
	if ans == nil {
		return fail(err)
	}
	ans.Warnings = append(bounds, ans.Warnings...)
	if err == nil && format == "table" {
		defer fmt.Fprintf(s.err, "Corrected #%d: the result above replaces the answer, a verified example from now on.\n", id)
	}
	return c.finish(s, "history correct", format, ans, err)
}

// entryTarget is the database an entry was asked of, to open: its file,
// the demo; a PostgreSQL database needs --db (the history keeps no
// password).
func entryTarget(e engine.HistoryEntry) (string, error) {
	switch {
	case strings.Contains(e.Database, "://"):
		return "", engine.Errorf(engine.CodeUsage, "entry %d was asked of %s, whose password the history does not keep", e.ID, e.Database).SayHint(
			words.New("hint.correct_postgres", words.DB.With("URL")))
	case filepath.IsAbs(e.Database):
		return e.Database, nil
	}
	return "", nil // the bundled demo
}

func (c *CLI) runExportVerified(ctx context.Context, args []string, s *stdio) int {
	fs := newFlags("history export-verified", exportVerifiedUsage)
	dbf := addDBFlags(fs, "whose verified answers to write", "")
	out := fs.String("out", "", "the gold set file to write (.toml)")
	force := fs.Bool("force", false, "replace the file if it exists")
	format := "text"
	fs.Var(enumFlag{&format, []string{"text", "json"}}, "format", "output: text (for people) or json")
	if ok, code := parseFlags(fs, args, s, exportVerifiedUsage); !ok {
		return code
	}
	doc := map[string]any{"database": c.shown(dbf.target), "out": *out, "items": 0, "errors": []engine.ErrorDoc{}}
	fail := func(err error) int { return docFail(s, "history export-verified", format, doc, err) }
	switch {
	case fs.NArg() > 0:
		return fail(engine.Say(engine.CodeUsage, words.New("history.flags_only", words.Value(fs.Arg(0)), words.Out.With("FILE.toml"))))
	case *out == "":
		return fail(engine.Say(engine.CodeUsage, words.New("history.no_out", words.Out.With("FILE.toml"))))
	}
	st, closeH, err := c.verifiedStore(ctx)
	if err != nil {
		return fail(err)
	}
	defer closeH()
	db, err := c.open(ctx, dbf)
	if err != nil {
		return fail(err)
	}
	defer db.Close()
	data, n, err := verified.Export(ctx, st, db, time.Now())
	if err != nil {
		return fail(err)
	}
	if err := eval.WriteFile(*out, data, *force); err != nil {
		return fail(err)
	}
	doc["database"], doc["items"] = db.Name(), n
	if format == "json" {
		if writeJSON(s.out, doc) != nil {
			return 2
		}
		return 0
	}
	fmt.Fprintf(s.out, "Wrote %s: %s of %s.\n", *out, plural(n, "verified answer"), filepathBase(db.Name()))
	return 0
}

func (c *CLI) runImportVerified(ctx context.Context, args []string, s *stdio) int {
	fs := newFlags("history import-verified", importVerifiedUsage)
	dbf := addDBFlags(fs, "the answers are about", "")
	format := "text"
	fs.Var(enumFlag{&format, []string{"text", "json"}}, "format", "output: text (for people) or json")
	if ok, code := parseFlags(fs, args, s, importVerifiedUsage); !ok {
		return code
	}
	doc := map[string]any{"database": c.shown(dbf.target), "added": []verified.ImportedItem{}, "skipped": []verified.ImportedItem{},
		"refused": []verified.ImportedItem{}, "errors": []engine.ErrorDoc{}}
	fail := func(err error) int { return docFail(s, "history import-verified", format, doc, err) }
	if fs.NArg() != 1 {
		return fail(engine.Errorf(engine.CodeUsage, "give one gold set file (got %d arguments)", fs.NArg()).WithHint("for example: team-verified.toml"))
	}
	b, err := os.ReadFile(fs.Arg(0))
	if err != nil {
		return fail(engine.Errorf(engine.CodeUsage, "cannot read %s: %v", fs.Arg(0), err).WithErr(err).WithHint("check the file's path"))
	}
	g, err := eval.Parse(fs.Arg(0), b)
	if err != nil {
		return fail(engine.Errorf(engine.CodeUsage, "%v", err).WithErr(err).WithHint("the file must be a gold set (docs/cli.md, \"Gold sets\")"))
	}
	st, closeH, err := c.verifiedStore(ctx)
	if err != nil {
		return fail(err)
	}
	defer closeH()
	db, err := c.open(ctx, dbf)
	if err != nil {
		return fail(err)
	}
	defer db.Close()
	rep, err := verified.Import(ctx, st, db, g, "import")
	if rep != nil {
		doc["database"], doc["added"], doc["skipped"], doc["refused"] = db.Name(), rep.Added, rep.Skipped, rep.Refused
	}
	if err != nil {
		return fail(err)
	}
	code := 0
	if len(rep.Refused) > 0 {
		code = 1
	}
	if format == "json" {
		if writeJSON(s.out, doc) != nil {
			return 2
		}
		return code
	}
	fmt.Fprintf(s.out, "Imported %s into the verified answers of %s; %d skipped, %d refused.\n", plural(len(rep.Added), "item"), filepathBase(db.Name()), len(rep.Skipped), len(rep.Refused))
	for _, it := range rep.Skipped {
		fmt.Fprintf(s.out, "  skipped %s: %s\n", it.ID, it.Reason)
	}
	for _, it := range rep.Refused {
		fmt.Fprintf(s.out, "  refused %s: %s: %s\n", it.ID, it.Error.Type, it.Error.Message)
	}
	return code
}
