package ask

import (
	"context"
	"strings"

	"querent/engine"
	"querent/engine/sensitive"
	"querent/engine/sqltext"
)

// What a model is given of the columns the analyst marked sensitive
// (issue 28): their names and types, so that it can select them, never
// their values. The connection knows its marks (sensitive.Of); each
// result's columns are marked by the database's own column metadata, so
// the rows the model explains come masked (Answer.Masked), and so do:
//   - the schema's sample rows and distinct values (set.MaskSchema),
//   - the stored values the question may name, which are never indexed
//     (valueSchema), and so never hinted nor checked,
//   - the verified examples that read a marked column: their text
//     literals, and those literals where the question quotes them
//     (maskExamples).

// marks are the connection's marked columns (nil: none).
func (a *Asker) marks() *sensitive.Set { return sensitive.Of(a.DB) }

// hide is what a run of the question hides (engine.RunOptions.Hide): the
// marked columns for an agent, nothing for the analyst.
func (a *Asker) hide(opts Options) []string {
	if !opts.ForAgent {
		return nil
	}
	return a.marks().Columns()
}

// valueSchema is s without the marked columns: what the index of stored
// values reads, so that no value of theirs is ever indexed.
func valueSchema(s *engine.Schema, set *sensitive.Set) *engine.Schema {
	if set.Empty() || s == nil {
		return s
	}
	out := *s
	out.Tables = make([]*engine.Table, len(s.Tables))
	for i, t := range s.Tables {
		if !set.Table(t.Name) {
			out.Tables[i] = t
			continue
		}
		c := *t
		c.Columns = nil
		for _, col := range t.Columns {
			if !set.Has(t.Name, col.Name) {
				c.Columns = append(c.Columns, col)
			}
		}
		c.DistinctValues = engine.DistinctValues{}
		for j, name := range t.DistinctValues.Columns {
			if !set.Has(t.Name, name) && j < len(t.DistinctValues.Values) {
				c.DistinctValues.Add(name, t.DistinctValues.Values[j])
			}
		}
		out.Tables[i] = &c
	}
	return &out
}

// maskExamples masks the verified examples that read a marked column (as
// the database compiles them, or as their text names one): each text
// literal of their SQL, and the same text where their question quotes it.
func (a *Asker) maskExamples(ctx context.Context, es []engine.HistoryEntry) []engine.HistoryEntry {
	set := a.marks()
	if set.Empty() || len(es) == 0 {
		return es
	}
	out := make([]engine.HistoryEntry, len(es))
	for i, e := range es {
		out[i] = e
		reads := true // an example that cannot be compiled is taken as reading one
		if v, err := a.DB.Validate(ctx, e.SQL); err == nil {
			reads = set.Reads(v.ColumnsRead) || set.Names(e.SQL, v.Tables)
		}
		if reads {
			out[i].SQL, out[i].Question = maskLiterals(e.SQL, e.Question)
		}
	}
	return out
}

// maskLiterals replaces each text literal of sql by engine.MaskText's
// literal, and the literal's text (without its % and _ wildcards) where
// question holds it.
func maskLiterals(sql, question string) (string, string) {
	var b strings.Builder
	last := 0
	for _, tok := range sqltext.Lex(sql) {
		if tok.Kind != sqltext.String {
			continue
		}
		lit := strings.ReplaceAll(sql[tok.Start+1:max(tok.End-1, tok.Start+1)], "''", "'")
		b.WriteString(sql[last:tok.Start])
		b.WriteString(sqltext.QuoteString(engine.MaskText))
		last = tok.End
		if bare := strings.Trim(lit, "%_ "); len(bare) >= 3 {
			question = replaceFold(question, bare, engine.MaskText)
		}
	}
	b.WriteString(sql[last:])
	return b.String(), question
}

// replaceFold replaces every occurrence of old in s, in any case.
func replaceFold(s, old, repl string) string {
	ls, lo := strings.ToLower(s), strings.ToLower(old)
	if len(ls) != len(s) || !strings.Contains(ls, lo) {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(ls, lo)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		b.WriteString(repl)
		s, ls = s[i+len(old):], ls[i+len(old):]
	}
}

// marksKey tells apart two sets of marks, for the index of stored values
// built under one of them.
func marksKey(set *sensitive.Set) string { return strings.Join(set.Columns(), "\x00") }
