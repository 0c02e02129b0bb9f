package ingest

import (
	"context"
	"io"
	"unsafe"

	"querent/engine"
	"querent/engine/words"
)

// The first pass's scan: a goroutine parses the records, checks them
// (blank lines, NUL bytes, the number of fields) and hands them to the
// inference in batches.

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
				SayHint(words.New("import.pad_short", words.Ragged.With("pad")))
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
			SayHint(words.New("import.pad_ragged", words.Ragged.With("pad")))
	}
	return fields[:pl.ncols], fitTrimmed, nil
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
	var pending blankRun // blank lines not yet known to be inside the data
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
				SayHint(words.New("import.export_csv", utf16NoBOM))
			return out
		}
		if blankRecord(p, fields, out.first != nil, pl.ncols) {
			if out.first != nil {
				pending.add(p.recLine)
			}
			continue
		}
		pending.inside(&out)
		if out.first == nil {
			if pl.cfg.headerLine > 0 && p.recLine < pl.cfg.headerLine {
				out.above++
			} else if err := pl.takeFirst(p, fields, &out); err != nil {
				out.err = err
				return out
			}
			continue
		}
		fields, fit, ferr := pl.fitRecord(fields, p.recLine)
		if ferr != nil {
			out.err = ferr
			return out
		}
		out.countFit(fit, p.recLine)
		if b == nil {
			b = reuseBatch(free)
		}
		b.add(p, fields)
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

// blankRun counts blank lines in a row, from line: they are inside the
// data once a record follows them (blank lines at the end are not).
type blankRun struct{ n, line int64 }

// add counts a blank line.
func (r *blankRun) add(line int64) {
	if r.n == 0 {
		r.line = line
	}
	r.n++
}

// inside counts the blank lines so far as inside the data, and starts a
// new run.
func (r *blankRun) inside(out *scanOutcome) {
	if r.n == 0 {
		return
	}
	if out.blanks == 0 {
		out.blankLine = r.line
	}
	out.blanks += r.n
	r.n = 0
}

// takeFirst keeps the first record (the header, or data), which sets the
// number of columns (pl.ncols).
func (pl *csvPlan) takeFirst(p *csvParser, fields [][]byte, out *scanOutcome) error {
	if len(fields) > MaxColumns {
		return importErr("%s has %d columns; an SQLite table holds at most %d", pl.name, len(fields), MaxColumns).
			WithHint("split the file or keep fewer columns")
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
	return nil
}

// countFit counts a record padded or trimmed to the columns, and the line
// of the first.
func (out *scanOutcome) countFit(fit rowFit, line int64) {
	switch fit {
	case fitPadded:
		if out.padded == 0 {
			out.padLine = line
		}
		out.padded++
	case fitTrimmed:
		if out.trimmed == 0 {
			out.trimLine = line
		}
		out.trimmed++
	}
}

// reuseBatch is an empty batch: one the inference is done with, else a
// new one.
func reuseBatch(free chan *recBatch) *recBatch {
	select {
	case b := <-free:
		b.data, b.se, b.lines, b.n = b.data[:0], b.se[:0], b.lines[:0], 0
		return b
	default:
		return &recBatch{}
	}
}

// add copies the record the parser holds into the batch: its bytes at
// once (the fields lie inside them), then each field's start, end and
// line.
func (b *recBatch) add(p *csvParser, fields [][]byte) {
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
}
