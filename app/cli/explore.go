package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"querent/engine"
	"querent/engine/profile"
)

const exploreUsage = `Usage: querent explore [--db FILE|URL] [--format text|json] [--language en|fr|zh]

Profiles the database for a first look: per table the rows, per column the
declared and observed types, NULLs, distinct values, min and max (numbers,
dates, text lengths), the top values and a small histogram; the joins,
declared and read from the values (a column whose values, 99 % or more,
occur in another table's key); and 5 to 10 suggested questions, each with
its SQL already run under the guard. Tables past 200,000 rows are profiled
from their first 100,000 rows; the output says "sampled". Without --db, the
bundled Chinook demo database is profiled.
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
