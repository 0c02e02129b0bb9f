package ingest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/xuri/excelize/v2"

	"querent/engine"
	"querent/engine/words"
)

// The XLSX reader.
//
// A workbook is read in two passes, and its XML is parsed once:
//
//  1. For each sheet, the first xlsxSampleRows non-blank rows are read with
//     excelize's formatted iterator (what Excel shows), then the whole sheet
//     is streamed once with the raw iterator (the stored values). The sample
//     finds the header (title rows and a row of merged group titles above
//     it are recognised) and which columns hold Excel date cells or
//     TRUE/FALSE cells: the streaming iterator does not expose cell styles,
//     but a stored number that Excel shows as the same date is a date cell.
//     Every data row feeds one Inferrer per column and is written to a spill
//     file: a buffered, length-prefixed binary file in os.TempDir.
//  2. The table's Rows replays the spill file through each column's
//     Converter, so the second pass costs a file read, not an XML parse.
//
// Stored values are the raw ones, never the rounded display text: a cell
// shown as "D +1.3" or "80%" is stored as 1.3245738 or 0.8. Date cells
// become 'YYYY-MM-DD' (whole days) or 'YYYY-MM-DD HH:MM:SS' (rounded to the
// second) from their serial number, in the workbook's date system (1900,
// with Excel's fictitious 1900-02-29, or 1904); TRUE/FALSE cells become
// true/false.
//
// Spill files are removed when Rows returns (it can be called once), and
// CleanupTemp removes those of tables whose Rows was never called. They
// are written within the temporary-space ceiling (Options.MaxTemp).
//
// Before excelize opens a workbook, its archive's directory and the small
// parts excelize parses whole are checked against the ceilings
// (xlbounds.go); the shared strings and the sheets read are scanned on
// another goroutine as they inflate, and excelize reads no row the scan
// has not passed (xlscan.go), so no value, row or part beyond the bounds
// is ever built.
//
// The reader's rooms: this file opens a workbook and chooses its sheets;
// xlfile.go checks the file before excelize opens it; xlsheet.go reads one
// sheet, with its header (xlheader.go), its range of cells (xlrange.go)
// and its date and boolean cells (xldates.go); xlspill.go writes and
// replays the spill files.

func init() { readXLSX = readXLSXFile }

const (
	// xlsxSampleRows non-blank rows are read with the formatted iterator
	// to find the header and the date and boolean columns.
	xlsxSampleRows = 100
	// xlsxSampleBytes bounds those rows' text too (past the first two):
	// they are held twice, as shown and raw, until the header is found,
	// and 100 rows of 10 MB values were 2 GB.
	xlsxSampleBytes = 16 << 20
	// xlsxCheckEvery rows, the readers look at ctx and the clock.
	xlsxCheckEvery = 256
	// xlsxProgressGap is the least time between two progress reports.
	xlsxProgressGap = 100 * time.Millisecond
	// spillPattern names the spill files (os.CreateTemp's pattern).
	spillPattern = "querent-spill-*.bin"
	// excelMaxSerial is the serial of 10000-01-01 in the 1900 system:
	// Excel's dates end the day before.
	excelMaxSerial = 2958466
)

// spills holds the spill files not yet removed, for CleanupTemp.
var spills = struct {
	sync.Mutex
	files map[string]*spillFile
}{files: map[string]*spillFile{}}

// CleanupTemp removes the temporary spill files of every XLSX table whose
// Rows was not called (Rows removes its own when it returns). Call it once
// the tables Read returned are no longer needed, for example when the
// command exits; it is safe to call at any time and more than once, but a
// table's Rows fails after it.
func CleanupTemp() {
	spills.Lock()
	var all []*spillFile
	for _, s := range spills.files {
		all = append(all, s)
	}
	spills.Unlock()
	for _, s := range all {
		s.remove()
	}
}

func workbookError(format string, args ...any) *engine.Error {
	return engine.Errorf(engine.CodeImport, format, args...)
}

// readXLSXFile reads every sheet of the workbook at path (or those named in
// opts.Sheets) into tables.
func readXLSXFile(ctx context.Context, path string, opts Options) (tables []*Source, err error) {
	base := filepath.Base(path)
	lim := limitsOf(opts)
	fh, err := os.Open(path)
	if err != nil {
		return nil, workbookError("cannot open %s: %v", base, unwrapPathError(err)).WithErr(err).
			WithHint("check the path and that you may read the file")
	}
	defer fh.Close()
	zr, err := checkWorkbookFile(fh, base)
	if err != nil {
		return nil, err
	}
	plan, err := planWorkbook(ctx, zr.Reader, base, zr.size, lim)
	if err != nil {
		return nil, err
	}
	// excelize's extracted parts count against the temporary space from
	// the start; the spill files are counted as they are written.
	if !reserveTemp(plan.temp, lim.temp) {
		return nil, workbookError("%s: reading it needs %s of temporary files, which with those of the tables read before passes the %s ceiling",
			base, engine.FormatSize(plan.temp), engine.FormatSize(lim.temp)).
			WithHint("import the files one at a time, or split the workbook")
	}
	defer releaseTemp(plan.temp)
	// The scans run on the other core while excelize opens the workbook
	// and then ahead of its reading; the sheets are chosen from the plan's
	// list here and from excelize's below (the same, but excelize's errors
	// are the ones users see).
	chosen, _ := chooseSheets(base, plan.sheetNames(), opts.Sheets)
	scans := plan.startScans(ctx, chosen)
	defer scans.close()
	// A preview of a large workbook reads a sample: its hash is not needed.
	sum := ""
	if opts.SampleRows <= 0 || zr.size <= previewHashMax {
		if sum, err = hashFile(fh, base); err != nil {
			return nil, err
		}
	}
	// excelize's temporary files go to a folder of this read's own,
	// removed when it returns: excelize leaves them behind when opening
	// fails half-way, with no File to close.
	tmp, err := os.MkdirTemp("", "querent-xlsx-*")
	if err != nil {
		return nil, workbookError("%s: cannot make a temporary folder in %s: %v", base, os.TempDir(), err).WithErr(err).
			WithHint("free some disk space there, or point TMPDIR at a folder with room")
	}
	defer os.RemoveAll(tmp)
	wb := &bookReader{ctx: ctx, base: base, opts: opts, scans: scans, maxTemp: lim.temp}
	if wb.f, err = openWorkbook(path, base, lim, tmp); err != nil {
		return nil, err
	}
	defer func() { _ = wb.f.Close() }()
	sheets, err := wb.sheets()
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			for _, s := range wb.created {
				s.remove()
			}
			tables = nil
		}
	}()
	read, bookWarnings, err := wb.readSheets(sheets)
	if err != nil {
		return nil, err
	}
	return nameTables(read, path, sum, bookWarnings), nil
}

// bookReader is what the readers of a workbook's sheets share.
type bookReader struct {
	ctx      context.Context
	f        *excelize.File
	base     string // the file's base name
	date1904 bool   // dates count from 1904
	opts     Options
	scans    *partScans
	maxTemp  int64
	// created are the spill files written, removed when the read fails.
	created []*spillFile
}

// openWorkbook opens the workbook with excelize, within the limits, its
// temporary files in tmp.
func openWorkbook(path, base string, lim workbookLimits, tmp string) (*excelize.File, error) {
	xo := lim.excelize()
	xo.TmpDir = tmp
	f, err := excelize.OpenFile(path, xo)
	if err != nil {
		if f != nil {
			_ = f.Close()
		}
		return nil, openError(base, err)
	}
	return f, nil
}

// sheets returns the sheets to read (those asked, else all), from the
// workbook's own list, and notes its date system.
func (wb *bookReader) sheets() ([]string, error) {
	if p, perr := wb.f.GetWorkbookProps(); perr == nil && p.Date1904 != nil {
		wb.date1904 = *p.Date1904
	}
	all := wb.f.GetSheetList()
	if len(all) == 0 {
		return nil, workbookError("%s holds no sheets", wb.base).
			WithHint("open it in Excel and save it again as .xlsx")
	}
	return chooseSheets(wb.base, all, wb.opts.Sheets)
}

// readSheets reads the sheets in turn. A sheet that gives no table (an
// empty one) gives a warning about the book instead; a book whose every
// sheet is empty is an error.
func (wb *bookReader) readSheets(sheets []string) (read []*sheetResult, bookWarnings []string, err error) {
	for _, sheet := range sheets {
		if err := wb.ctx.Err(); err != nil {
			return nil, nil, engine.AsError(err)
		}
		sr, err := wb.sheetReader(sheet)
		if err != nil {
			return nil, nil, err
		}
		res, rerr := sr.read()
		if sr.spill != nil {
			wb.created = append(wb.created, sr.spill)
		}
		if rerr != nil {
			return nil, nil, rerr
		}
		if res == nil {
			bookWarnings = append(bookWarnings, sr.warnings...)
			continue
		}
		read = append(read, res)
	}
	if len(read) == 0 {
		return nil, nil, workbookError("%s holds no data: %s", wb.base, describeEmpty(sheets)).
			WithHint("check that you chose the right file (and sheets), or add a header row and data in Excel")
	}
	return read, bookWarnings, nil
}

// sheetReader is the reader of one sheet, in the layout asked for it (or
// for every sheet).
func (wb *bookReader) sheetReader(sheet string) (*sheetReader, error) {
	opts := wb.opts
	lay := Layout{HeaderRow: opts.HeaderRow, Range: opts.Range}
	if l, ok := opts.Layouts[sheet]; ok {
		lay = l
	}
	sr := &sheetReader{
		ctx: wb.ctx, f: wb.f, file: wb.base, sheet: sheet,
		date1904: wb.date1904, progress: opts.Progress,
		prefix: wb.base + ", sheet " + sheet + ": ",
		gate:   wb.scans.gate(sheet), sst: wb.scans.sst, maxTemp: wb.maxTemp,
		sampleRows: opts.SampleRows, headerRow: lay.HeaderRow,
	}
	if lay.HeaderRow < -1 {
		return nil, engine.Errorf(engine.CodeUsage, "header row %d: a header row is a row number from 1 (or none)", lay.HeaderRow).
			WithHint("give the sheet's row of the header, or none when it has no header row")
	}
	var err error
	if sr.rng, err = parseRange(lay.Range); err != nil {
		return nil, err
	}
	if sr.gate == nil {
		// The plan did not find the sheet's part: excelize would read
		// a part nobody checked (or fail), so neither is tried.
		return nil, sr.errorf("cannot find the sheet's cells in the workbook").
			WithHint("open the file in Excel and save it again as .xlsx")
	}
	return sr, nil
}

// nameTables gives each sheet's table its file, hash and name: the
// sheet's, or the file's stem for a sheet named as Excel names new ones
// (with the sheet's when several are). The first table carries the
// warnings about the book.
func nameTables(read []*sheetResult, path, sum string, bookWarnings []string) []*Source {
	base := filepath.Base(path)
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	defaults := 0
	for _, r := range read {
		if isDefaultSheetName(r.sheet) {
			defaults++
		}
	}
	var tables []*Source
	for i, r := range read {
		t := r.table
		t.File, t.Path, t.SHA256, t.Sheet = base, path, sum, r.sheet
		if t.Sampled {
			t.SHA256 = ""
		}
		switch {
		case !isDefaultSheetName(r.sheet):
			t.Name = TableName(r.sheet)
		case defaults == 1:
			t.Name = TableName(stem)
		default:
			t.Name = TableName(stem + "_" + r.sheet)
		}
		if i == 0 && len(bookWarnings) > 0 {
			t.Warnings = append(bookWarnings, t.Warnings...)
		}
		tables = append(tables, t)
	}
	return tables
}

func describeEmpty(sheets []string) string {
	if len(sheets) == 1 {
		return fmt.Sprintf("sheet %q is empty", sheets[0])
	}
	return fmt.Sprintf("its %d sheets (%s) are empty", len(sheets), quoteList(sheets))
}

func quoteList(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}

// chooseSheets returns the sheets to read: all of them, or those wanted
// (matched exactly, else ignoring case), in the order asked.
func chooseSheets(base string, all, want []string) ([]string, error) {
	if len(want) == 0 {
		return all, nil
	}
	var out []string
	seen := map[string]bool{}
	for _, w := range want {
		name := ""
		for _, s := range all {
			if s == w {
				name = s
				break
			}
		}
		if name == "" {
			for _, s := range all {
				if strings.EqualFold(strings.TrimSpace(s), strings.TrimSpace(w)) {
					name = s
					break
				}
			}
		}
		if name == "" {
			return nil, workbookError("%s has no sheet named %q; its sheets are %s", base, w, quoteList(all)).
				SayHint(words.New("import.name_sheet", words.Sheet))
		}
		if !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	return out, nil
}

// defaultSheetName matches the names Excel gives new sheets, in the
// languages it is most used in.
var defaultSheetName = regexp.MustCompile(`(?i)^\s*(sheet|feuil|feuille|tabelle|blatt|hoja|foglio|planilha|plan|folha|blad|ark|arkusz|list|лист|munkalap|taulukko|sayfa|φύλλο|工作表|シート|시트)\s*\d*\s*$`)

func isDefaultSheetName(s string) bool { return defaultSheetName.MatchString(s) }

// previewHashMax: a preview hashes workbooks up to this size (a larger one
// is likely sampled, and its hash is not needed to show it).
const previewHashMax = 64 << 20
