package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"querent/engine"
	"querent/engine/ollama/ollamatest"
)

// minutesForSales is a doubtful answer (repaired, and reading minutes of
// music for the sales) and three readings that agree on the sales.
func minutesForSales() []ollamatest.Reply {
	return []ollamatest.Reply{
		ollamatest.Answer("SELECT sum(Milisecond) FROM Track", "x"),
		ollamatest.Answer("SELECT sum(Milliseconds) AS sales FROM Track", "Adds up the tracks."),
		ollamatest.Answer("SELECT sum(Total) AS sales FROM Invoice", "Adds up the invoices."),
		ollamatest.Answer("SELECT sum(Total) FROM Invoice", "Adds up the invoices."),
		ollamatest.Answer("SELECT round(sum(UnitPrice * Quantity), 2) AS sales FROM InvoiceLine", "Adds up the lines."),
	}
}

// TestAskCommandVotes: ask --format json carries the confidence, the
// majority's result and the alternatives; the text says them after the
// rows; --no-vote and the request's vote: false draw nothing more.
func TestAskCommandVotes(t *testing.T) {
	fake := ollamatest.New(t, minutesForSales()...)
	code, out, errs := runWith(t, askCLI(t, fake), "", "ask", "--format", "json", "What are the total sales?")
	var doc struct {
		Query      string `json:"query"`
		Confidence *struct {
			Level        string `json:"level"`
			Samples      int    `json:"samples"`
			Agreeing     int    `json:"agreeing"`
			Votes        string `json:"votes"`
			Alternatives []struct {
				Reason string `json:"reason"`
			} `json:"alternatives"`
		} `json:"confidence"`
		ModelStats *engine.ModelStats `json:"model_stats"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	c := doc.Confidence
	if doc.Query != "SELECT sum(Total) AS sales FROM Invoice" || c == nil || c.Samples != 4 || c.Agreeing != 3 || len(c.Alternatives) != 1 ||
		c.Alternatives[0].Reason != "1 read Track.Milliseconds instead of Invoice.Total" || len(doc.ModelStats.Rounds) != 6 || doc.ModelStats.Rounds[2].Stage != "vote" {
		t.Fatalf("answer: %s", out)
	}
	if !strings.Contains(out, `"reasons_said"`) {
		t.Errorf("no reasons_said: %s", out)
	}

	fake = ollamatest.New(t, minutesForSales()...)
	code, out, errs = runWith(t, askCLI(t, fake), "", "ask", "What are the total sales?")
	if code != 0 || !strings.Contains(out, "Confidence: medium, 3 of 4 readings agree: the first reading gave another result: the answer is the majority's; 2 of 3 other readings agree; 1 read Track.Milliseconds instead of Invoice.Total\n") ||
		!strings.Contains(out, "other result (1 reading, 1 row): SELECT sum(Milliseconds) AS sales FROM Track") {
		t.Errorf("exit %d, text:\n%s\n%s", code, out, errs)
	}

	for _, args := range [][]string{{"ask", "--no-vote", "--format", "json", "What are the total sales?"}, {"ask", "--input", "-"}} {
		fake = ollamatest.New(t, minutesForSales()...)
		code, out, _ = runWith(t, askCLI(t, fake), `{"question": "What are the total sales?", "vote": false}`, args...)
		if code != 0 || json.Unmarshal([]byte(out), &doc) != nil || doc.Confidence == nil || doc.Confidence.Votes != "off" ||
			doc.Query != "SELECT sum(Milliseconds) AS sales FROM Track" || len(fake.Requests()) != 3 {
			t.Errorf("%v: exit %d, %d requests: %s", args, code, len(fake.Requests()), out)
		}
	}
}
