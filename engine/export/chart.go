package export

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"

	"querent/engine"
	"querent/engine/describe"
)

// Bounds of the histogram.
const (
	histogramBins = 20
)

// drawChart adds the Chart sheet when a chart is asked for and one can be
// drawn; otherwise it says why in a warning.
func (x *xlsxWriter) drawChart(ctx context.Context, db engine.Database, info *engine.StreamInfo) error {
	if x.opts.Chart == ChartNone {
		return nil
	}
	rows := x.chart
	if len(rows) == 0 {
		x.warn.add("the result has no rows: no chart drawn")
		return nil
	}
	st := describe.ComputeStats(x.cols, rows)
	sug := describe.SuggestChart(x.cols, rows, st)
	kind := x.opts.Chart
	if kind == ChartAuto {
		kind = sug.Kind
		if kind == engine.ChartTable {
			x.warn.add("no chart suits this result: %s", sug.Reason)
			return nil
		}
	}
	xi, ys := x.chartColumns(kind, sug, st)
	seriesName, y2Names := "", []string(nil)
	if sug.Kind == kind {
		seriesName, y2Names = sug.Series, sug.Y2
	}
	if cx, cy, ok := x.chosenColumns(kind); ok {
		xi, ys = cx, cy
		seriesName, y2Names = x.opts.ChartSeries, x.opts.ChartY2
	}
	series, y2 := x.index(seriesName), x.indexes(y2Names)
	ys = slices.DeleteFunc(ys, func(j int) bool { return slices.Contains(y2, j) || j == series })
	if kind == engine.ChartHistogram {
		if xi < 0 {
			x.warn.add("a histogram needs a numeric column, and the result has none: no chart drawn")
			return nil
		}
		return x.histogram(ctx, db, info, xi, sug)
	}
	switch {
	case kind == engine.ChartScatter && (xi < 0 || len(ys) == 0):
		x.warn.add("a scatter chart needs two numeric columns: no chart drawn")
		return nil
	case len(ys) == 0:
		x.warn.add("a %s chart needs a numeric column to plot, and the result has none: no chart drawn", kind)
		return nil
	}
	if x.wantsWide(kind, xi, series, y2) {
		return x.plotWide(kind, xi, ys, y2, series, sug)
	}
	return x.plot(kind, xi, ys, sug)
}

// index is the result's column named name, or -1.
func (x *xlsxWriter) index(name string) int {
	if name == "" {
		return -1
	}
	for j, c := range x.cols {
		if c.Name == name {
			return j
		}
	}
	return -1
}

// indexes are the result's columns named in names (those it has).
func (x *xlsxWriter) indexes(names []string) []int {
	var out []int
	for _, n := range names {
		if j := x.index(n); j >= 0 {
			out = append(out, j)
		}
	}
	return out
}

// chartColumns chooses the x column and the y columns: the suggestion's
// when it is of the kind asked for, otherwise the first suitable ones.
func (x *xlsxWriter) chartColumns(kind string, sug engine.ChartSuggestion, st engine.ColumnStatsList) (int, []int) {
	index := func(name string) int {
		for j, c := range x.cols {
			if c.Name == name {
				return j
			}
		}
		return -1
	}
	if sug.Kind == kind && sug.X != "" {
		var ys []int
		for _, y := range sug.Y {
			if j := index(y); j >= 0 {
				ys = append(ys, j)
			}
		}
		return index(sug.X), ys
	}
	var nums, ids, texts, dates []int
	for j, c := range x.cols {
		switch st.Stats[j].Kind {
		case engine.KindNumeric:
			if idName(c.Name) {
				ids = append(ids, j)
			} else {
				nums = append(nums, j)
			}
		case engine.KindText:
			if x.dateCol[j] {
				dates = append(dates, j)
			} else {
				texts = append(texts, j)
			}
		}
	}
	if len(nums) == 0 {
		nums = ids // only ids: plot them rather than nothing
	}
	first := func(js []int, k int) []int { return js[:min(len(js), k)] }
	switch kind {
	case engine.ChartHistogram:
		if len(nums) == 0 {
			return -1, nil
		}
		return nums[0], nil
	case engine.ChartScatter:
		if len(nums) < 2 {
			return -1, nil
		}
		return nums[0], first(nums[1:], 3)
	}
	xi := -1
	switch {
	case kind == engine.ChartLine && len(dates) > 0:
		xi = dates[0]
	case len(texts) > 0:
		xi = texts[0]
	case len(dates) > 0:
		xi = dates[0]
	}
	if kind == engine.ChartPie {
		return xi, first(nums, 1)
	}
	return xi, first(nums, 3)
}

// chosenColumns are the columns Options.ChartX and ChartY name (the chart
// on the page), when they name columns of the result that fit the kind.
func (x *xlsxWriter) chosenColumns(kind string) (int, []int, bool) {
	if x.opts.ChartX == "" && len(x.opts.ChartY) == 0 {
		return 0, nil, false
	}
	index := func(name string) int {
		for j, c := range x.cols {
			if c.Name == name {
				return j
			}
		}
		return -1
	}
	var ys []int
	for _, n := range x.opts.ChartY {
		j := index(n)
		if j < 0 {
			x.warn.add("the chart's column %s is not in the result: the chart is chosen as auto would", n)
			return 0, nil, false
		}
		ys = append(ys, j)
	}
	if kind == engine.ChartHistogram {
		if len(ys) == 0 {
			return 0, nil, false
		}
		return ys[0], nil, true
	}
	xi := index(x.opts.ChartX)
	if xi < 0 || len(ys) == 0 {
		x.warn.add("the chart's columns (%s by %s) are not in the result: the chart is chosen as auto would", joinAnd(x.opts.ChartY), x.opts.ChartX)
		return 0, nil, false
	}
	return xi, ys, true
}

// idName reports a column named like an identifier (id, TrackId,
// customer_id), which measures nothing.
func idName(name string) bool {
	l := strings.ToLower(name)
	if l == "id" || l == "rowid" || strings.HasSuffix(l, "_id") {
		return true
	}
	if len(name) > 2 && (strings.HasSuffix(name, "Id") || strings.HasSuffix(name, "ID")) {
		c := name[len(name)-3]
		return 'a' <= c && c <= 'z' || '0' <= c && c <= '9'
	}
	return false
}

// quoteSheet quotes a sheet name for a reference.
func quoteSheet(name string) string {
	return "'" + strings.ReplaceAll(name, "'", "''") + "'"
}

// colRange is the absolute reference of rows from..to of column j.
func colRange(sheet string, j, from, to int) string {
	col, _ := excelize.ColumnNumberToName(j + 1)
	return fmt.Sprintf("%s!$%s$%d:$%s$%d", quoteSheet(sheet), col, from, col, to)
}

func cellRef(sheet string, j, row int) string {
	col, _ := excelize.ColumnNumberToName(j + 1)
	return fmt.Sprintf("%s!$%s$%d", quoteSheet(sheet), col, row)
}

// plot draws a bar, line, pie or scatter chart of the Data sheet's first
// rows.
func (x *xlsxWriter) plot(kind string, xi int, ys []int, sug engine.ChartSuggestion) error {
	n := int(min(x.rows, maxSheetRows-1, maxPlotRows))
	data := x.sheets[0]
	types := map[string]excelize.ChartType{
		engine.ChartBar: excelize.Col, engine.ChartLine: excelize.Line,
		engine.ChartPie: excelize.Pie, engine.ChartScatter: excelize.Scatter,
	}
	vary := kind == engine.ChartPie // one colour per slice; one per series otherwise
	chart := &excelize.Chart{Type: types[kind], Dimension: excelize.ChartDimension{Width: 960, Height: 480},
		Legend: excelize.ChartLegend{Position: "bottom"}, VaryColors: &vary}
	var names []string
	for _, y := range ys {
		s := excelize.ChartSeries{Name: cellRef(data, y, 1), Values: colRange(data, y, 2, n+1)}
		if xi >= 0 {
			s.Categories = colRange(data, xi, 2, n+1)
		}
		if kind == engine.ChartScatter {
			s.Marker = excelize.ChartMarker{Symbol: "circle", Size: 5}
		}
		chart.Series = append(chart.Series, s)
		names = append(names, x.cols[y].Name)
	}
	if len(ys) == 1 && kind != engine.ChartPie {
		chart.Legend.Position = "none"
	}
	title := joinAnd(names)
	switch {
	case xi < 0:
	case kind == engine.ChartScatter:
		title += " against " + x.cols[xi].Name
	default:
		title += " by " + x.cols[xi].Name
	}
	capped := ""
	if x.rows > int64(n) {
		capped = fmt.Sprintf(" (first %s of %s rows)", engine.GroupThousands(int64(n)), engine.GroupThousands(x.rows))
		x.warn.add("the %s chart plots the first %s of %s rows", kind, engine.GroupThousands(int64(n)), engine.GroupThousands(x.rows))
	}
	chart.Title = excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: title + capped}}}
	sheet, err := x.chartSheet()
	if err != nil {
		return err
	}
	note := fmt.Sprintf("%s chart of %s, from %s rows 2–%d%s.", chartName(kind), title, data, n+1, capped)
	if err := x.notes(sheet, note, sug); err != nil {
		return err
	}
	if err := x.f.AddChart(sheet, "A4", chart); err != nil {
		return writeError(err)
	}
	return nil
}

func chartName(kind string) string {
	switch kind {
	case engine.ChartBar:
		return "Bar (column)"
	case engine.ChartLine:
		return "Line"
	case engine.ChartPie:
		return "Pie"
	case engine.ChartScatter:
		return "Scatter"
	}
	return "Histogram (column)"
}

func joinAnd(ns []string) string {
	switch len(ns) {
	case 0:
		return ""
	case 1:
		return ns[0]
	}
	return strings.Join(ns[:len(ns)-1], ", ") + " and " + ns[len(ns)-1]
}

// chartSheet creates the Chart sheet.
func (x *xlsxWriter) chartSheet() (string, error) {
	name := UniqueSheetName(x.words.Chart, x.f.GetSheetList())
	if _, err := x.f.NewSheet(name); err != nil {
		return "", writeError(err)
	}
	return name, nil
}

// notes writes what the chart shows and, for auto, why it was chosen.
func (x *xlsxWriter) notes(sheet, note string, sug engine.ChartSuggestion) error {
	if err := x.setRow(sheet, 1, note); err != nil {
		return err
	}
	if err := x.f.SetCellStyle(sheet, "A1", "A1", x.bold); err != nil {
		return writeError(err)
	}
	if x.opts.Chart == ChartAuto {
		reason := sug.Reasons[x.words.code]
		if reason == "" {
			reason = sug.Reason
		}
		return x.setRow(sheet, 2, x.words.ChosenAutomatically+reason)
	}
	return nil
}

// histogram draws a column chart of binned counts of column j, with the
// bin table beside it.
func (x *xlsxWriter) histogram(ctx context.Context, db engine.Database, info *engine.StreamInfo, j int, sug engine.ChartSuggestion) error {
	s := x.stats.summarize(j)
	name := x.cols[j].Name
	switch {
	case s.Kind != engine.KindNumeric:
		x.warn.add("a histogram needs a numeric column, and %s is %s: no chart drawn", name, s.Kind)
		return nil
	case s.HasInf:
		x.warn.add("a histogram cannot bin %s, which holds Infinity: no chart drawn", name)
		return nil
	}
	lo, hi := toNumber(s.Min), toNumber(s.Max)
	c := &x.stats.cols[j]
	bins := histogramBins
	width := engine.NumberDiff(hi, lo) / float64(bins)
	intBins := lo.IsInt && hi.IsInt && c.nFloat == 0 && engine.NumberDiff(hi, lo) < histogramBins
	switch {
	case intBins:
		bins, width = int(hi.I-lo.I)+1, 1
	case width == 0 || math.IsInf(width, 0):
		bins, width = 1, 1
	}
	bin := func(v engine.Number) int {
		b := int(math.Floor(engine.NumberDiff(v, lo) / width))
		return min(max(b, 0), bins-1)
	}
	counts := make([]int64, bins)
	var source string
	fromSample := func() {
		for i := range counts {
			counts[i] = 0
		}
		for _, v := range c.sample {
			counts[bin(v)]++
		}
	}
	if !s.Sampled {
		fromSample()
		source = fmt.Sprintf(x.words.SourceAll, engine.GroupThousands(s.NumSeen))
	} else if err := x.binQuery(ctx, db, info, j, lo, width, bins, counts); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		fromSample()
		source = fmt.Sprintf(x.words.SourceSample,
			engine.GroupThousands(s.SampleSize), engine.GroupThousands(s.NumSeen), engine.AsError(err).Message)
		x.warn.add("the histogram of %s counts a sample of %s of %s values: the query that counts them all failed (%s)",
			name, engine.GroupThousands(s.SampleSize), engine.GroupThousands(s.NumSeen), engine.AsError(err).Message)
	} else {
		source = fmt.Sprintf(x.words.SourceQuery, engine.GroupThousands(s.NumSeen))
	}

	sheet, err := x.chartSheet()
	if err != nil {
		return err
	}
	var note string
	if intBins {
		note = fmt.Sprintf(x.words.HistogramInt, name, fmtNum(lo.Float()), fmtNum(hi.Float()), source)
	} else {
		note = fmt.Sprintf(x.words.HistogramBins, name, bins, fmtNum(width),
			fmtNum(lo.Float()), fmtNum(hi.Float()), source)
	}
	if err := x.notes(sheet, note, sug); err != nil {
		return err
	}
	const top = 4 // the table's header row
	if err := x.binTable(sheet, top, lo, hi, width, intBins, counts); err != nil {
		return err
	}
	return x.histogramChart(sheet, name, top, bins)
}

// binTable writes the histogram's table from row top: a header, then one
// row per bin (counts[b]) with its bounds and its label; integer bins
// (intBins) hold one value each.
func (x *xlsxWriter) binTable(sheet string, top int, lo, hi engine.Number, width float64, intBins bool, counts []int64) error {
	bins := len(counts)
	if err := x.setRow(sheet, top, anyList(x.words.HistHeader)...); err != nil {
		return err
	}
	if err := x.f.SetCellStyle(sheet, "A4", "D4", x.bold); err != nil {
		return writeError(err)
	}
	for b := range bins {
		from := lo.Float() + float64(b)*width
		to := lo.Float() + float64(b+1)*width
		var label string
		switch {
		case intBins:
			from, to = float64(lo.I+int64(b)), float64(lo.I+int64(b))
			label = strconv.FormatInt(lo.I+int64(b), 10)
		case b == bins-1:
			to = hi.Float()
			label = "[" + fmtNum(from) + ", " + fmtNum(to) + "]"
		default:
			label = "[" + fmtNum(from) + ", " + fmtNum(to) + ")"
		}
		if err := x.setRow(sheet, top+1+b, round15(from), round15(to), label, counts[b]); err != nil {
			return err
		}
	}
	return nil
}

// histogramChart draws the column chart of the bin table's counts (bins
// rows under row top), beside it.
func (x *xlsxWriter) histogramChart(sheet, name string, top, bins int) error {
	gap := uint(5)
	vary := false
	chart := &excelize.Chart{Type: excelize.Col, Dimension: excelize.ChartDimension{Width: 960, Height: 480},
		Legend:     excelize.ChartLegend{Position: "none"},
		GapWidth:   &gap,
		VaryColors: &vary,
		Title:      excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: x.words.DistributionOf + name}}},
		Series: []excelize.ChartSeries{{
			Name:       cellRef(sheet, 3, top),
			Categories: colRange(sheet, 2, top+1, top+bins),
			Values:     colRange(sheet, 3, top+1, top+bins),
		}},
	}
	if err := x.f.AddChart(sheet, "F4", chart); err != nil {
		return writeError(err)
	}
	return nil
}

// binQuery counts column j's values per bin by a second guarded query over
// the result: the same statement, capped as the export was.
func (x *xlsxWriter) binQuery(ctx context.Context, db engine.Database, info *engine.StreamInfo, j int, lo engine.Number, width float64, bins int, counts []int64) error {
	v, err := db.Validate(ctx, info.Query)
	if err != nil {
		return err
	}
	names := make([]string, len(x.cols))
	for i := range names {
		names[i] = "c" + strconv.Itoa(i+1)
	}
	limit := ""
	if info.Truncated {
		limit = " LIMIT " + strconv.FormatInt(info.Rows, 10)
	}
	loLit := engine.FormatFloat(lo.F)
	if lo.IsInt {
		loLit = strconv.FormatInt(lo.I, 10)
	}
	// One row of sums, no GROUP BY: nothing to sort, so nothing spills to
	// a temporary file (which a read-only database may not have).
	sums := make([]string, bins)
	for b := range sums {
		sums[b] = fmt.Sprintf("sum(b = %d)", b)
	}
	col := names[j]
	q := fmt.Sprintf("WITH q(%s) AS (SELECT * FROM (\n%s\n)%s),\n"+
		"v(b) AS (SELECT min(max(CAST((%s - (%s)) / %s AS INTEGER), 0), %d) FROM q WHERE typeof(%s) IN ('integer', 'real'))\n"+
		"SELECT %s FROM v",
		strings.Join(names, ", "), v.SQL, limit, col, loLit, engine.FormatFloat(width), bins-1, col, strings.Join(sums, ", "))
	res, err := db.Run(ctx, q, engine.RunOptions{MaxRows: 1, Timeout: x.opts.Timeout})
	if err != nil {
		return err
	}
	if len(res.Rows) != 1 || len(res.Rows[0]) != bins {
		return engine.Errorf(engine.CodeInternal, "the bin query returned %d rows", len(res.Rows))
	}
	for b, v := range res.Rows[0] {
		switch n := v.(type) {
		case int64:
			counts[b] = n
		case nil: // no value at all
			counts[b] = 0
		default:
			return engine.Errorf(engine.CodeInternal, "unexpected bin count %v", v)
		}
	}
	return nil
}

// toNumber reads a statistic's min or max.
func toNumber(v engine.Value) engine.Number {
	switch v := v.(type) {
	case int64:
		return engine.Number{I: v, IsInt: true}
	case float64:
		return engine.Number{F: v}
	}
	return engine.Number{}
}

// fmtNum writes a bin edge briefly: up to 6 significant digits.
func fmtNum(f float64) string {
	return strconv.FormatFloat(f, 'g', 6, 64)
}
