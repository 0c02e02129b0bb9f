// Package describe says what a result shows: the statistics of its
// columns (the same code for answers, exports and profiles), the chart that
// fits it and why, in every language of the page; SetResult fills an
// answer with them. The types it fills (engine.ColumnStats,
// engine.ChartSuggestion) are the engine's, part of every face's answer.
package describe

import "querent/engine"

// SetResult fills the answer from a result: rows, statistics and the chart
// suggestion.
func SetResult(a *engine.Answer, res *engine.Result) {
	a.Query = res.Query
	a.ExecutedSQL = res.ExecutedSQL
	a.Columns = res.Columns
	names := make([]string, len(res.Columns))
	for i, c := range res.Columns {
		names[i] = c.Name
	}
	a.Results = engine.Rows{Columns: names, Values: res.Rows}
	if a.Results.Values == nil {
		a.Results.Values = [][]engine.Value{}
	}
	a.RowCount = len(res.Rows)
	a.Truncated = res.Truncated
	a.ExecutionTimeS = engine.Seconds(res.Elapsed)
	if res.TablesUsed != nil {
		a.TablesUsed = res.TablesUsed
	}
	a.Warnings = append(a.Warnings, res.Warnings...)
	a.Stats = ComputeStats(res.Columns, res.Rows)
	chart := SuggestChart(res.Columns, res.Rows, a.Stats)
	a.VisualizationSuggestion = chart.Kind
	a.VisualizationReason = chart.Reason
	a.VisualizationReasons = chart.Reasons
	a.Visualization = chart.Visualization()
}
