package page_test

import (
	"sync"
	"testing"

	"querent/app/page"
	"querent/engine"
	"querent/engine/ollama/ollamatest"
	"querent/internal/wiring"
)

// rowsRecorder keeps the answers sent as "ask:rows".
type rowsRecorder struct {
	mu   sync.Mutex
	rows []*engine.Answer
}

func (r *rowsRecorder) Emit(name string, payload any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if a, ok := payload.(*engine.Answer); ok && name == page.EventAskRows {
		r.rows = append(r.rows, a)
	}
}
func (r *rowsRecorder) SetTitle(string) {}

// A doubtful answer reaches the page twice: with its rows (votes pending),
// then with the majority's result and the alternatives, before the
// explanation; the setting SkipVotes draws nothing more.
func TestAskVotesOnThePage(t *testing.T) {
	script := func() []ollamatest.Reply {
		return []ollamatest.Reply{
			ollamatest.Answer("SELECT sum(Milisecond) FROM Track", "x"),
			ollamatest.Answer("SELECT sum(Milliseconds) AS sales FROM Track", "x"),
			ollamatest.Answer("SELECT sum(Total) AS sales FROM Invoice", "x"),
			ollamatest.Answer("SELECT sum(Total) FROM Invoice", "x"),
			ollamatest.Answer("SELECT sum(i.Total) FROM Invoice i", "Adds up the invoices."),
		}
	}
	for _, skip := range []bool{false, true} {
		t.Setenv("QUERENT_DATA_DIR", t.TempDir())
		rec := &rowsRecorder{}
		svc := page.New(wiring.PageDeps("test"), rec, nil)
		fake := ollamatest.New(t, script()...)
		if _, err := svc.Settings.Save(page.SettingsData{OllamaHost: fake.URL, SkipVotes: skip}); err != nil {
			t.Fatal(err)
		}
		svc.Datasets.OpenDemo()
		ans, err := svc.Ask.Question("What are the total sales?")
		svc.Close()
		if err != nil || ans.Confidence == nil {
			t.Fatalf("%v %+v", err, ans)
		}
		switch {
		case skip:
			if ans.Confidence.Votes != "off" || len(rec.rows) != 1 || len(fake.Requests()) != 3 {
				t.Errorf("skip votes: %+v, %d rows events, %d requests", ans.Confidence, len(rec.rows), len(fake.Requests()))
			}
		default:
			if len(rec.rows) != 2 || rec.rows[0].Confidence.Votes != "pending" || rec.rows[0].Query != "SELECT sum(Milliseconds) AS sales FROM Track" ||
				rec.rows[1].Confidence.Votes != "done" || rec.rows[1].Query != "SELECT sum(Total) AS sales FROM Invoice" || len(rec.rows[1].Confidence.Alternatives) != 1 {
				t.Fatalf("rows events %d", len(rec.rows))
			}
			if ans.Query != "SELECT sum(Total) AS sales FROM Invoice" || ans.Explanation != "Adds up the invoices." {
				t.Errorf("answer %q %q", ans.Query, ans.Explanation)
			}
		}
	}
}
