package engine

import "querent/engine/words"

// The levels of a Confidence.
const (
	ConfidenceHigh   = "high"
	ConfidenceMedium = "medium"
	ConfidenceLow    = "low"
)

// Confidence is how sure Querent is of an answer, from its own signals —
// never the model's opinion of itself: the repairs the SQL needed, an empty
// or one-NULL result, a join on columns with no key between them, what the
// question names that the SQL does not use, the model's own clarifying
// question, and, when those leave a doubt, how many other readings of the
// question (more SQL drawn and run under the same guard) gave the same
// result. An addition to the contract's fields; null for direct SQL and
// for a question that got no rows.
type Confidence struct {
	// Level is "high", "medium" or "low".
	Level string `json:"level"`
	// Samples is how many readings were run: the answer's own and the
	// others drawn (1 to 5; 1 when the level was high, or voting off).
	Samples int `json:"samples"`
	// Agreeing is how many of them gave the answer's result (itself
	// included).
	Agreeing int `json:"agreeing"`
	// Reasons say why, in English; ReasonsSaid in each language of the
	// page (ReasonLanguages), the names as they are.
	Reasons     []string     `json:"reasons"`
	ReasonsSaid []words.Said `json:"reasons_said"`
	// Signals name the signals found, for programs: "repaired", "empty",
	// "null", "unkeyed_join", "unused_value" (or another source's
	// "unused_…", such as "unused_glossary"), "clarification".
	Signals []string `json:"signals"`
	// Votes says what became of the other readings: "none" (not needed),
	// "off" (turned off), "pending" (drawn after the rows: the answer
	// that comes with the rows), "done", "cancelled" or "failed" (the
	// model server could not draw them).
	Votes string `json:"votes"`
	// Alternatives are the other results the readings gave, the most
	// agreed first: one click away from the answer.
	Alternatives []Alternative `json:"alternatives"`
	// ReasonWords are Reasons in parts, for the faces: never in a document.
	ReasonWords []words.Sentence `json:"-"`
}

// Alternative is another result that readings of the question gave.
type Alternative struct {
	// SQL is the first of those readings' SQL.
	SQL string `json:"sql"`
	// Columns, Rows (at most AlternativeRows of them), RowCount and
	// Truncated are its result; Error is why it did not run (no result).
	Columns   []Column      `json:"columns"`
	Rows      Rows          `json:"rows"`
	RowCount  int           `json:"row_count"`
	Truncated bool          `json:"truncated"`
	Error     *AttemptError `json:"error"`
	// Agreeing is how many readings gave this result.
	Agreeing int `json:"agreeing"`
	// Reason says how it differs from the answer, from the columns and
	// tables each reads; ReasonSaid in each language of the page.
	Reason     string     `json:"reason"`
	ReasonSaid words.Said `json:"reason_said"`
	// TablesUsed lists the tables it reads.
	TablesUsed []string `json:"tables_used"`
}

// AlternativeRows is how many rows of an alternative's result an answer
// carries.
const AlternativeRows = 5

// Say sets the reasons from their sentences: English and each language.
func (c *Confidence) Say(reasons ...words.Sentence) {
	c.ReasonWords = reasons
	c.Reasons = make([]string, len(reasons))
	c.ReasonsSaid = make([]words.Said, len(reasons))
	for i, r := range reasons {
		c.Reasons[i] = words.English(r)
		c.ReasonsSaid[i] = words.Speaker{}.Every(r)
	}
}
