package ask_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"querent/engine/ask"
	"querent/engine/ollama"
	"querent/engine/ollama/ollamatest"
	"querent/engine/sqlite"
)

// BenchmarkVoteTimeToRows: the time to the rows of a doubtful answer (a
// repaired one) with the votes on and off, a model writing 20 tokens a
// second (scripted fake): the votes come after the rows, so the time to
// rows is the same; what they add is after it (ans_s).
func BenchmarkVoteTimeToRows(b *testing.B) {
	for _, vote := range []bool{false, true} {
		name := "votes=off"
		if vote {
			name = "votes=on"
		}
		b.Run(name, func(b *testing.B) {
			ctx := context.Background()
			db, err := sqlite.Open(ctx, "../sqlite/demo/Chinook_Sqlite.sqlite", sqlite.Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			fake := ollamatest.New(b)
			fake.SetRate(20)
			fake.Respond(func(req ollamatest.Request) ollamatest.Reply {
				last := req.Messages[len(req.Messages)-1].Content
				switch {
				case req.Options["temperature"].(float64) > 0:
					return ollamatest.Answer("SELECT sum(Total) AS sales FROM Invoice", "x")
				case strings.Contains(last, "Milisecond"):
					return ollamatest.Answer("SELECT sum(Milliseconds) AS sales FROM Track", "x")
				}
				return ollamatest.Answer("SELECT sum(Milisecond) FROM Track", "x")
			})
			m, err := ollama.New(ollama.Config{Host: fake.URL, RequestTimeout: time.Minute})
			if err != nil {
				b.Fatal(err)
			}
			a := &ask.Asker{DB: db, Model: m, ModelName: "qwen2.5-coder:7b"}
			var rows, whole float64
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				start := time.Now()
				ans, err := a.Ask(ctx, "What are the total sales?", nil, ask.Options{NoVote: !vote, NoExplain: true})
				if err != nil || ans.TimeToRowsS == nil || ans.Confidence == nil {
					b.Fatal(err)
				}
				if vote && ans.Confidence.Samples < 2 {
					b.Fatalf("no votes: %+v", ans.Confidence)
				}
				rows += *ans.TimeToRowsS
				whole += time.Since(start).Seconds()
			}
			b.ReportMetric(rows/float64(b.N), "rows_s")
			b.ReportMetric(whole/float64(b.N), "ans_s")
		})
	}
}
