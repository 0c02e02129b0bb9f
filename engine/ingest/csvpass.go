package ingest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"querent/engine"
	"querent/engine/imports"
	"querent/engine/words"
)

// The CSV reader's two passes: the first learns everything but the values
// (the encoding, the delimiter, the header, the columns' types, the
// file's hash), the second streams the converted rows and checks that the
// file is still the one the first pass read.

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
		return e.SayHint(words.New("import.open_directly", words.SQL.With(words.DB.With(pl.path))))
	case strings.Contains(what, "compressed"):
		return e.WithHint("decompress it first, then import the CSV inside")
	case strings.Contains(what, ".xls"):
		return e.WithHint("save it as .xlsx or CSV and import that")
	}
	return e.SayHint(words.New("import.csv_or_xlsx", utf16NoBOM))
}

// utf16NoBOM is the way on for a UTF-16 file that detection cannot tell
// (one without a byte-order mark reads as binary data).
var utf16NoBOM = words.New("import.utf16_no_bom", words.Encoding.With("utf-16"))

// firstPass reads the whole file once (or its start, for a sample):
// everything but the values.
func (pl *csvPlan) firstPass(ctx context.Context, f *os.File) (*Source, error) {
	hr := &hashReader{r: f, h: sha256.New()}
	dec, err := pl.openText(hr)
	if err != nil {
		return nil, err
	}
	p := newCSVParser(dec, pl.delim)
	p.stats = dec.stats()
	prog := &progress{fn: pl.opts.Progress, src: pl.name, total: pl.size}
	prog.report(0, 0, true)

	infs, sc := pl.inferRecords(ctx, p, hr, prog)
	if sc.err != nil {
		return nil, sc.err
	}
	if sc.first == nil {
		return nil, pl.noRecordErr(sc.above)
	}
	if infs == nil {
		infs = newInferrers(pl.ncols)
	}
	if err := ctx.Err(); err != nil {
		return nil, engine.AsError(err)
	}

	chosen := pl.chooseHeader(sc.first, infs, sc.records)
	var warnings []string
	warn := func(format string, args ...any) {
		warnings = append(warnings, pl.name+": "+fmt.Sprintf(format, args...))
	}
	pl.warnDecoding(sc, dec.stats(), warn)
	names, rows, head := pl.nameColumns(sc, infs, warn)
	warnReshaped(sc, warn)

	src := &Source{
		Name: TableName(strings.TrimSuffix(pl.name, filepath.Ext(pl.name))),
		File: pl.name, Path: pl.path,
		Layout:   imports.Layout{Encoding: pl.enc.name(), Delimiter: delimiterName(pl.delim)},
		Chosen:   chosen,
		lineWord: "line", head: head.rows, headLines: head.lines,
	}
	if pl.header {
		src.Layout.HeaderRow = int(sc.firstLine)
	}
	pl.rows = rows
	if err := pl.countRows(src, sc, hr); err != nil {
		return nil, err
	}
	pl.colName = names
	src.cols = pl.columns(sc.first, names, infs)
	src.Warnings = warnings
	prog.report(pl.size, rows, true)
	return src, nil
}

// openText reads the start of the file, decides from it the encoding and
// the delimiter (pl.enc, pl.delim), and returns the file's text decoded:
// that start again, then the rest through hr.
func (pl *csvPlan) openText(hr *hashReader) (*textReader, error) {
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
	return newTextReader(io.MultiReader(bytes.NewReader(sample[ch.skip:]), hr), ch.enc), nil
}

// inferRecords adds the values of every record after the first to one
// Inferrer per column (nil when there is no such record). Parsing and
// inference overlap: a goroutine parses and checks the records
// (scanRecords) and hands them over in batches; this one infers the types.
func (pl *csvPlan) inferRecords(ctx context.Context, p *csvParser, hr *hashReader, prog *progress) ([]*Inferrer, *scanOutcome) {
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
			infs = newInferrers(pl.ncols)
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
	return infs, &sc
}

// newInferrers returns an Inferrer for each of n columns.
func newInferrers(n int) []*Inferrer {
	infs := make([]*Inferrer, n)
	for j := range infs {
		infs[j] = NewInferrer()
	}
	return infs
}

// noRecordErr is the error of a file without a record: none from the
// header row asked for on (above records skipped before it), or none at
// all.
func (pl *csvPlan) noRecordErr(above int64) *engine.Error {
	if above > 0 {
		return importErr("%s has nothing from line %d on: the header row asked for is past the end", pl.name, pl.cfg.headerLine).
			WithHint("choose a header row within the file (the preview shows the lines)")
	}
	return importErr("%s holds only blank lines or white space: no header and no data", pl.name).
		WithHint("choose a file with a header row and data rows")
}

// chooseHeader decides whether the first record is the header (pl.header):
// as the analyst asked, else as it looks. It returns the parts of the
// layout the analyst chose (Source.Chosen).
func (pl *csvPlan) chooseHeader(first []string, infs []*Inferrer, records int64) []string {
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
	return chosen
}

// warnDecoding says how the text was read: the encoding's note, the lines
// skipped above the header row asked for, the bytes that were not valid
// text, replaced.
func (pl *csvPlan) warnDecoding(sc *scanOutcome, st *decodeStats, warn func(string, ...any)) {
	if pl.enc.note != "" {
		warn("%s", pl.enc.note)
	}
	if sc.above > 0 {
		warn("%s above the header row (line %d) skipped", countNoun(sc.above, "line", "lines"), sc.firstLine)
	}
	if st.invalid == 0 {
		return
	}
	where := ""
	if line := sc.invLine; line > 0 {
		where = fmt.Sprintf(" (first on line %d)", line)
	}
	switch pl.enc.enc {
	case encWindows1252:
		warn("%s undefined in Windows-1252 replaced with U+FFFD%s", countNoun(st.invalid, "byte", "bytes"), where)
	case encUTF16LE, encUTF16BE:
		warn("%s not valid %s (unpaired surrogates, an odd last byte) replaced with U+FFFD%s",
			countNoun(st.invalid, "code unit", "code units"), pl.enc.enc, where)
	default:
		// The way on is said in parts, in English: a warning is text
		// (imports.Table.Warnings) until the imports carry sentences.
		warn("%s not valid UTF-8 replaced with U+FFFD%s; %s", countNoun(st.invalid, "byte", "bytes"), where,
			words.English(words.New("import.if_windows_1252", words.Encoding.With("windows-1252"))))
	}
}

// nameColumns names the columns from the header row, or column_1… when
// the file has none: its first record is then data, its values added to
// the Inferrers and its row first in the preview. It returns the names,
// the count of data rows and the preview's rows.
func (pl *csvPlan) nameColumns(sc *scanOutcome, infs []*Inferrer, warn func(string, ...any)) ([]string, int64, previewRows) {
	first := sc.first
	if pl.header {
		names := ColumnNames(first)
		pl.warnDuplicates(first, names, warn)
		if sc.records == 0 {
			warn("the file has a header row but no data rows")
		}
		return names, sc.records, sc.head
	}
	for j, s := range first {
		infs[j].Add(sc.firstLines[j], s)
	}
	names := ColumnNames(make([]string, len(first)))
	if pl.cfg.headerLine == 0 {
		warn("no header row: columns are named column_1…column_%d (the first line looks like data)", len(first))
	}
	var h previewRows
	h.add(sc.firstLine, len(first), func(j int) string { return first[j] })
	for i, r := range sc.head.rows {
		h.add(sc.head.lines[i], len(r), func(j int) string { return r[j] })
	}
	return names, sc.records + 1, h
}

// warnReshaped says which records were fitted to the columns or skipped:
// short rows padded, empty fields past the last column dropped, blank
// lines inside the data.
func warnReshaped(sc *scanOutcome, warn func(string, ...any)) {
	if sc.padded > 0 {
		warn("%s padded with NULL (first on line %d)", countNoun(sc.padded, "short row", "short rows"), sc.padLine)
	}
	if sc.trimmed > 0 {
		warn("%s had empty fields past the last column, dropped (first on line %d)", countNoun(sc.trimmed, "row", "rows"), sc.trimLine)
	}
	if sc.blanks > 0 {
		warn("%s skipped (first on line %d)", countNoun(sc.blanks, "blank line", "blank lines"), sc.blankLine)
	}
}

// countRows sets the source's rows (pl.rows): for a sample, estimated for
// the whole file from the share of it read; for the whole file, with its
// hash and its second pass, once its size is the one it had.
func (pl *csvPlan) countRows(src *Source, sc *scanOutcome, hr *hashReader) error {
	src.Rows, src.SampleRows = pl.rows, pl.rows
	if sc.sampled {
		src.Sampled = true
		// The rows of the whole file, from the share of it read.
		if read := float64(sc.consumed) * float64(pl.enc.enc.width()); read > 0 {
			src.Rows = max(pl.rows, int64(float64(pl.rows)*float64(pl.size-int64(pl.enc.skip))/read))
		}
		return nil
	}
	pl.sha = hex.EncodeToString(hr.h.Sum(nil))
	if hr.n != pl.size {
		return pl.changedErr("its size changed while it was read")
	}
	src.SHA256 = pl.sha
	src.stream = pl.secondPass
	return nil
}

// columns are the source's columns: each with its header (none without a
// header row), its name and its Inferrer; one with neither a header nor a
// value is empty.
func (pl *csvPlan) columns(first, names []string, infs []*Inferrer) []*srcColumn {
	cols := make([]*srcColumn, len(first))
	for j := range first {
		orig := ""
		if pl.header {
			orig = first[j]
		}
		inf := infs[j]
		cols[j] = &srcColumn{pos: j + 1, header: orig, original: orig, name: names[j], inf: inf,
			empty: trimSpace(orig) == "" && inf.n == inf.blank+inf.spacesN}
	}
	return cols
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
	f, hr, err := pl.reopen()
	if err != nil {
		return err
	}
	defer f.Close()
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
			return pl.changedErr(pl.parseErr(err, nil).Message).WithErr(err)
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
			return pl.changedErr(ferr.Message).WithErr(ferr)
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
		if err := pl.convertRow(p, fields, keep, convs, row); err != nil {
			return err
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

// reopen opens the file again for the second pass, once its size and
// modification time are those the first pass saw, and reads past its
// byte-order mark: the rest is read through the returned hashReader.
func (pl *csvPlan) reopen() (*os.File, *hashReader, error) {
	f, err := os.Open(pl.path)
	if err != nil {
		return nil, nil, openErr(pl.name, err)
	}
	fail := func(err error) (*os.File, *hashReader, error) {
		f.Close()
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		return fail(openErr(pl.name, err))
	}
	if fi.Size() != pl.size {
		return fail(pl.changedErr(fmt.Sprintf("its size went from %d to %d bytes", pl.size, fi.Size())))
	}
	if !fi.ModTime().Equal(pl.modTime) {
		return fail(pl.changedErr("its modification time changed"))
	}
	hr := &hashReader{r: f, h: sha256.New()}
	if _, err := io.CopyN(io.Discard, hr, int64(pl.enc.skip)); err != nil {
		return fail(pl.changedErr("it is shorter"))
	}
	return f, hr, nil
}

// convertRow converts the fields of the columns keep into row, each by
// its column's conv: padding is NULL, and a value that does not fit is
// NULL where the column stores such values as NULL (counted there), else
// the error that the file changed since the first pass.
func (pl *csvPlan) convertRow(p *csvParser, fields [][]byte, keep []int, convs []*cellConv, row []engine.Value) error {
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
				return pl.changedErr(fmt.Sprintf("line %d, column %s holds %s, which is not %s like the rest of the column",
					p.lineOf(j), pl.colName[j], words.English(words.Quoted(shown(unsafeString(fb)))), c.cv.typ))
			}
			c.bad.add(p.lineOf(j), unsafeString(fb), whyNot{})
		}
		row[k] = v
	}
	return nil
}
