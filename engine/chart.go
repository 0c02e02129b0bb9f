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
	// Series is the category whose values each draw a series of their own
	// (long data: one line or one set of bars per country); "" for none.
	Series string `json:"series,omitempty"`
	// Y2 are the numbers drawn against a second axis: their scale is far
	// from the first number's (Y).
	Y2 []string `json:"y2,omitempty"`
	// XAxis is AxisTime, AxisNumber or AxisCategory; "" for a table.
	XAxis string `json:"x_axis,omitempty"`
	// TimeUnit is the step of a time axis: TimeYear, TimeMonth or TimeDay
	// ("" when it is not a time axis).
	TimeUnit string `json:"time_unit,omitempty"`
}

// Axis kinds of a chart's x-axis (Visualization.XAxis).
const (
	AxisTime     = "time"
	AxisNumber   = "number"
	AxisCategory = "category"
)

// Time units of a time axis (Visualization.TimeUnit): a year (2009 or
// "2009"), a month ("2009-01"), a day or a moment (anything finer).
const (
	TimeYear  = "year"
	TimeMonth = "month"
	TimeDay   = "day"
)

// Visualization is the chart an answer suits, in the shape a face draws:
// its type (ChartBar… ChartTable), the x column, the y columns, the
// category that splits the rows into one series each, and what the x-axis
// is. An addition to the contract, beside visualization_suggestion: the
// answer's "visualization".
type Visualization struct {
	Type string   `json:"type"`
	X    string   `json:"x"`
	Y    []string `json:"y"`
	// Series is the column whose values each draw a series ("" for none).
	Series string `json:"series"`
	// XAxis is "time", "number" or "category"; "" for a table.
	XAxis string `json:"x_axis"`
	// Y2 are the y columns drawn against a second axis (their scale is
	// far from the first's); empty for one axis.
	Y2 []string `json:"y2"`
	// TimeUnit is "year", "month" or "day" for a time axis, else "".
	TimeUnit string `json:"time_unit"`
}

// Visualization is the suggestion in the answer's shape; every list is
// present.
func (s ChartSuggestion) Visualization() *Visualization {
	v := &Visualization{Type: s.Kind, X: s.X, Y: append([]string{}, s.Y...), Series: s.Series,
		XAxis: s.XAxis, Y2: append([]string{}, s.Y2...), TimeUnit: s.TimeUnit}
	if v.Type == "" {
		v.Type = ChartTable
	}
	return v
}

// TableVisualization is the visualization of an answer without rows.
func TableVisualization() *Visualization {
	return ChartSuggestion{Kind: ChartTable}.Visualization()
}
