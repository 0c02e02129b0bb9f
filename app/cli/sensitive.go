package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"

	"querent/engine"
	"querent/engine/sensitive"
	"querent/engine/words"
)

const sensitiveUsage = `Usage:
  querent sensitive add    [--db FILE|URL] TABLE.COLUMN... [--format text|json]
  querent sensitive remove [--db FILE|URL] TABLE.COLUMN... [--format text|json]
  querent sensitive list   [--db FILE|URL] [--format text|json]

Columns marked sensitive keep their values from every model and agent:
never in a prompt (the schema's samples, the stored values a question
names, verified examples, the rows a model explains or votes on), and
masked (` + engine.MaskText + `) in what MCP and the sub-agent contract (ask --input)
return, with masked_columns naming them — a column computed from one
(lower(Email), substr(Email, 1, 3), a view's column) too. The column's
name and type are still sent, so that a model can select it. You still see
the values, marked, on the command line and in the page; an export leaves
them masked unless you add --include-sensitive.

list also names the columns that look like personal data (emails, phone
numbers, IBANs, national ids, card numbers) and are not marked: Querent
never marks them by itself. The marks live in Querent's data folder, never
in your database. Without --db, the bundled Chinook demo.
`

// sensitiveDoc is the JSON of querent sensitive --format json.
type sensitiveDoc struct {
	Database  string             `json:"database"`
	Sensitive []sensitive.Mark   `json:"sensitive"`
	Likely    []sensitive.Likely `json:"likely"`
	Added     []string           `json:"added,omitempty"`
	Removed   []string           `json:"removed,omitempty"`
	Errors    []engine.ErrorDoc  `json:"errors"`
}

func (c *CLI) runSensitive(ctx context.Context, args []string, s *stdio) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
		w := s.out
		if len(args) == 0 {
			w = s.err
		}
		fmt.Fprint(w, sensitiveUsage)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	sub := args[0]
	switch sub {
	case "add", "remove", "list":
	default:
		fmt.Fprintf(s.err, "querent sensitive: unknown subcommand %q\n  hint: the subcommands are add, remove and list (querent sensitive --help)\n", sub)
		return 2
	}
	format := "text"
	doc := sensitiveDoc{Sensitive: []sensitive.Mark{}, Likely: []sensitive.Likely{}, Errors: []engine.ErrorDoc{}}
	fail := func(err error) int {
		if format == "json" {
			doc.Errors = append(doc.Errors, engine.NewErrorDoc(err))
			writeJSON(s.out, doc)
		} else {
			printError(s.err, "sensitive "+sub, err)
		}
		return engine.ExitCode(engine.ErrorCode(err))
	}
	fs := newFlags("sensitive "+sub, sensitiveUsage)
	dbf := addDBFlags(fs, "whose columns they are", " (default: the bundled Chinook demo)")
	fs.Var(enumFlag{&format, []string{"text", "json"}}, "format", "output: text (for people) or json")
	pos, err := parseAnywhere(fs, args[1:])
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(s.out, sensitiveUsage)
		fmt.Fprintln(s.out, "\nFlags:")
		fs.SetOutput(s.out)
		fs.PrintDefaults()
		return 0
	}
	doc.Database = c.shown(dbf.target)
	if err != nil {
		return fail(engine.Errorf(engine.CodeUsage, "%v", err).WithErr(err).WithHint("see querent sensitive %s --help", sub))
	}
	switch {
	case sub == "list" && len(pos) > 0:
		return fail(engine.Errorf(engine.CodeUsage, "unexpected argument %q", pos[0]).WithHint("name the database with --db FILE"))
	case sub != "list" && len(pos) == 0:
		return fail(engine.Errorf(engine.CodeUsage, "name the column to %s: TABLE.COLUMN", sub).WithHint("querent sensitive %s --db FILE Customer.Email", sub))
	}
	st, err := sensitive.OpenDefault()
	if err != nil {
		return fail(err)
	}
	db, err := c.open(ctx, dbf)
	if err != nil {
		return fail(err)
	}
	defer db.Close()
	doc.Database = db.Name()
	for _, name := range pos {
		switch sub {
		case "add":
			m, err := st.Add(ctx, db, name)
			if err != nil {
				return fail(err)
			}
			doc.Added = append(doc.Added, m.Name())
		case "remove":
			ok, err := st.Remove(ctx, db, name)
			if err != nil {
				return fail(err)
			}
			if !ok {
				return fail(engine.Errorf(engine.CodeUsage, "%s is not marked sensitive", name).WithHint("list the marked columns with querent sensitive list"))
			}
			doc.Removed = append(doc.Removed, name)
		}
	}
	marks, err := st.List(ctx, db)
	if err != nil {
		return fail(err)
	}
	doc.Sensitive = marks
	if sch, err := db.Schema(ctx); err == nil {
		set, _ := st.Set(ctx, db)
		doc.Likely = sensitive.FindLikely(sch, set)
	}
	if format == "json" {
		writeJSON(s.out, doc)
		return 0
	}
	printMarks(s, doc, dbf.target)
	return 0
}

// printMarks says what was marked and unmarked, the marks, and the columns
// that look like personal data.
func printMarks(s *stdio, doc sensitiveDoc, target string) {
	for _, a := range doc.Added {
		fmt.Fprintf(s.out, "Marked %s sensitive: no model or agent sees its values.\n", a)
	}
	for _, r := range doc.Removed {
		fmt.Fprintf(s.out, "Unmarked %s: models and agents see its values again.\n", r)
	}
	if len(doc.Sensitive) == 0 {
		fmt.Fprintln(s.out, "No column of this database is marked sensitive.")
	} else {
		names := make([]string, len(doc.Sensitive))
		for i, m := range doc.Sensitive {
			names[i] = m.Name()
		}
		fmt.Fprintf(s.out, "Sensitive: %s\n", strings.Join(names, ", "))
	}
	printLikely(s, doc.Likely, target)
}

// printLikely offers the columns that look like personal data, with the
// command that marks them.
func printLikely(s *stdio, likely []sensitive.Likely, target string) {
	if len(likely) == 0 {
		return
	}
	fmt.Fprintln(s.out, "Not marked, and they look like personal data:")
	names := make([]string, len(likely))
	for i, l := range likely {
		names[i] = l.Name()
		fmt.Fprintf(s.out, "  %s: %s\n", l.Name(), words.English(words.New("sensitive.kind."+l.Kind)))
	}
	db := ""
	if target != "" {
		db = " --db " + shellQuote(target)
	}
	fmt.Fprintf(s.out, "  mark them: querent sensitive add%s %s\n", db, strings.Join(names, " "))
}
