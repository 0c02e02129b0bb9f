package ingest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"

	"querent/engine"
	"querent/engine/imports"
	"querent/engine/words"
)

// One sheet: its reader samples the first rows as Excel shows them, then
// streams every row's stored values into the columns' Inferrers and the
// spill file, and finishes the sheet's table.

type sheetReader struct {
	ctx      context.Context
	f        *excelize.File
	file     string // base name
	sheet    string
	date1904 bool
	progress func(imports.Progress)
	prefix   string    // "book.xlsx, sheet Results: "
	gate     *scanGate // the scan of the sheet's part, ahead of excelize
	sst      *scanGate // the scan of the shared strings; nil without them
	maxTemp  int64

	warnings []string
	spill    *spillFile

	rng        cellRange   // the cells to read (Options.Range)
	headerRow  int         // 0 detect, -1 none, N the header's row
	sampleRows int64       // a preview reads at most this many data rows (0 all)
	sampled    bool        // it stopped there
	lastNum    int         // the last row read
	firstNum   int         // the first row of the table (header or data)
	headerNum  int         // the header's row (0: none)
	skipped    int         // non-blank rows above the table, skipped
	head       previewRows // the first data rows, for the preview
	maxWidth   int         // the widest row read

	cols      []*xlsxColumn
	kinds     []columnKind // from the sample, per column
	headered  bool         // the sheet has a header row
	rows      int64        // data rows
	widened   int          // rows with cells beyond the header
	firstWide int          // the first of them
	wideFrom  int          // the header's width

	lastReport time.Time
}

type sheetResult struct {
	sheet string
	table *Source
}

// columnKind is what the sample found a column's numbers to be.
type columnKind struct {
	date     bool   // Excel date cells
	boolean  bool   // TRUE/FALSE cells
	showTime bool   // some date cell shows a time of day
	showDate bool   // some date cell shows a date
	example  string // a date cell as Excel shows it
}

type xlsxColumn struct {
	kind     columnKind
	inf      *Inferrer
	nonEmpty int64
	header   string // the header text (the name row), "" for none
	original string // the header as the source shows it (with its group)
	nameText string // the text ColumnNames makes the name from
}

type headRow struct {
	num int
	raw []string
	fmt []string // the formatted cells, nil when not sampled
}

func (s *sheetReader) warn(format string, args ...any) {
	s.warnings = append(s.warnings, s.prefix+fmt.Sprintf(format, args...))
}

func (s *sheetReader) errorf(format string, args ...any) *engine.Error {
	return workbookError(s.file+", sheet "+strconv.Quote(s.sheet)+": "+format, args...)
}

func (s *sheetReader) report(force bool) {
	if s.progress == nil {
		return
	}
	now := time.Now()
	if !force && now.Sub(s.lastReport) < xlsxProgressGap {
		return
	}
	s.lastReport = now
	s.progress(imports.Progress{Phase: "reading", Source: s.file + ": " + s.sheet, Rows: s.rows})
}

func isBlank(cells []string) bool {
	for _, c := range cells {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}

func nonEmptyCount(cells []string) int {
	n := 0
	for _, c := range cells {
		if strings.TrimSpace(c) != "" {
			n++
		}
	}
	return n
}

// sample reads the first xlsxSampleRows non-blank rows as Excel shows them.
func (s *sheetReader) sample() (map[int][]string, int, error) {
	// excelize reads the whole shared-string table on the first cell.
	if s.sst != nil {
		if err := s.sst.waitDone(s.ctx); err != nil {
			return nil, 0, err
		}
	}
	rows, err := s.f.Rows(s.sheet)
	if err != nil {
		return nil, 0, s.errorf("cannot read the sheet: %v", err).WithErr(err).
			WithHint("open the file in Excel and save it again as .xlsx")
	}
	defer func() { _ = rows.Close() }()
	out := map[int][]string{}
	num, last := 0, 0
	var bytes int
	for {
		more, err := s.next(rows, &num, false)
		if err != nil {
			return nil, 0, err
		}
		if !more {
			break
		}
		switch s.place(num) {
		case -1:
			continue
		case 1:
			return out, last, nil
		}
		cells, err := s.cells(rows, num)
		if err != nil {
			return nil, 0, err
		}
		if isBlank(cells) {
			continue
		}
		out[num] = cells
		last = num
		for _, c := range cells {
			bytes += len(c)
		}
		if len(out) >= xlsxSampleRows || bytes >= xlsxSampleBytes && len(out) >= 2 {
			break
		}
	}
	if err := rows.Error(); err != nil {
		return nil, 0, s.rowsError(num, err)
	}
	return out, last, nil
}

// next moves rows on to the next row, num, once the scan has passed it
// (and the one before), looking at ctx (and reporting the progress when
// asked) every xlsxCheckEvery rows; it reports false at the sheet's end.
func (s *sheetReader) next(rows *excelize.Rows, num *int, report bool) (bool, error) {
	if err := s.gate.wait(s.ctx, *num); err != nil {
		return false, err
	}
	if !rows.Next() {
		return false, nil
	}
	*num++
	if *num%xlsxCheckEvery == 0 {
		if err := s.ctx.Err(); err != nil {
			return false, engine.AsError(err)
		}
		if report {
			s.report(false)
		}
	}
	if err := s.gate.wait(s.ctx, *num); err != nil {
		return false, err
	}
	return true, nil
}

// cells reads row num's cells (as Excel shows them, or as opts say), those
// inside the range's columns.
func (s *sheetReader) cells(rows *excelize.Rows, num int, opts ...excelize.Options) ([]string, error) {
	cells, err := rows.Columns(opts...)
	if err != nil {
		return nil, s.errorf("row %d cannot be read: %v", num, err).WithErr(err).
			WithHint("open the file in Excel and save it again as .xlsx")
	}
	return s.rng.cut(cells), nil
}

// place says where row num is: above the table (-1: skipped), in it (0),
// below it (1: the reading stops).
func (s *sheetReader) place(num int) int {
	if p := s.rng.rowIn(num); p != 0 {
		return p
	}
	if s.headerRow > 0 && num < s.headerRow {
		return -1
	}
	return 0
}

func (s *sheetReader) rowsError(num int, err error) *engine.Error {
	if errors.Is(err, excelize.ErrMaxRows) {
		return s.errorf("row %d is past Excel's last row (1,048,576)", num+1).WithErr(err).
			WithHint("open the file in Excel and save it again as .xlsx")
	}
	return s.errorf("row %d cannot be read: %v", num+1, err).WithErr(err).
		WithHint("open the file in Excel and save it again as .xlsx")
}

// read reads the sheet; it returns nil (and a warning) for an empty sheet.
func (s *sheetReader) read() (*sheetResult, error) {
	formatted, lastSampled, err := s.sample()
	if err != nil {
		return nil, err
	}
	if len(formatted) == 0 {
		// Empty as excelize read it: as the scan read it too, not a part
		// cut short.
		if err := s.gate.waitDone(s.ctx); err != nil {
			return nil, err
		}
		s.warn("the sheet is empty; it was skipped")
		return nil, nil
	}
	rows, err := s.f.Rows(s.sheet)
	if err != nil {
		return nil, s.errorf("cannot read the sheet: %v", err).WithErr(err)
	}
	defer func() { _ = rows.Close() }()

	var head []headRow
	analysed, stopped := false, false
	num := 0
	s.report(true)
	raw := excelize.Options{RawCellValue: true}
	for {
		more, err := s.next(rows, &num, true)
		if err != nil {
			return nil, err
		}
		if !more {
			break
		}
		place := s.place(num)
		if place == 1 {
			stopped = true
			break
		}
		cells, err := s.cells(rows, num, raw)
		if err != nil {
			return nil, err
		}
		if isBlank(cells) {
			continue
		}
		if place == -1 {
			s.skipped++
			continue
		}
		if err := s.widen(num, cells); err != nil {
			return nil, err
		}
		if !analysed {
			if num <= lastSampled {
				head = append(head, headRow{num: num, raw: cells, fmt: formatted[num]})
				continue
			}
			if err := s.analyse(head); err != nil {
				return nil, err
			}
			head, analysed = nil, true
		}
		if err := s.addRow(num, cells); err != nil {
			return nil, err
		}
		if s.sampleRows > 0 && s.rows >= s.sampleRows {
			s.sampled, stopped = true, true
			break
		}
	}
	if err := rows.Error(); err != nil {
		return nil, s.rowsError(num, err)
	}
	return s.endRead(stopped, analysed, head)
}

// widen takes row num as the last read and the widest so far; a row wider
// than a table may be is an error.
func (s *sheetReader) widen(num int, cells []string) error {
	s.lastNum = num
	s.maxWidth = max(s.maxWidth, len(cells))
	if len(cells) > MaxColumns {
		return s.errorf("row %d has %d columns; Querent imports at most %s", num, len(cells), engine.GroupThousands(MaxColumns)).
			WithHint("delete the columns you do not need (or split the sheet) in Excel, save a copy and import that")
	}
	return nil
}

// endRead ends a read that stopped (at the range's end or a sample's) or
// reached the sheet's end: the header is found if no row came after the
// first rows (head), and the spill file is complete.
func (s *sheetReader) endRead(stopped, analysed bool, head []headRow) (*sheetResult, error) {
	// The whole part was vetted: a part shorter or longer than the archive
	// says is refused, not read as far as it goes. (A read that stopped at
	// the range's end or a sample's does not wait for the rest.)
	if !stopped {
		if err := s.gate.waitDone(s.ctx); err != nil {
			return nil, err
		}
	}
	if !analysed {
		if err := s.analyse(head); err != nil {
			return nil, err
		}
	}
	if err := s.ctx.Err(); err != nil {
		return nil, engine.AsError(err)
	}
	if err := s.spill.finish(); err != nil {
		return nil, s.spillError(err)
	}
	s.report(true)
	return s.finish(), nil
}

func (s *sheetReader) newColumn(c int) *xlsxColumn {
	col := &xlsxColumn{inf: NewInferrer()}
	if c < len(s.kinds) {
		col.kind = s.kinds[c]
	}
	return col
}

// addRow feeds one data row to the columns and the spill file.
func (s *sheetReader) addRow(num int, cells []string) error {
	if len(cells) > len(s.cols) {
		if s.widened == 0 {
			s.firstWide = num
		}
		s.widened++
		for c := len(s.cols); c < len(cells); c++ {
			s.cols = append(s.cols, s.newColumn(c))
		}
	}
	line := int64(num)
	for c, col := range s.cols {
		v := ""
		if c < len(cells) {
			v = cells[c]
			if len(v) > maxFieldBytes { // the scan measured the XML; this is what excelize built
				ref, _ := excelize.CoordinatesToCellName(c+s.colBase(), num)
				return s.errorf("cell %s holds a value longer than %s", ref, engine.FormatSize(maxFieldBytes)).
					WithHint("Querent reads values up to 10 MB; shorten or delete that cell in Excel, save a copy and import that")
			}
			if v != "" {
				v = col.kind.prepare(v, s.date1904)
				cells[c] = v
				if strings.TrimSpace(v) != "" {
					col.nonEmpty++
				}
			}
		}
		col.inf.Add(line, v)
	}
	if !s.head.full() {
		s.head.add(line, len(cells), func(j int) string { return cells[j] })
	}
	if err := s.spill.writeRow(num, cells); err != nil {
		return s.spillError(err)
	}
	s.rows++
	return nil
}

// colBase is the sheet's column number of the table's first column.
func (s *sheetReader) colBase() int { return max(s.rng.c0, 1) }

func (s *sheetReader) spillError(err error) *engine.Error {
	if errors.Is(err, errTempCeiling) {
		return s.errorf("its rows need more than %s of temporary space, the import's ceiling for temporary files", engine.FormatSize(s.maxTemp)).
			WithErr(err).
			SayHint(words.New("import.fewer_sheets", words.Sheet))
	}
	return workbookError("%scannot write a temporary file in %s: %v", s.prefix, os.TempDir(), err).WithErr(err).
		WithHint("free some disk space there, or point TMPDIR at a folder with room")
}

// finish builds the source from what the first pass learnt.
func (s *sheetReader) finish() *sheetResult {
	base := s.colBase()
	letter := func(c int) string {
		l, _ := excelize.ColumnNumberToName(c + base)
		return l
	}
	if s.widened > 0 {
		names := make([]string, 0, len(s.cols)-s.wideFrom)
		for c := s.wideFrom; c < len(s.cols); c++ {
			names = append(names, "column_"+strconv.Itoa(c+1))
		}
		what := "the header"
		if !s.headered {
			what = "the first rows"
		}
		more := ""
		if s.widened > 1 {
			more = fmt.Sprintf(" (and %s more)", plural(s.widened-1, "row", "rows"))
		}
		s.warn("row %d%s has values beyond the %d columns of %s; they were kept in new %s %s",
			s.firstWide, more, s.wideFrom, what,
			map[bool]string{true: "column", false: "columns"}[len(names) == 1], strings.Join(names, ", "))
	}
	texts := make([]string, len(s.cols))
	for c, col := range s.cols {
		texts[c] = col.nameText
	}
	names := ColumnNames(texts)
	var unnamed []string
	src := &Source{Rows: s.rows, SampleRows: s.rows, Sampled: s.sampled, lineWord: "row",
		head: s.head.rows, headLines: s.head.lines}
	for c, col := range s.cols {
		empty := strings.TrimSpace(col.header) == "" && col.nonEmpty == 0
		if strings.TrimSpace(col.header) == "" && !empty && c < s.wideFrom && s.headered {
			unnamed = append(unnamed, fmt.Sprintf("%s (named %s)", letter(c), names[c]))
		}
		kind, has := col.kind, col.nonEmpty > 0
		src.cols = append(src.cols, &srcColumn{pos: c + base, header: col.header, original: col.original, name: names[c],
			inf: col.inf, empty: empty,
			reason: func(typ string, reason seq) seq {
				if has {
					reason = kind.reason(typ, reason)
				}
				return reason
			}})
	}
	if len(unnamed) > 0 {
		s.warn("%s no header: %s", map[bool]string{true: "column has", false: "columns have"}[len(unnamed) == 1],
			strings.Join(unnamed, ", "))
	}
	if s.rows == 0 {
		s.warn("the sheet has a header but no data rows; the table is empty")
	}
	if s.headerRow != 0 {
		src.Chosen = append(src.Chosen, "header_row")
	}
	if s.rng.set() {
		src.Chosen = append(src.Chosen, "range")
	}
	src.Layout.HeaderRow = s.headerNum
	last := s.lastNum
	if s.rng.r1 > 0 && !s.sampled {
		last = max(last, s.rng.r1)
	}
	width := max(len(s.cols), 1)
	if s.rng.c1 > 0 {
		width = s.rng.c1 - base + 1
	}
	src.Layout.Range = describeRange(base, base+width-1, max(s.firstNum, s.rng.r0), max(last, s.firstNum))
	if s.sampled {
		// The sheet's rows, from how far the scan ahead of excelize came
		// (a lower bound while it still runs).
		if v := int(s.gate.vetted.Load()); v > s.lastNum && s.lastNum > s.firstNum {
			src.Rows = max(s.rows, int64(float64(s.rows)*float64(v-s.firstNum)/float64(s.lastNum-s.firstNum)))
		}
	}
	src.Warnings = s.warnings
	sp := s.spill
	src.stream = func(ctx context.Context, keep []int, convs []*cellConv, yield func(row []engine.Value) error) error {
		return sp.replay(ctx, s.rows, keep, convs, yield)
	}
	src.release = sp.remove
	return &sheetResult{sheet: s.sheet, table: src}
}

// reason words the reason of a column of Excel date or TRUE/FALSE cells:
// the Inferrer read the ISO text and true/false words they became, which
// its reason would describe as if the sheet held them.
func (k columnKind) reason(typ string, reason seq) seq {
	var rest part // the Inferrer's note on missing values
	if m, ok := reason.last().(sentence); ok && strings.HasPrefix(m.key, "missing_") {
		rest = m
	}
	var like part
	if k.example != "" {
		like = say("shown_like", quoted(k.example))
	}
	switch {
	case k.date && typ == imports.TypeDate:
		return seq{say("excel_dates", like), rest}
	case k.date && typ == imports.TypeDateTime:
		return seq{say("excel_datetimes", like), rest}
	case k.date:
		return append(reason, say("excel_date_text", like))
	case k.boolean && typ == imports.TypeBoolean:
		return seq{say("excel_booleans"), rest}
	case k.boolean:
		return append(reason, say("excel_bool_text"))
	}
	return reason
}
