package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"querent/engine"
	"querent/engine/profile"
)

const exploreUsage = `Usage: querent explore [--db FILE|URL] [--format text|json] [--language en|fr|zh]
                       [--model NAME [--ollama HOST|--llm-url URL]]

Profiles the database for a first look: per table the rows, per column the
declared and observed types, NULLs, distinct values, min and max (numbers,
dates, text lengths), the top values and a small histogram; the joins,
declared and read from the values (a column whose values, 99 % or more,
occur in another table's key); and 5 to 10 suggested questions, each with
its SQL already run under the guard. Tables past 200,000 rows are profiled
from their first 100,000 rows; the output says "sampled". Without --db, the
bundled Chinook demo database is profiled.

With --model, a local model reads the profile (never the values of columns
marked sensitive) and proposes up to 5 more questions; each one's SQL runs
under the guard, and only those that run and return rows are kept (kind
"model").
`

// exploreDoc is the JSON of querent explore --format json.
type exploreDoc struct {
	Database        string                 `json:"database"`
	Tables          []*profile.Table       `json:"tables"`
	Relationships   []profile.Relationship `json:"relationships"`
	Suggestions     []profile.Suggestion   `json:"suggestions"`
	Skipped         []string               `json:"skipped"`
	SampleThreshold int64                  `json:"sample_threshold"`
	SampleRows      int                    `json:"sample_rows"`
	Warnings        []string               `json:"warnings"`
	Errors          []engine.ErrorDoc      `json:"errors"`
}

func (c *CLI) runExplore(ctx context.Context, args []string, s *stdio) int {
	fs := newFlags("explore", exploreUsage)
	dbf := addDBFlags(fs, "to profile", " (default: the bundled Chinook demo)")
	format := "text"
	fs.Var(enumFlag{&format, []string{"text", "json"}}, "format", "output: text (for people) or json")
	language := "en"
	fs.Var(enumFlag{&language, profile.Languages}, "language", "the suggested questions' language: en, fr or zh")
	model := fs.String("model", "", "a model that proposes more questions from the profile (only those whose SQL runs and returns rows are kept)")
	host := fs.String("ollama", "", "the Ollama server of --model (default $OLLAMA_HOST or 127.0.0.1:11434)")
	llmURL := addLLMURLFlag(fs)
	if ok, code := parseFlags(fs, args, s, exploreUsage); !ok {
		return code
	}
	doc := exploreDoc{Database: c.shown(dbf.target), Tables: []*profile.Table{}, Relationships: []profile.Relationship{},
		Suggestions: []profile.Suggestion{}, Skipped: []string{}, Warnings: []string{}, Errors: []engine.ErrorDoc{}}
	if fs.NArg() > 0 {
		return c.exploreFail(s, format, doc, engine.Errorf(engine.CodeUsage, "unexpected argument %q", fs.Arg(0)).WithHint(
			"name the database with --db FILE"))
	}
	db, err := c.open(ctx, dbf)
	if err != nil {
		return c.exploreFail(s, format, doc, err)
	}
	defer db.Close()
	doc.Database = db.Name()
	doc.Warnings = append(doc.Warnings, db.Warnings()...)
	p, err := profile.Profile(ctx, db, profile.Options{})
	if err != nil {
		return c.exploreFail(s, format, doc, err)
	}
	doc.Tables, doc.Relationships, doc.Skipped = p.Tables, p.Relationships, p.Skipped
	doc.SampleThreshold, doc.SampleRows = p.SampleThreshold, p.SampleRows
	if doc.Suggestions, err = profile.Suggest(ctx, db, p, language, 0); err != nil {
		return c.exploreFail(s, format, doc, err)
	}
	if *model != "" {
		more, werr := c.proposed(ctx, db, p, *model, *host, *llmURL, language, doc.Suggestions)
		doc.Suggestions = append(doc.Suggestions, more...)
		if werr != "" {
			doc.Warnings = append(doc.Warnings, werr)
		}
	}
	if format == "json" {
		if err := writeJSON(s.out, doc); err != nil {
			fmt.Fprintf(s.err, "querent explore: cannot write the output: %v\n", err)
			return 2
		}
		return 0
	}
	printWarnings(s.err, doc.Warnings)
	if _, err := io.WriteString(s.out, exploreText(doc)); err != nil {
		fmt.Fprintf(s.err, "querent explore: cannot write the output: %v\n", err)
		return 2
	}
	return 0
}

func (c *CLI) exploreFail(s *stdio, format string, doc exploreDoc, err error) int {
	if format == "json" {
		doc.Errors = append(doc.Errors, engine.NewErrorDoc(err))
		if werr := writeJSON(s.out, doc); werr != nil {
			fmt.Fprintf(s.err, "querent explore: cannot write the output: %v\n", werr)
		}
	} else {
		printError(s.err, "explore", err)
	}
	return engine.ExitCode(engine.ErrorCode(err))
}

func profileCell(c profile.Cell) string {
	if c.V == nil {
		return "–"
	}
	return fmt.Sprint(c.V)
}

func exploreText(doc exploreDoc) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n", doc.Database, plural(len(doc.Tables), "table or view"))
	for _, t := range doc.Tables {
		rows := plural64(t.Rows, "row")
		if t.Rows < 0 {
			rows = "rows not counted"
		}
		if t.Sampled {
			rows += fmt.Sprintf(" (figures from a sample of the first %s)", engine.GroupThousands(t.ProfiledRows))
		}
		fmt.Fprintf(&b, "\n%s (%s): %s\n", t.Name, t.Kind, rows)
		for _, c := range t.Columns {
			fmt.Fprintf(&b, "  %-24s %-8s %s nulls, %s distinct", c.Name, c.Observed, engine.GroupThousands(c.Nulls), engine.GroupThousands(c.Distinct))
			if c.Min.V != nil {
				fmt.Fprintf(&b, ", %s … %s", profileCell(c.Min), profileCell(c.Max))
			}
			if c.MaxLength != nil {
				fmt.Fprintf(&b, ", %d–%d characters", *c.MinLength, *c.MaxLength)
			}
			if len(c.Top) > 0 {
				var tops []string
				for _, tv := range c.Top {
					tops = append(tops, fmt.Sprintf("%v (%d)", tv.Value, tv.Count))
				}
				fmt.Fprintf(&b, "; top: %s", strings.Join(tops, ", "))
			}
			b.WriteByte('\n')
		}
	}
	if len(doc.Relationships) > 0 {
		b.WriteString("\nJoins:\n")
		for _, r := range doc.Relationships {
			how := "declared"
			if r.Inferred {
				how = "read from the values"
			}
			matched := ""
			if r.Matched != nil {
				matched = fmt.Sprintf(", %.1f %% matched", *r.Matched*100)
			}
			fmt.Fprintf(&b, "  %s → %s (%s%s)\n", r.From, r.To, how, matched)
		}
	}
	if len(doc.Suggestions) > 0 {
		b.WriteString("\nSuggested questions:\n")
		for _, s := range doc.Suggestions {
			fmt.Fprintf(&b, "  %s (%s)\n      %s\n", s.Question, plural(s.RowCount, "row"), s.SQL)
		}
	}
	for _, sk := range doc.Skipped {
		fmt.Fprintf(&b, "\nnot profiled: %s\n", sk)
	}
	return b.String()
}

// proposed asks the model for up to 5 more questions (profile.Propose);
// a model that cannot be reached or answers badly is a warning, the
// template questions stand.
func (c *CLI) proposed(ctx context.Context, db engine.Database, p *profile.Database, model, host, llmURL, language string,
	have []profile.Suggestion) ([]profile.Suggestion, string) {
	conn, err := c.connector(host, llmURL)
	if err == nil && conn == nil {
		err = engine.Errorf(engine.CodeInternal, "this build talks to no model")
	}
	var m engine.Model
	if err == nil {
		m, err = conn(host, 2*time.Minute)
	}
	var more []profile.Suggestion
	if err == nil {
		more, err = profile.Propose(ctx, db, p, m, model, language, 5, have, 0)
	}
	if err != nil {
		return more, "the model proposed no questions (" + engine.AsError(err).Message + "); the questions above come from the profile"
	}
	return more, ""
}
