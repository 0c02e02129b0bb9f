package export

import (
	"fmt"
	"strconv"

	"github.com/xuri/excelize/v2"

	"querent/engine"
)

// Bounds of a chart drawn from its own table (plotWide).
const (
	maxWideSeries = 30   // one series per value of a category, at most this many
	maxPeriods    = 2400 // a time axis of months or years has at most this many rows (200 years of months)
	wideTableRow  = 30   // the table's header row, under the chart
)

// wideColumn is one series of a chart drawn from its own table: the
// values of number y where the series column equals value (every row when
// bySeries is false).
type wideColumn struct {
	name     string
	y        int
	value    engine.Value
	bySeries bool
	second   bool // drawn against the second axis
}

// wantsWide reports whether a line or bar chart is drawn from a table of
// its own on the Chart sheet rather than from the Data sheet's columns:
// one series per value of a category (long data), a time axis of months
// or years whose missing periods must show as gaps, or numbers on a
// second axis.
func (x *xlsxWriter) wantsWide(kind string, xi, series int, y2 []int) bool {
	if kind != engine.ChartLine && kind != engine.ChartBar {
		return false
	}
	return series >= 0 || len(y2) > 0 || xi >= 0 && x.period[xi] != formNone
}

// periodOf is the number of a month (year*12 + month-1) or a year for a
// cell of column form f.
func periodOf(v engine.Value, f dateForm) (int, bool) {
	serial, ok := periodSerial(v, f)
	if !ok {
		return 0, false
	}
	y, m := civilFromSerial(int(serial))
	if f == formMonth {
		return y*12 + m - 1, true
	}
	return y, true
}

// civilFromSerial is the year and month of an Excel serial day.
func civilFromSerial(serial int) (int, int) {
	// Howard Hinnant's civil_from_days.
	z := serial - excelEpochOffset + 719468
	era := z / 146097
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y := yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	m := mp + 3
	if mp >= 10 {
		m = mp - 9
	}
	if m <= 2 {
		y++
	}
	return y, m
}

// wideKeys are the chart's x values: every month or year from the first
// to the last when column xi holds them (a missing one is a row of gaps),
// else each distinct value in the order it first comes. index finds a
// row's place.
func (x *xlsxWriter) wideKeys(rows [][]engine.Value, xi int) (keys []engine.Value, index func(engine.Value) (int, bool), periods bool) {
	if f := x.period[xi]; f != formNone {
		lo, hi, seen := 0, 0, false
		for _, r := range rows {
			if p, ok := periodOf(cell(r, xi), f); ok {
				if !seen || p < lo {
					lo = p
				}
				if !seen || p > hi {
					hi = p
				}
				seen = true
			}
		}
		if seen && hi-lo < maxPeriods {
			for p := lo; p <= hi; p++ {
				y, m := p, 1
				if f == formMonth {
					y, m = p/12, p%12+1
				}
				keys = append(keys, float64(daysFromCivil(y, m, 1)+excelEpochOffset))
			}
			return keys, func(v engine.Value) (int, bool) {
				p, ok := periodOf(v, f)
				return p - lo, ok
			}, true
		}
	}
	at := map[any]int{}
	for _, r := range rows {
		k := mapKey(cell(r, xi))
		if _, ok := at[k]; !ok {
			at[k] = len(keys)
			keys = append(keys, cell(r, xi))
		}
	}
	return keys, func(v engine.Value) (int, bool) {
		i, ok := at[mapKey(v)]
		return i, ok
	}, false
}

func cell(r []engine.Value, j int) engine.Value {
	if j >= 0 && j < len(r) {
		return r[j]
	}
	return nil
}

func mapKey(v engine.Value) any {
	if b, ok := v.([]byte); ok {
		return "\x00blob:" + string(b)
	}
	return v
}

// wideColumns are the series: one per value of column series (of the
// first y), in the order they first come, or one per y and y2.
func (x *xlsxWriter) wideColumns(rows [][]engine.Value, ys, y2 []int, series int) []wideColumn {
	var out []wideColumn
	if series >= 0 && len(ys) > 0 {
		seen := map[any]bool{}
		for _, r := range rows {
			v := cell(r, series)
			if seen[mapKey(v)] {
				continue
			}
			seen[mapKey(v)] = true
			if len(out) == maxWideSeries {
				x.warn.add("the chart draws one series for each of the first %d values of %s; the others are left out", maxWideSeries, x.cols[series].Name)
				break
			}
			out = append(out, wideColumn{name: seriesName(v), y: ys[0], value: v, bySeries: true})
		}
		return out
	}
	for _, y := range ys {
		out = append(out, wideColumn{name: x.cols[y].Name, y: y})
	}
	for _, y := range y2 {
		out = append(out, wideColumn{name: x.cols[y].Name, y: y, second: true})
	}
	return out
}

func seriesName(v engine.Value) string {
	switch v := v.(type) {
	case nil:
		return "NULL"
	case string:
		return v
	case int64:
		return strconv.FormatInt(v, 10)
	case float64:
		return engine.FormatFloat(v)
	}
	return fmt.Sprint(v)
}

// plotWide draws a line or bar chart from a table of its own on the Chart
// sheet, under the chart: one row per x value (every month or year from the
// first to the last, as dates of the Data sheet's format), one column per
// series; a missing value is an empty cell, drawn as a gap.
func (x *xlsxWriter) plotWide(kind string, xi int, ys, y2 []int, series int, sug engine.ChartSuggestion) error {
	rows := x.chart
	keys, index, periods := x.wideKeys(rows, xi)
	cols := x.wideColumns(rows, ys, y2, series)
	table := make([][]any, len(keys))
	for i := range table {
		table[i] = make([]any, len(cols))
	}
	for _, r := range rows {
		i, ok := index(cell(r, xi))
		if !ok || i < 0 || i >= len(keys) {
			continue
		}
		for c, wc := range cols {
			if wc.bySeries && mapKey(cell(r, series)) != mapKey(wc.value) {
				continue
			}
			switch v := cell(r, wc.y).(type) {
			case int64, float64:
				if table[i][c] == nil {
					table[i][c] = v
				}
			}
		}
	}

	sheet, err := x.chartSheet()
	if err != nil {
		return err
	}
	w := x.words
	var title string
	var first, second []string
	for _, wc := range cols {
		if wc.second {
			second = append(second, wc.name)
		} else if !wc.bySeries {
			first = append(first, wc.name)
		}
	}
	if series >= 0 {
		title = fmt.Sprintf(w.SeriesTitle, x.cols[ys[0]].Name, x.cols[xi].Name, x.cols[series].Name)
	} else {
		title = fmt.Sprintf(w.TitleBy, joinAnd(first), x.cols[xi].Name)
	}
	if len(second) > 0 {
		title += fmt.Sprintf(w.SecondAxis, joinAnd(second))
	}
	note := fmt.Sprintf(w.WideNote, chartName(kind)+": "+title, engine.GroupThousands(int64(len(rows))), wideTableRow)
	if periods {
		note += w.Gaps
	}
	if x.rows > int64(len(rows)) {
		x.warn.add("the %s chart draws the first %s of %s rows", kind, engine.GroupThousands(int64(len(rows))), engine.GroupThousands(x.rows))
	}
	if err := x.notes(sheet, note, sug); err != nil {
		return err
	}
	if err := x.wideTable(sheet, xi, keys, periods, cols, table); err != nil {
		return err
	}
	period := formNone
	if periods {
		period = x.period[xi]
	}
	return x.wideChart(sheet, kind, title, len(keys), cols, period)
}

// wideTable writes the chart's table from row wideTableRow.
func (x *xlsxWriter) wideTable(sheet string, xi int, keys []engine.Value, periods bool, cols []wideColumn, table [][]any) error {
	head := []any{x.cols[xi].Name}
	for _, c := range cols {
		head = append(head, c.name)
	}
	if err := x.setRow(sheet, wideTableRow, head...); err != nil {
		return err
	}
	last, _ := excelize.ColumnNumberToName(len(head))
	if err := x.f.SetCellStyle(sheet, "A"+strconv.Itoa(wideTableRow), last+strconv.Itoa(wideTableRow), x.bold); err != nil {
		return writeError(err)
	}
	for i, k := range keys {
		row := make([]any, 0, len(cols)+1)
		switch {
		case periods:
			row = append(row, k)
		default:
			row = append(row, x.cellValue(xi, k))
		}
		row = append(row, table[i]...)
		if err := x.setRow(sheet, wideTableRow+1+i, row...); err != nil {
			return err
		}
	}
	if periods {
		f := x.period[xi]
		ref := "A" + strconv.Itoa(wideTableRow+1)
		end := "A" + strconv.Itoa(wideTableRow+len(keys))
		if err := x.f.SetCellStyle(sheet, ref, end, x.dateStyle[f]); err != nil {
			return writeError(err)
		}
	}
	return nil
}

// wideChart draws the table's columns: those of the first axis, and the
// second axis' in a combined chart of the same kind.
func (x *xlsxWriter) wideChart(sheet, kind, title string, n int, cols []wideColumn, period dateForm) error {
	types := map[string]excelize.ChartType{engine.ChartBar: excelize.Col, engine.ChartLine: excelize.Line}
	vary := false
	main := &excelize.Chart{Type: types[kind], Dimension: excelize.ChartDimension{Width: 960, Height: 480},
		Legend: excelize.ChartLegend{Position: "bottom"}, VaryColors: &vary, ShowBlanksAs: "gap",
		Title: excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: title}}}}
	if period != formNone {
		main.XAxis.NumFmt = excelize.ChartNumFmt{CustomNumFmt: numFmts[period]} // 2009-01, not its serial
	}
	if n > 24 {
		main.XAxis.TickLabelSkip = (n + 11) / 12                     // about a dozen labels, unwrapped (Excel)
		main.XAxis.Alignment = excelize.Alignment{TextRotation: -45} // readable where the skip is not honoured (LibreOffice)
	}
	var other *excelize.Chart
	for c, wc := range cols {
		s := excelize.ChartSeries{Name: cellRef(sheet, c+1, wideTableRow),
			Categories: colRange(sheet, 0, wideTableRow+1, wideTableRow+n),
			Values:     colRange(sheet, c+1, wideTableRow+1, wideTableRow+n)}
		if kind == engine.ChartLine {
			s.Marker = excelize.ChartMarker{Symbol: "none"}
			if n <= 60 {
				s.Marker = excelize.ChartMarker{Symbol: "circle", Size: 4}
			}
		}
		if !wc.second {
			main.Series = append(main.Series, s)
			continue
		}
		if other == nil {
			other = &excelize.Chart{Type: types[kind], VaryColors: &vary, YAxis: excelize.ChartAxis{Secondary: true}}
		}
		other.Series = append(other.Series, s)
	}
	if len(main.Series) == 0 && other != nil { // every number on the second axis: one axis is enough
		main.Series, other = other.Series, nil
	}
	if len(cols) == 1 {
		main.Legend.Position = "none"
	}
	var err error
	if other != nil {
		err = x.f.AddChart(sheet, "A4", main, other)
	} else {
		err = x.f.AddChart(sheet, "A4", main)
	}
	if err != nil {
		return writeError(err)
	}
	return nil
}
