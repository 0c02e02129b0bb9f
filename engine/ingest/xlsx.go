package ingest

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf16"

	"github.com/xuri/excelize/v2"

	"querent/engine"
	"querent/engine/imports"
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
			base, formatBytes(plan.temp), formatBytes(lim.temp)).
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
	xo := lim.excelize()
	xo.TmpDir = tmp
	f, err := excelize.OpenFile(path, xo)
	if err != nil {
		if f != nil {
			_ = f.Close()
		}
		return nil, openError(base, err)
	}
	defer func() { _ = f.Close() }()

	date1904 := false
	if p, perr := f.GetWorkbookProps(); perr == nil && p.Date1904 != nil {
		date1904 = *p.Date1904
	}
	all := f.GetSheetList()
	if len(all) == 0 {
		return nil, workbookError("%s holds no sheets", base).
			WithHint("open it in Excel and save it again as .xlsx")
	}
	sheets, err := chooseSheets(base, all, opts.Sheets)
	if err != nil {
		return nil, err
	}

	var created []*spillFile
	defer func() {
		if err != nil {
			for _, s := range created {
				s.remove()
			}
			tables = nil
		}
	}()

	var bookWarnings []string // about sheets that gave no table
	var read []*sheetResult
	for _, sheet := range sheets {
		if err := ctx.Err(); err != nil {
			return nil, engine.AsError(err)
		}
		lay := Layout{HeaderRow: opts.HeaderRow, Range: opts.Range}
		if l, ok := opts.Layouts[sheet]; ok {
			lay = l
		}
		sr := &sheetReader{
			ctx: ctx, f: f, file: base, sheet: sheet,
			date1904: date1904, progress: opts.Progress,
			prefix: base + ", sheet " + sheet + ": ",
			gate:   scans.gate(sheet), sst: scans.sst, maxTemp: lim.temp,
			sampleRows: opts.SampleRows, headerRow: lay.HeaderRow,
		}
		if lay.HeaderRow < -1 {
			return nil, engine.Errorf(engine.CodeUsage, "header row %d: a header row is a row number from 1 (or none)", lay.HeaderRow).
				WithHint("give the sheet's row of the header, or none when it has no header row")
		}
		if sr.rng, err = parseRange(lay.Range); err != nil {
			return nil, err
		}
		if sr.gate == nil {
			// The plan did not find the sheet's part: excelize would read
			// a part nobody checked (or fail), so neither is tried.
			return nil, sr.errorf("cannot find the sheet's cells in the workbook").
				WithHint("open the file in Excel and save it again as .xlsx")
		}
		res, rerr := sr.read()
		if sr.spill != nil {
			created = append(created, sr.spill)
		}
		if rerr != nil {
			return nil, rerr
		}
		if res == nil {
			bookWarnings = append(bookWarnings, sr.warnings...)
			continue
		}
		read = append(read, res)
	}
	if len(read) == 0 {
		return nil, workbookError("%s holds no data: %s", base, describeEmpty(sheets)).
			WithHint("check that you chose the right file (and sheets), or add a header row and data in Excel")
	}

	stem := strings.TrimSuffix(base, filepath.Ext(base))
	defaults := 0
	for _, r := range read {
		if isDefaultSheetName(r.sheet) {
			defaults++
		}
	}
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
	return tables, nil
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
				WithHint("name one of its sheets with --sheet, or leave --sheet out to import every sheet")
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

// File checks before excelize opens the file.

var (
	oleMagic = []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}
	zipMagic = []byte("PK")
)

// zipArchive is a workbook's archive and the size of its file.
type zipArchive struct {
	*zip.Reader
	size int64
}

// checkWorkbookFile refuses what is not a readable XLSX: an encrypted
// workbook, an old .xls file, not a ZIP archive, not a regular file. It
// returns the archive's directory.
func checkWorkbookFile(fh *os.File, base string) (*zipArchive, error) {
	fi, err := fh.Stat()
	if err != nil {
		return nil, workbookError("cannot read %s: %v", base, err).WithErr(err)
	}
	if err := regularFile(base, fi); err != nil { // replaced since Read looked: refused all the same
		return nil, err
	}
	if err := checkMagic(fh, base); err != nil {
		return nil, err
	}
	zr, err := checkZip(fh, base)
	if err != nil {
		return nil, err
	}
	return &zipArchive{Reader: zr, size: fi.Size()}, nil
}

// hashFile is the file's sha256.
func hashFile(fh *os.File, base string) (string, error) {
	h := sha256.New()
	if _, err := io.Copy(h, io.NewSectionReader(fh, 0, math.MaxInt64)); err != nil {
		return "", workbookError("cannot read %s: %v", base, err).WithErr(err).
			WithHint("check that the file is readable and not being written")
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// checkMagic refuses an OLE file (an encrypted workbook or an .xls), an
// empty file and one that does not start like a ZIP archive.
func checkMagic(fh *os.File, base string) error {
	var magic [8]byte
	n, _ := io.ReadFull(fh, magic[:])
	switch {
	case n == 8 && bytes.Equal(magic[:], oleMagic):
		if oleHolds(fh, "EncryptionInfo") || oleHolds(fh, "EncryptedPackage") {
			return passwordError(base, nil)
		}
		if oleHolds(fh, "Workbook") || oleHolds(fh, "Book") ||
			strings.EqualFold(filepath.Ext(base), ".xls") {
			return workbookError("%s is an old Excel 97–2003 workbook (.xls), which Querent does not read", base).
				WithHint("open it in Excel and save it as .xlsx (File > Save As > Excel Workbook), then import that copy")
		}
		return workbookError("%s is an Office file that is not an .xlsx workbook (it may be password-protected)", base).
			WithHint("open it in Excel, remove any password (File > Info > Protect Workbook) and save a copy as .xlsx")
	case n == 0:
		return workbookError("%s is empty (0 bytes)", base).
			WithHint("copy the file again, or open it in Excel and save it as .xlsx")
	case n < 2 || !bytes.Equal(magic[:2], zipMagic):
		return corruptError(base, nil)
	}
	return nil
}

// checkZip reads the ZIP archive's directory: a damaged or truncated
// archive, or one that holds no Excel workbook, is refused with words that
// say which.
func checkZip(fh *os.File, base string) (*zip.Reader, error) {
	fi, err := fh.Stat()
	if err != nil {
		return nil, workbookError("cannot read %s: %v", base, err).WithErr(err)
	}
	zr, err := zip.NewReader(fh, fi.Size())
	if err != nil {
		return nil, corruptError(base, err)
	}
	kind := ""
	for _, e := range zr.File {
		switch n := strings.ToLower(e.Name); {
		case n == "xl/workbook.xml" || strings.HasPrefix(n, "xl/") && strings.HasSuffix(n, ".xml") && strings.Contains(n, "workbook"):
			return zr, nil
		case n == "xl/workbook.bin":
			kind = "xlsb"
		case n == "mimetype" || n == "content.xml":
			if kind == "" {
				kind = "ods"
			}
		case strings.HasPrefix(n, "word/") || strings.HasPrefix(n, "ppt/"):
			kind = "office"
		}
	}
	switch kind {
	case "xlsb":
		return nil, workbookError("%s is an Excel binary workbook (.xlsb), which Querent does not read", base).
			WithHint("open it in Excel and save it as .xlsx (File > Save As > Excel Workbook), then import that copy")
	case "ods":
		return nil, workbookError("%s is an OpenDocument file (.ods), not an Excel workbook", base).
			WithHint("open it in LibreOffice or Excel and save it as .xlsx, then import that copy")
	case "office":
		return nil, workbookError("%s is a Word or PowerPoint document, not an Excel workbook", base).
			WithHint("import an .xlsx workbook or a CSV file")
	}
	return nil, workbookError("%s is a ZIP archive, not an Excel workbook (it holds no xl/workbook.xml)", base).
		WithHint("if the data is inside the archive, extract it first; otherwise open the file in Excel and save it again as .xlsx")
}

func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func passwordError(base string, cause error) *engine.Error {
	return workbookError("%s is password-protected", base).WithErr(cause).
		WithHint("open it in Excel, remove the password (File > Info > Protect Workbook) and save a copy")
}

func corruptError(base string, cause error) *engine.Error {
	return workbookError("%s is not a valid .xlsx workbook: the file is damaged or truncated (it is not a complete ZIP archive)", base).
		WithErr(cause).
		WithHint("open it in Excel and save it again as .xlsx, or copy the file again if a download or transfer was interrupted")
}

// openError turns excelize.OpenFile's error into an import error.
func openError(base string, err error) *engine.Error {
	switch {
	case errors.Is(err, excelize.ErrWorkbookFileFormat), errors.Is(err, excelize.ErrWorkbookPassword),
		errors.Is(err, excelize.ErrUnknownEncryptMechanism), errors.Is(err, excelize.ErrUnsupportedEncryptMechanism):
		return passwordError(base, err)
	case errors.Is(err, zip.ErrFormat), errors.Is(err, zip.ErrChecksum), errors.Is(err, zip.ErrAlgorithm),
		errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return corruptError(base, err)
	}
	msg := err.Error()
	if strings.Contains(msg, "XML syntax") || strings.Contains(msg, "zip:") || strings.Contains(msg, "flate") {
		return corruptError(base, err)
	}
	return workbookError("cannot read %s as an .xlsx workbook: %v", base, err).WithErr(err).
		WithHint("open it in Excel and save it again as .xlsx")
}

// oleHolds reports whether the OLE compound file's directory holds an
// entry named name. It walks the directory's sector chain through the FAT
// sectors the header lists (enough for any workbook's directory).
func oleHolds(r io.ReaderAt, name string) bool {
	var hdr [512]byte
	if _, err := r.ReadAt(hdr[:], 0); err != nil {
		return false
	}
	shift := binary.LittleEndian.Uint16(hdr[0x1E:])
	if shift != 9 && shift != 12 {
		return false
	}
	ss := int64(1) << shift
	per := ss / 4 // FAT entries per sector
	var difat []uint32
	for i := 0; i < 109; i++ {
		difat = append(difat, binary.LittleEndian.Uint32(hdr[0x4C+4*i:]))
	}
	next := func(sect uint32) uint32 {
		k := int64(sect) / per
		if k >= int64(len(difat)) || difat[k] >= 0xFFFFFFFA {
			return 0xFFFFFFFE
		}
		var b [4]byte
		if _, err := r.ReadAt(b[:], (int64(difat[k])+1)*ss+(int64(sect)%per)*4); err != nil {
			return 0xFFFFFFFE
		}
		return binary.LittleEndian.Uint32(b[:])
	}
	buf := make([]byte, ss)
	sect := binary.LittleEndian.Uint32(hdr[0x30:])
	for steps := 0; sect < 0xFFFFFFFA && steps < 256; steps++ {
		if _, err := r.ReadAt(buf, (int64(sect)+1)*ss); err != nil {
			return false
		}
		for off := int64(0); off+128 <= ss; off += 128 {
			e := buf[off : off+128]
			n := int(binary.LittleEndian.Uint16(e[0x40:]))
			if n < 2 || n > 64 {
				continue
			}
			u := make([]uint16, n/2-1)
			for i := range u {
				u[i] = binary.LittleEndian.Uint16(e[2*i:])
			}
			if string(utf16.Decode(u)) == name {
				return true
			}
		}
		sect = next(sect)
	}
	return false
}

// One sheet.

type sheetReader struct {
	ctx      context.Context
	f        *excelize.File
	file     string // base name
	sheet    string
	date1904 bool
	progress func(imports.ImportProgress)
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

// previewHashMax: a preview hashes workbooks up to this size (a larger one
// is likely sampled, and its hash is not needed to show it).
const previewHashMax = 64 << 20

// cellRange is a range of cells, 1-based and inclusive; 0 leaves a side
// open (to the sheet's edge).
type cellRange struct {
	c0, c1, r0, r1 int
	text           string
}

func (r cellRange) set() bool { return r.text != "" }

// parseRange reads "B3:H200", "B3:H" (to the last row), "B:H" (whole
// columns) or "3:200" (whole rows), with or without $ signs.
func parseRange(s string) (cellRange, error) {
	t := strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(s), "$", ""))
	if t == "" {
		return cellRange{}, nil
	}
	bad := func() (cellRange, error) {
		return cellRange{}, engine.Errorf(engine.CodeUsage, "%q is not a cell range", s).
			WithHint("write it as Excel does: B3:H200, B3:H (to the last row) or B:H (whole columns)")
	}
	a, b, ok := strings.Cut(t, ":")
	if !ok {
		return bad()
	}
	side := func(x string) (col, row int, ok bool) {
		i := 0
		for i < len(x) && x[i] >= 'A' && x[i] <= 'Z' {
			i++
		}
		if i > 0 {
			n, err := excelize.ColumnNameToNumber(x[:i])
			if err != nil {
				return 0, 0, false
			}
			col = n
		}
		if i < len(x) {
			n, err := strconv.Atoi(x[i:])
			if err != nil || n < 1 || n > excelize.TotalRows {
				return 0, 0, false
			}
			row = n
		}
		return col, row, x != ""
	}
	c0, r0, ok0 := side(a)
	c1, r1, ok1 := side(b)
	if !ok0 || !ok1 || (c0 == 0) != (c1 == 0) {
		return bad()
	}
	if c1 > 0 && c1 < c0 || r1 > 0 && r1 < r0 {
		return cellRange{}, engine.Errorf(engine.CodeUsage, "the cell range %q ends before it starts", s).
			WithHint("write its top-left cell first, as in B3:H200")
	}
	return cellRange{c0: c0, c1: c1, r0: r0, r1: r1, text: t}, nil
}

// cut keeps a row's cells inside the range's columns.
func (r cellRange) cut(cells []string) []string {
	if r.c0 <= 1 && r.c1 == 0 {
		return cells
	}
	from := max(r.c0, 1) - 1
	if from >= len(cells) {
		return cells[:0]
	}
	if r.c1 > 0 && r.c1 < len(cells) {
		return cells[from:r.c1]
	}
	return cells[from:]
}

// rowIn says where row num is: before the range (-1), in it (0), after it (1).
func (r cellRange) rowIn(num int) int {
	switch {
	case r.r0 > 0 && num < r.r0:
		return -1
	case r.r1 > 0 && num > r.r1:
		return 1
	}
	return 0
}

// describe writes the range of cells read, from the first column and row
// to the last.
func describeRange(c0, c1, r0, r1 int) string {
	a, _ := excelize.CoordinatesToCellName(max(c0, 1), max(r0, 1))
	b, _ := excelize.CoordinatesToCellName(max(c1, 1), max(r1, 1))
	return a + ":" + b
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
	s.progress(imports.ImportProgress{Phase: "reading", Source: s.file + ": " + s.sheet, Rows: s.rows})
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
		if err := s.gate.wait(s.ctx, num); err != nil {
			return nil, 0, err
		}
		if !rows.Next() {
			break
		}
		num++
		if num%xlsxCheckEvery == 0 {
			if err := s.ctx.Err(); err != nil {
				return nil, 0, engine.AsError(err)
			}
		}
		if err := s.gate.wait(s.ctx, num); err != nil {
			return nil, 0, err
		}
		switch s.place(num) {
		case -1:
			continue
		case 1:
			return out, last, nil
		}
		cells, err := rows.Columns()
		if err != nil {
			return nil, 0, s.errorf("row %d cannot be read: %v", num, err).WithErr(err).
				WithHint("open the file in Excel and save it again as .xlsx")
		}
		cells = s.rng.cut(cells)
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
		if err := s.gate.wait(s.ctx, num); err != nil {
			return nil, err
		}
		if !rows.Next() {
			break
		}
		num++
		if num%xlsxCheckEvery == 0 {
			if err := s.ctx.Err(); err != nil {
				return nil, engine.AsError(err)
			}
			s.report(false)
		}
		if err := s.gate.wait(s.ctx, num); err != nil {
			return nil, err
		}
		place := s.place(num)
		if place == 1 {
			stopped = true
			break
		}
		cells, err := rows.Columns(raw)
		if err != nil {
			return nil, s.errorf("row %d cannot be read: %v", num, err).WithErr(err).
				WithHint("open the file in Excel and save it again as .xlsx")
		}
		cells = s.rng.cut(cells)
		if isBlank(cells) {
			continue
		}
		if place == -1 {
			s.skipped++
			continue
		}
		s.lastNum = num
		s.maxWidth = max(s.maxWidth, len(cells))
		if len(cells) > MaxColumns {
			return nil, s.errorf("row %d has %d columns; Querent imports at most %s", num, len(cells), engine.GroupThousands(MaxColumns)).
				WithHint("delete the columns you do not need (or split the sheet) in Excel, save a copy and import that")
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

// analyse finds the header in the first rows, and the date and boolean
// columns, then adds the first rows' data.
func (s *sheetReader) analyse(head []headRow) error {
	text := func(r headRow, c int) string {
		if c < len(r.fmt) && r.fmt != nil {
			return r.fmt[c]
		}
		if c < len(r.raw) {
			return r.raw[c]
		}
		return ""
	}
	i := 0
	// A header row or a range chosen says where the table starts: nothing
	// is detected above it.
	chosen := s.headerRow != 0 || s.rng.set()
	// Title rows: rows of one cell above the first row of several.
	for j := 0; j < len(head) && j <= 10 && !chosen; j++ {
		if nonEmptyCount(head[j].raw) >= 2 {
			if j > 0 {
				var titles []string
				for _, t := range head[:j] {
					for c := range t.raw {
						if strings.TrimSpace(t.raw[c]) != "" {
							titles = append(titles, fmt.Sprintf("row %d %q", t.num, strings.TrimSpace(text(t, c))))
						}
					}
				}
				s.warn("%s above the header %s skipped as a title: %s", plural(j, "row", "rows"),
					map[bool]string{true: "was", false: "were"}[j == 1], strings.Join(titles, ", "))
			}
			i = j
			break
		}
	}
	// A row of group titles (merged cells over several columns) above the
	// row of names: text over text, at most half as many cells, most of
	// them followed by an empty cell over a name (the merge's span).
	var group []string
	if !chosen && i+1 < len(head) && head[i+1].num == head[i].num+1 &&
		isTextRow(head[i].raw) && isTextRow(head[i+1].raw) {
		gr, nr := head[i].raw, head[i+1].raw
		g, h := nonEmptyCount(gr), nonEmptyCount(nr)
		spans, last := 0, 0
		for c := range gr {
			if strings.TrimSpace(gr[c]) == "" || c+1 >= len(nr) || strings.TrimSpace(nr[c+1]) == "" {
				continue
			}
			switch {
			case c+1 < len(gr) && strings.TrimSpace(gr[c+1]) == "":
				spans++
			case c+1 >= len(gr):
				last++ // the last title, over the row's last names
			}
		}
		if g >= 2 && 2*g <= h && spans >= 1 && 2*(spans+last) >= g {
			group = make([]string, len(head[i].raw))
			for c := range group {
				group[c] = strings.TrimSpace(text(head[i], c))
			}
			i++
		}
	}

	var header []string
	if i < len(head) {
		s.firstNum = head[i].num
	}
	switch {
	case s.headerRow < 0:
	case i < len(head) && (chosen || !isNumberRow(head[i].raw)):
		r := head[i]
		header = make([]string, len(r.raw))
		for c := range header {
			header[c] = text(r, c)
		}
		s.headered = true
		s.headerNum = r.num
		i++
	case i < len(head):
		s.warn("row %d holds only numbers, so it was read as data: the sheet has no header and its columns are named column_1, column_2…", head[i].num)
	}
	if s.skipped > 0 {
		what := "the table"
		if s.headered {
			what = fmt.Sprintf("the header (row %d)", s.headerNum)
		}
		s.warn("%s above %s skipped", plural(s.skipped, "row", "rows"), what)
	}

	// Column names, with their group titles.
	width := len(header)
	if !s.headered {
		for _, r := range head[i:] {
			width = max(width, len(r.raw))
		}
	}
	groups := make([]string, width)
	for c := 0; c < len(group) && c < width; c++ {
		g := group[c]
		if g == "" {
			continue
		}
		if strings.TrimSpace(header[c]) == "" {
			header[c] = g // a name merged over both header rows
			continue
		}
		for k := c; k < width && strings.TrimSpace(header[k]) != "" && (k == c || k >= len(group) || group[k] == ""); k++ {
			groups[k] = g
		}
	}

	// Date and boolean columns, from the sampled data rows.
	kindWidth := width
	for _, r := range head[i:] {
		kindWidth = max(kindWidth, len(r.raw))
	}
	s.kinds = detectKinds(head[i:], kindWidth, s.date1904)

	s.cols = make([]*xlsxColumn, width)
	for c := range s.cols {
		h := ""
		if c < len(header) {
			h = header[c]
		}
		col := s.newColumn(c)
		col.header, col.original = h, h
		if groups[c] != "" {
			col.original = groups[c] + " / " + h
		}
		s.cols[c] = col
	}
	s.nameColumns(groups)
	s.wideFrom = width

	sp, err := newSpillFile(s.maxTemp)
	if err != nil {
		return s.spillError(err)
	}
	s.spill = sp
	for _, r := range head[i:] {
		if err := s.addRow(r.num, r.raw); err != nil {
			return err
		}
	}
	return nil
}

// nameColumns sets each column's name text: its header, with its group
// title in front when the header alone repeats another's.
func (s *sheetReader) nameColumns(groups []string) {
	base := make([]string, len(s.cols))
	count := map[string]int{}
	for c, col := range s.cols {
		if strings.TrimSpace(col.header) == "" {
			continue
		}
		base[c] = strings.ToLower(ColumnNames([]string{col.header})[0])
		count[base[c]]++
	}
	for c, col := range s.cols {
		col.nameText = col.header
		if c < len(groups) && groups[c] != "" && base[c] != "" && count[base[c]] > 1 {
			col.nameText = groups[c] + " " + col.header
		}
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

func isNumber(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" {
		return false
	}
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

// isTextRow: every non-empty cell is text, none a number.
func isTextRow(cells []string) bool {
	for _, c := range cells {
		if strings.TrimSpace(c) != "" && isNumber(c) {
			return false
		}
	}
	return true
}

// isNumberRow: every non-empty cell is a number.
func isNumberRow(cells []string) bool {
	n := 0
	for _, c := range cells {
		if strings.TrimSpace(c) == "" {
			continue
		}
		if !isNumber(c) {
			return false
		}
		n++
	}
	return n > 0
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
				return s.errorf("cell %s holds a value longer than %s", ref, formatBytes(maxFieldBytes)).
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
		return s.errorf("its rows need more than %s of temporary space, the import's ceiling for temporary files", formatBytes(s.maxTemp)).
			WithErr(err).
			WithHint("split the workbook or import fewer sheets at a time (--sheet); with other files, import them one at a time")
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

// Date and boolean cells.

// detectKinds compares the raw and formatted values of the sampled data
// rows: a column whose numbers Excel all shows as the same dates (or times)
// holds date cells; one whose 1s and 0s it shows as TRUE and FALSE holds
// booleans.
func detectKinds(rows []headRow, width int, date1904 bool) []columnKind {
	kinds := make([]columnKind, width)
	for c := range kinds {
		dates, bools, others := 0, 0, 0
		var k columnKind
		for _, r := range rows {
			if c >= len(r.raw) || r.fmt == nil || c >= len(r.fmt) {
				continue
			}
			raw, shown := strings.TrimSpace(r.raw[c]), strings.TrimSpace(r.fmt[c])
			if raw == "" || !isNumber(raw) {
				continue
			}
			if shown == raw || isNumber(shown) {
				others++ // shown as a number
				continue
			}
			if (raw == "1" && shown == "TRUE") || (raw == "0" && shown == "FALSE") {
				bools++
				continue
			}
			v, _ := strconv.ParseFloat(raw, 64)
			if v == 0 {
				continue // the zero serial shows oddly ("1/0/1900"): no evidence either way
			}
			if ok, hasDate, hasTime := looksLikeDate(v, shown, date1904); ok {
				dates++
				if k.example == "" {
					k.example = shown
				}
				k.showDate = k.showDate || hasDate
				k.showTime = k.showTime || hasTime
				continue
			}
			others++
		}
		switch {
		case dates > 0 && bools == 0 && others == 0:
			k.date = true
			kinds[c] = k
		case bools > 0 && dates == 0 && others == 0:
			kinds[c] = columnKind{boolean: true}
		}
	}
	return kinds
}

// prepare turns a raw cell of a date or boolean column into the text the
// Inferrer reads; other cells pass unchanged.
func (k columnKind) prepare(v string, date1904 bool) string {
	switch {
	case k.boolean:
		switch v {
		case "1":
			return "true"
		case "0":
			return "false"
		}
	case k.date:
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			if s, ok := serialText(f, date1904, k.showTime, k.showDate); ok {
				return s
			}
		}
	}
	return v
}

// serialParts splits an Excel serial into its date and its time of day,
// rounded to the second. ok is false outside Excel's dates (negative, or
// from the year 10000 on).
func serialParts(serial float64, date1904 bool) (day time.Time, secs int64, ok bool) {
	if math.IsNaN(serial) || serial < 0 || serial >= excelMaxSerial {
		return time.Time{}, 0, false
	}
	total := int64(math.Round(serial * 86400))
	days, secs := total/86400, total%86400
	switch {
	case date1904:
		day = time.Date(1904, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, int(days))
	case days >= 61:
		// Excel counts 1900-02-29, which did not exist: serials from
		// 1900-03-01 on are one day ahead.
		day = time.Date(1899, 12, 30, 0, 0, 0, 0, time.UTC).AddDate(0, 0, int(days))
	case days == 60:
		// The fictitious 1900-02-29: the nearest real day.
		day = time.Date(1900, 2, 28, 0, 0, 0, 0, time.UTC)
	default:
		// 1 is 1900-01-01; 0 (Excel's "1900-01-00") holds a time of day.
		day = time.Date(1899, 12, 31, 0, 0, 0, 0, time.UTC).AddDate(0, 0, int(days))
	}
	return day, secs, true
}

// serialText writes an Excel serial as 'YYYY-MM-DD' (a whole day in a
// column that shows no times), 'YYYY-MM-DD HH:MM:SS', or 'HH:MM:SS' (a time
// of day alone, in a column that shows no dates).
func serialText(serial float64, date1904, showTime, showDate bool) (string, bool) {
	day, secs, ok := serialParts(serial, date1904)
	if !ok {
		return "", false
	}
	clock := fmt.Sprintf("%02d:%02d:%02d", secs/3600, secs/60%60, secs%60)
	if !showDate && serial < 1 {
		return clock, true
	}
	date := day.Format("2006-01-02")
	if showTime || secs != 0 {
		return date + " " + clock, true
	}
	return date, true
}

var xlsxMonthNames = []string{"january", "february", "march", "april", "may", "june", "july",
	"august", "september", "october", "november", "december"}

var xlsxWeekdayNames = []string{"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"}

// looksLikeDate reports whether shown, the text Excel shows for the number
// serial, is that serial as a date, a time or both: every number in it must
// be the serial's year, month, day, hour, minute or second, and its words
// month or weekday names or AM/PM. A number shown in another format ("80%",
// "D +1.3", "1,234.50") is not.
func looksLikeDate(serial float64, shown string, date1904 bool) (ok, hasDate, hasTime bool) {
	day, secs, valid := serialParts(serial, date1904)
	if !valid || shown == "" {
		return false, false, false
	}
	type token struct {
		num    int
		digits int
		word   string
		sep    byte // the character after the token
	}
	var toks []token
	for i := 0; i < len(shown); {
		c := shown[i]
		switch {
		case c >= '0' && c <= '9':
			j := i
			n := 0
			for j < len(shown) && shown[j] >= '0' && shown[j] <= '9' {
				if j-i < 9 {
					n = n*10 + int(shown[j]-'0')
				}
				j++
			}
			t := token{num: n, digits: j - i}
			if j < len(shown) {
				t.sep = shown[j]
			}
			toks = append(toks, t)
			i = j
		case c < 0x80 && unicode.IsLetter(rune(c)):
			j := i
			for j < len(shown) && shown[j] < 0x80 && unicode.IsLetter(rune(shown[j])) {
				j++
			}
			t := token{word: strings.ToLower(shown[i:j]), num: -1}
			if j < len(shown) {
				t.sep = shown[j]
			}
			toks = append(toks, t)
			i = j
		case c == ' ' || c == '/' || c == '-' || c == '.' || c == ',' || c == ':':
			i++
		default:
			return false, false, false // %, currency signs, +, ( …
		}
	}
	pm, am := false, false
	for _, t := range toks {
		switch t.word {
		case "pm", "p":
			pm = true
		case "am", "a":
			am = true
		}
	}
	// The time: h:mm, h:mm:ss, with fractions of a second.
	timeAt := -1
	for k := 0; k+1 < len(toks); k++ {
		if toks[k].word == "" && toks[k].sep == ':' && toks[k+1].word == "" {
			timeAt = k
			break
		}
	}
	used := make([]bool, len(toks))
	if timeAt >= 0 {
		h, m := toks[timeAt].num, toks[timeAt+1].num
		if m > 59 || h > 23 || ((am || pm) && (h < 1 || h > 12)) {
			return false, false, false
		}
		if pm && h != 12 {
			h += 12
		} else if am && h == 12 {
			h = 0
		}
		want := int(secs / 60)
		diff := (h*60 + m - want + 1440) % 1440
		if diff > 1 && diff < 1439 {
			return false, false, false
		}
		used[timeAt], used[timeAt+1] = true, true
		k := timeAt + 2
		if toks[timeAt+1].sep == ':' && k < len(toks) && toks[k].word == "" && toks[k].num <= 59 {
			used[k] = true // seconds
			if toks[k].sep == '.' && k+1 < len(toks) && toks[k+1].word == "" {
				used[k+1] = true // fractions of a second
			}
		}
		hasTime = true
	}
	// Each other token must be the year, the month or the day; a date
	// needs two of them (a month and a year or a day).
	const (
		roleY = 1 << iota
		roleM
		roleD
	)
	var roles []int
	for k, t := range toks {
		if used[k] {
			continue
		}
		if t.word != "" {
			switch {
			case t.word == "am" || t.word == "pm" || t.word == "a" || t.word == "p":
			case len(t.word) >= 3 && strings.HasPrefix(xlsxMonthNames[day.Month()-1], t.word):
				roles = append(roles, roleM)
			case len(t.word) >= 3 && isPrefixOfAny(xlsxWeekdayNames, t.word):
			default:
				return false, false, false
			}
			continue
		}
		r := 0
		if t.digits == 4 && t.num == day.Year() || t.digits == 2 && t.num == day.Year()%100 {
			r |= roleY
		}
		if t.digits <= 2 && t.num == int(day.Month()) {
			r |= roleM
		}
		if t.digits <= 2 && t.num == day.Day() {
			r |= roleD
		}
		if r == 0 {
			return false, false, false
		}
		roles = append(roles, r)
	}
	for i, ri := range roles {
		for j, rj := range roles {
			if i != j && ri&roleM != 0 && rj&(roleY|roleD) != 0 {
				hasDate = true
			}
		}
	}
	if !hasDate && len(roles) > 0 {
		return false, false, false // a lone number that happens to fit
	}
	return hasDate || hasTime, hasDate, hasTime
}

func isPrefixOfAny(list []string, w string) bool {
	for _, s := range list {
		if strings.HasPrefix(s, w) {
			return true
		}
	}
	return false
}

// Spill files: per row, its number and its cell count as uvarints, then
// per cell a uvarint length and the cell's bytes.

type spillFile struct {
	path string
	fh   *os.File
	tw   *tempWriter
	w    *bufio.Writer
	buf  []byte

	mu      sync.Mutex
	claimed bool
}

func newSpillFile(maxTemp int64) (*spillFile, error) {
	fh, err := os.CreateTemp("", spillPattern)
	if err != nil {
		return nil, err
	}
	tw := &tempWriter{f: fh, limit: maxTemp}
	s := &spillFile{path: fh.Name(), fh: fh, tw: tw, w: bufio.NewWriterSize(tw, 256<<10)}
	spills.Lock()
	spills.files[s.path] = s
	spills.Unlock()
	return s, nil
}

// errTempCeiling is a spill file's write refused at the temporary-space
// ceiling.
var errTempCeiling = errors.New("the ceiling on temporary files is reached")

// tempWriter writes a spill file within the temporary-space ceiling: it
// reserves room (a megabyte at a time) before the bytes reach the disk, so
// the file never passes the ceiling; remove gives the room back.
type tempWriter struct {
	f                 *os.File
	limit             int64
	reserved, written int64
}

func (w *tempWriter) Write(p []byte) (int, error) {
	if need := w.written + int64(len(p)) - w.reserved; need > 0 {
		step := max(need, 1<<20)
		if !reserveTemp(step, w.limit) {
			if step = need; !reserveTemp(step, w.limit) {
				return 0, errTempCeiling
			}
		}
		w.reserved += step
	}
	n, err := w.f.Write(p)
	w.written += int64(n)
	return n, err
}

func (s *spillFile) writeRow(num int, cells []string) error {
	b := binary.AppendUvarint(s.buf[:0], uint64(num))
	b = binary.AppendUvarint(b, uint64(len(cells)))
	for _, c := range cells {
		b = binary.AppendUvarint(b, uint64(len(c)))
		if len(b) > 4096 {
			if _, err := s.w.Write(b); err != nil {
				return err
			}
			b = b[:0]
		}
		if len(c) > 256 {
			if _, err := s.w.Write(b); err != nil {
				return err
			}
			b = b[:0]
			if _, err := s.w.WriteString(c); err != nil {
				return err
			}
			continue
		}
		b = append(b, c...)
	}
	s.buf = b
	_, err := s.w.Write(b)
	return err
}

// finish flushes and closes the file after the first pass.
func (s *spillFile) finish() error {
	if s == nil || s.fh == nil {
		return nil
	}
	err := s.w.Flush()
	if cerr := s.fh.Close(); err == nil {
		err = cerr
	}
	s.fh, s.w = nil, nil
	return err
}

// remove deletes the file and gives its room back (once), whatever its
// state.
func (s *spillFile) remove() {
	if s == nil {
		return
	}
	spills.Lock()
	_, live := spills.files[s.path]
	delete(spills.files, s.path)
	spills.Unlock()
	if !live {
		return
	}
	s.mu.Lock()
	if s.fh != nil {
		_ = s.fh.Close()
		s.fh, s.w = nil, nil
	}
	s.mu.Unlock()
	_ = os.Remove(s.path)
	releaseTemp(s.tw.reserved)
}

// replay streams the rows written in the first pass, converted; it
// removes the file when it returns.
func (s *spillFile) replay(ctx context.Context, n int64, keep []int,
	convs []*cellConv, yield func(row []engine.Value) error) error {
	if s == nil {
		if n == 0 {
			return nil
		}
		return engine.Errorf(engine.CodeInternal, "the rows of this sheet were not kept")
	}
	s.mu.Lock()
	claimed := s.claimed
	s.claimed = true
	s.mu.Unlock()
	if claimed {
		return engine.Errorf(engine.CodeInternal, "the rows of this sheet were already read (Rows can be called once)")
	}
	defer s.remove()
	fh, err := os.Open(s.path)
	if err != nil {
		return workbookError("cannot read a temporary file: %v", err).WithErr(err).
			WithHint("import the file again; do not clean the temporary folder while Querent runs")
	}
	defer fh.Close()
	r := bufio.NewReaderSize(fh, 256<<10)
	var cells []string
	var b []byte
	var chunk []engine.Value // rows are cut from chunks of 256 (chunkBytes)
	chunkUsed := 0
	last := -1
	for _, c := range keep {
		last = max(last, c)
	}
	corrupt := func(err error) error {
		return workbookError("a temporary file of the import was damaged: %v", err).WithErr(err).
			WithHint("import the file again")
	}
	for i := int64(0); i < n; i++ {
		if i%xlsxCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return engine.AsError(err)
			}
		}
		num, err := binary.ReadUvarint(r)
		if err != nil {
			return corrupt(err)
		}
		count, err := binary.ReadUvarint(r)
		if err != nil {
			return corrupt(err)
		}
		cells = cells[:0]
		for c := uint64(0); c < count; c++ {
			l, err := binary.ReadUvarint(r)
			if err != nil {
				return corrupt(err)
			}
			if int(c) > last {
				if _, err := r.Discard(int(l)); err != nil {
					return corrupt(err)
				}
				continue
			}
			if uint64(cap(b)) < l {
				b = make([]byte, l)
			}
			b = b[:l]
			if _, err := io.ReadFull(r, b); err != nil {
				return corrupt(err)
			}
			cells = append(cells, string(b))
		}
		if len(chunk) < len(keep) {
			chunk = make([]engine.Value, 256*len(keep))
		}
		row := chunk[:len(keep):len(keep)]
		chunk = chunk[len(keep):]
		for k, c := range keep {
			if c < len(cells) {
				v, ok := convs[k].convert(int64(num), cells[c])
				if !ok {
					v = cells[c] // not converted: kept as its text
				}
				row[k] = v
			}
		}
		if chunkUsed += rowValueBytes(row); chunkUsed > chunkBytes {
			chunk, chunkUsed = nil, 0 // the next row starts a new chunk
		}
		if err := yield(row); err != nil {
			return err
		}
	}
	return nil
}

// chunkBytes bounds the values of the rows cut from one chunk. The rows
// streamed to the import writer share chunks of 256 (one allocation for
// all their values), and a chunk lives as long as any of its rows: the
// values of all 256 with it. Past chunkBytes in one row, the next row
// starts a new chunk: 256 rows of 10 MB kept 2.5 GB alive.
const chunkBytes = 256 << 10

// rowValueBytes is the text and blob bytes of a row's values.
func rowValueBytes(row []engine.Value) int {
	n := 0
	for _, v := range row {
		switch x := v.(type) {
		case string:
			n += len(x)
		case []byte:
			n += len(x)
		}
	}
	return n
}
