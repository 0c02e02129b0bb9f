package cli

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"querent/engine"
)

const historyUsage = `Usage: querent history [--db FILE] [--limit N] [--format text|json]
       querent history approve ID
       querent history correct [--db FILE] --sql SQL ID
       querent history export-verified --db FILE --out FILE.toml [--force]
       querent history import-verified --db FILE FILE.toml

Lists the questions and queries asked so far, newest first: when, which
database (and its sha256), the question, the SQL, how it ended, the row
count, the time it took, the model and who asked (the command line, the app
or an MCP client). Without --db, every database; with --db, only that file.
The history lives in Querent's data folder, never in your databases.

Each entry has an id (#12; "id" in --format json). approve marks an answer
right, correct replaces it by the result of your SQL (checked by the guard,
run on the same database): only such verified answers are shown to the
model as examples, and they are the database's own gold set (querent eval
--gold verified), shared with export-verified and import-verified. Run
querent history approve --help (or correct, …) for their flags.
`

// HistoryOpener opens the history of questions (in Querent's data folder).
type HistoryOpener func(ctx context.Context) (engine.History, func(), error)

type historyDoc struct {
	Entries []historyItem     `json:"entries"`
	Errors  []engine.ErrorDoc `json:"errors"`
}

func (c *CLI) runHistory(ctx context.Context, args []string, s *stdio) int {
	if len(args) > 0 {
		if sub, ok := verifiedCommands[args[0]]; ok {
			return sub(c, ctx, args[1:], s)
		}
	}
	fs := newFlags("history", historyUsage)
	dbPath := fs.String("db", "", "only this database's entries (a SQLite file or a PostgreSQL URL)")
	limit := fs.Int("limit", 20, "the most entries to list")
	format := "text"
	fs.Var(enumFlag{&format, []string{"text", "json"}}, "format", "output: text (for people) or json")
	if ok, code := parseFlags(fs, args, s, historyUsage); !ok {
		return code
	}
	doc := historyDoc{Entries: []historyItem{}, Errors: []engine.ErrorDoc{}}
	fail := func(err error) int {
		if format == "json" {
			doc.Errors = append(doc.Errors, engine.NewErrorDoc(err))
			writeJSON(s.out, doc)
		} else {
			printError(s.err, "history", err)
		}
		return engine.ExitCode(engine.ErrorCode(err))
	}
	if *limit < 1 {
		return fail(engine.Errorf(engine.CodeUsage, "--limit must be at least 1"))
	}
	if fs.NArg() > 0 {
		return fail(engine.Errorf(engine.CodeUsage, "unexpected argument %q", fs.Arg(0)).WithHint("name the database with --db FILE"))
	}
	if c.History == nil {
		return fail(engine.Errorf(engine.CodeInternal, "this build keeps no history"))
	}
	h, closeH, err := c.History(ctx)
	if err != nil {
		return fail(err)
	}
	defer closeH()
	db := ""
	if shown := c.shown(*dbPath); shown != *dbPath {
		db = shown // a PostgreSQL database, recorded as postgres://role@host:port/db
	} else if *dbPath != "" {
		if db, err = filepath.Abs(*dbPath); err != nil {
			return fail(engine.Errorf(engine.CodeUsage, "cannot resolve %s: %v", *dbPath, err).WithErr(err))
		}
	}
	entries, err := h.List(ctx, db, *limit)
	if err != nil {
		return fail(err)
	}
	doc.Entries = historyItems(entries)
	if format == "json" {
		if err := writeJSON(s.out, doc); err != nil {
			return 2
		}
		return 0
	}
	return writeHistoryText(s.out, entries)
}

func writeHistoryText(w io.Writer, entries []engine.HistoryEntry) int {
	if len(entries) == 0 {
		fmt.Fprintln(w, "No questions asked yet.")
		return 0
	}
	var b strings.Builder
	for _, e := range entries {
		what := e.Question
		if what == "" {
			what = "(direct SQL)"
		}
		model := ""
		if e.Model != "" {
			model = ", " + e.Model
		}
		status := e.Status
		if e.Verified != "" {
			status += ", " + e.Verified
		}
		fmt.Fprintf(&b, "#%d  %s  %s  [%s, %s, %s%s, %s]\n", e.ID, e.Time.Local().Format("2006-01-02 15:04"), cut(what, 70), status,
			plural(e.RowCount, "row"), humanSeconds(e.DurationS), model, e.Client)
		fmt.Fprintf(&b, "    %s\n", filepathBase(e.Database))
		if e.SQL != "" {
			fmt.Fprintf(&b, "    %s\n", oneLine(e.SQL, 150))
		}
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return 2
	}
	return 0
}

func filepathBase(p string) string {
	if strings.ContainsAny(p, `/\`) {
		return filepath.Base(p) + "  (" + filepath.Dir(p) + ")"
	}
	return p
}

func oneLine(s string, n int) string { return cut(strings.Join(strings.Fields(s), " "), n) }
