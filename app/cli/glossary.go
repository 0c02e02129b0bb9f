package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"querent/engine"
	"querent/engine/glossary"
	"querent/engine/words"
)

const glossaryUsage = `Usage:
  querent glossary add    [--db FILE|URL] TERM --meaning TEXT [--sql SQL] [--synonym S]... [--format text|json]
  querent glossary list   [--db FILE|URL] [--format text|json]
  querent glossary remove [--db FILE|URL] TERM [--format text|json]
  querent glossary check  [--db FILE|URL] [--format text|json]

The glossary of a database: the business's words ("active customer",
"churn", "Q3"), what each means in plain words, other words for it
(--synonym, repeated) and, optionally, the SQL that says it — a condition
(Total > 100), an expression (UnitPrice * Quantity) or a whole query. A
question that uses a term (in any form: plural, case, accents, French or
Chinese) gets its entry in the model's prompt, and the answer lists it
(glossary_used).

add checks the SQL against the database without running it: SQL that does
not compile is refused with the database's hint (the closest column names).
Adding a term again replaces its entry. check compiles every entry's SQL
again against the schema as it is now: an entry whose SQL no longer
compiles is stale, and is not sent to the model until it is fixed or
removed (exit status 1). The glossary lives in Querent's data folder,
never in your database. Without --db, the bundled Chinook demo.
`

// GlossaryOpener opens the glossaries' store (in Querent's data folder).
type GlossaryOpener func(ctx context.Context) (glossary.Store, func(), error)

// glossaryDoc is the JSON of querent glossary --format json: the entry
// saved (add), the entries (list, check), the term removed (remove).
type glossaryDoc struct {
	Database string             `json:"database"`
	Entry    *glossary.Entry    `json:"entry,omitempty"`
	Entries  *[]glossary.Status `json:"entries,omitempty"`
	Removed  *string            `json:"removed,omitempty"`
	Errors   []engine.ErrorDoc  `json:"errors"`
}

// glossaryRun is one glossary subcommand being run.
type glossaryRun struct {
	c      *CLI
	s      *stdio
	sub    string
	format string
	doc    glossaryDoc
}

func (r *glossaryRun) fail(err error) int {
	if r.format == "json" {
		r.doc.Errors = append(r.doc.Errors, engine.NewErrorDoc(err))
		writeJSON(r.s.out, r.doc)
	} else {
		printError(r.s.err, "glossary "+r.sub, err)
	}
	return engine.ExitCode(engine.ErrorCode(err))
}

func (c *CLI) runGlossary(ctx context.Context, args []string, s *stdio) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
		w := s.out
		if len(args) == 0 {
			w = s.err
		}
		fmt.Fprint(w, glossaryUsage)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	sub := args[0]
	switch sub {
	case "add", "list", "remove", "check":
	default:
		fmt.Fprintf(s.err, "querent glossary: unknown subcommand %q\n  hint: %s\n", sub,
			words.English(words.New("glossary.subcommands", words.Glossary.With(words.Value("--help")))))
		return 2
	}
	r := &glossaryRun{c: c, s: s, sub: sub, format: "text", doc: glossaryDoc{Errors: []engine.ErrorDoc{}}}
	fs := newFlags("glossary "+sub, glossaryUsage)
	dbf := addDBFlags(fs, "whose glossary it is", " (default: the bundled Chinook demo)")
	fs.Var(enumFlag{&r.format, []string{"text", "json"}}, "format", "output: text (for people) or json")
	var e glossary.Entry
	if sub == "add" {
		fs.StringVar(&e.Meaning, "meaning", "", "what the term means, in plain words (required)")
		fs.StringVar(&e.SQL, "sql", "", "the SQL that says it: a condition, an expression or a whole query (checked against the database)")
		fs.Var((*listFlag)(&e.Synonyms), "synonym", "another word for the term (repeat for more)")
	}
	pos, err := parseAnywhere(fs, args[1:])
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(s.out, glossaryUsage)
		fmt.Fprintln(s.out, "\nFlags:")
		fs.SetOutput(s.out)
		fs.PrintDefaults()
		return 0
	}
	r.doc.Database = c.shown(dbf.target)
	if err != nil {
		return r.fail(engine.Errorf(engine.CodeUsage, "%v", err).WithErr(err).SayHint(words.New("glossary.help", words.Glossary.With(words.Value(sub), words.Value("--help")))))
	}
	term := strings.Join(pos, " ")
	if (sub == "list" || sub == "check") && term != "" {
		return r.fail(engine.Errorf(engine.CodeUsage, "unexpected argument %q", pos[0]).SayHint(words.New("glossary.name_db", words.DB.With("FILE"))))
	}
	if c.Glossary == nil {
		return r.fail(engine.Errorf(engine.CodeInternal, "this build keeps no glossary").WithHint("use the querent binary of a release, which keeps one"))
	}
	db, err := c.open(ctx, dbf)
	if err != nil {
		return r.fail(err)
	}
	defer db.Close()
	r.doc.Database = db.Name()
	st, closeG, err := c.Glossary(ctx)
	if err != nil {
		return r.fail(err)
	}
	defer closeG()
	g := glossary.New(st)
	switch sub {
	case "add":
		e.Term = term
		return r.add(ctx, g, db, e)
	case "remove":
		return r.remove(ctx, g, db, term)
	}
	return r.list(ctx, g, db)
}

func (r *glossaryRun) add(ctx context.Context, g *glossary.Glossary, db engine.Database, e glossary.Entry) int {
	saved, err := g.Add(ctx, db, e)
	if err != nil {
		return r.fail(err)
	}
	r.doc.Entry = &saved
	if r.format == "json" {
		return r.write()
	}
	what := "its meaning"
	if saved.SQL != "" {
		what = fmt.Sprintf("a %s on %s", saved.Kind, strings.Join(saved.Tables, ", "))
	}
	fmt.Fprintf(r.s.out, "Saved %q (%s) in the glossary of %s.\n", saved.Term, what, filepathBase(db.Name()))
	return 0
}

func (r *glossaryRun) remove(ctx context.Context, g *glossary.Glossary, db engine.Database, term string) int {
	if strings.TrimSpace(term) == "" {
		return r.fail(engine.Say(engine.CodeUsage, words.Plain("no term given")).SayHint(
			words.New("glossary.see_terms", words.Glossary.With(words.Value("list"), words.DB.With(db.Name())))))
	}
	if err := g.Remove(ctx, db, term); err != nil {
		return r.fail(err)
	}
	r.doc.Removed = &term
	if r.format == "json" {
		return r.write()
	}
	fmt.Fprintf(r.s.out, "Removed %q from the glossary of %s.\n", term, filepathBase(db.Name()))
	return 0
}

// list lists the entries (list), or checks them and saves the new
// fingerprints of those that still compile (check, which exits 1 when one
// is stale).
func (r *glossaryRun) list(ctx context.Context, g *glossary.Glossary, db engine.Database) int {
	run := g.List
	if r.sub == "check" {
		run = g.Check
	}
	entries, err := run(ctx, db)
	if err != nil {
		return r.fail(err)
	}
	r.doc.Entries = &entries
	var stale []glossary.Status
	for _, e := range entries {
		if e.Stale {
			stale = append(stale, e)
		}
	}
	fix := words.New("glossary.fix_stale",
		words.Glossary.With(words.Value("add"), words.DB.With(db.Name()), words.Value("TERM"), words.Meaning.With("TEXT"), words.SQLText.With("SQL")),
		words.Glossary.With(words.Value("remove"), words.DB.With(db.Name()), words.Value("TERM")))
	code := 0
	if r.sub == "check" && len(stale) > 0 {
		code = 1
		for _, e := range stale {
			d := *e.Problem
			d.Hint = strings.TrimSpace(d.Hint + " " + words.English(fix))
			r.doc.Errors = append(r.doc.Errors, d)
		}
	}
	if r.format == "json" {
		if c := r.write(); c != 0 {
			return c
		}
		return code
	}
	writeGlossaryText(r.s.out, db.Name(), entries)
	if len(stale) > 0 {
		n := "1 entry is"
		if len(stale) > 1 {
			n = fmt.Sprintf("%d entries are", len(stale))
		}
		fmt.Fprintf(r.s.err, "querent glossary %s: %s stale: not sent to the model\n  hint: %s\n", r.sub, n, words.English(fix))
	}
	return code
}

func (r *glossaryRun) write() int {
	if err := writeJSON(r.s.out, r.doc); err != nil {
		fmt.Fprintf(r.s.err, "querent glossary %s: cannot write the output: %v\n", r.sub, err)
		return 2
	}
	return 0
}

func writeGlossaryText(w io.Writer, database string, entries []glossary.Status) {
	if len(entries) == 0 {
		fmt.Fprintf(w, "The glossary of %s is empty.\n  hint: %s\n", filepathBase(database),
			words.English(words.New("glossary.name_term", words.Glossary.With(words.Value("add"), words.DB.With(database), words.Value("TERM"), words.Meaning.With("TEXT")))))
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "The glossary of %s: %s\n", filepathBase(database), plural(len(entries), "term"))
	for _, e := range entries {
		b.WriteString("\n" + e.Term)
		if len(e.Synonyms) > 0 {
			b.WriteString(" (also: " + strings.Join(e.Synonyms, ", ") + ")")
		}
		if e.Stale {
			b.WriteString("  [stale]")
		}
		b.WriteString("\n    " + e.Meaning + "\n")
		if e.SQL != "" {
			fmt.Fprintf(&b, "    SQL (%s): %s\n", e.Kind, oneLine(e.SQL, 200))
		}
		if e.Problem != nil {
			fmt.Fprintf(&b, "    stale: %s\n", e.Problem.Message)
			if e.Problem.Hint != "" {
				fmt.Fprintf(&b, "      hint: %s\n", e.Problem.Hint)
			}
		}
	}
	io.WriteString(w, b.String())
}

// parseAnywhere parses flags before and after the positional arguments
// (querent glossary add --db x.db active customer --meaning …), which it
// returns in order; "--" ends the flags.
func parseAnywhere(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if dashDashUsed(args, len(rest)) {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// listFlag collects a repeated flag's values.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ", ") }

func (l *listFlag) Set(s string) error {
	*l = append(*l, s)
	return nil
}

// openGlossary is the glossary for a question, or nil and a warning when
// its store cannot be opened (the question is answered without it).
func (c *CLI) openGlossary(ctx context.Context) (*glossary.Glossary, func(), string) {
	if c.Glossary == nil {
		return nil, nil, ""
	}
	st, closeG, err := c.Glossary(ctx)
	if err != nil {
		return nil, nil, "the glossary is not available, so the question is answered without it: " + engine.AsError(err).Message
	}
	return glossary.New(st), closeG, ""
}
