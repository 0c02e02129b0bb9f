package cli

import (
	"context"
	"fmt"

	"querent/engine"
	"querent/engine/files"
	"querent/engine/profile"
)

const relationshipsUsage = `Usage: querent relationships [list] [--db FILE|URL] [--all] [--format text|json]
       querent relationships confirm|drop [--db FILE|URL] [--format text|json] FROM TO

The joins between the database's tables: its declared foreign keys, and the
joins read from the values (a column whose values all occur in another
table's unique column: ids, codes), with the share of values matched. The
model is given both as join hints, the inferred ones marked so.

confirm keeps an inferred join as the analyst's; drop takes one away: a
dropped join is not given to the model and not listed (but by list --all).
FROM and TO are written as list shows them (orders.customer_id
customers.id). The choices are kept in Querent's data folder by the
database's identity (its sha256), never in the database: a changed file
has its joins read again, and its choices start anew.

  querent relationships --db shop.sqlite
  querent relationships drop --db shop.sqlite visits.customer_id customers.id
`

// relationshipsDoc is the JSON of querent relationships.
type relationshipsDoc struct {
	Database      string                 `json:"database"`
	Relationships []profile.Relationship `json:"relationships"`
	Errors        []engine.ErrorDoc      `json:"errors"`
}

// joins is the store of relationships in Querent's data folder (nil when
// the folder is unknown: no relationships read from the values).
func (c *CLI) joins() *profile.Joins {
	dir, err := files.DataDir()
	if err != nil {
		return nil
	}
	return &profile.Joins{Dir: dir}
}

func (c *CLI) runRelationships(ctx context.Context, args []string, s *stdio) int {
	action := "list"
	if len(args) > 0 {
		switch args[0] {
		case "list", "confirm", "drop":
			action, args = args[0], args[1:]
		}
	}
	fs := newFlags("relationships", relationshipsUsage)
	dbf := addDBFlags(fs, "whose joins they are", " (default: the bundled Chinook demo)")
	all := fs.Bool("all", false, "list: the dropped joins too, marked dropped")
	format := "text"
	fs.Var(enumFlag{&format, []string{"text", "json"}}, "format", "output: text (for people) or json")
	if ok, code := parseFlags(fs, args, s, relationshipsUsage); !ok {
		return code
	}
	doc := relationshipsDoc{Database: c.shown(dbf.target), Relationships: []profile.Relationship{}, Errors: []engine.ErrorDoc{}}
	fail := func(err error) int {
		if format == "json" {
			doc.Errors = append(doc.Errors, engine.NewErrorDoc(err))
			if werr := writeJSON(s.out, doc); werr != nil {
				fmt.Fprintf(s.err, "querent relationships: cannot write the output: %v\n", werr)
			}
		} else {
			printError(s.err, "relationships", err)
		}
		return engine.ExitCode(engine.ErrorCode(err))
	}
	want := 0
	if action != "list" {
		want = 2
	}
	if fs.NArg() != want {
		if want == 0 {
			return fail(engine.Errorf(engine.CodeUsage, "unexpected argument %q", fs.Arg(0)).WithHint("name the database with --db FILE; confirm and drop take FROM TO"))
		}
		return fail(engine.Errorf(engine.CodeUsage, "%s takes two columns, FROM and TO", action).WithHint("write them as list shows them: orders.customer_id customers.id"))
	}
	j := c.joins()
	if j == nil {
		return fail(engine.Errorf(engine.CodeDatabase, "Querent's data folder is unknown").WithHint("set QUERENT_DATA_DIR"))
	}
	db, err := c.open(ctx, dbf)
	if err != nil {
		return fail(err)
	}
	defer db.Close()
	doc.Database = db.Name()
	if action == "list" {
		if doc.Relationships, err = j.Relationships(ctx, db, *all); err != nil {
			return fail(err)
		}
	} else {
		r, err := j.Choose(ctx, db, fs.Arg(0), fs.Arg(1), action == "drop")
		if err != nil {
			return fail(err)
		}
		doc.Relationships = []profile.Relationship{r}
	}
	if format == "json" {
		if err := writeJSON(s.out, doc); err != nil {
			fmt.Fprintf(s.err, "querent relationships: cannot write the output: %v\n", err)
			return 2
		}
		return 0
	}
	switch action {
	case "confirm":
		fmt.Fprintf(s.out, "Confirmed %s.\n", relationshipText(doc.Relationships[0]))
	case "drop":
		fmt.Fprintf(s.out, "Dropped %s: it is no longer given to the model.\n", relationshipText(doc.Relationships[0]))
	default:
		if len(doc.Relationships) == 0 {
			fmt.Fprintf(s.out, "%s: no relationships declared or found.\n", doc.Database)
		}
		for _, r := range doc.Relationships {
			fmt.Fprintln(s.out, relationshipText(r))
		}
	}
	return 0
}
