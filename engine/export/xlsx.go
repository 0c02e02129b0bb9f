package export

import (
	"archive/zip"
	"compress/flate"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"

	"querent/engine"
	"querent/engine/describe"
)

// The layout of the workbook (its sheets' names are labels).
const (
	// maxSheetRows is Excel's row limit: a header and 1,048,575 data rows.
	maxSheetRows = 1_048_576
	// headRows are buffered before the first row is written: the stream
	// writer needs the column widths (and the date columns) first; fewer
	// when they hold headBytes (100 rows of 10 MB values were 1 GB).
	headRows  = 100
	headBytes = 4 << 20
	// column widths, in characters.
	minColWidth = 6
	maxColWidth = 60
	// chartPoints is how many of the first rows choose a chart (its kind and
	// columns, for auto); chartBufferBytes bounds the memory those rows may
	// take. maxPlotRows is how many rows a bar, line, pie or scatter chart
	// plots: every row up to Excel's old limit of 32,000 points a series.
	chartPoints      = 1000
	maxPlotRows      = 32_000
	chartBufferBytes = 32 << 20
)

// xlsxWriter streams a result into a workbook.
type xlsxWriter struct {
	f      *excelize.File
	opts   Options
	words  *labels // the workbook's own words, in opts.Language
	warn   *warnings
	cols   []engine.Column
	stats  *streamStats
	head   [][]engine.Value // the first rows, before the sheet starts
	headB  int64            // their text and blob bytes
	chart  [][]engine.Value // the first rows, for a chart
	chartB int64

	started   bool
	sw        *excelize.StreamWriter
	sheets    []string // the data sheets
	sheetRow  int      // the last row written on the current data sheet
	rows      int64
	widths    []float64
	dateCol   []bool
	period    []dateForm  // formMonth or formYear for a column of months or years, else formNone
	numFmt    []numFormat // each column's number format (numfmt.go)
	numStyle  [len(numFormatCodes)]int
	bold      int
	wrap      int
	dateStyle [len(numFmts)]int
	cell      []any
	lastCol   string // the last column's letters

	// what the warnings count
	blobWarned []bool
	cuts       occurrences
	bigInts    occurrences
	badChars   occurrences
	notDates   []occurrences
}

// occurrences counts cells of one kind and remembers the first.
type occurrences struct {
	n        int64
	row      int64 // the result's row, 1-based
	col      int
	chars    int
	sheet    string
	sheetRow int
}

func (o *occurrences) add(row int64, col int, sheet string, sheetRow int) {
	if o.n == 0 {
		o.row, o.col, o.sheet, o.sheetRow = row, col, sheet, sheetRow
	}
	o.n++
}

func (x *xlsxWriter) where(o occurrences) string {
	ref, _ := excelize.CoordinatesToCellName(o.col+1, o.sheetRow)
	return fmt.Sprintf("row %s, column %s (cell %s!%s)", engine.GroupThousands(o.row), x.cols[o.col].Name, o.sheet, ref)
}

// writeXLSX streams the result into w as a workbook.
func writeXLSX(ctx context.Context, db engine.Database, sql string, w io.Writer, opts Options, rep *Report, prog *progress) (err error) {
	var warn warnings
	words, err := labelsFor(opts.Language)
	if err != nil {
		return err
	}
	x := &xlsxWriter{f: excelize.NewFile(), opts: opts, warn: &warn, words: words}
	defer func() {
		if cerr := x.f.Close(); err == nil && cerr != nil {
			err = writeError(cerr)
		}
	}()
	// Two goroutines: this one reads the rows and gathers the statistics
	// and the chart's rows; the pipe's writes the sheet.
	info, err := streamPiped(ctx, db, sql, opts, prog,
		func(cols []engine.Column) (func([]engine.Value) error, error) {
			x.cols = append([]engine.Column(nil), cols...)
			x.stats = newStreamStats(len(cols))
			return x.take, nil
		},
		func(vals []engine.Value) {
			x.stats.add(vals)
			if x.opts.Chart != ChartNone && len(x.chart) < chartPoints && x.chartB < chartBufferBytes {
				r, n := copyRow(vals)
				x.chart = append(x.chart, r)
				x.chartB += n
			}
		})
	if err != nil {
		return err
	}
	if err := x.finishData(); err != nil {
		return err
	}
	rep.Columns = x.cols
	rep.Rows = info.Rows
	rep.Truncated = info.Truncated
	for _, w := range info.Warnings {
		warn.add("%s", w)
	}
	if err := x.finishSheets(ctx, db, info); err != nil {
		return err
	}
	if err := x.save(ctx, w); err != nil {
		return err
	}
	rep.Sheets = x.f.GetSheetList()
	rep.Warnings, rep.WarningWords = warn.list, warn.said
	return nil
}

// copyRow copies a row the database will reuse.
func copyRow(vals []engine.Value) ([]engine.Value, int64) {
	r := make([]engine.Value, len(vals))
	var n int64
	for i, v := range vals {
		switch b := v.(type) {
		case []byte:
			r[i] = append([]byte(nil), b...)
			n += int64(len(b))
		case string:
			r[i] = v
			n += int64(len(b))
		default:
			r[i] = v
			n += 8
		}
	}
	return r, n
}

// take writes one row (the writer's goroutine): the first rows wait in
// head until the sheet can start.
func (x *xlsxWriter) take(vals []engine.Value) error {
	if !x.started {
		r, n := copyRow(vals)
		x.head = append(x.head, r)
		x.headB += n
		if len(x.head) < headRows && x.headB < headBytes {
			return nil
		}
		return x.start()
	}
	return x.writeRow(vals)
}

// start sets the sheet up from the buffered rows and writes them.
func (x *xlsxWriter) start() error {
	x.started = true
	n := len(x.cols)
	x.cell = make([]any, n)
	x.blobWarned = make([]bool, n)
	x.notDates = make([]occurrences, n)
	x.lastCol, _ = excelize.ColumnNumberToName(max(n, 1))
	var err error
	if x.bold, err = x.f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}}); err != nil {
		return writeError(err)
	}
	if x.wrap, err = x.f.NewStyle(&excelize.Style{Alignment: &excelize.Alignment{WrapText: true, Vertical: "top"}}); err != nil {
		return writeError(err)
	}
	for form := formDate; form <= formYear; form++ {
		f := numFmts[form]
		if x.dateStyle[form], err = x.f.NewStyle(&excelize.Style{CustomNumFmt: &f}); err != nil {
			return writeError(err)
		}
	}
	// Date columns: declared so, or every buffered value reads as a date.
	x.dateCol = make([]bool, n)
	for j, c := range x.cols {
		if isDateType(c.DeclType) || isDateType(c.Type) {
			x.dateCol[j] = true
			continue
		}
		seen := false
		all := true
		for _, r := range x.head {
			switch v := r[j].(type) {
			case nil:
			case string:
				if _, _, ok := parseDate(v); ok {
					seen = true
					continue
				}
				all = false
			default:
				all = false
			}
			if !all {
				break
			}
		}
		x.dateCol[j] = seen && all
	}
	// Months and years (strftime('%Y-%m'), a Year column): dates of a
	// yyyy-mm or yyyy format, so that a chart puts them on a time axis.
	x.period = make([]dateForm, n)
	for j, c := range x.cols {
		if !x.dateCol[j] {
			x.period[j] = periodForm(describe.PeriodColumn(c.Name, x.head, j))
		}
	}
	// Number formats: from each numeric column's name and first values.
	x.numFmt = make([]numFormat, n)
	for j, c := range x.cols {
		if !x.dateCol[j] && x.period[j] == formNone {
			x.numFmt[j] = chooseNumFormat(c.Name, x.head, j)
		}
	}
	for f := numInteger; f < numFormat(len(numFormatCodes)); f++ {
		code := numFormatCodes[f]
		if x.numStyle[f], err = x.f.NewStyle(&excelize.Style{CustomNumFmt: &code}); err != nil {
			return writeError(err)
		}
	}
	x.widths = make([]float64, n)
	for j, c := range x.cols {
		w := displayWidth(c.Name, maxColWidth) + 3 // bold, and the filter's button
		for _, r := range x.head {
			w = max(w, x.valueWidth(j, r[j]))
		}
		x.widths[j] = float64(min(max(w+1, minColWidth), maxColWidth))
	}
	if err := x.newDataSheet(); err != nil {
		return err
	}
	head := x.head
	x.head = nil
	for _, r := range head {
		if err := x.writeRow(r); err != nil {
			return err
		}
	}
	return nil
}

// valueWidth estimates how wide a value shows.
func (x *xlsxWriter) valueWidth(j int, v engine.Value) int {
	if f := x.period[j]; f != formNone && v != nil {
		return len(numFmts[f])
	}
	switch v := v.(type) {
	case nil:
		return 0
	case int64:
		if f := x.numFmt[j]; f != numGeneral {
			return formatWidth(f, float64(v))
		}
		return len(strconv.FormatInt(v, 10))
	case float64:
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return 9
		}
		if f := x.numFmt[j]; f != numGeneral {
			return formatWidth(f, v)
		}
		return min(len(strconv.FormatFloat(round15(v), 'g', 11, 64)), 16)
	case string:
		if x.dateCol[j] {
			if _, form, ok := parseDate(v); ok {
				return len(numFmts[form])
			}
		}
		return displayWidth(v, maxColWidth)
	case []byte:
		return min(base64.StdEncoding.EncodedLen(len(v)), maxColWidth)
	}
	return 0
}

// newDataSheet starts the next data sheet: Data, Data 2, Data 3…
func (x *xlsxWriter) newDataSheet() error {
	var name string
	if len(x.sheets) == 0 {
		name = x.words.Data
		if err := x.f.SetSheetName("Sheet1", name); err != nil {
			return writeError(err)
		}
	} else {
		name = UniqueSheetName(x.words.Data+" "+strconv.Itoa(len(x.sheets)+1), x.f.GetSheetList())
		if _, err := x.f.NewSheet(name); err != nil {
			return writeError(err)
		}
	}
	x.sheets = append(x.sheets, name)
	sw, err := x.f.NewStreamWriter(name)
	if err != nil {
		return writeError(err)
	}
	x.sw = sw
	// Runs of equal widths, last first: excelize puts each new <col> first,
	// and Excel wants them in column order.
	for end := len(x.widths) - 1; end >= 0; {
		start := end
		for start > 0 && x.widths[start-1] == x.widths[end] {
			start--
		}
		if err := sw.SetColWidth(start+1, end+1, x.widths[end]); err != nil {
			return writeError(err)
		}
		end = start - 1
	}
	if err := sw.SetPanes(&excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft",
		Selection: []excelize.Selection{{SQRef: "A2", ActiveCell: "A2", Pane: "bottomLeft"}}}); err != nil {
		return writeError(err)
	}
	hdr := make([]any, len(x.cols))
	for j, c := range x.cols {
		s, _, _ := cutText(c.Name)
		hdr[j] = excelize.Cell{StyleID: x.bold, Value: s}
	}
	if err := sw.SetRow("A1", hdr); err != nil {
		return writeError(err)
	}
	x.sheetRow = 1
	return nil
}

// endDataSheet sets the autofilter over the sheet's rows and flushes it.
func (x *xlsxWriter) endDataSheet() error {
	name := x.sheets[len(x.sheets)-1]
	// The autofilter is set on the worksheet the stream writer holds; it
	// is written when the stream is flushed.
	if err := x.f.AutoFilter(name, "A1:"+x.lastCol+strconv.Itoa(x.sheetRow), nil); err != nil {
		return writeError(err)
	}
	if err := x.sw.Flush(); err != nil {
		return writeError(err)
	}
	x.sw = nil
	return nil
}

// writeRow writes one row to the current data sheet, starting the next
// sheet when this one is full.
func (x *xlsxWriter) writeRow(vals []engine.Value) error {
	if x.sheetRow >= maxSheetRows {
		if err := x.endDataSheet(); err != nil {
			return err
		}
		if err := x.newDataSheet(); err != nil {
			return err
		}
	}
	x.sheetRow++
	x.rows++
	for j := range x.cell {
		var v engine.Value
		if j < len(vals) {
			v = vals[j]
		}
		x.cell[j] = x.cellValue(j, v)
	}
	if err := x.sw.SetRow("A"+strconv.Itoa(x.sheetRow), x.cell); err != nil {
		return writeError(err)
	}
	return nil
}

// cellValue turns a database value into what the stream writer writes.
func (x *xlsxWriter) cellValue(j int, v engine.Value) any {
	if f := x.period[j]; f != formNone && v != nil {
		if serial, ok := periodSerial(v, f); ok {
			return excelize.Cell{StyleID: x.dateStyle[f], Value: serial}
		}
		if _, text := v.(string); text {
			x.notDates[j].add(x.rows, j, x.sheets[len(x.sheets)-1], x.sheetRow)
		}
	}
	switch v := v.(type) {
	case nil:
		return nil
	case int64:
		if v > maxExactInt || v < -maxExactInt {
			x.bigInts.add(x.rows, j, x.sheets[len(x.sheets)-1], x.sheetRow)
			return strconv.FormatInt(v, 10)
		}
		if f := x.numFmt[j]; f != numGeneral {
			return excelize.Cell{StyleID: x.numStyle[f], Value: v}
		}
		return v
	case float64:
		switch {
		case math.IsInf(v, 1):
			return "Infinity"
		case math.IsInf(v, -1):
			return "-Infinity"
		case math.IsNaN(v):
			return nil
		}
		if f := x.numFmt[j]; f != numGeneral {
			return excelize.Cell{StyleID: x.numStyle[f], Value: round15(v)}
		}
		return round15(v)
	case string:
		if x.dateCol[j] {
			if serial, form, ok := parseDate(v); ok {
				return excelize.Cell{StyleID: x.dateStyle[form], Value: round15(serial)}
			}
			x.notDates[j].add(x.rows, j, x.sheets[len(x.sheets)-1], x.sheetRow)
		}
		return x.text(j, v)
	case []byte:
		if !x.blobWarned[j] {
			x.blobWarned[j] = true
			x.warn.add("column %s holds binary values (blobs): they are written as base64 text", x.cols[j].Name)
		}
		return x.text(j, base64.StdEncoding.EncodeToString(v))
	}
	return x.text(j, fmt.Sprint(v))
}

// text checks a text cell against Excel's limits.
func (x *xlsxWriter) text(j int, s string) string {
	out, cut, chars := cutText(s)
	if cut {
		if x.cuts.n == 0 {
			x.cuts.chars = chars
		}
		x.cuts.add(x.rows, j, x.sheets[len(x.sheets)-1], x.sheetRow)
	}
	if badXML(s) {
		x.badChars.add(x.rows, j, x.sheets[len(x.sheets)-1], x.sheetRow)
	}
	return out
}

// finishData ends the last data sheet and turns the counts into warnings.
func (x *xlsxWriter) finishData() error {
	if x.cols == nil {
		return engine.Errorf(engine.CodeInternal, "the database gave no columns")
	}
	if !x.started {
		if err := x.start(); err != nil {
			return err
		}
	}
	if err := x.endDataSheet(); err != nil {
		return err
	}
	if x.bigInts.n > 0 {
		x.warn.add("%s integer(s) beyond ±2^53 were written as text so that no digit is lost (Excel's numbers are doubles); first at %s",
			engine.GroupThousands(x.bigInts.n), x.where(x.bigInts))
	}
	if x.cuts.n > 0 {
		x.warn.add("%s text value(s) were longer than Excel's limit of 32,767 characters per cell and were cut, ending with \"… [cut: N characters]\"; first at %s (%s characters); export to CSV to keep them whole",
			engine.GroupThousands(x.cuts.n), x.where(x.cuts), engine.GroupThousands(int64(x.cuts.chars)))
	}
	if x.badChars.n > 0 {
		x.warn.add("%s text value(s) held characters a spreadsheet cannot store (control characters or invalid UTF-8), written as U+FFFD; first at %s",
			engine.GroupThousands(x.badChars.n), x.where(x.badChars))
	}
	for j, o := range x.notDates {
		if o.n > 0 {
			x.warn.add("column %s holds dates, but %s value(s) are not ISO dates from 1900-03-01 on and stay text; first at %s",
				x.cols[j].Name, engine.GroupThousands(o.n), x.where(o))
		}
	}
	if len(x.sheets) > 1 {
		x.warn.add("the result has more rows than one Excel sheet holds (1,048,575 below the header): it continues on %s",
			strings.Join(x.sheets[1:], ", "))
	}
	return nil
}

// finishSheets writes the Provenance, Statistics and Chart sheets.
func (x *xlsxWriter) finishSheets(ctx context.Context, db engine.Database, info *engine.StreamInfo) error {
	if info.Truncated {
		x.warn.say(rowLimit(info.Rows))
	}
	for _, s := range []string{x.words.Provenance, x.words.Statistics} {
		if _, err := x.f.NewSheet(UniqueSheetName(s, x.f.GetSheetList())); err != nil {
			return writeError(err)
		}
	}
	if err := x.writeStatistics(); err != nil {
		return err
	}
	if err := x.drawChart(ctx, db, info); err != nil {
		return err
	}
	return x.writeProvenance(ctx, db, info)
}

// setRow writes a row of values on a sheet in normal mode (text as shared
// strings, never formulas).
func (x *xlsxWriter) setRow(sheet string, row int, vals ...any) error {
	for i, v := range vals {
		if s, ok := v.(string); ok {
			vals[i], _, _ = cutText(s)
		}
	}
	if err := x.f.SetSheetRow(sheet, "A"+strconv.Itoa(row), &vals); err != nil {
		return writeError(err)
	}
	return nil
}

// shownDatabase is the database's name on the Provenance sheet: a file's
// base name (its folder may be private), a server's name as it is.
func shownDatabase(db engine.Database, name string) string {
	if _, ok := db.(engine.Origin); ok {
		return name
	}
	return filepath.Base(name)
}

// databaseFacts are the Provenance sheet's rows that identify the data: a
// file's sha256, or a server's facts (server, role, version, the snapshot's
// time — engine.Origin).
func databaseFacts(db engine.Database, sha256 string, w *labels) [][]any {
	o, ok := db.(engine.Origin)
	if !ok {
		return [][]any{{w.DatabaseSHA256, sha256}}
	}
	var rows [][]any
	for _, f := range o.Origin() {
		rows = append(rows, []any{w.fact(f.Name), f.Value})
	}
	return rows
}

// writeProvenance records where the rows came from.
func (x *xlsxWriter) writeProvenance(ctx context.Context, db engine.Database, info *engine.StreamInfo) error {
	p := x.opts.Provenance
	if p.Database == "" {
		p.Database = db.Name()
	}
	if p.DatabaseSHA256 == "" {
		if fp, ok := db.(engine.Fingerprinter); ok {
			if sum, err := fp.SHA256(ctx); err == nil {
				p.DatabaseSHA256 = sum
			}
		}
	}
	if p.Time.IsZero() {
		p.Time = time.Now()
	}
	w := x.words
	capped := w.No
	if info.Truncated {
		capped = fmt.Sprintf(w.CappedYes, engine.GroupThousands(x.opts.MaxRows))
	} else if x.opts.MaxRows > 0 {
		capped = fmt.Sprintf(w.CappedNo, engine.GroupThousands(x.opts.MaxRows))
	}
	sheet := w.Provenance
	rows := [][]any{
		{w.Field, w.Value},
		{w.Question, p.Question},
		{w.SQL, info.Query},
	}
	// The analyst's SQL, then the statement as the guard ran it when it
	// changed it; Querent's wrapper (WITH _querent_q …) is no part of it.
	if st := strings.TrimSpace(info.Statement); st != "" && st != strings.TrimSpace(info.Query) {
		rows = append(rows, []any{w.Guarded, info.Statement})
	}
	if p.Explanation != "" {
		rows = append(rows, []any{w.Explanation, p.Explanation})
	}
	rows = append(rows, [][]any{
		{w.Model, p.Model},
		{w.Database, shownDatabase(db, p.Database)},
		{w.ExportedAt, p.Time.Local().Format("2006-01-02 15:04:05 -07:00 MST")},
		{w.Rows, info.Rows},
		{w.Capped, capped},
		{w.TablesUsed, strings.Join(info.TablesUsed, ", ")},
		{w.QueryTime, info.Elapsed.Round(time.Millisecond).String()},
	}...)
	if x.opts.Rows != nil {
		at := slices.IndexFunc(rows, func(r []any) bool { return r[0] == w.Rows }) + 1
		rows = slices.Insert(rows, at, []any{w.View, w.ViewNote})
	}
	at := slices.IndexFunc(rows, func(r []any) bool { return r[0] == w.Database }) + 1
	rows = slices.Insert(rows, at, databaseFacts(db, p.DatabaseSHA256, w)...)
	if p.Version != "" {
		rows = append(rows, []any{w.Version, p.Version})
	}
	if len(x.warn.list) == 0 {
		rows = append(rows, []any{w.Warnings, w.None})
	}
	for _, m := range x.warn.list {
		rows = append(rows, []any{w.Warning, m})
	}
	for i, r := range rows {
		if err := x.setRow(sheet, i+1, r...); err != nil {
			return err
		}
	}
	if err := x.f.SetCellStyle(sheet, "A1", "B1", x.bold); err != nil {
		return writeError(err)
	}
	if err := x.f.SetCellStyle(sheet, "B2", "B"+strconv.Itoa(len(rows)), x.wrap); err != nil {
		return writeError(err)
	}
	if err := x.f.SetColWidth(sheet, "A", "A", 18); err != nil {
		return writeError(err)
	}
	if err := x.f.SetColWidth(sheet, "B", "B", 100); err != nil {
		return writeError(err)
	}
	return nil
}

// writeStatistics writes one row per column.
func (x *xlsxWriter) writeStatistics() error {
	w := x.words
	sheet := w.Statistics
	if err := x.setRow(sheet, 1, anyList(w.StatsHeader)...); err != nil {
		return err
	}
	for j, c := range x.cols {
		s := x.stats.summarize(j)
		var distinct any = s.Distinct
		var notes []string
		if s.DistinctCapped {
			distinct = fmt.Sprintf(w.MoreThan, engine.GroupThousands(int64(s.DistinctCap)))
		}
		if s.Sampled {
			notes = append(notes, fmt.Sprintf(w.SampleNote, engine.GroupThousands(s.SampleSize), engine.GroupThousands(s.NumSeen)))
		}
		if s.DistinctCapped && s.Top != nil {
			notes = append(notes, fmt.Sprintf(w.TopAmong, engine.GroupThousands(int64(s.DistinctCap))))
		}
		if s.HasInf {
			notes = append(notes, w.NoMeanInf)
		} else if s.Overflow {
			notes = append(notes, w.NoMeanLarge)
		}
		var topCount any
		if s.Top != nil {
			topCount = s.TopCount
		}
		row := []any{c.Name, c.Type, w.kind(s.Kind), s.Count, s.Nulls, distinct, statValue(s.Min), statValue(s.Max),
			floatPtr(s.Mean), floatPtr(s.Std), floatPtr(s.P25), floatPtr(s.P50), floatPtr(s.P75),
			statValue(s.Top), topCount, strings.Join(notes, "; ")}
		if err := x.setRow(sheet, j+2, row...); err != nil {
			return err
		}
	}
	if err := x.f.SetCellStyle(sheet, "A1", "P1", x.bold); err != nil {
		return writeError(err)
	}
	if err := x.f.SetPanes(sheet, &excelize.Panes{Freeze: true, XSplit: 1, YSplit: 1, TopLeftCell: "B2", ActivePane: "bottomRight"}); err != nil {
		return writeError(err)
	}
	widths := []float64{20, 12, 9, 10, 10, 12, 14, 14, 14, 14, 12, 12, 12, 20, 10, 50}
	for i, w := range widths {
		col, _ := excelize.ColumnNumberToName(i + 1)
		if err := x.f.SetColWidth(sheet, col, col, w); err != nil {
			return writeError(err)
		}
	}
	return nil
}

// anyList makes a row of cells from words.
func anyList(words []string) []any {
	out := make([]any, len(words))
	for i, w := range words {
		out[i] = w
	}
	return out
}

// statValue is a statistic as a cell: as the data sheet writes values.
func statValue(v engine.Value) any {
	switch v := v.(type) {
	case nil:
		return nil
	case int64:
		if v > maxExactInt || v < -maxExactInt {
			return strconv.FormatInt(v, 10)
		}
		return v
	case float64:
		switch {
		case math.IsInf(v, 1):
			return "Infinity"
		case math.IsInf(v, -1):
			return "-Infinity"
		}
		return round15(v)
	case []byte:
		return base64.StdEncoding.EncodeToString(v)
	}
	return v
}

func floatPtr(p *float64) any {
	if p == nil {
		return nil
	}
	return round15(*p)
}

// save writes the workbook into w. excelize's own Write builds the whole
// zip in memory; its zip writer is redirected to w instead, so that memory
// stays bounded, and the writes check ctx.
func (x *xlsxWriter) save(ctx context.Context, w io.Writer) error {
	cw := &ctxWriter{ctx: ctx, w: w}
	x.f.SetZipWriter(func(io.Writer) excelize.ZipWriter {
		zw := zip.NewWriter(cw)
		// Deflate level 2: on sheet XML about 1.8 times as fast as the
		// default level (6), for a file about 15% larger.
		zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) {
			return flate.NewWriter(w, 2)
		})
		return zw
	})
	if err := x.f.Write(io.Discard); err != nil {
		return writeError(err)
	}
	if f, ok := w.(*os.File); ok {
		if err := fixZip64Headers(f, math.MaxUint32); err != nil {
			return writeError(err)
		}
	}
	return nil
}

// ctxWriter stops writing when ctx is done.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c *ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}
