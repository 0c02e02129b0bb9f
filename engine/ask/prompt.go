package ask

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"text/template"

	"querent/engine"
)

//go:embed prompts/*.tmpl
var promptFS embed.FS

// prompts are the ask loop's prompt templates, kept as files so that they
// read as prose and are golden-tested.
var prompts = template.Must(template.New("").ParseFS(promptFS, "prompts/*.tmpl"))

// renderPrompt fills one template; the templates are fixed, so a failure is a bug.
func renderPrompt(name string, data any) string {
	var b bytes.Buffer
	if err := prompts.ExecuteTemplate(&b, name, data); err != nil {
		panic(fmt.Sprintf("prompt %s: %v", name, err))
	}
	return strings.TrimSpace(b.String())
}

// SystemPrompt is the system message about one database: the rules, the
// style examples and the database — the part of every request that is the
// same for every question on the database, byte for byte, so that the
// model server evaluates it once and keeps it (Ollama reuses the longest
// prefix it already holds). When the schema has to be pruned, each
// question's tables go into its QuestionPrompt instead.
type SystemPrompt struct {
	// Dialect is the database's SQL dialect ("sqlite" or "postgresql"):
	// the rules and examples are that dialect's.
	Dialect     string
	Database    string
	Schema      string // rendered tables (schemactx.Context.Text); "" when pruned
	TotalTables int
	Pruned      bool
	Today       string
	// Form is the tables' form (schemactx.FormDDL, "" or FormMSchema).
	Form string
}

// Render returns the system message.
func (p SystemPrompt) Render() string { return renderPrompt("system.tmpl", p) }

// QuestionPrompt is the last message of a request: what is particular to
// one question (its pruned tables, the stored values it mentions, similar
// questions answered before), then the question itself, last.
type QuestionPrompt struct {
	Schema      string
	Tables      []*engine.Table
	TotalTables int
	Hints       []string
	// Glossary is the analyst's glossary entries the question uses, as
	// the prompt says them.
	Glossary []string
	Examples []engine.HistoryEntry
	// Earlier says what the conversation's previous queries returned.
	Earlier  []string
	Question string
}

// Render returns the question's message.
func (p QuestionPrompt) Render() string { return renderPrompt("question.tmpl", p) }

// sqlSchema is the JSON schema of the model's first answer (design.md,
// "The model's structured answer"): the SQL in a string named sql, first,
// so that it can run as soon as it is written, and the two ways to decline,
// empty when unused.
var sqlSchema = json.RawMessage(`{"type":"object","properties":{` +
	`"sql":{"type":"string"},` +
	`"clarification_question":{"type":"string"},` +
	`"unanswerable_reason":{"type":"string"}},` +
	`"required":["sql","clarification_question","unanswerable_reason"]}`)

// explainSchema is the JSON schema of the second answer, written after the
// rows are shown, from the rows.
var explainSchema = json.RawMessage(`{"type":"object","properties":{` +
	`"explanation":{"type":"string"},` +
	`"follow_up_questions":{"type":"array","items":{"type":"string"}}},` +
	`"required":["explanation","follow_up_questions"]}`)

// AnswerSchema returns the JSON schema of the model's SQL answer.
func AnswerSchema() json.RawMessage { return append(json.RawMessage(nil), sqlSchema...) }

// ExplainSchema returns the JSON schema of the model's explanation.
func ExplainSchema() json.RawMessage { return append(json.RawMessage(nil), explainSchema...) }

// ModelAnswer is the model's structured answer: the SQL (or a way to
// decline) from the first request, the explanation and follow-up questions
// from the second.
type ModelAnswer struct {
	SQL           string   `json:"sql"`
	Explanation   string   `json:"explanation"`
	FollowUps     []string `json:"follow_up_questions"`
	Clarification string   `json:"clarification_question"`
	Unanswerable  string   `json:"unanswerable_reason"`
}

// ParseModelAnswer reads a model's answer. It tolerates what small models
// add around JSON (code fences, a sentence before it); it returns an error
// saying what is wrong otherwise, which the repair prompt passes on.
func ParseModelAnswer(content string) (*ModelAnswer, error) {
	s := strings.TrimSpace(content)
	if s == "" {
		return nil, fmt.Errorf("the answer was empty")
	}
	if i := strings.IndexByte(s, '{'); i > 0 {
		s = s[i:]
	}
	if j := strings.LastIndexByte(s, '}'); j >= 0 && j < len(s)-1 {
		s = s[:j+1]
	}
	var a ModelAnswer
	dec := json.NewDecoder(strings.NewReader(s))
	if err := dec.Decode(&a); err != nil {
		return nil, fmt.Errorf("not valid JSON: %v", err)
	}
	a.SQL = strings.TrimSpace(a.SQL)
	a.Explanation = strings.TrimSpace(a.Explanation)
	a.Clarification = strings.TrimSpace(a.Clarification)
	a.Unanswerable = strings.TrimSpace(a.Unanswerable)
	var fu []string
	for _, q := range a.FollowUps {
		if q = strings.TrimSpace(q); q != "" && len(fu) < 3 {
			fu = append(fu, q)
		}
	}
	a.FollowUps = fu
	if a.SQL == "" && a.Clarification == "" && a.Unanswerable == "" {
		return nil, fmt.Errorf(`"sql" was empty, and neither a clarifying question nor a reason was given`)
	}
	return &a, nil
}

// parseExplanation reads the model's second answer: the explanation and up
// to three follow-up questions.
func parseExplanation(content string) (*ModelAnswer, error) {
	s := strings.TrimSpace(content)
	if i := strings.IndexByte(s, '{'); i > 0 {
		s = s[i:]
	}
	var a ModelAnswer
	if err := json.NewDecoder(strings.NewReader(s)).Decode(&a); err != nil {
		return nil, fmt.Errorf("the explanation was not valid JSON: %v", err)
	}
	a.Explanation = strings.TrimSpace(a.Explanation)
	if a.Explanation == "" {
		return nil, fmt.Errorf("the explanation was empty")
	}
	var fu []string
	for _, q := range a.FollowUps {
		if q = strings.TrimSpace(q); q != "" && len(fu) < 3 {
			fu = append(fu, q)
		}
	}
	a.FollowUps = fu
	if a.FollowUps == nil {
		a.FollowUps = []string{}
	}
	return &a, nil
}

// explainSummary is what the explanation request shows of a result: the
// row count, the columns, the first rows and each column's statistics — a
// few hundred tokens however large the result, so that the model can say
// what the result means without reading all of it.
func explainSummary(ans *engine.Answer) string {
	var b strings.Builder
	switch {
	case ans.Truncated:
		fmt.Fprintf(&b, "More than %d rows (the first %d are kept).\n", ans.RowCount, ans.RowCount)
	case ans.RowCount == 1:
		b.WriteString("1 row.\n")
	default:
		fmt.Fprintf(&b, "%d rows.\n", ans.RowCount)
	}
	if len(ans.Columns) == 0 {
		return b.String()
	}
	names := make([]string, len(ans.Columns))
	for i, c := range ans.Columns {
		names[i] = c.Name
	}
	b.WriteString("Columns: " + strings.Join(names, " | ") + "\n")
	n := min(len(ans.Results.Values), 8)
	if n > 0 {
		b.WriteString("First rows:\n")
	}
	for _, row := range ans.Results.Values[:n] {
		cells := make([]string, len(row))
		for j, v := range row {
			cells[j] = summaryCell(v)
		}
		b.WriteString(strings.Join(cells, " | ") + "\n")
	}
	if ans.RowCount > n {
		b.WriteString("Statistics of all the rows:\n")
		for _, c := range ans.Columns {
			st := ans.Stats.Get(c.Name)
			if st == nil {
				continue
			}
			line := fmt.Sprintf("- %s: %d values, %d distinct", c.Name, st.Count, st.Distinct)
			if st.Mean != nil {
				line += fmt.Sprintf(", min %s, max %s, mean %s, total about %s", summaryCell(st.Min), summaryCell(st.Max),
					engine.FormatFloat(round3(*st.Mean)), engine.FormatFloat(round3(*st.Mean*float64(st.Count))))
			} else if len(st.TopValues) > 0 {
				var tops []string
				for _, tv := range st.TopValues[:min(3, len(st.TopValues))] {
					tops = append(tops, fmt.Sprintf("%s (%d)", summaryCell(tv.Value), tv.Count))
				}
				line += ", most frequent " + strings.Join(tops, ", ")
			}
			b.WriteString(line + "\n")
		}
	}
	return strings.TrimSpace(b.String())
}

// summaryCell shows one value in the summary: text cut at 40 characters.
func summaryCell(v engine.Value) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case string:
		if r := []rune(x); len(r) > 40 {
			return string(r[:40]) + "…"
		}
		return x
	case float64:
		return engine.FormatFloat(round3(x))
	case []byte:
		return fmt.Sprintf("<%d bytes>", len(x))
	}
	return fmt.Sprint(v)
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }
