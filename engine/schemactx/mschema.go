package schemactx

// The M-Schema-like form: a table as one header line and one line per
// column (its type, its keys, a few example values), after XiYan-SQL's
// M-Schema. It reads closer to what a model is asked (which column holds
// what) than DDL with sample rows, in about as many tokens; which of the
// two a small model answers better from is what querent eval --compare
// measures (issue 23 §4).

import (
	"strings"

	"querent/engine"
)

// The forms a schema is rendered in (RenderOptions.Form).
const (
	// FormDDL is compact DDL with comment lines (the default).
	FormDDL = "ddl"
	// FormMSchema is the M-Schema-like form (renderMSchema).
	FormMSchema = "mschema"
)

// Forms are the forms a schema is rendered in, the default first.
var Forms = []string{FormDDL, FormMSchema}

// maxExampleValues caps the example values of one column in the
// M-Schema form.
const maxExampleValues = 3

// renderMSchema renders t in the M-Schema-like form:
//
//	# Table: Invoice, 412 rows
//	(InvoiceId: INTEGER, primary key, examples: [1, 2, 3])
//	(CustomerId: INTEGER, not null, references Customer(CustomerId), examples: [2, 4, 8])
//	(BillingCountry: NVARCHAR(40), values: ['Argentina', 'Australia', …])
//
// A low-cardinality column lists its distinct values (at most
// maxListedValues), another up to maxExampleValues distinct values from
// the sample rows (none when opts.SampleRows is 0, as when a pruned schema
// must save room; none either when bare). Names, types and values are
// cleaned as RenderTable cleans them, so nothing stored in the database
// ends a line; the prompt frames the values as data.
func renderMSchema(t *engine.Table, opts RenderOptions, bare bool) string {
	var b strings.Builder
	kind := "Table"
	if strings.EqualFold(t.Kind, "view") {
		kind = "View"
	}
	b.WriteString("# " + kind + ": " + TableIdent(opts.Dialect, t.Name))
	switch {
	case t.RowCount < 0:
	case t.RowCountEstimated:
		b.WriteString(", about " + itoa(t.RowCount) + " rows")
	case t.RowCount == 1:
		b.WriteString(", 1 row")
	default:
		b.WriteString(", " + itoa(t.RowCount) + " rows")
	}
	if c := cutRunes(Clean(strings.TrimSpace(t.Comment)), maxCommentRunes); c != "" && !bare {
		b.WriteString(": " + c)
	}
	singlePK := hasSinglePK(t)
	refs := columnRefs(t)
	for _, c := range t.Columns {
		if c.Generated == "hidden" {
			continue
		}
		b.WriteString("\n(")
		b.WriteString(mschemaColumn(t, c, opts, singlePK && c.PK > 0, refs, bare))
		b.WriteByte(')')
	}
	if !singlePK && len(t.PrimaryKey) > 1 {
		keys := make([]string, len(t.PrimaryKey))
		for i, k := range t.PrimaryKey {
			keys[i] = Ident(opts.Dialect, k)
		}
		b.WriteString("\nprimary key: (" + strings.Join(keys, ", ") + ")")
	}
	return b.String()
}

// mschemaColumn is one column's line, without its parentheses.
func mschemaColumn(t *engine.Table, c *engine.TableColumn, opts RenderOptions, pk bool, refs map[string]engine.ForeignKey, bare bool) string {
	parts := []string{Ident(opts.Dialect, c.Name) + ": " + shortType(c.Type)}
	if shortType(c.Type) == "" {
		parts[0] = Ident(opts.Dialect, c.Name)
	}
	switch {
	case pk:
		parts = append(parts, "primary key")
	case !c.Nullable && !strings.EqualFold(t.Kind, "view"):
		parts = append(parts, "not null")
	}
	if r, ok := refs[strings.ToLower(c.Name)]; ok {
		ref := "references " + refText(opts.Dialect, r.References)
		if r.Inferred {
			ref += " (inferred from the values)"
		}
		parts = append(parts, ref)
	}
	if bare {
		return strings.Join(parts, ", ")
	}
	if n := cutRunes(Clean(strings.TrimSpace(c.Comment)), maxCommentRunes); n != "" {
		parts = append(parts, "description: "+Quote(n, maxCommentRunes))
	}
	if c.OriginalName != nil && *c.OriginalName != "" && *c.OriginalName != c.Name {
		parts = append(parts, "header: "+literal(*c.OriginalName, opts.MaxValue))
	}
	if c.BadValues > 0 {
		parts = append(parts, itoa(c.BadValues)+" NULLs were bad values when imported")
	}
	if vals := t.DistinctValues.Get(c.Name); len(vals) > 0 {
		parts = append(parts, "values: "+literalList(vals, maxListedValues, opts.MaxValue))
	} else if ex := sampleValues(t, c.Name, opts.SampleRows); len(ex) > 0 {
		parts = append(parts, "examples: "+literalList(ex, maxExampleValues, opts.MaxValue))
	}
	return strings.Join(parts, ", ")
}

// sampleValues are the distinct non-NULL values of column name in the
// first n sample rows.
func sampleValues(t *engine.Table, name string, n int) []engine.Value {
	j := -1
	for i, col := range t.Samples.Columns {
		if col == name {
			j = i
			break
		}
	}
	if j < 0 {
		return nil
	}
	var out []engine.Value
	seen := map[string]bool{}
	for i, row := range t.Samples.Values {
		if i == n {
			break
		}
		if j >= len(row) || row[j] == nil {
			continue
		}
		if l := literal(row[j], 1<<20); !seen[l] {
			seen[l] = true
			out = append(out, row[j])
		}
	}
	return out
}

// literalList is "[v1, v2, …]": at most max values as literals.
func literalList(vals []engine.Value, max, maxValue int) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, v := range vals {
		if i == max {
			b.WriteString(", …")
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(literal(v, maxValue))
	}
	b.WriteByte(']')
	return b.String()
}

func itoa(n int64) string { return literal(n, 0) }
