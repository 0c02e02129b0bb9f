package ask_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"querent/engine"
	"querent/engine/ask"
	"querent/engine/ollama/ollamatest"
)

// voteOptions are the options of a question whose doubtful answer is
// voted on (the default), recording what OnRows and OnVotes saw.
func voteOptions(rows, votes **engine.Answer) ask.Options {
	return ask.Options{Today: today, Client: "test",
		OnRows:  func(a *engine.Answer) { c := *a; cc := *a.Confidence; c.Confidence = &cc; *rows = &c },
		OnVotes: func(a *engine.Answer) { *votes = a }}
}

func stages(reqs []ollamatest.Request) []float64 {
	var temps []float64
	for _, r := range reqs {
		t, _ := r.Options["temperature"].(float64)
		temps = append(temps, t)
	}
	return temps
}

// TestVoteCleanCountIsHigh: a clean one-table count is high confidence,
// and no other reading is drawn.
func TestVoteCleanCountIsHigh(t *testing.T) {
	r := newRig(t, ollamatest.Answer("SELECT count(*) AS n FROM Track", "Counts the tracks."))
	var rows, votes *engine.Answer
	ans, err := r.asker.Ask(context.Background(), "How many tracks are there?", nil, voteOptions(&rows, &votes))
	if err != nil {
		t.Fatal(err)
	}
	c := ans.Confidence
	if c == nil || c.Level != engine.ConfidenceHigh || c.Samples != 1 || c.Agreeing != 1 || c.Votes != "none" || len(c.Signals) != 0 {
		t.Fatalf("confidence %+v", c)
	}
	if len(c.Reasons) != 1 || !strings.Contains(c.Reasons[0], "first try") || c.ReasonsSaid[0]["fr"] == c.Reasons[0] || c.ReasonsSaid[0]["zh"] == "" {
		t.Errorf("reasons %q said %v", c.Reasons, c.ReasonsSaid)
	}
	if n := len(r.fake.Requests()); n != 2 || votes != nil {
		t.Errorf("%d requests (want the SQL and the explanation), votes %v", n, votes)
	}
	b, _ := json.Marshal(ans)
	if !strings.Contains(string(b), `"confidence":{"level":"high","samples":1,"agreeing":1,`) {
		t.Errorf("the document's confidence: %s", b)
	}
}

// The example: a repaired answer that reads minutes of music for
// the sales.
var minutesForSales = []ollamatest.Reply{
	ollamatest.Answer("SELECT sum(Milisecond) FROM Track", "x"),
	ollamatest.Answer("SELECT sum(Milliseconds) AS sales FROM Track", "Adds up the tracks."),
}

// TestVoteMajorityWins: a doubtful answer (it needed a repair) comes with
// its rows first; then other readings are drawn above temperature 0, run,
// grouped by their result (2328.6 written three ways is one result), and
// the majority's result is the answer, the first one an alternative whose
// reason comes from the columns each reads.
func TestVoteMajorityWins(t *testing.T) {
	script := append(append([]ollamatest.Reply(nil), minutesForSales...),
		ollamatest.Answer("SELECT sum(Total) AS sales FROM Invoice", "Adds up the invoices."),
		ollamatest.Answer("SELECT round(sum(il.UnitPrice * il.Quantity), 2) FROM InvoiceLine il", "Adds up the lines."),
		ollamatest.Answer("SELECT SUM(i.Total) FROM Invoice AS i", "Adds up the invoices."))
	r := newRig(t, script...)
	var rows, votes *engine.Answer
	ans, err := r.asker.Ask(context.Background(), "What are the total sales?", nil, voteOptions(&rows, &votes))
	if err != nil {
		t.Fatal(err)
	}
	if rows == nil || rows.Query != "SELECT sum(Milliseconds) AS sales FROM Track" || rows.Confidence.Votes != "pending" ||
		rows.Confidence.Level != engine.ConfidenceMedium || rows.Confidence.Signals[0] != "repaired" {
		t.Fatalf("the rows came with %+v", rows)
	}
	if votes != ans || ans.Query != "SELECT sum(Total) AS sales FROM Invoice" || ans.RowCount != 1 || ans.Results.Values[0][0] != 2328.6 {
		t.Fatalf("answer %q %v", ans.Query, ans.Results.Values)
	}
	c := ans.Confidence
	if c.Samples != 4 || c.Agreeing != 3 || c.Votes != "done" || c.Level != engine.ConfidenceMedium || len(c.Alternatives) != 1 {
		t.Fatalf("confidence %+v", c)
	}
	alt := c.Alternatives[0]
	if alt.SQL != "SELECT sum(Milliseconds) AS sales FROM Track" || alt.Agreeing != 1 || alt.RowCount != 1 || alt.Reason != "1 read Track.Milliseconds instead of Invoice.Total" ||
		alt.ReasonSaid["zh"] == "" || alt.Rows.Values[0][0] != int64(1378778040) {
		t.Errorf("alternative %+v", alt)
	}
	said := strings.Join(c.Reasons, " | ")
	if !strings.Contains(said, "2 of 3 other readings agree; 1 read Track.Milliseconds instead of Invoice.Total") || !strings.Contains(said, "majority") {
		t.Errorf("reasons %s", said)
	}
	// Three votes decide (a majority of five); they are in model_stats.
	var voteRounds int
	for _, rd := range ans.ModelStats.Rounds {
		if rd.Stage == "vote" {
			voteRounds++
		}
	}
	reqs := r.fake.Requests()
	if voteRounds != 3 || len(reqs) != 6 {
		t.Errorf("%d vote rounds, %d requests", voteRounds, len(reqs))
	}
	temps := stages(reqs)
	if temps[0] != 0 || temps[2] <= 0 || temps[4] <= 0 {
		t.Errorf("temperatures %v", temps)
	}
	// The votes read the question afresh, not the repair; the explanation
	// is of the majority's rows.
	if got := reqs[2].Messages; len(got) != len(reqs[0].Messages) {
		t.Errorf("the vote's prompt has %d messages, the question's %d", len(got), len(reqs[0].Messages))
	}
	if last := lastMessage(reqs[5]); !strings.Contains(last, "2328.6") || !strings.Contains(reqs[5].Messages[len(reqs[5].Messages)-2].Content, "Invoice") {
		t.Errorf("the explanation request:\n%s", last)
	}
	if ans.TimeToRowsS == nil || rows.TimeToRowsS == nil || *ans.TimeToRowsS != *rows.TimeToRowsS {
		t.Errorf("time to rows %v, with the rows %v", ans.TimeToRowsS, rows.TimeToRowsS)
	}
}

// TestVoteNoMajorityIsLow: readings that all differ leave the first
// answer, at low confidence, with the others listed.
func TestVoteNoMajorityIsLow(t *testing.T) {
	script := append(append([]ollamatest.Reply(nil), minutesForSales...),
		ollamatest.Answer("SELECT sum(Total) AS sales FROM Invoice", "x"),
		ollamatest.Answer("SELECT count(*) FROM Invoice", "x"),
		ollamatest.Abstain("Sales of which year?", ""),
		ollamatest.Answer("SELECT sum(Totl) FROM Invoice", "x"))
	r := newRig(t, script...)
	var rows, votes *engine.Answer
	ans, err := r.asker.Ask(context.Background(), "What are the total sales?", nil, voteOptions(&rows, &votes))
	if err != nil {
		t.Fatal(err)
	}
	c := ans.Confidence
	if ans.Query != "SELECT sum(Milliseconds) AS sales FROM Track" || c.Level != engine.ConfidenceLow || c.Samples != 5 || c.Agreeing != 1 || len(c.Alternatives) != 4 {
		t.Fatalf("%q confidence %+v", ans.Query, c)
	}
	var reasons []string
	for _, a := range c.Alternatives {
		reasons = append(reasons, a.Reason)
	}
	got := strings.Join(reasons, " | ")
	for _, want := range []string{"1 asked a question instead", "1 did not run (unknown_column)", "1 read Invoice.Total instead of Track.Milliseconds"} {
		if !strings.Contains(got, want) {
			t.Errorf("alternatives' reasons %q lack %q", got, want)
		}
	}
}

// TestVoteOff: with NoVote (--no-vote, vote: false, the page's setting) a
// doubtful answer draws nothing more.
func TestVoteOff(t *testing.T) {
	r := newRig(t, minutesForSales...)
	var rows, votes *engine.Answer
	opts := voteOptions(&rows, &votes)
	opts.NoVote = true
	ans, err := r.asker.Ask(context.Background(), "What are the total sales?", nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	if c := ans.Confidence; c.Level != engine.ConfidenceMedium || c.Votes != "off" || c.Samples != 1 || votes != nil {
		t.Errorf("confidence %+v", c)
	}
	if n := len(r.fake.Requests()); n != 3 {
		t.Errorf("%d requests, want the SQL, its repair and the explanation", n)
	}
}

// TestVoteCancelled: cancelling while the readings are drawn stops them;
// the rows stay the answer.
func TestVoteCancelled(t *testing.T) {
	script := append(append([]ollamatest.Reply(nil), minutesForSales...), ollamatest.Reply{Content: ollamatest.SQLAnswer("SELECT 1"), Delay: 20 * time.Second})
	r := newRig(t, script...)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var rows, votes *engine.Answer
	opts := voteOptions(&rows, &votes)
	opts.Progress = func(p ask.Progress) {
		if p.Stage == "voting" {
			go func() { time.Sleep(50 * time.Millisecond); cancel() }()
		}
	}
	ans, err := r.asker.Ask(ctx, "What are the total sales?", nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	c := ans.Confidence
	if ans.RowCount != 1 || ans.Query != "SELECT sum(Milliseconds) AS sales FROM Track" || c.Votes != "cancelled" || c.Samples != 1 ||
		!strings.Contains(strings.Join(c.Reasons, " "), "cancelled") {
		t.Fatalf("%q confidence %+v", ans.Query, c)
	}
	if n := len(r.fake.Requests()); n > 3 {
		t.Errorf("%d requests after the cancel", n)
	}
}

// TestVoteFailedReadingsSayNothing: readings that fail to run count as
// samples but not against the result: three that ran and agree raise a
// repaired answer to high.
func TestVoteFailedReadingsSayNothing(t *testing.T) {
	script := append(append([]ollamatest.Reply(nil), minutesForSales...),
		ollamatest.Answer("SELECT sum(Milisecond) FROM Track", "x"),
		ollamatest.Answer("SELECT SUM(Milliseconds) FROM Track", "x"),
		ollamatest.Answer("SELECT sum(Milisecond) FROM Track", "x"),
		ollamatest.Answer("SELECT sum(t.Milliseconds) AS total FROM Track t", "x"))
	r := newRig(t, script...)
	s := &engine.Session{}
	var rows, votes *engine.Answer
	ans, err := r.asker.Ask(context.Background(), "What are the total sales?", s, voteOptions(&rows, &votes))
	if err != nil {
		t.Fatal(err)
	}
	c := ans.Confidence
	if c.Level != engine.ConfidenceHigh || c.Samples != 5 || c.Agreeing != 3 || len(c.Alternatives) != 1 || c.Alternatives[0].Agreeing != 2 ||
		c.Alternatives[0].Error == nil || c.Alternatives[0].Reason != "2 did not run (unknown_column)" {
		t.Fatalf("confidence %+v", c)
	}
	if len(s.Turns) != 1 || s.Turns[0].SQL != "SELECT sum(Milliseconds) AS sales FROM Track" {
		t.Errorf("session %+v", s.Turns)
	}
}

// TestVoteMajorityInTheSession: when the majority's result wins, the
// conversation goes on from its SQL (a follow-up builds on the answer).
func TestVoteMajorityInTheSession(t *testing.T) {
	script := append(append([]ollamatest.Reply(nil), minutesForSales...),
		ollamatest.Answer("SELECT sum(Total) AS sales FROM Invoice", "x"),
		ollamatest.Answer("SELECT sum(Total) AS sales FROM Invoice", "x"),
		ollamatest.Answer("SELECT sum(Total) AS sales FROM Invoice", "x"))
	r := newRig(t, script...)
	s := &engine.Session{}
	var rows, votes *engine.Answer
	ans, err := r.asker.Ask(context.Background(), "What are the total sales?", s, voteOptions(&rows, &votes))
	if err != nil {
		t.Fatal(err)
	}
	if ans.Query != "SELECT sum(Total) AS sales FROM Invoice" || len(s.Turns) != 1 || s.Turns[0].SQL != ans.Query || s.Turns[0].Columns[0] != "sales" {
		t.Errorf("answer %q, session %+v", ans.Query, s.Turns)
	}
	entries, err := r.hist.List(context.Background(), "", 1)
	if err != nil || len(entries) != 1 || entries[0].SQL != ans.Query {
		t.Errorf("history %v %+v", err, entries)
	}
}
