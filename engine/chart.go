package engine

// Chart kinds: the contract's "visualization_suggestion".
const (
	ChartBar       = "bar"
	ChartLine      = "line"
	ChartPie       = "pie"
	ChartScatter   = "scatter"
	ChartHistogram = "histogram"
	ChartTable     = "table"
)

// ChartSuggestion is the chart that suits a result best, and why: the
// contract's "visualization_suggestion" (Kind) and "visualization_reason"
// (Reason).
type ChartSuggestion struct {
	// Kind is one of ChartBar, ChartLine, ChartPie, ChartScatter,
	// ChartHistogram or ChartTable.
	Kind string `json:"kind"`
	// X is the column along the x-axis: the categories of a bar or pie,
	// the dates of a line, the first number of a scatter, the binned number
	// of a histogram; "" for a table.
	X string `json:"x,omitempty"`
	// Y are the columns plotted against X: the numbers of a bar, pie or
	// line (at most 3), the second number of a scatter; nil for a histogram
	// (its y-axis is the count of rows per bin) and a table.
	Y []string `json:"y,omitempty"`
	// Reason explains the choice in one plain sentence naming the columns.
	Reason string `json:"reason"`
	// Reasons is Reason in each of ReasonLanguages ("en", "fr", "zh"), the
	// column names as they are.
	Reasons map[string]string `json:"reasons"`
}
