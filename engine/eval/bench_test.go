package eval_test

import (
	"context"
	"testing"

	"querent/engine"
	"querent/engine/eval"
)

// BenchmarkEvalOverhead measures the harness's own cost per question: the
// whole Chinook gold set asked through the real ask loop of a model that
// answers at once (with the gold SQL), so that what remains is prompt
// building, the guard, running the query, statistics, plan hints, and
// scoring against the cached gold result. Reported as ms/question.
func BenchmarkEvalOverhead(b *testing.B) {
	g, err := eval.Builtin("chinook")
	if err != nil {
		b.Fatal(err)
	}
	db := openDemo(b)
	m := &fakeModel{answer: oracle(g)}
	ctx := context.Background()
	var p50 float64
	for b.Loop() {
		rep, err := eval.Run(ctx, eval.Options{Gold: g, DB: db, Model: m, Models: []string{"instant"}})
		if err != nil {
			b.Fatal(err)
		}
		if acc := rep.Models[0].ExecutionAccuracy; acc != 1 {
			b.Fatalf("the oracle scored %v", acc)
		}
		p50 = *rep.Models[0].LatencyP50S
		m.reqs = nil
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N*len(g.Items)), "ms/question")
	// The median question's ask loop alone (the latency a report shows
	// with an instant model).
	b.ReportMetric(p50*1000, "ms/ask-p50")
}

// BenchmarkEvalScoring measures scoring alone per question: the gold SQL as
// predictions, each run under the guard and compared with the gold result.
func BenchmarkEvalScoring(b *testing.B) {
	g, err := eval.Builtin("chinook")
	if err != nil {
		b.Fatal(err)
	}
	db := openDemo(b)
	preds := map[string]eval.Prediction{}
	for _, it := range g.Items {
		preds[it.ID] = eval.Prediction{ID: it.ID, SQL: it.SQL, Unanswerable: it.Unanswerable}
	}
	for b.Loop() {
		if _, err := eval.Run(context.Background(), eval.Options{Gold: g, DB: db, Predictions: preds}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N*len(g.Items)), "ms/question")
}

// BenchmarkCompare is the comparison alone on a 1,000-row, 3-column
// unordered result with its columns permuted.
func BenchmarkCompare(b *testing.B) {
	var gold, pred eval.ResultSet
	for i := 0; i < 1000; i++ {
		gold.Rows = append(gold.Rows, []engine.Value{int64(i), "name", float64(i) / 7})
		j := 999 - i
		pred.Rows = append(pred.Rows, []engine.Value{float64(j) / 7, int64(j), "name"})
	}
	gold.Columns, pred.Columns = []string{"a", "b", "c"}, []string{"c", "a", "b"}
	for b.Loop() {
		if v := eval.Compare(gold, pred, eval.Rule{}); !v.Match {
			b.Fatal(v.Reason)
		}
	}
}
