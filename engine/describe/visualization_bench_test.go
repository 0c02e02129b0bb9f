package describe

import (
	"strings"
	"testing"

	"querent/engine"
)

// BenchmarkSuggestChart times the chart choice (statistics given) on each
// shape of visualizationShapes: long data's pair check and the second
// axis' scales are what §3 added.
func BenchmarkSuggestChart(b *testing.B) {
	for _, s := range visualizationShapes() {
		st := ComputeStats(s.cols, s.rows)
		name := strings.NewReplacer(" ", "_", ":", "").Replace(s.name)
		b.Run(name, func(b *testing.B) {
			var got engine.ChartSuggestion
			for b.Loop() {
				got = SuggestChart(s.cols, s.rows, st)
			}
			if got.Kind == "" {
				b.Fatal("no kind")
			}
		})
	}
}
