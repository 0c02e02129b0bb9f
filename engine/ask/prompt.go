package ask

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"querent/engine"
	"sort"
	"strings"
	"text/template"
	"unicode"
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

// SystemPrompt is what the system message says about one database.
type SystemPrompt struct {
	Database      string
	Schema        string // rendered tables (schemactx.SchemaContext.Text)
	Tables        []*engine.Table
	TotalTables   int
	Pruned        bool
	Today         string
	Hints         []string
	Examples      []engine.HistoryEntry
	StyleExamples bool
}

// Render returns the system message.
func (p SystemPrompt) Render() string { return renderPrompt("system.tmpl", p) }

// answerSchema is the JSON schema of the model's structured answer
// (design.md, "The model's structured answer"): the SQL in a string named
// sql, and every other property empty when unused.
var answerSchema = json.RawMessage(`{"type":"object","properties":{` +
	`"sql":{"type":"string"},` +
	`"explanation":{"type":"string"},` +
	`"follow_up_questions":{"type":"array","items":{"type":"string"}},` +
	`"clarification_question":{"type":"string"},` +
	`"unanswerable_reason":{"type":"string"}},` +
	`"required":["sql","explanation","follow_up_questions","clarification_question","unanswerable_reason"]}`)

// AnswerSchema returns the JSON schema the model's answers follow.
func AnswerSchema() json.RawMessage { return append(json.RawMessage(nil), answerSchema...) }

// ModelAnswer is the model's structured answer.
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

// promptWords splits text into lowercase words of letters and digits.
func promptWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// chooseExamples picks the past questions most like this one (by shared
// words, rarer words weighing more), at most n, ignoring the question itself.
func chooseExamples(question string, past []engine.HistoryEntry, n int) []engine.HistoryEntry {
	q := map[string]bool{}
	for _, w := range promptWords(question) {
		if !promptStopWord(w) {
			q[w] = true
		}
	}
	df := map[string]int{}
	for _, e := range past {
		seen := map[string]bool{}
		for _, w := range promptWords(e.Question) {
			if !seen[w] {
				seen[w] = true
				df[w]++
			}
		}
	}
	type scored struct {
		e     engine.HistoryEntry
		score float64
		i     int
	}
	var ss []scored
	for i, e := range past {
		if strings.EqualFold(strings.TrimSpace(e.Question), strings.TrimSpace(question)) {
			continue
		}
		score := 0.0
		seen := map[string]bool{}
		for _, w := range promptWords(e.Question) {
			if q[w] && !seen[w] {
				seen[w] = true
				score += 1 / float64(df[w])
			}
		}
		if score > 0 {
			ss = append(ss, scored{e, score, i})
		}
	}
	sort.SliceStable(ss, func(i, j int) bool { return ss[i].score > ss[j].score })
	var out []engine.HistoryEntry
	for i := 0; i < len(ss) && i < n; i++ {
		out = append(out, ss[i].e)
	}
	return out
}

var promptStopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an the of in on at by for to from with and or is are was were be been what which who
		whom whose how many much show list give me all each per do does did there their its it this that these those
		as than then please tell find get`) {
		promptStopWords[w] = true
	}
}

func promptStopWord(w string) bool { return promptStopWords[w] }
