package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"querent/engine"
	"querent/engine/profile"
)

const schemaUsage = `Usage: querent schema [--db FILE|URL] [--format text|json]

Describes the database: tables and views with row counts, columns (declared
type, affinity, NOT NULL, default, primary key), foreign keys, indexes, three
sample rows per table and the values of low-cardinality text columns. On huge
tables, row counts are estimated and distinct values come from the first
10,000 rows; the output says so. Without --db, the bundled Chinook demo
database is described.
`

// schemaDoc is the JSON of querent schema --format json.
type schemaDoc struct {
	Database string          `json:"database"`
	Tables   []*engine.Table `json:"tables"`
	// Relationships are the declared foreign keys (inferred false) and the
	// joins read from the values (inferred true), without those the
	// analyst dropped (querent relationships).
	Relationships []profile.Relationship `json:"relationships"`
	Warnings      []string               `json:"warnings"`
	Errors        []engine.ErrorDoc      `json:"errors"`
}

func (c *CLI) runSchema(ctx context.Context, args []string, s *stdio) int {
	fs := newFlags("schema", schemaUsage)
	dbf := addDBFlags(fs, "to describe", " (default: the bundled Chinook demo)")
	format := "text"
	fs.Var(enumFlag{&format, []string{"text", "json"}}, "format", "output: text (for people) or json")
	if ok, code := parseFlags(fs, args, s, schemaUsage); !ok {
		return code
	}
	doc := schemaDoc{Database: c.shown(dbf.target), Tables: []*engine.Table{}, Relationships: []profile.Relationship{}, Warnings: []string{}, Errors: []engine.ErrorDoc{}}
	if fs.NArg() > 0 {
		return c.schemaFail(s, format, doc, engine.Errorf(engine.CodeUsage, "unexpected argument %q", fs.Arg(0)).WithHint(
			"name the database with --db FILE"))
	}
	db, err := c.open(ctx, dbf)
	if err != nil {
		return c.schemaFail(s, format, doc, err)
	}
	defer db.Close()
	doc.Database = db.Name()
	doc.Warnings = append(doc.Warnings, db.Warnings()...)
	sch, err := db.Schema(ctx)
	if err != nil {
		return c.schemaFail(s, format, doc, err)
	}
	doc.Tables = sch.Tables
	if j := c.joins(); j != nil {
		// The joins are read under the profile's limits; a database they
		// cannot be read from still has its schema described.
		if rels, err := j.Relationships(ctx, db, false); err == nil {
			doc.Relationships = rels
		} else if ctx.Err() != nil {
			return c.schemaFail(s, format, doc, err)
		} else {
			doc.Warnings = append(doc.Warnings, "the relationships could not be read from the values: "+engine.AsError(err).Message)
		}
	}
	if format == "json" {
		if err := writeJSON(s.out, doc); err != nil {
			fmt.Fprintf(s.err, "querent schema: cannot write the output: %v\n", err)
			return 2
		}
		return 0
	}
	printWarnings(s.err, doc.Warnings)
	if err := writeSchemaText(s.out, doc); err != nil {
		fmt.Fprintf(s.err, "querent schema: cannot write the output: %v\n", err)
		return 2
	}
	return 0
}

func (c *CLI) schemaFail(s *stdio, format string, doc schemaDoc, err error) int {
	if format == "json" {
		doc.Errors = append(doc.Errors, engine.NewErrorDoc(err))
		if werr := writeJSON(s.out, doc); werr != nil {
			fmt.Fprintf(s.err, "querent schema: cannot write the output: %v\n", werr)
		}
	} else {
		printError(s.err, "schema", err)
	}
	return engine.ExitCode(engine.ErrorCode(err))
}

func writeSchemaText(w io.Writer, doc schemaDoc) error {
	var b strings.Builder
	tables, views := 0, 0
	for _, t := range doc.Tables {
		if t.Internal {
			continue
		}
		if t.Kind == "view" {
			views++
		} else {
			tables++
		}
	}
	fmt.Fprintf(&b, "%s: %s, %s\n", doc.Database, plural(tables, "table"), plural(views, "view"))
	for _, internal := range []bool{false, true} {
		for _, t := range doc.Tables {
			if t.Internal != internal {
				continue
			}
			writeTableText(&b, t)
		}
	}
	if len(doc.Relationships) > 0 {
		b.WriteString("\nrelationships\n")
		for _, r := range doc.Relationships {
			b.WriteString("  " + relationshipText(r) + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeTableText(b *strings.Builder, t *engine.Table) {
	kind := ""
	if t.Kind == "view" {
		kind = "view "
	}
	if t.Internal {
		kind += "internal "
	}
	count := plural64(t.RowCount, "row")
	switch {
	case t.RowCount < 0:
		count = "rows not counted"
	case t.RowCountEstimated:
		count = "about " + count
	}
	fmt.Fprintf(b, "\n%s%s (%s)\n", kind, t.Name, count)
	if t.Note != "" {
		fmt.Fprintf(b, "  note: %s\n", t.Note)
	}
	fks := map[string]string{}
	for _, fk := range t.ForeignKeys {
		fks[fk.Column] = fk.References
	}
	nameW, typeW := 0, 0
	for _, c := range t.Columns {
		nameW = max(nameW, displayWidth(c.Name))
		typeW = max(typeW, displayWidth(c.Type))
	}
	for _, c := range t.Columns {
		var attrs []string
		if c.PK > 0 {
			if len(t.PrimaryKey) > 1 {
				attrs = append(attrs, fmt.Sprintf("primary key (%d of %d)", c.PK, len(t.PrimaryKey)))
			} else {
				attrs = append(attrs, "primary key")
			}
		} else if !c.Nullable {
			attrs = append(attrs, "not null")
		}
		if c.Default != nil {
			attrs = append(attrs, "default "+*c.Default)
		}
		if c.Generated != "" {
			attrs = append(attrs, c.Generated)
		}
		if ref, ok := fks[c.Name]; ok {
			attrs = append(attrs, "→ "+ref)
		}
		if c.OriginalName != nil && *c.OriginalName != c.Name {
			attrs = append(attrs, fmt.Sprintf("(was %q)", *c.OriginalName))
		}
		typ := c.Type
		if typ == "" {
			typ = "(no type)"
		}
		line := fmt.Sprintf("  %s%s  %s%s  %s", c.Name, strings.Repeat(" ", nameW-displayWidth(c.Name)),
			typ, strings.Repeat(" ", max(0, typeW-displayWidth(typ))), strings.Join(attrs, ", "))
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	for _, ix := range t.Indexes {
		u := ""
		if ix.Unique {
			u = "unique "
		}
		fmt.Fprintf(b, "  %sindex %s (%s)\n", u, ix.Name, strings.Join(ix.Columns, ", "))
	}
	for i, col := range t.DistinctValues.Columns {
		vals := t.DistinctValues.Values[i]
		parts := make([]string, len(vals))
		for j, v := range vals {
			parts[j] = cellText(v, 40)
		}
		note := ""
		if t.DistinctValuesSampled {
			note = " (from the first 10,000 rows)"
		}
		fmt.Fprintf(b, "  values of %s%s: %s\n", col, note, strings.Join(parts, ", "))
	}
	for _, row := range t.Samples.Values {
		parts := make([]string, len(t.Samples.Columns))
		for i, c := range t.Samples.Columns {
			v := cellText(row[i], 30)
			if s, ok := row[i].(string); ok && s != "NULL" {
				v = "'" + v + "'"
			}
			parts[i] = c + "=" + v
		}
		fmt.Fprintf(b, "  e.g. %s\n", cut(strings.Join(parts, ", "), 160))
	}
}

func plural(n int, word string) string { return plural64(int64(n), word) }

func plural64(n int64, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%s %ss", engine.GroupThousands(n), word)
}

// relationshipText is one relationship for people: "orders.customer_id →
// customers.id (inferred, 100% matched)".
func relationshipText(r profile.Relationship) string {
	var attrs []string
	if r.Inferred {
		attrs = append(attrs, "inferred")
	} else {
		attrs = append(attrs, "declared")
	}
	if r.Matched != nil {
		attrs = append(attrs, fmt.Sprintf("%.1f%% matched", *r.Matched*100))
	}
	if r.Confirmed {
		attrs = append(attrs, "confirmed")
	}
	if r.Dropped {
		attrs = append(attrs, "dropped")
	}
	return fmt.Sprintf("%s → %s (%s)", r.From, r.To, strings.Join(attrs, ", "))
}
