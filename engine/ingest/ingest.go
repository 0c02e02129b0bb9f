package ingest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"querent/engine"
	"querent/engine/imports"
)

// Options tune how a source is read. The zero value reads with automatic
// detection and refuses ragged rows.
type Options struct {
	// Encoding is "auto" (the default when ""), "utf-8", "utf-16" or
	// "windows-1252".
	Encoding string
	// Delimiter is "auto" (the default when ""), ",", ";", "tab" (or "\t")
	// or "|".
	Delimiter string
	// Ragged is "error" (the default when "") or "pad": pad short rows with
	// NULL and drop empty extra fields of long rows.
	Ragged string
	// Sheets names the XLSX sheets to read (all when empty); CSV ignores it.
	Sheets []string
	// Progress, when set, is called during the first pass (phase
	// "reading"), at most about ten times a second.
	Progress func(imports.ImportProgress)
	// MaxMemory is the memory ceiling of reading one input, in bytes
	// (DefaultMaxMemory, 1 GiB, when 0). An XLSX workbook whose parts
	// excelize would hold beyond half of it (estimated from the archive's
	// directory, the parts' sizes and their XML elements before they are
	// parsed) is refused; the other half is for rows in flight. Values and
	// rows are capped at 10 MB and 64 MB whatever the ceiling; CSV reading
	// holds a few rows at a time and always fits.
	MaxMemory int64
	// HeaderRow says where the header is: 0 detects it, N is the CSV line
	// or sheet row holding it (what is above is skipped), -1 says there is
	// none (the first row is data, columns are named column_1…).
	HeaderRow int
	// Range chooses an XLSX sheet's cells: "B3:H200", "B3:H" (to the last
	// row), "B:H" (whole columns); "" reads them all. Its first row is the
	// header unless HeaderRow says otherwise.
	Range string
	// Layouts choose HeaderRow and Range per sheet (by its name), over
	// the two above.
	Layouts map[string]Layout
	// SampleBytes, when positive, reads at most about that much of a CSV
	// file (a preview): the source is Sampled, its rows an estimate, and
	// its table cannot be imported. SampleRows does the same with the data
	// rows of each XLSX sheet.
	SampleBytes int64
	SampleRows  int64
	// MaxTemp is the ceiling on the import's temporary files, in bytes
	// (DefaultMaxTemp, 4 GiB, when 0): the sheets excelize extracts from a
	// workbook while it reads it, and the spill files where an XLSX
	// table's rows wait until they are stored, counted together for all
	// the tables of the process not yet stored. CSV needs none.
	MaxTemp int64
}

// Layout is where a sheet's table is: its header row and its cells.
type Layout struct {
	HeaderRow int
	Range     string
}

// MaxColumns is the most columns an SQLite table holds.
const MaxColumns = 2000

// readXLSX reads an XLSX workbook; the XLSX reader (xlsx.go) replaces it
// from an init function.
var readXLSX = func(ctx context.Context, path string, opts Options) ([]*Source, error) {
	return nil, engine.Errorf(engine.CodeImport, "%s: XLSX reading is not built yet", filepath.Base(path)).
		WithHint("save the sheet as CSV and import that file")
}

func importErr(format string, args ...any) *engine.Error {
	return engine.Errorf(engine.CodeImport, format, args...)
}

// Read reads one source file into the tables to import, as detected: its
// sources (ReadSources) with no choices applied.
func Read(ctx context.Context, path string, opts Options) ([]*imports.ImportTable, error) {
	srcs, err := ReadSources(ctx, path, opts)
	if err != nil {
		return nil, err
	}
	tables := make([]*imports.ImportTable, len(srcs))
	for i, s := range srcs {
		t, _, err := s.Apply(Choices{})
		if err != nil {
			for _, s := range srcs {
				s.Close()
			}
			return nil, err
		}
		tables[i] = t
	}
	return tables, nil
}

// ReadSources reads one source file: an XLSX workbook (.xlsx, .xlsm, or
// any file that starts like a ZIP archive) through the XLSX reader, one
// Source per sheet, anything else as CSV. For CSV it runs the first pass
// over the whole file (or its start, for a sample): encoding, delimiter,
// header, ragged rows, type inference and the file's sha256. The tables
// its sources' Apply returns run the second pass, streaming converted rows.
//
// Every error is an *engine.Error: code import (naming the file, the line
// and the column where they apply, with a hint), usage for an unknown
// option value, cancelled or timeout when ctx ends.
func ReadSources(ctx context.Context, path string, opts Options) ([]*Source, error) {
	if err := ctx.Err(); err != nil {
		return nil, engine.AsError(err)
	}
	cfg, err := configure(opts)
	if err != nil {
		return nil, err
	}
	name := filepath.Base(path)
	fi, err := os.Stat(path)
	if err != nil {
		return nil, openErr(name, err)
	}
	if err := regularFile(name, fi); err != nil {
		return nil, err
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".xlsx", ".xlsm":
		return readXLSX(ctx, path, opts)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, openErr(name, err)
	}
	var magic [4]byte
	n, _ := io.ReadFull(f, magic[:])
	if n == 4 && string(magic[:]) == "PK\x03\x04" {
		f.Close()
		return readXLSX(ctx, path, opts)
	}
	defer f.Close()
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, openErr(name, err)
	}
	if fi.Size() == 0 {
		return nil, importErr("%s is empty: no data at all", name).
			WithHint("choose a file with a header row and data rows")
	}
	if opts.Range != "" {
		return nil, engine.Errorf(engine.CodeUsage, "%s is a CSV file: a cell range chooses the cells of an XLSX sheet", name).
			WithHint("choose a CSV file's columns with --skip and its header with --header-row")
	}
	pl := &csvPlan{path: path, name: name, size: fi.Size(), modTime: fi.ModTime(), cfg: cfg, opts: opts}
	src, err := pl.firstPass(ctx, f)
	if err != nil {
		return nil, err
	}
	return []*Source{src}, nil
}

// regularFile refuses what is not a regular file, before it is opened: a
// named pipe blocks the open until a writer comes (forever, for a command
// nobody feeds), a device or socket never ends. fi comes from os.Stat, so
// a symbolic link to a regular file is read.
func regularFile(name string, fi os.FileInfo) *engine.Error {
	m := fi.Mode()
	what := ""
	switch {
	case m.IsRegular():
		return nil
	case m.IsDir():
		return importErr("%s is a folder, not a file", name).WithHint("name a CSV or XLSX file")
	case m&os.ModeNamedPipe != 0:
		what = "a named pipe (FIFO)"
	case m&os.ModeSocket != 0:
		what = "a socket"
	case m&os.ModeDevice != 0, m&os.ModeCharDevice != 0:
		what = "a device"
	default:
		what = "a special file"
	}
	return importErr("%s is %s, not a regular file; Querent imports only regular files (it reads each one more than once)", name, what).
		WithHint("save the data to a CSV or XLSX file first, then import that file")
}

func openErr(name string, err error) *engine.Error {
	if errors.Is(err, os.ErrNotExist) {
		return importErr("%s does not exist", name).WithHint("check the path").WithErr(err)
	}
	if errors.Is(err, os.ErrPermission) {
		return importErr("%s cannot be read: permission denied", name).WithHint("check the file's permissions").WithErr(err)
	}
	return importErr("cannot open %s: %v", name, err).WithHint("check the path and the file").WithErr(err)
}

// config is Options checked.
type config struct {
	encoding string // normEncoding name
	delim    byte   // 0: sniff
	pad      bool
	// headerLine: 0 detects the header, -1 says none, N is the line
	// where the header record starts (records before it are skipped).
	headerLine int64
}

func configure(o Options) (config, error) {
	var c config
	c.encoding = normEncoding(o.Encoding)
	if c.encoding == "" {
		return c, engine.Errorf(engine.CodeUsage, "unknown encoding %q", o.Encoding).
			WithHint("use auto, utf-8, utf-16 or windows-1252")
	}
	d, ok := normDelimiter(o.Delimiter)
	if !ok {
		return c, engine.Errorf(engine.CodeUsage, "unknown delimiter %q", o.Delimiter).
			WithHint(`use auto, ",", ";", tab or "|"`)
	}
	c.delim = d
	switch strings.ToLower(o.Ragged) {
	case "", "error":
	case "pad":
		c.pad = true
	default:
		return c, engine.Errorf(engine.CodeUsage, "unknown ragged-row handling %q", o.Ragged).
			WithHint("use error or pad")
	}
	if o.HeaderRow < -1 {
		return c, engine.Errorf(engine.CodeUsage, "header row %d: a header row is a line number from 1 (or none)", o.HeaderRow).
			WithHint("give the line or row of the header, or none when the file has no header row")
	}
	c.headerLine = int64(o.HeaderRow)
	return c, nil
}

// hashReader hashes and counts what it reads.
type hashReader struct {
	r io.Reader
	h hash.Hash
	n int64
}

func (h *hashReader) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	if n > 0 {
		h.h.Write(p[:n])
		h.n += int64(n)
	}
	return n, err
}

// progress throttles Options.Progress.
type progress struct {
	fn    func(imports.ImportProgress)
	src   string
	total int64
	last  time.Time
}

func (p *progress) report(done, rows int64, force bool) {
	if p.fn == nil {
		return
	}
	now := time.Now()
	if !force && now.Sub(p.last) < 100*time.Millisecond {
		return
	}
	p.last = now
	p.fn(imports.ImportProgress{Phase: "reading", Source: p.src, BytesDone: min(done, p.total), BytesTotal: p.total, Rows: rows})
}

// checkEvery is how many records pass between checks of ctx (and progress).
const checkEvery = 4096

// csvPlan is what the first pass learnt, all the second pass needs.
type csvPlan struct {
	path, name string
	size       int64
	modTime    time.Time
	cfg        config
	opts       Options

	enc     encodingChoice
	delim   byte
	header  bool
	ncols   int
	rows    int64
	sha     string
	colName []string // for messages: the names of the columns
}

// unsafeString views b as a string without copying; the string is valid
// only while b is (the Inferrer and the converters do not keep it).
func unsafeString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// blankRecord reports a record that is skipped as an empty line: no bytes,
// or only white space in a file of two columns or more (or before the
// first record, when the number of columns is not known yet).
func blankRecord(p *csvParser, fields [][]byte, seenFirst bool, ncols int) bool {
	if p.recBlank {
		return true
	}
	if len(fields) != 1 || p.recQuoted || (seenFirst && ncols < 2) {
		return false
	}
	t := trimSpace(unsafeString(fields[0]))
	return t == "" || t == "\x1a" // the DOS end-of-file mark
}

// rowFit is the outcome of fitting a record to the columns.
type rowFit int

const (
	fitOK rowFit = iota
	fitPadded
	fitTrimmed
)

// fitRecord pads or trims a record with a different number of fields, or
// returns the error; fields may be extended with nil entries (padding).
func (pl *csvPlan) fitRecord(fields [][]byte, line int64) ([][]byte, rowFit, *engine.Error) {
	n := len(fields)
	if n == pl.ncols {
		return fields, fitOK, nil
	}
	what := "the header has"
	if !pl.header {
		what = "the first row has"
	}
	if n < pl.ncols {
		if !pl.cfg.pad {
			return nil, 0, importErr("%s: line %d has %d fields, but %s %d", pl.name, line, n, what, pl.ncols).
				WithHint("fix the row, or use --ragged pad to fill short rows with empty (NULL) values")
		}
		for len(fields) < pl.ncols {
			fields = append(fields, nil)
		}
		return fields, fitPadded, nil
	}
	for j := pl.ncols; j < n; j++ {
		if trimSpace(unsafeString(fields[j])) != "" {
			return nil, 0, importErr("%s: line %d has %d fields, but %s %d, and field %d is not empty (%q)",
				pl.name, line, n, what, pl.ncols, j+1, shown(unsafeString(fields[j]))).
				WithHint("fix the row or add the missing header cells; Querent never drops values")
		}
	}
	if !pl.cfg.pad {
		return nil, 0, importErr("%s: line %d has %d fields, but %s %d (the extra fields are empty)", pl.name, line, n, what, pl.ncols).
			WithHint("fix the row, or use --ragged pad to drop empty extra fields and fill short rows with NULL")
	}
	return fields[:pl.ncols], fitTrimmed, nil
}

// parseErr turns a parser error into an import error.
func (pl *csvPlan) parseErr(err error, first []string) *engine.Error {
	var pe *parseError
	if !errors.As(err, &pe) {
		return importErr("cannot read %s: %v", pl.name, err).WithHint("check the file and try again").WithErr(err)
	}
	col := func(j int) string {
		if j >= 1 && j <= len(first) && first[j-1] != "" {
			return fmt.Sprintf("column %d (%q)", j, shown(first[j-1]))
		}
		return fmt.Sprintf("column %d", j)
	}
	switch pe.kind {
	case "unterminated":
		return importErr("%s: line %d: a quoted field starts here and never ends", pl.name, pe.line).
			WithHint(`close the quote; a quote inside a quoted field is written twice ("")`)
	case "field":
		if pe.quoted {
			return importErr("%s: line %d, %s: a quoted value runs past 10 MB from here", pl.name, pe.line, col(pe.column)).
				WithHint("Querent reads values up to 10 MB; if a closing quote is missing, add it, otherwise shorten the value")
		}
		return importErr("%s: line %d, %s: a value longer than 10 MB", pl.name, pe.line, col(pe.column)).
			WithHint("Querent reads values up to 10 MB; shorten the value or leave it out of the file")
	case "record":
		return importErr("%s: line %d: a row longer than 64 MB", pl.name, pe.line).
			WithHint("check the file's quotes and line ends; a row holds at most 64 MB")
	}
	return importErr("cannot read %s near line %d: %v", pl.name, pe.line, pe.err).
		WithHint("check the file and try again").WithErr(pe.err)
}

func (pl *csvPlan) binaryErr(what string) *engine.Error {
	e := importErr("%s is not a text file: it looks like %s", pl.name, what)
	switch {
	case strings.HasPrefix(what, "an SQLite"):
		return e.WithHint("open it directly: querent sql --db %s", pl.path)
	case strings.Contains(what, "compressed"):
		return e.WithHint("decompress it first, then import the CSV inside")
	case strings.Contains(what, ".xls"):
		return e.WithHint("save it as .xlsx or CSV and import that")
	}
	return e.WithHint("import a CSV or XLSX file; a UTF-16 file without a byte-order mark needs --encoding utf-16")
}

// firstPass reads the whole file once (or its start, for a sample):
// everything but the values.
func (pl *csvPlan) firstPass(ctx context.Context, f *os.File) (*Source, error) {
	hr := &hashReader{r: f, h: sha256.New()}
	sample := make([]byte, min(pl.size, sampleSize))
	n, err := io.ReadFull(hr, sample)
	if err != nil && err != io.ErrUnexpectedEOF {
		return nil, importErr("cannot read %s: %v", pl.name, err).WithHint("check the file and try again").WithErr(err)
	}
	sample = sample[:n]
	whole := int64(n) >= pl.size
	ch, what := detectEncoding(sample, whole, pl.cfg.encoding)
	if what != "" {
		return nil, pl.binaryErr(what)
	}
	pl.enc = ch
	pl.delim = pl.cfg.delim
	if pl.delim == 0 {
		pl.delim = sniffDelimiter(decodeAll(sample[ch.skip:], ch.enc), whole)
	}

	dec := newTextReader(io.MultiReader(bytes.NewReader(sample[ch.skip:]), hr), ch.enc)
	p := newCSVParser(dec, pl.delim)
	p.stats = dec.stats()
	prog := &progress{fn: pl.opts.Progress, src: pl.name, total: pl.size}
	prog.report(0, 0, true)

	// Parsing and inference overlap: a goroutine parses and checks the
	// records and hands them over in batches; this one infers the types.
	batches := make(chan *recBatch, 4)
	free := make(chan *recBatch, 6)
	var sc scanOutcome
	go func() {
		defer close(batches)
		sc = pl.scanRecords(ctx, p, hr, batches, free)
	}()
	var infs []*Inferrer
	for b := range batches {
		if infs == nil {
			infs = make([]*Inferrer, pl.ncols)
			for j := range infs {
				infs[j] = NewInferrer()
			}
		}
		ncols := len(infs)
		k := 0
		for range b.n {
			for j := range ncols {
				infs[j].Add(b.lines[k], unsafeString(b.data[b.se[2*k]:b.se[2*k+1]]))
				k++
			}
		}
		prog.report(b.bytes, b.records, false)
		select {
		case free <- b:
		default:
		}
	}
	if sc.err != nil {
		return nil, sc.err
	}
	first, firstLines, records := sc.first, sc.firstLines, sc.records
	if first == nil {
		if sc.above > 0 {
			return nil, importErr("%s has nothing from line %d on: the header row asked for is past the end", pl.name, pl.cfg.headerLine).
				WithHint("choose a header row within the file (the preview shows the lines)")
		}
		return nil, importErr("%s holds only blank lines or white space: no header and no data", pl.name).
			WithHint("choose a file with a header row and data rows")
	}
	if infs == nil {
		infs = make([]*Inferrer, pl.ncols)
		for j := range infs {
			infs[j] = NewInferrer()
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, engine.AsError(err)
	}

	var chosen []string
	switch {
	case pl.cfg.headerLine > 0:
		pl.header = true
		chosen = append(chosen, "header_row")
	case pl.cfg.headerLine < 0:
		pl.header = false
		chosen = append(chosen, "header_row")
	default:
		pl.header = looksLikeHeader(first, infs, records)
	}
	if pl.cfg.encoding != "auto" {
		chosen = append(chosen, "encoding")
	}
	if pl.cfg.delim != 0 {
		chosen = append(chosen, "delimiter")
	}
	var warnings []string
	warn := func(format string, args ...any) {
		warnings = append(warnings, pl.name+": "+fmt.Sprintf(format, args...))
	}
	if ch.note != "" {
		warn("%s", ch.note)
	}
	if sc.above > 0 {
		warn("%s above the header row (line %d) skipped", countNoun(sc.above, "line", "lines"), sc.firstLine)
	}
	if st := dec.stats(); st.invalid > 0 {
		line := sc.invLine
		where := ""
		if line > 0 {
			where = fmt.Sprintf(" (first on line %d)", line)
		}
		switch ch.enc {
		case encWindows1252:
			warn("%s undefined in Windows-1252 replaced with U+FFFD%s", countNoun(st.invalid, "byte", "bytes"), where)
		case encUTF16LE, encUTF16BE:
			warn("%s not valid %s (unpaired surrogates, an odd last byte) replaced with U+FFFD%s",
				countNoun(st.invalid, "code unit", "code units"), ch.enc, where)
		default:
			warn("%s not valid UTF-8 replaced with U+FFFD%s; if the file is in Windows-1252, import it with --encoding windows-1252",
				countNoun(st.invalid, "byte", "bytes"), where)
		}
	}
	var names []string
	rows := records
	head, headLines := sc.head.rows, sc.head.lines
	if pl.header {
		names = ColumnNames(first)
		pl.warnDuplicates(first, names, warn)
		if rows == 0 {
			warn("the file has a header row but no data rows")
		}
	} else {
		for j, s := range first {
			infs[j].Add(firstLines[j], s)
		}
		rows++
		names = ColumnNames(make([]string, len(first)))
		if pl.cfg.headerLine == 0 {
			warn("no header row: columns are named column_1…column_%d (the first line looks like data)", len(first))
		}
		var h previewRows
		h.add(sc.firstLine, len(first), func(j int) string { return first[j] })
		for i, r := range head {
			h.add(headLines[i], len(r), func(j int) string { return r[j] })
		}
		head, headLines = h.rows, h.lines
	}
	if sc.padded > 0 {
		warn("%s padded with NULL (first on line %d)", countNoun(sc.padded, "short row", "short rows"), sc.padLine)
	}
	if sc.trimmed > 0 {
		warn("%s had empty fields past the last column, dropped (first on line %d)", countNoun(sc.trimmed, "row", "rows"), sc.trimLine)
	}
	if sc.blanks > 0 {
		warn("%s skipped (first on line %d)", countNoun(sc.blanks, "blank line", "blank lines"), sc.blankLine)
	}

	src := &Source{
		Name: TableName(strings.TrimSuffix(pl.name, filepath.Ext(pl.name))),
		File: pl.name, Path: pl.path,
		Layout:   imports.ImportLayout{Encoding: ch.name(), Delimiter: delimiterName(pl.delim)},
		Chosen:   chosen,
		lineWord: "line", head: head, headLines: headLines,
	}
	if pl.header {
		src.Layout.HeaderRow = int(sc.firstLine)
	}
	pl.rows = rows
	src.Rows, src.SampleRows = rows, rows
	if sc.sampled {
		src.Sampled = true
		// The rows of the whole file, from the share of it read.
		if read := float64(sc.consumed) * float64(ch.enc.width()); read > 0 {
			src.Rows = max(rows, int64(float64(rows)*float64(pl.size-int64(ch.skip))/read))
		}
	} else {
		pl.sha = hex.EncodeToString(hr.h.Sum(nil))
		if hr.n != pl.size {
			return nil, pl.changedErr("its size changed while it was read")
		}
		src.SHA256 = pl.sha
		src.stream = pl.secondPass
	}
	pl.colName = names
	src.cols = make([]*srcColumn, len(first))
	for j := range first {
		orig := ""
		if pl.header {
			orig = first[j]
		}
		inf := infs[j]
		src.cols[j] = &srcColumn{pos: j + 1, header: orig, original: orig, name: names[j], inf: inf,
			empty: trimSpace(orig) == "" && inf.n == inf.blank+inf.spacesN}
	}
	src.Warnings = warnings
	prog.report(pl.size, rows, true)
	return src, nil
}

// recBatch is a batch of checked records on their way to inference: field
// k of the batch is data[se[2k]:se[2k+1]], from line lines[k]; every record
// has exactly ncols fields (padding is empty).
type recBatch struct {
	data    []byte
	se      []int32 // start and end of each field in data
	lines   []int64
	n       int   // records
	bytes   int64 // source bytes read when the batch was sent
	records int64 // records so far
}

// Batches are sent after this many records or bytes of fields.
const (
	batchRecords = 4096
	batchBytes   = 1 << 20
)

// scanOutcome is what the parsing goroutine of the first pass learnt.
type scanOutcome struct {
	err        error
	first      []string // the first record (the header, or data)
	firstLines []int64
	firstLine  int64       // the line it starts on
	head       previewRows // the first data records after it
	above      int64       // records skipped above the header row asked for
	sampled    bool        // the scan stopped at Options.SampleBytes
	consumed   int64       // bytes of text parsed
	records    int64       // records after the first
	blanks     int64       // blank lines inside the data
	blankLine  int64
	padded     int64
	padLine    int64
	trimmed    int64
	trimLine   int64
	invLine    int64 // line of the first invalid byte
}

// scanRecords parses every record of the first pass, checks it (blank
// lines, NUL bytes, the number of fields) and sends the records after the
// first to batches. It sets pl.ncols before sending the first batch.
func (pl *csvPlan) scanRecords(ctx context.Context, p *csvParser, hr *hashReader, batches, free chan *recBatch) (out scanOutcome) {
	var pending, pendLine int64 // blank lines not yet known to be inside the data
	var b *recBatch
	send := func() {
		b.bytes, b.records = hr.n, out.records
		batches <- b
		b = nil
	}
	defer func() {
		out.invLine = p.invLine
	}()
	for {
		fields, err := p.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			out.err = pl.parseErr(err, out.first)
			return out
		}
		if p.nulLine > 0 {
			out.err = importErr("%s: line %d holds a NUL byte: this is not a plain text CSV file", pl.name, p.nulLine).
				WithHint("export the data as CSV (UTF-8) and import that; a UTF-16 file without a byte-order mark needs --encoding utf-16")
			return out
		}
		if blankRecord(p, fields, out.first != nil, pl.ncols) {
			if out.first != nil {
				if pending == 0 {
					pendLine = p.recLine
				}
				pending++
			}
			continue
		}
		if pending > 0 {
			if out.blanks == 0 {
				out.blankLine = pendLine
			}
			out.blanks += pending
			pending = 0
		}
		if out.first == nil && pl.cfg.headerLine > 0 && p.recLine < pl.cfg.headerLine {
			out.above++
			continue
		}
		if out.first == nil {
			if len(fields) > MaxColumns {
				out.err = importErr("%s has %d columns; an SQLite table holds at most %d", pl.name, len(fields), MaxColumns).
					WithHint("split the file or keep fewer columns")
				return out
			}
			pl.ncols = len(fields)
			pl.header = true // for messages until decided
			out.first = make([]string, len(fields))
			out.firstLines = make([]int64, len(fields))
			out.firstLine = p.recLine
			for j, fb := range fields {
				out.first[j] = string(fb)
				out.firstLines[j] = p.lineOf(j)
			}
			continue
		}
		fields, fit, ferr := pl.fitRecord(fields, p.recLine)
		if ferr != nil {
			out.err = ferr
			return out
		}
		switch fit {
		case fitPadded:
			if out.padded == 0 {
				out.padLine = p.recLine
			}
			out.padded++
		case fitTrimmed:
			if out.trimmed == 0 {
				out.trimLine = p.recLine
			}
			out.trimmed++
		}
		if b == nil {
			select {
			case b = <-free:
				b.data, b.se, b.lines, b.n = b.data[:0], b.se[:0], b.lines[:0], 0
			default:
				b = &recBatch{}
			}
		}
		// Copy the record's bytes at once; the fields lie inside them.
		span := p.buf[p.spanS:p.spanE]
		at := len(b.data)
		b.data = append(b.data, span...)
		var s0 uintptr
		if len(span) > 0 {
			s0 = uintptr(unsafe.Pointer(unsafe.SliceData(span)))
		}
		for j, fb := range fields {
			st, en := at, at
			if len(fb) > 0 {
				st = at + int(uintptr(unsafe.Pointer(unsafe.SliceData(fb)))-s0)
				en = st + len(fb)
			}
			b.se = append(b.se, int32(st), int32(en))
			b.lines = append(b.lines, p.lineOf(j))
		}
		b.n++
		out.records++
		if !out.head.full() {
			out.head.add(p.recLine, len(fields), func(j int) string { return unsafeString(fields[j]) })
		}
		if b.n == batchRecords || len(b.data) >= batchBytes {
			send()
		}
		if pl.opts.SampleBytes > 0 && p.recEnd >= pl.opts.SampleBytes {
			out.sampled, out.consumed = true, p.recEnd
			break
		}
		if out.records%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				out.err = engine.AsError(err)
				return out
			}
		}
	}
	if b != nil {
		send()
	}
	return out
}

// warnDuplicates says which headers were renamed because they repeat.
func (pl *csvPlan) warnDuplicates(header, names []string, warn func(string, ...any)) {
	groups := map[string][]int{}
	var order []string
	for j, h := range header {
		b := safeName(h)
		if b == "" {
			continue
		}
		k := strings.ToLower(b)
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], j)
	}
	for _, k := range order {
		g := groups[k]
		if len(g) < 2 {
			continue
		}
		var hs, ns []string
		for _, j := range g {
			hs = append(hs, strconv.Quote(header[j]))
			ns = append(ns, names[j])
		}
		warn("%d headers give the name %s (%s): the columns are named %s", len(g), names[g[0]],
			strings.Join(hs, ", "), strings.Join(ns, ", "))
	}
}

func (pl *csvPlan) changedErr(what string) *engine.Error {
	return importErr("%s changed while it was being imported: %s", pl.name, what).
		WithHint("import it again once nothing is writing to it")
}

// looksLikeHeader decides whether the first record is a header, from its
// cells and the inferrers of the records after it (rows of them):
//   - a typed column (numbers, dates, yes/no) whose first cell is not of
//     its type means a header;
//   - typed columns whose first cells all fit mean data;
//   - with no typed column (text only, or no data rows), the first record
//     is a header when its cells are non-empty and unique, unless (with
//     no data rows) every cell is a number, date or yes/no value.
func looksLikeHeader(first []string, infs []*Inferrer, rows int64) bool {
	typed := false
	for j, s := range first {
		typ, _ := infs[j].Result()
		if typ == imports.TypeText {
			continue
		}
		typed = true
		if IsMissing(s) {
			continue
		}
		probe := *infs[j]
		probe.markers = nil
		probe.date.seen = append([]dateFormat(nil), probe.date.seen...)
		probe.Add(0, s)
		if t, _ := probe.Result(); t == imports.TypeText {
			return true
		}
	}
	if typed {
		return false
	}
	seen := map[string]bool{}
	allValues := true
	for _, s := range first {
		t := trimSpace(s)
		if t == "" || seen[strings.ToLower(t)] {
			return false
		}
		seen[strings.ToLower(t)] = true
		probe := NewInferrer()
		probe.Add(1, s)
		if typ, _ := probe.Result(); typ == imports.TypeText {
			allValues = false
		}
	}
	return rows > 0 || !allValues
}

// secondPass streams the converted rows: the file is parsed again with the
// same encoding, delimiter and record boundaries, and each value of the
// columns keep converted by its column's convs.
func (pl *csvPlan) secondPass(ctx context.Context, keep []int, convs []*cellConv, yield func(row []engine.Value) error) error {
	if err := ctx.Err(); err != nil {
		return engine.AsError(err)
	}
	f, err := os.Open(pl.path)
	if err != nil {
		return openErr(pl.name, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return openErr(pl.name, err)
	}
	if fi.Size() != pl.size {
		return pl.changedErr(fmt.Sprintf("its size went from %d to %d bytes", pl.size, fi.Size()))
	}
	if !fi.ModTime().Equal(pl.modTime) {
		return pl.changedErr("its modification time changed")
	}
	hr := &hashReader{r: f, h: sha256.New()}
	if _, err := io.CopyN(io.Discard, hr, int64(pl.enc.skip)); err != nil {
		return pl.changedErr("it is shorter")
	}
	p := newCSVParser(newTextReader(hr, pl.enc.enc), pl.delim)
	ncols := pl.ncols
	width := len(keep)
	const chunkRows = 256
	var chunk []engine.Value // rows are cut from chunks (chunkBytes)
	chunkUsed := 0
	seenFirst := false
	var rows int64
	for {
		fields, err := p.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *parseError
			if errors.As(err, &pe) && pe.kind == "read" {
				return pl.parseErr(err, nil)
			}
			return pl.changedErr(pl.parseErr(err, nil).Message)
		}
		if blankRecord(p, fields, seenFirst, ncols) {
			continue
		}
		if !seenFirst {
			if pl.cfg.headerLine > 0 && p.recLine < pl.cfg.headerLine {
				continue
			}
			seenFirst = true
			if len(fields) != ncols {
				return pl.changedErr("its first row is different")
			}
			if pl.header {
				continue
			}
		}
		fields, _, ferr := pl.fitRecord(fields, p.recLine)
		if ferr != nil {
			return pl.changedErr(ferr.Message)
		}
		rows++
		if rows > pl.rows {
			return pl.changedErr("it has more rows")
		}
		if len(chunk) < width {
			chunk = make([]engine.Value, chunkRows*max(width, 1))
		}
		row := chunk[:width:width]
		chunk = chunk[width:]
		for k, j := range keep {
			fb := fields[j]
			if fb == nil {
				row[k] = nil
				continue // padding: NULL
			}
			c := convs[k]
			v, ok := c.cv.convert(unsafeString(fb))
			if !ok {
				if !c.nullBad {
					return pl.changedErr(fmt.Sprintf("line %d, column %s holds %q, which is not %s like the rest of the column",
						p.lineOf(j), pl.colName[j], shown(unsafeString(fb)), c.cv.typ))
				}
				c.bad.add(p.lineOf(j), unsafeString(fb), whyNot{})
			}
			row[k] = v
		}
		if chunkUsed += rowValueBytes(row); chunkUsed > chunkBytes {
			chunk, chunkUsed = nil, 0 // the next row starts a new chunk
		}
		if err := yield(row); err != nil {
			return err
		}
		if rows%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return engine.AsError(err)
			}
		}
	}
	if rows != pl.rows {
		return pl.changedErr(fmt.Sprintf("it has %d rows instead of %d", rows, pl.rows))
	}
	if hr.n != pl.size || hex.EncodeToString(hr.h.Sum(nil)) != pl.sha {
		return pl.changedErr("its contents differ (sha256)")
	}
	return nil
}
