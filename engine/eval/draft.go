package eval

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"
	"unicode"

	"querent/engine"
	"querent/engine/schemactx"
	"querent/engine/words"
)

// DraftOptions configure Draft.
type DraftOptions struct {
	DB        engine.Database
	Model     engine.Model
	ModelName string
	// N is how many questions to keep (default 30).
	N int
	// SchemaBudget bounds the schema part of the prompt in tokens
	// (default schemactx.DefaultBudgetTokens).
	SchemaBudget int
	// Rounds is how many requests may be made to reach N (default 3).
	Rounds int
	// Progress, when set, hears how many questions are kept so far.
	Progress func(kept, want int)
}

// Drafted is a drafted gold set: the items that passed the checks and the
// ones dropped, with why.
type Drafted struct {
	Gold    *GoldSet
	Dropped []DroppedItem
	// Requests is the number of model requests made.
	Requests int
}

// DroppedItem is a drafted question that was not kept.
type DroppedItem struct {
	Question, SQL, Reason string
}

// draftSchema is the JSON schema of the model's drafted questions.
var draftSchema = json.RawMessage(`{"type":"object","properties":{"items":{"type":"array","items":{"type":"object","properties":{` +
	`"question":{"type":"string"},"difficulty":{"type":"string","enum":["easy","medium","hard"]},"sql":{"type":"string"}},` +
	`"required":["question","difficulty","sql"]}}},"required":["items"]}`)

const draftSystem = `You write test questions for evaluating a text-to-SQL system on one SQLite database. For each question, you also write the one SQLite SELECT statement that answers it exactly. You answer with JSON only.

Rules:
- Ask what an analyst would ask about this data, in plain language, each question with one clear answer. When the answer has more than one column, say which ("give the first and last names").
- Mix the difficulties: about a third easy (one table: a count, a filter, a list), a third medium (a join or a GROUP BY), a third hard (several joins, a subquery, HAVING, dates, a window function).
- Use only the tables and columns listed below, spelled exactly as there. Text compares exactly as stored: use the stored values shown.
- Use ORDER BY only when the question asks for an order or a top N, and for a top N choose N where no tie falls at the cut.
- Every query must return at least one row. No two questions may be the same.

Answer with this JSON object and nothing else:
{"items": [{"question": "…", "difficulty": "easy", "sql": "SELECT …"}]}

## The database: %s

%s`

// Draft asks the model for questions with their SQL about db's schema (at
// temperature 0, with a JSON-schema answer format), checks every drafted
// query through the guard, and keeps those that run and return rows, up to
// N. The result is a draft for a person to review, never a gold set as is.
func Draft(ctx context.Context, o DraftOptions) (*Drafted, error) {
	if o.N <= 0 {
		o.N = 30
	}
	if o.Rounds <= 0 {
		o.Rounds = 3
	}
	s, err := o.DB.Schema(ctx)
	if err != nil {
		return nil, err
	}
	sc := schemactx.PruneSchema(ctx, s, "", o.SchemaBudget, nil)
	system := fmt.Sprintf(draftSystem, displayName(o.DB.Name()), sc.Text)
	d := &Drafted{Gold: &GoldSet{Name: "draft", Database: displayName(o.DB.Name())}}
	seen := map[string]bool{}
	ids := map[string]bool{}
	var asked []string
	var lastErr error
	for round := 0; round < o.Rounds && len(d.Gold.Items) < o.N; round++ {
		want := o.N - len(d.Gold.Items)
		// Ask for a few more than needed: some will not pass the checks.
		ask := want + want/4 + 1
		user := fmt.Sprintf("Write %d questions with their SQL.", ask)
		if len(asked) > 0 {
			user = fmt.Sprintf("Write %d more questions with their SQL, different from these:\n- %s", ask, strings.Join(asked, "\n- "))
		}
		msgs := []engine.Message{{Role: "system", Content: system}, {Role: "user", Content: user}}
		predict := min(180*ask+512, 16384)
		tokens := predict + 256
		for _, m := range msgs {
			tokens += schemactx.EstimateTokens(m.Content) + 8
		}
		d.Requests++
		resp, err := o.Model.Chat(ctx, engine.ChatRequest{Model: o.ModelName, Messages: msgs, Format: draftSchema, Temperature: 0,
			NumCtx: min(max((tokens+2047)/2048*2048, 4096), 32768), NumPredict: predict})
		if err != nil {
			if engine.ErrorCode(err) != engine.CodeModelError {
				return nil, err
			}
			lastErr = err
			continue
		}
		items, perr := parseDraft(resp.Content)
		if perr != nil {
			lastErr = engine.Errorf(engine.CodeModelError, "the model's drafted questions were unusable: %v", perr).WithErr(perr)
			continue
		}
		for _, x := range items {
			q, sql := strings.TrimSpace(x.Question), strings.TrimSpace(x.SQL)
			if q == "" {
				continue
			}
			asked = append(asked, oneLine(q, 200))
			norm := strings.ToLower(strings.Join(strings.Fields(q), " "))
			switch {
			case len(d.Gold.Items) >= o.N:
				continue
			case seen[norm]:
				d.Dropped = append(d.Dropped, DroppedItem{q, sql, "repeats an earlier question"})
				continue
			case sql == "":
				d.Dropped = append(d.Dropped, DroppedItem{q, sql, "no SQL"})
				continue
			}
			seen[norm] = true
			res, rerr := o.DB.Run(ctx, sql, engine.RunOptions{MaxRows: 1000, Timeout: 10 * time.Second})
			if rerr != nil {
				if c := engine.ErrorCode(rerr); c == engine.CodeCancelled || c == engine.CodeDatabase {
					return nil, rerr
				}
				d.Dropped = append(d.Dropped, DroppedItem{q, sql, "does not run: " + engine.AsError(rerr).Message})
				continue
			}
			if len(res.Rows) == 0 {
				d.Dropped = append(d.Dropped, DroppedItem{q, sql, "returns no rows"})
				continue
			}
			diff := strings.ToLower(strings.TrimSpace(x.Difficulty))
			if diff != "easy" && diff != "medium" && diff != "hard" {
				diff = "medium"
			}
			d.Gold.Items = append(d.Gold.Items, &Item{ID: uniqueID(slug(q), ids), Question: q, Difficulty: diff, SQL: sql})
			if o.Progress != nil {
				o.Progress(len(d.Gold.Items), o.N)
			}
		}
	}
	if len(d.Gold.Items) == 0 {
		if lastErr != nil {
			return nil, lastErr
		}
		return nil, engine.Errorf(engine.CodeModelError, "none of the %d drafted questions had SQL that runs and returns rows", len(d.Dropped)).SayHint(
			words.New("eval.another_model", words.Model))
	}
	return d, nil
}

type draftItem struct {
	Question   string `json:"question"`
	Difficulty string `json:"difficulty"`
	SQL        string `json:"sql"`
}

func parseDraft(content string) ([]draftItem, error) {
	s := strings.TrimSpace(content)
	if i := strings.IndexByte(s, '{'); i > 0 {
		s = s[i:]
	}
	if j := strings.LastIndexByte(s, '}'); j >= 0 && j < len(s)-1 {
		s = s[:j+1]
	}
	var v struct {
		Items []draftItem `json:"items"`
	}
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		return nil, fmt.Errorf("not valid JSON: %v", err)
	}
	if len(v.Items) == 0 {
		return nil, fmt.Errorf("no items")
	}
	return v.Items, nil
}

func displayName(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		return name[i+1:]
	}
	return name
}

// slug makes an item id from a question: its first words, lowercase,
// joined by hyphens.
func slug(q string) string {
	var words []string
	for _, w := range strings.FieldsFunc(strings.ToLower(q), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		switch w {
		case "the", "a", "an", "of", "in", "is", "are", "what", "which", "how", "do", "does", "give", "their", "its", "and", "for", "to", "by":
			continue
		}
		words = append(words, w)
		if len(words) == 5 {
			break
		}
	}
	s := strings.Join(words, "-")
	if s == "" {
		s = "question"
	}
	return s
}

func uniqueID(base string, used map[string]bool) string {
	id := base
	for n := 2; used[id]; n++ {
		id = fmt.Sprintf("%s-%d", base, n)
	}
	used[id] = true
	return id
}

// FormatTOML writes a gold set as TOML in the format Parse reads, with
// header as comment lines at the top.
func FormatTOML(g *GoldSet, header []string) []byte {
	var b bytes.Buffer
	for _, h := range header {
		for _, l := range strings.Split(h, "\n") {
			b.WriteString(strings.TrimRight("# "+l, " ") + "\n")
		}
	}
	if len(header) > 0 {
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "database = %s\n", tomlString(g.Database))
	for _, it := range g.Items {
		fmt.Fprintf(&b, "\n[[item]]\nid = %s\nquestion = %s\ndifficulty = %s\n", tomlString(it.ID), tomlString(it.Question), tomlString(it.Difficulty))
		if it.Follows != "" {
			fmt.Fprintf(&b, "follows = %s\n", tomlString(it.Follows))
		}
		if it.Unanswerable != "" {
			fmt.Fprintf(&b, "unanswerable = %s\n", tomlString(it.Unanswerable))
			continue
		}
		fmt.Fprintf(&b, "sql = %s\n", tomlString(it.SQL))
		if len(it.Alternatives) > 0 {
			b.WriteString("alternatives = [")
			for i, a := range it.Alternatives {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString(tomlString(a))
			}
			b.WriteString("]\n")
		}
		if it.OrderMatters != nil {
			fmt.Fprintf(&b, "order_matters = %t\n", *it.OrderMatters)
		}
		if it.Ranking {
			b.WriteString("ranking = true\n")
		}
		if it.ExtraColumns {
			b.WriteString("extra_columns = true\n")
		}
	}
	return b.Bytes()
}

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if r < 0x20 || r == 0x7f {
				fmt.Fprintf(&b, `\u%04X`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// TOML is the drafted gold set as a file: a header telling the reader to
// review every item, the items, and the dropped drafts as comments.
func (d *Drafted) TOML(database, model string, now time.Time) []byte {
	header := []string{
		fmt.Sprintf("Gold set drafted by querent eval init from %s with %s on %s.", database, model, now.Format("2006-01-02")),
		"",
		"REVIEW EVERY ITEM BEFORE TRUSTING A SCORE. The model wrote both the questions and",
		"the SQL; each query was checked to run and return rows, not to be right. For each",
		"item: is the question clear, with one answer? Does the SQL answer exactly it?",
		"Fix or delete it. Then add what a model cannot draft well: alternatives (other",
		"right queries), order_matters/ranking/extra_columns where needed, follow-ups",
		"(follows = \"id\"), and questions the schema cannot answer (unanswerable = \"why\",",
		"instead of sql). The format is described in README.md, \"Evaluating models\".",
	}
	out := FormatTOML(d.Gold, header)
	if len(d.Dropped) > 0 {
		var b bytes.Buffer
		b.Write(out)
		b.WriteString("\n# Drafted but dropped:\n")
		for _, x := range d.Dropped {
			fmt.Fprintf(&b, "# - %s (%s)\n", oneLine(x.Question, 200), oneLine(x.Reason, 200))
			if x.SQL != "" {
				fmt.Fprintf(&b, "#   %s\n", oneLine(x.SQL, 400))
			}
		}
		out = b.Bytes()
	}
	return out
}

// WriteFile writes data to path atomically; an existing file is replaced
// only with force.
func WriteFile(path string, data []byte, force bool) error {
	if !force {
		if _, err := os.Stat(path); err == nil {
			return engine.Say(engine.CodeExport, words.New("eval.exists", words.Value(path))).SayHint(words.New("eval.replace", words.Force))
		} else if !errors.Is(err, fs.ErrNotExist) {
			return engine.Errorf(engine.CodeExport, "cannot write %s: %v", path, err).WithErr(err)
		}
	}
	if err := writeAtomic(path, data); err != nil {
		return engine.Errorf(engine.CodeExport, "%v", err).WithErr(err)
	}
	return nil
}
