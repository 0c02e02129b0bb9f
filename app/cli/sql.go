package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"querent/engine"
	"querent/engine/ask"
	"querent/engine/words"
)

const sqlUsage = `Usage: querent sql [--db FILE|URL] [--max-rows N] [--timeout DUR] [--format table|json|csv] [--] SQL

Runs one read-only SQL query. The database's own compiler checks it first
(SQLite's; on PostgreSQL its parser, a function allowlist and the server's
Parse, then a read-only transaction): only a single SELECT (or WITH …
SELECT, VALUES) that reads the database can run; nothing can write to it. Give the SQL as one quoted argument, or - to
read it from standard input. Without --db, the bundled Chinook demo database
is used.
`

func (c *CLI) runSQL(ctx context.Context, args []string, s *stdio) int {
	fs := newFlags("sql", sqlUsage)
	dbf := addDBFlags(fs, "to query", " (default: the bundled Chinook demo)")
	maxRows := fs.Int64("max-rows", engine.DefaultMaxRows, "the most rows to return (at most 1,000,000); more set \"truncated\"")
	timeout := engine.DefaultTimeout
	fs.Var(durationFlag{&timeout}, "timeout", "the longest the query may run (e.g. 30s, 2m; default 30s, at most 10m)")
	format := "table"
	fs.Var(enumFlag{&format, []string{"table", "json", "csv"}}, "format", "output: table (for people), json or csv")
	if ok, code := parseFlags(fs, args, s, sqlUsage); !ok {
		return code
	}
	rows, timeout, bounds, err := queryBounds(*maxRows, timeout)
	if err != nil {
		return c.fail(s, "sql", format, "", err)
	}
	query, err := readText(fs.Args(), s, "SQL query")
	if err != nil {
		return c.fail(s, "sql", format, "", err)
	}
	db, err := c.open(ctx, dbf)
	if err != nil {
		return c.fail(s, "sql", format, query, err)
	}
	defer db.Close()
	ans, err := ask.RunSQL(ctx, db, query, engine.RunOptions{MaxRows: rows, Timeout: timeout})
	ans.Warnings = append(bounds, ans.Warnings...)
	return c.finish(s, "sql", format, ans, err)
}

// finish prints an answer in the chosen format and returns the exit status.
func (c *CLI) finish(s *stdio, cmd, format string, ans *engine.Answer, err error) int {
	code := engine.ExitCode(engine.ErrorCode(err))
	switch format {
	case "json":
		if werr := writeJSON(s.out, ans); werr != nil {
			fmt.Fprintf(s.err, "querent %s: cannot write the output: %v\n", cmd, werr)
			return 2
		}
		return code
	}
	printWarnings(s.err, ans.Warnings)
	if err != nil {
		printError(s.err, cmd, err)
		return code
	}
	var werr error
	if format == "csv" {
		werr = writeCSV(s.out, ans.Columns, ans.Results.Values)
		if ans.Truncated {
			fmt.Fprintf(s.err, "warning: only the first %d rows are shown: the result has more (raise --max-rows, or use querent export for every row)\n", ans.RowCount)
		}
	} else {
		werr = writeTable(s.out, ans.Columns, ans.Results.Values, tableOptions{maxWidth: 40})
		if werr == nil {
			werr = writeFooter(s.out, ans)
		}
	}
	if werr != nil {
		fmt.Fprintf(s.err, "querent %s: cannot write the output: %v\n", cmd, werr)
		return 2
	}
	noteSensitive(s, ans)
	for _, h := range ans.OptimizationHints {
		fmt.Fprintf(s.err, "hint: %s\n", h)
	}
	return code
}

// noteSensitive says which columns of the answer are sensitive: shown to
// the analyst, masked for a model or an agent.
func noteSensitive(s *stdio, ans *engine.Answer) {
	if names := engine.SensitiveNames(ans.Columns); len(names) > 0 {
		fmt.Fprintf(s.err, "note: %s\n", words.English(words.New("sensitive.shown", words.And(8, names...))))
	}
}

// fail reports an error that happened before there was an answer to give.
func (c *CLI) fail(s *stdio, cmd, format, query string, err error) int {
	if format == "json" {
		ans := engine.NewAnswer(query)
		ans.AddError(err)
		return c.finish(s, cmd, format, ans, err)
	}
	printError(s.err, cmd, err)
	return engine.ExitCode(engine.ErrorCode(err))
}

func writeFooter(w io.Writer, a *engine.Answer) error {
	rows := "rows"
	if a.RowCount == 1 {
		rows = "row"
	}
	var err error
	if a.Truncated {
		_, err = fmt.Fprintf(w, "(first %d %s shown: the result has more; raise --max-rows, narrow the query with WHERE or LIMIT, or export it; %s)\n",
			a.RowCount, rows, humanSeconds(a.ExecutionTimeS))
	} else {
		_, err = fmt.Fprintf(w, "(%d %s, %s)\n", a.RowCount, rows, humanSeconds(a.ExecutionTimeS))
	}
	return err
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// humanSeconds shows short times in milliseconds.
func humanSeconds(s float64) string {
	if s < 1 {
		return fmt.Sprintf("%.1f ms", s*1000)
	}
	return fmt.Sprintf("%.2f s", s)
}
