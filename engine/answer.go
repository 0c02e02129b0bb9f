package engine

import (
	"math"
	"time"

	"querent/engine/words"
)

// ReasonLanguages are the languages a chart's reason is said in
// (ChartSuggestion.Reasons), and an import's reasons (ImportColumn.Reasons,
// SkippedColumn.Reasons, PlanColumn.SkipReasons): those of the page and of
// the exported workbook's own words (words.Languages).
var ReasonLanguages = words.Languages

// Answer is the sub-agent output document of the contract: what
// `querent sql --format json` and `querent ask --format json` print, and what
// the MCP server and the browser mode return. Every field is always present.
type Answer struct {
	Question                *string         `json:"question"`
	Query                   string          `json:"query"`
	ExecutedSQL             string          `json:"executed_sql"`
	Columns                 []Column        `json:"columns"`
	Results                 Rows            `json:"results"`
	RowCount                int             `json:"row_count"`
	Truncated               bool            `json:"truncated"`
	ExecutionTimeS          float64         `json:"execution_time_s"`
	Stats                   ColumnStatsList `json:"stats"`
	OptimizationHints       []string        `json:"optimization_hints"`
	VisualizationSuggestion string          `json:"visualization_suggestion"`
	VisualizationReason     string          `json:"visualization_reason"`
	// VisualizationReasons is VisualizationReason in each language the
	// page speaks (ReasonLanguages: en, fr, zh), the column names as they
	// are. An addition to the contract's fields; empty when no rows ran.
	VisualizationReasons map[string]string `json:"visualization_reasons"`
	// Visualization is the chart the rows suit, in the shape a face draws
	// it: type, x, y, the series column of long data, and the x-axis
	// (time, number or category). An addition to the contract's fields,
	// beside visualization_suggestion (which is its type).
	Visualization     *Visualization `json:"visualization"`
	Explanation       string         `json:"explanation"`
	FollowUpQuestions []string       `json:"follow_up_questions"`
	TablesUsed        []string       `json:"tables_used"`
	SessionContext    map[string]any `json:"session_context"`
	// ContextUsed are the earlier questions of the session that this
	// question was read with (a follow-up: "and for 2012?"), oldest
	// first; empty when it was read on its own (issue 25).
	ContextUsed []Turn    `json:"context_used"`
	Model       *string   `json:"model"`
	Attempts    []Attempt `json:"attempts"`
	// TimeToRowsS is the time from the question to its rows (the SQL run),
	// null for direct SQL.
	TimeToRowsS *float64 `json:"time_to_rows_s"`
	// ModelStats is what each model round cost, as the model server counts
	// it; null for direct SQL.
	ModelStats *ModelStats `json:"model_stats"`
	// Confidence is how sure Querent is of the answer, and the other
	// results that readings of the question gave (engine/confidence.go);
	// null for direct SQL and for a question that got no rows.
	Confidence *Confidence `json:"confidence"`
	Errors     []ErrorDoc  `json:"errors"`
	// Warnings are facts about the database the user should know (a
	// snapshot of a WAL file, a skipped integrity check) or about the query
	// (double-quoted text read as text). An addition to the contract's
	// fields; always present, usually empty.
	Warnings []string `json:"warnings"`
	// WarningWords are warnings said in parts (package words), for the
	// faces: never in a document.
	WarningWords []words.Sentence `json:"-"`
	// WarningsSaid is what a face that speaks several languages adds: each
	// of Warnings in each language, in its words (the page); absent from
	// the command line's documents.
	WarningsSaid []words.Said `json:"warnings_said,omitempty"`
	// TablesShown lists the tables the model's prompt showed (all of them,
	// or those schema pruning chose on a large database); empty for direct
	// SQL. An addition to the contract's fields.
	TablesShown []string `json:"tables_shown"`
	// ExamplesUsed lists the verified questions and SQL the prompt quoted
	// to the model as examples (only answers the analyst approved or
	// corrected, on this database); empty for direct SQL. An addition to
	// the contract's fields.
	ExamplesUsed []ExampleUsed `json:"examples_used"`
	// GlossaryUsed lists the entries of the analyst's glossary that the
	// model's prompt carried: those whose term the question uses (empty
	// for direct SQL). An addition to the contract's fields.
	GlossaryUsed []GlossaryUse `json:"glossary_used"`
	// MaskedColumns names the result columns whose values this document
	// carries masked (MaskText): columns the analyst marked sensitive, or
	// computed from one, in what an agent is given (MCP, ask --input) and
	// what a model saw. Empty where the values are shown (the analyst's
	// own command line and page mark them instead: Column.Sensitive). An
	// addition to the contract's fields.
	MaskedColumns []string `json:"masked_columns"`
}

// GlossaryUse is one entry of the analyst's glossary that an answer used
// (engine/glossary): the term, what it means, and its SQL ("" when it has
// none).
type GlossaryUse struct {
	Term    string `json:"term"`
	Meaning string `json:"meaning"`
	SQL     string `json:"sql"`
}

// ModelStats is what the model rounds of one answer cost.
type ModelStats struct {
	Rounds []ModelRound `json:"rounds"`
}

// ModelRound is one request to the model: writing the SQL, repairing it or
// explaining the result.
type ModelRound struct {
	// Stage is "sql", "repair", "vote" (another reading of the question,
	// drawn after the rows when the answer is doubtful) or "explain".
	Stage string `json:"stage"`
	// PromptTokens is the prompt's length in the model's tokens (Ollama's
	// prompt_eval_count). PromptTokensEvaluated is the part the server had
	// to evaluate: what follows the prefix it still held from the previous
	// request. Ollama 0.17 counts the whole prompt even when it reuses that
	// prefix, so Querent computes the new part itself, from the previous
	// request's text (PromptEvalS, the server's own time, confirms it).
	PromptTokens          int `json:"prompt_tokens"`
	PromptTokensEvaluated int `json:"prompt_tokens_evaluated"`
	// PromptEvalS is the time the server spent evaluating the prompt.
	PromptEvalS float64 `json:"prompt_eval_s"`
	// GeneratedTokens is the length of the model's answer in tokens.
	GeneratedTokens int `json:"generated_tokens"`
	// LoadS is the time the server spent loading the model (0 when it was
	// loaded); FirstTokenS the time to the first piece of the answer;
	// TotalS the whole request.
	LoadS       float64 `json:"load_s"`
	FirstTokenS float64 `json:"first_token_s"`
	TotalS      float64 `json:"total_s"`
	// PromptTokensSent is Querent's estimate of the prompt it sent (four
	// bytes a token); PromptCut is set when the server's count shows it
	// read less than that (it cut the prompt at the model's window), and
	// the answer then has a warning.
	PromptTokensSent int  `json:"prompt_tokens_sent"`
	PromptCut        bool `json:"prompt_cut"`
	// ThinkingTokens is how many of GeneratedTokens a thinking model spent
	// thinking before its answer (0 when it did not think).
	ThinkingTokens int `json:"thinking_tokens"`
	// FormatIgnored is set when the model did not answer in the JSON
	// format asked for and its SQL was taken from the reply as written.
	FormatIgnored bool `json:"format_ignored"`
}

// LoadThreshold is the load time from which a round counts as a model
// load: Ollama reports a millisecond or two of scheduling for a loaded
// model, and a tenth of a second at least for a real load.
const LoadThreshold = 0.05

// Loads counts the rounds in which the server loaded the model.
func (s *ModelStats) Loads() int {
	if s == nil {
		return 0
	}
	n := 0
	for _, r := range s.Rounds {
		if r.LoadS >= LoadThreshold {
			n++
		}
	}
	return n
}

// Tokens is the prompt tokens evaluated and the tokens generated over every
// round.
func (s *ModelStats) Tokens() (evaluated, generated int) {
	if s == nil {
		return 0, 0
	}
	for _, r := range s.Rounds {
		evaluated += r.PromptTokensEvaluated
		generated += r.GeneratedTokens
	}
	return evaluated, generated
}

// Attempt is one try of the ask loop (or the one run of direct SQL).
type Attempt struct {
	SQL   string        `json:"sql"`
	Error *AttemptError `json:"error"`
}

// AttemptError is why an attempt failed.
type AttemptError struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// ErrorDoc is one entry of a JSON document's "errors".
type ErrorDoc struct {
	Type    string `json:"type"`
	Message string `json:"message"`
	Hint    string `json:"hint"`
	Query   string `json:"query"`
	// Position is the 0-based byte offset in query where the problem was
	// found; absent when unknown.
	Position *int `json:"position,omitempty"`
	// Key, MessageSaid and HintSaid are what a face that speaks several
	// languages adds (the page: Message and Hint stay the engine's own
	// words, behind its Details): the message's sentence key (what the
	// face may recognise the error by, rather than its English), and the
	// message and hint in each language in the face's words. Absent from
	// the command line's documents.
	Key         string     `json:"key,omitempty"`
	MessageSaid words.Said `json:"message_said,omitempty"`
	HintSaid    words.Said `json:"hint_said,omitempty"`
	// MessageWords and HintWords are Message and Hint in parts, for the
	// faces (Error.MessageWords): never in a document.
	MessageWords words.Sentence `json:"-"`
	HintWords    words.Sentence `json:"-"`
}

// MessageSentence is the message as a face says it (Error.MessageSentence).
func (d ErrorDoc) MessageSentence() words.Sentence { return sentenceOf(d.Message, d.MessageWords) }

// HintSentence is the hint as a face says it (Error.HintSentence).
func (d ErrorDoc) HintSentence() words.Sentence { return sentenceOf(d.Hint, d.HintWords) }

// NewErrorDoc converts err for a JSON document.
func NewErrorDoc(err error) ErrorDoc {
	e := AsError(err)
	d := ErrorDoc{Type: e.Code, Message: e.Message, Hint: e.Hint, Query: e.Query, MessageWords: e.MessageWords, HintWords: e.HintWords}
	if e.Position >= 0 && e.Query != "" {
		p := e.Position
		d.Position = &p
	}
	return d
}

// NewAnswer returns an empty answer for query with every list present.
func NewAnswer(query string) *Answer {
	return &Answer{
		Query:                   query,
		Columns:                 []Column{},
		Results:                 Rows{Values: [][]Value{}},
		Stats:                   ColumnStatsList{},
		OptimizationHints:       []string{},
		FollowUpQuestions:       []string{},
		TablesUsed:              []string{},
		SessionContext:          map[string]any{},
		ContextUsed:             []Turn{},
		Attempts:                []Attempt{},
		Errors:                  []ErrorDoc{},
		Warnings:                []string{},
		GlossaryUsed:            []GlossaryUse{},
		VisualizationSuggestion: ChartTable,
		VisualizationReasons:    map[string]string{},
		Visualization:           TableVisualization(),
		ExamplesUsed:            []ExampleUsed{},
		MaskedColumns:           []string{},
	}
}

// Warn adds warnings said in parts (package words).
func (a *Answer) Warn(ws ...words.Sentence) {
	for _, w := range ws {
		a.Warnings = append(a.Warnings, words.English(w))
		a.WarningWords = append(a.WarningWords, w)
	}
}

// WarningSentences is each of the answer's warnings as a face says it.
func (a *Answer) WarningSentences() []words.Sentence { return SentencesOf(a.Warnings, a.WarningWords) }

// AddError records err in the answer's errors.
func (a *Answer) AddError(err error) {
	a.Errors = append(a.Errors, NewErrorDoc(err))
}

// Seconds converts a duration to seconds rounded to the microsecond.
func Seconds(d time.Duration) float64 {
	return math.Round(d.Seconds()*1e6) / 1e6
}
