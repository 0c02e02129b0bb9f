package eval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"querent/engine"
)

// Outcomes of one asked item.
const (
	OutcomeMatch       = "match"        // the result matches the gold (or an unanswerable item was declined)
	OutcomeWrongResult = "wrong_result" // it ran, and the result differs (or an unanswerable item was answered)
	OutcomeFailed      = "failed"       // the SQL did not run, or the ask loop gave up
	OutcomeAbstained   = "abstained"    // the model said it cannot answer, or asked for clarification
	OutcomeMissing     = "missing"      // no prediction for the item
)

// Outcomes lists the outcomes in the reports' order.
var Outcomes = []string{OutcomeMatch, OutcomeWrongResult, OutcomeFailed, OutcomeAbstained, OutcomeMissing}

// Record is one asked item and try: the full trace, one line of
// records.jsonl. It is what --regrade reads back: the SQL is run again and
// scored under the rules of the day.
type Record struct {
	ID         string `json:"id"`
	Try        int    `json:"try"`
	Source     string `json:"source"` // "model" or "predictions"
	Model      string `json:"model"`  // "" for predictions
	Gold       string `json:"gold"`
	Database   string `json:"database"`
	Question   string `json:"question"`
	Difficulty string `json:"difficulty"`
	Follows    string `json:"follows,omitempty"`
	// SQL is the final SQL (the answer's query); "" when there was none.
	SQL string `json:"sql"`
	// Attempts are the ask loop's tries (the first and each repair).
	Attempts []engine.Attempt `json:"attempts"`
	// Error is the answer's final error (an abstention included); nil when
	// the SQL ran.
	Error     *engine.ErrorDoc `json:"error"`
	Columns   []string         `json:"columns"`
	RowCount  int              `json:"row_count"`
	Truncated bool             `json:"truncated"`
	// LatencyS is the wall clock of the question (the whole ask loop);
	// nil for predictions.
	LatencyS *float64 `json:"latency_s"`
	// Tokens are what the model server reported for the question's chat
	// requests (prompt and output, summed over repairs); 0 when unknown.
	PromptTokens int `json:"prompt_tokens"`
	OutputTokens int `json:"output_tokens"`
	Tokens       int `json:"tokens"`
	// Rounds is the number of model requests the answer took.
	Rounds  int    `json:"rounds"`
	Outcome string `json:"outcome"`
	Match   bool   `json:"match"`
	Reason  string `json:"reason"`
	// Relaxed lists what the match needed beyond the strict rule:
	// "ranking", "extra_columns", "lenient".
	Relaxed []string  `json:"relaxed"`
	Lenient bool      `json:"lenient"`
	Time    time.Time `json:"time"`
}

// Repairs is the number of repairs the ask loop made.
func (r *Record) Repairs() int { return max(len(r.Attempts)-1, 0) }

// WriteRecords writes records as JSONL, one record a line.
func WriteRecords(w io.Writer, records []Record) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for i := range records {
		if err := enc.Encode(&records[i]); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// ReadRecords reads records.jsonl; name is for messages.
func ReadRecords(name string, r io.Reader) ([]Record, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	var out []Record
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var rec Record
		if err := json.Unmarshal(b, &rec); err != nil {
			return nil, fmt.Errorf("%s:%d: not a record: %v", name, line, err)
		}
		if rec.ID == "" {
			return nil, fmt.Errorf("%s:%d: the record has no id", name, line)
		}
		if rec.Try < 1 {
			rec.Try = 1
		}
		out = append(out, rec)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", name, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s holds no records", name)
	}
	return out, nil
}

// Prediction is one predicted answer, from --predictions.
type Prediction struct {
	ID  string `json:"id"`
	SQL string `json:"sql"`
	// Unanswerable or Clarification, when set, are an abstention: the
	// predictor declined the question (with this reason or question).
	Unanswerable  string `json:"unanswerable,omitempty"`
	Clarification string `json:"clarification,omitempty"`
}

// ParsePredictions reads predictions for gold: JSONL lines {"id": "...",
// "sql": "..."} (optionally "unanswerable": "reason" or "clarification":
// "question" instead of sql), or plain text with one SQL statement per line
// in the gold set's order, where a blank line is a missing prediction and a
// line "-- unanswerable: REASON" (or "-- clarification: QUESTION") an
// abstention. A gold item without a prediction is missing. name is for
// messages.
func ParsePredictions(name string, data []byte, gold *GoldSet) (map[string]Prediction, error) {
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	text = strings.TrimPrefix(text, "\ufeff")
	lines := strings.Split(text, "\n")
	first := ""
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			first = strings.TrimSpace(l)
			break
		}
	}
	out := map[string]Prediction{}
	if strings.HasPrefix(first, "{") {
		for i, l := range lines {
			l = strings.TrimSpace(l)
			if l == "" {
				continue
			}
			var p Prediction
			dec := json.NewDecoder(strings.NewReader(l))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&p); err != nil {
				return nil, fmt.Errorf("%s:%d: not a prediction {\"id\": \"...\", \"sql\": \"...\"}: %v", name, i+1, err)
			}
			switch {
			case p.ID == "":
				return nil, fmt.Errorf("%s:%d: the prediction has no id", name, i+1)
			case gold.Item(p.ID) == nil:
				return nil, fmt.Errorf("%s:%d: %q is not an item of the gold set %s", name, i+1, p.ID, gold.Name)
			}
			if _, dup := out[p.ID]; dup {
				return nil, fmt.Errorf("%s:%d: a second prediction for %q", name, i+1, p.ID)
			}
			p.SQL = strings.TrimSpace(p.SQL)
			out[p.ID] = p
		}
		return out, nil
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) > len(gold.Items) {
		return nil, fmt.Errorf("%s has %d lines but the gold set %s has %d items (plain-text predictions are one SQL a line, in the gold set's order)",
			name, len(lines), gold.Name, len(gold.Items))
	}
	for i, l := range lines {
		l = strings.TrimSpace(l)
		p := Prediction{ID: gold.Items[i].ID}
		lower := strings.ToLower(l)
		switch {
		case l == "":
			continue
		case strings.HasPrefix(lower, "-- unanswerable:"):
			p.Unanswerable = strings.TrimSpace(l[len("-- unanswerable:"):])
			if p.Unanswerable == "" {
				p.Unanswerable = "unanswerable"
			}
		case strings.HasPrefix(lower, "-- clarification:"):
			p.Clarification = strings.TrimSpace(l[len("-- clarification:"):])
			if p.Clarification == "" {
				p.Clarification = "clarification needed"
			}
		default:
			p.SQL = l
		}
		out[p.ID] = p
	}
	return out, nil
}
