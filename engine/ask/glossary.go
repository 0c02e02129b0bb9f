package ask

import (
	"context"
	"strings"

	"querent/engine"
	"querent/engine/glossary"
	"querent/engine/schemactx"
)

// Glossary gives the entries of the analyst's glossary that a question
// uses (engine/glossary's Glossary.Used): current ones only, a stale
// entry (its SQL no longer compiles) left out.
type Glossary interface {
	Used(ctx context.Context, db engine.Database, question string) ([]glossary.Entry, error)
}

var _ Glossary = (*glossary.Glossary)(nil)

// glossaryUsed returns the glossary's entries that question uses, and a
// warning when the glossary could not be read (the question is answered
// without it).
func (a *Asker) glossaryUsed(ctx context.Context, question string) ([]glossary.Entry, string) {
	if a.Glossary == nil {
		return nil, ""
	}
	used, err := a.Glossary.Used(ctx, a.DB, question)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ""
		}
		return nil, "the glossary was not read, so the question is answered without it: " + engine.AsError(err).Message
	}
	return used, ""
}

// glossaryUses is what the answer lists of the entries used.
func glossaryUses(used []glossary.Entry) []engine.GlossaryUse {
	out := make([]engine.GlossaryUse, len(used))
	for i, e := range used {
		out[i] = e.Use()
	}
	return out
}

// glossaryLines are the entries as the question's prompt says them:
//
//	"active customer" (also "active client"): a customer with an invoice this year
//	  SQL (a condition, for WHERE): Customer.CustomerId IN (SELECT …)
func glossaryLines(used []glossary.Entry) []string {
	var out []string
	for _, e := range used {
		var b strings.Builder
		b.WriteString(`"` + schemactx.Clean(e.Term) + `"`)
		if len(e.Synonyms) > 0 {
			qs := make([]string, len(e.Synonyms))
			for i, s := range e.Synonyms {
				qs[i] = `"` + schemactx.Clean(s) + `"`
			}
			b.WriteString(" (also " + strings.Join(qs, ", ") + ")")
		}
		b.WriteString(": " + schemactx.Clean(e.Meaning))
		if e.SQL != "" {
			b.WriteString("\n  SQL (" + kindWords[e.Kind] + "): " + promptSQL(e.SQL))
		}
		out = append(out, b.String())
	}
	return out
}

// kindWords say what an entry's SQL is, for the model.
var kindWords = map[string]string{
	glossary.KindQuery:      "a whole query",
	glossary.KindCondition:  "a condition, for WHERE",
	glossary.KindExpression: "an expression, a value",
	"":                      "SQL",
}

// promptSQL is an entry's SQL on one line, or, when it holds -- comments
// (which end at the line's end), on its own indented lines.
func promptSQL(sql string) string {
	if !strings.Contains(sql, "--") {
		return schemactx.Clean(strings.Join(strings.Fields(sql), " "))
	}
	lines := strings.Split(strings.ReplaceAll(sql, "\r\n", "\n"), "\n")
	for i, l := range lines {
		lines[i] = "    " + schemactx.Clean(strings.TrimRight(l, " \t\r"))
	}
	return "\n" + strings.Join(lines, "\n")
}

// glossaryPromises are the entries used as the confidence's promises: a
// condition's or an expression's SQL is expected in the answer's SQL
// (spaces and case aside, so "i.Total > 20" keeps "Total > 20"); a whole
// query, or words without SQL, promise nothing the SQL can be held to.
func glossaryPromises(used []glossary.Entry) []Promise {
	var ps []Promise
	for _, e := range used {
		if e.SQL == "" || e.Kind == glossary.KindQuery {
			continue
		}
		ps = append(ps, Promise{Term: e.Term, Source: "glossary", Expected: e.SQL, Fragments: []string{e.SQL}})
	}
	return ps
}
