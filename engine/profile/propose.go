package profile

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"querent/engine"
	"querent/engine/sensitive"
)

// proposeSchema is the JSON the model answers with.
var proposeSchema = json.RawMessage(`{"type":"object","properties":{"questions":{"type":"array","items":{"type":"object",` +
	`"properties":{"question":{"type":"string"},"sql":{"type":"string"}},"required":["question","sql"]}}},"required":["questions"]}`)

// languageNames name the languages in the model's prompt.
var languageNames = map[string]string{"en": "English", "fr": "French", "zh": "Chinese (简体中文)"}

// Propose asks a model for more questions over the profile (issue 26:
// "with a model, the model proposes more"): the prompt is the profile's
// summary — tables, columns, their figures and joins, the values of the
// columns marked sensitive left out (the model is a guest) — and the model
// answers up to n questions with their SQL, in language. Nothing it writes
// is trusted: each SQL runs through db.Run (the guard, SuggestRows rows,
// timeout each), and only those that run and return rows are kept, those
// asked already (have) left out. Kind is "model".
func Propose(ctx context.Context, db engine.Database, p *Database, model engine.Model, modelName, language string, n int,
	have []Suggestion, timeout time.Duration) ([]Suggestion, error) {
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	if _, ok := languageNames[language]; !ok {
		language = "en"
	}
	dialect := "SQLite"
	if db.Dialect() != "" && db.Dialect() != "sqlite" {
		dialect = "PostgreSQL"
	}
	sys := fmt.Sprintf("You suggest questions an analyst would ask of a %s database they have just opened, each with one read-only "+
		"%s SELECT that answers it, using only the tables and columns below. Prefer questions over the main tables and their joins: "+
		"a count by a category, a measure over time, a top 10 through a join, a share, an outlier. Write each question in %s, "+
		"short and plain. Answer with JSON only: {\"questions\": [{\"question\": \"…\", \"sql\": \"…\"}]}.",
		dialect, dialect, languageNames[language])
	req := engine.ChatRequest{Model: modelName, Format: proposeSchema, Temperature: 0, NumPredict: 1500, NumCtx: 8192,
		Messages: []engine.Message{{Role: "system", Content: sys},
			{Role: "user", Content: summary(p, sensitive.Of(db), have) + fmt.Sprintf("\nSuggest %d more questions.", n)}}}
	resp, err := model.Chat(ctx, req)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Questions []struct{ Question, SQL string } `json:"questions"`
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(resp.Content)), &doc); err != nil {
		return nil, engine.Errorf(engine.CodeModelError, "the model's suggestions are not the JSON asked for: %v", err).WithErr(err)
	}
	seen := map[string]bool{}
	for _, s := range have {
		seen[strings.ToLower(strings.TrimSpace(s.Question))] = true
		seen[strings.ToLower(strings.Join(strings.Fields(s.SQL), " "))] = true
	}
	out := []Suggestion{}
	for _, q := range doc.Questions {
		if len(out) >= n {
			break
		}
		qk, sk := strings.ToLower(strings.TrimSpace(q.Question)), strings.ToLower(strings.Join(strings.Fields(q.SQL), " "))
		if qk == "" || sk == "" || seen[qk] || seen[sk] {
			continue
		}
		seen[qk], seen[sk] = true, true
		res, err := db.Run(ctx, q.SQL, engine.RunOptions{MaxRows: SuggestRows, Timeout: timeout})
		if err != nil {
			if ctx.Err() != nil {
				return out, engine.AsError(ctx.Err())
			}
			continue // refused, or does not compile: not shown
		}
		if len(res.Rows) == 0 {
			continue
		}
		names := make([]string, len(res.Columns))
		for i, col := range res.Columns {
			names[i] = col.Name
		}
		out = append(out, Suggestion{Question: strings.TrimSpace(q.Question), SQL: q.SQL, RowCount: len(res.Rows), Kind: "model",
			Columns: res.Columns, Rows: engine.Rows{Columns: names, Values: res.Rows}})
	}
	return out, nil
}

// summary is the profile as the model reads it: each table's rows and
// columns (type, distinct values, NULLs, a few top values and the range,
// none of a marked column), the joins, and the questions suggested
// already.
func summary(p *Database, set *sensitive.Set, have []Suggestion) string {
	var b strings.Builder
	for _, t := range p.Tables {
		mt, _ := t.Masked(set)
		fmt.Fprintf(&b, "Table %s (%d rows):\n", mt.Name, mt.Rows)
		for _, c := range mt.Columns {
			fmt.Fprintf(&b, "- %s %s: %d distinct, %d NULL", c.Name, firstOf(c.Observed, c.Type), c.Distinct, c.Nulls)
			if c.Sensitive {
				b.WriteString(" (sensitive: values not shown)\n")
				continue
			}
			if c.Min.V != nil && c.Max.V != nil {
				fmt.Fprintf(&b, ", from %v to %v", c.Min.V, c.Max.V)
			}
			if len(c.Top) > 0 && c.Distinct <= 50 {
				var tops []string
				for _, tv := range c.Top[:min(len(c.Top), 5)] {
					tops = append(tops, fmt.Sprintf("%v", tv.Value))
				}
				fmt.Fprintf(&b, "; e.g. %s", strings.Join(tops, ", "))
			}
			b.WriteString("\n")
		}
	}
	if len(p.Relationships) > 0 {
		b.WriteString("Joins:\n")
		for _, r := range p.Relationships {
			fmt.Fprintf(&b, "- %s = %s\n", r.From, r.To)
		}
	}
	if len(have) > 0 {
		b.WriteString("Already suggested (do not repeat):\n")
		for _, s := range have {
			fmt.Fprintf(&b, "- %s\n", s.Question)
		}
	}
	return b.String()
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
