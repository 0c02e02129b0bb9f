package ingest

import (
	"bytes"
	"fmt"
	"io"
)

// parseBufSize is the CSV parser's read size; its limits on values and
// records (maxFieldBytes, maxRecordBytes) are the readers' shared bounds
// (limits.go).
const parseBufSize = 1 << 20

// parseError is a CSV syntax or limit error; Read turns it into an
// engine.Error naming the file (and the column's header).
type parseError struct {
	kind   string // "unterminated", "field", "record", "read"
	line   int64  // 1-based line where the problem starts
	column int    // 1-based column, 0 when not about one column
	quoted bool   // the field too long is quoted (a closing quote may be missing)
	err    error  // the read error, for kind "read"
}

func (e *parseError) Error() string {
	switch e.kind {
	case "unterminated":
		return fmt.Sprintf("line %d: a quoted field starts here and never ends", e.line)
	case "field":
		return fmt.Sprintf("line %d, column %d: a value longer than 10 MB", e.line, e.column)
	case "record":
		return fmt.Sprintf("line %d: a row longer than 64 MB", e.line)
	default:
		return fmt.Sprintf("read error near line %d: %v", e.line, e.err)
	}
}

// csvParser is a byte-level RFC 4180 parser over decoded (UTF-8) text:
// quoted fields with "" escapes and embedded line breaks (kept byte for
// byte, CRLF included), CR, LF and CRLF record ends, stray quotes inside
// unquoted fields kept literally, and text after a closing quote appended to
// the field (as Python's csv module does). It tracks the 1-based physical
// line of every record; a line break is LF, CRLF or a lone CR, inside quotes
// or not.
//
// Fields returned by next alias the parser's buffer and are valid until the
// next call. The buffer holds one record at a time (1 MB, growing only for a
// record that does not fit), so memory stays bounded whatever the file size.
type csvParser struct {
	r     io.Reader
	delim byte

	buf  []byte
	pos  int   // start of the unparsed bytes
	end  int   // end of the bytes read
	eof  bool  // r is exhausted: buf[pos:end] is the rest of the stream
	base int64 // stream offset of buf[0]
	rerr error

	// The next '\n' at or after nlFrom is at nlAt (-1: none before nlTo).
	nlAt, nlFrom, nlTo int

	line int64 // line of the next record

	fields    [][]byte
	fieldLine []int64 // per-field start lines, for records over several lines
	multiLine bool    // the last record spans several lines

	// Per record: its start line, whether it is blank (no bytes at all
	// before its line end) and whether its first field was quoted.
	recLine   int64
	recBlank  bool
	recQuoted bool
	spanS     int // buf[spanS:spanE] holds the record's fields (until the next call)
	spanE     int
	recStart  int64 // stream offsets of the record's first byte
	recEnd    int64 // and of the byte after its line end

	// stats, when set, are the decoder's: the parser finds the lines of
	// its first invalid byte and first NUL byte (0 until found).
	stats            *decodeStats
	invLine, nulLine int64
}

func newCSVParser(r io.Reader, delim byte) *csvParser {
	return &csvParser{r: r, delim: delim, buf: make([]byte, parseBufSize), line: 1, nlAt: -1}
}

// fill makes room and reads more bytes after buf[pos:end], keeping the
// unparsed bytes; it grows the buffer when a record fills it.
func (p *csvParser) fill() error {
	if p.eof {
		return nil
	}
	if p.pos > 0 {
		n := copy(p.buf, p.buf[p.pos:p.end])
		p.base += int64(p.pos)
		if p.nlAt >= 0 && p.nlAt < p.pos {
			p.nlAt, p.nlFrom, p.nlTo = -1, 0, 0 // forget: nothing known
		} else {
			if p.nlAt >= 0 {
				p.nlAt -= p.pos
			}
			p.nlFrom = max(p.nlFrom-p.pos, 0)
			p.nlTo = max(p.nlTo-p.pos, 0)
		}
		p.end = n
		p.pos = 0
	}
	if p.end == len(p.buf) {
		if len(p.buf) >= maxRecordBytes+parseBufSize {
			return &parseError{kind: "record", line: p.line}
		}
		nb := make([]byte, min(2*len(p.buf), maxRecordBytes+parseBufSize))
		copy(nb, p.buf[:p.end])
		p.buf = nb
	}
	for p.end < len(p.buf) {
		n, err := p.r.Read(p.buf[p.end:])
		p.end += n
		if err == io.EOF {
			p.eof = true
			break
		}
		if err != nil {
			p.eof = true
			p.rerr = err
			return &parseError{kind: "read", line: p.line, err: err}
		}
	}
	return nil
}

// findNL returns the index of the first '\n' at or after s, or -1 when
// there is none before p.end; it remembers what it searched.
func (p *csvParser) findNL(s int) int {
	if p.nlAt >= s && s >= p.nlFrom {
		return p.nlAt
	}
	from := s
	if p.nlAt < 0 && s >= p.nlFrom && s <= p.nlTo {
		from = p.nlTo // [s, nlTo) holds no '\n'
	}
	k := bytes.IndexByte(p.buf[from:p.end], '\n')
	p.nlFrom, p.nlTo = s, p.end
	if k < 0 {
		p.nlAt = -1
		return -1
	}
	p.nlAt = from + k
	return p.nlAt
}

// scanResult is where scan found a record to end.
type scanResult struct {
	cend   int  // end of the record's content (its line end excluded)
	next   int  // start of the next record
	lines  int  // line breaks inside quoted fields
	quoted bool // the record holds a quote at a field start: split slowly
}

// next returns the next record's fields, or io.EOF after the last.
func (p *csvParser) next() ([][]byte, error) {
	for {
		if p.pos >= p.end && p.eof {
			if p.rerr != nil {
				return nil, &parseError{kind: "read", line: p.line, err: p.rerr}
			}
			return nil, io.EOF
		}
		res, ok, err := p.scan()
		if err != nil {
			return nil, err
		}
		if !ok {
			if p.eof { // cannot happen: at the end every record ends
				return nil, &parseError{kind: "read", line: p.line, err: io.ErrUnexpectedEOF}
			}
			if err := p.fill(); err != nil {
				return nil, err
			}
			continue
		}
		s := p.pos
		p.recLine = p.line
		p.recStart = p.base + int64(s)
		p.recEnd = p.base + int64(res.next)
		p.recBlank = res.cend == s
		p.spanS, p.spanE = s, res.cend
		p.recQuoted = s < res.cend && p.buf[s] == '"'
		if st := p.stats; st != nil {
			if p.invLine == 0 && st.firstInvalid >= 0 && st.firstInvalid < p.recEnd {
				p.invLine = p.lineAt(s, st.firstInvalid)
			}
			if p.nulLine == 0 && st.firstNUL >= 0 && st.firstNUL < p.recEnd {
				p.nulLine = p.lineAt(s, st.firstNUL)
			}
		}
		p.multiLine = res.lines > 0
		if res.quoted {
			p.splitQuoted(s, res.cend)
		} else {
			p.splitPlain(s, res.cend)
		}
		p.line += int64(res.lines) + 1
		p.pos = res.next
		return p.fields, nil
	}
}

// scan finds the end of the record at p.pos; ok is false when more bytes
// are needed.
func (p *csvParser) scan() (res scanResult, ok bool, err error) {
	s := p.pos
	buf := p.buf[:p.end]
	// Fast path: a line with no quote and no lone CR.
	if nl := p.findNL(s); nl >= 0 {
		seg := buf[s:nl]
		cr := bytes.IndexByte(seg, '\r')
		if cr < 0 || cr == len(seg)-1 {
			if bytes.IndexByte(seg, '"') < 0 {
				if len(seg) > maxFieldBytes {
					if err := p.checkPlainFields(s, s+len(seg)); err != nil {
						return res, false, err
					}
				}
				cend := nl
				if cr >= 0 {
					cend = nl - 1
				}
				return scanResult{cend: cend, next: nl + 1}, true, nil
			}
		}
	}
	return p.scanSlow(s)
}

// scanSlow walks the record byte by byte (quoted fields by IndexByte).
func (p *csvParser) scanSlow(s int) (res scanResult, ok bool, err error) {
	buf := p.buf[:p.end]
	end := p.end
	delim := p.delim
	i := s
	column := 1
	fieldStart := s
	for {
		// At the start of a field.
		if i >= end {
			if !p.eof {
				return res, false, p.checkSize(s, fieldStart, column, res.lines)
			}
			res.cend, res.next = end, end
			return res, true, nil
		}
		if buf[i] == '"' {
			res.quoted = true
			j := i + 1
			for {
				k := bytes.IndexByte(buf[j:end], '"')
				if k < 0 {
					if p.eof {
						return res, false, &parseError{kind: "unterminated", line: p.line + int64(res.lines)}
					}
					return res, false, p.checkSize(s, fieldStart, column, res.lines)
				}
				q := j + k
				if q+1 >= end && !p.eof {
					return res, false, p.checkSize(s, fieldStart, column, res.lines)
				}
				if q+1 < end && buf[q+1] == '"' {
					j = q + 2
					continue
				}
				res.lines += countBreaks(buf[i+1 : q])
				i = q + 1
				break
			}
		}
		// The unquoted field, or what follows a closing quote.
		for i < end {
			c := buf[i]
			if c == delim || c == '\n' || c == '\r' {
				break
			}
			i++
		}
		if n := i - fieldStart; n > maxFieldBytes && (buf[fieldStart] != '"' || n-2 > maxFieldBytes) {
			return res, false, &parseError{kind: "field", line: p.line + int64(countBreaks(buf[s:fieldStart])),
				column: column, quoted: buf[fieldStart] == '"'}
		}
		if i >= end {
			if !p.eof {
				return res, false, p.checkSize(s, fieldStart, column, res.lines)
			}
			res.cend, res.next = end, end
			return res, true, nil
		}
		switch buf[i] {
		case '\n':
			res.cend, res.next = i, i+1
			return res, true, nil
		case '\r':
			switch {
			case i+1 < end:
				res.cend, res.next = i, i+1
				if buf[i+1] == '\n' {
					res.next = i + 2
				}
				return res, true, nil
			case p.eof:
				res.cend, res.next = i, i+1
				return res, true, nil
			}
			return res, false, p.checkSize(s, fieldStart, column, res.lines)
		}
		// A delimiter.
		i++
		column++
		fieldStart = i
	}
}

// checkSize refuses a field or record that is already too long while more
// bytes are needed to end it, so the buffer never grows much past the limit.
func (p *csvParser) checkSize(s, fieldStart, column, lines int) error {
	if p.end-fieldStart > maxFieldBytes+1 {
		return &parseError{kind: "field", line: p.line + int64(countBreaks(p.buf[s:fieldStart])),
			column: column, quoted: p.buf[fieldStart] == '"'}
	}
	if p.end-s > maxRecordBytes {
		return &parseError{kind: "record", line: p.line}
	}
	return nil
}

// checkPlainFields refuses an unquoted field over the limit on a long line.
func (p *csvParser) checkPlainFields(s, e int) error {
	column := 1
	for s <= e {
		k := bytes.IndexByte(p.buf[s:e], p.delim)
		if k < 0 {
			k = e - s
		}
		if k > maxFieldBytes {
			return &parseError{kind: "field", line: p.line, column: column}
		}
		s += k + 1
		column++
	}
	return nil
}

// countBreaks counts the line breaks in b: LF, CRLF and lone CR, a CR at
// the end of b counting as lone.
func countBreaks(b []byte) int {
	n := bytes.Count(b, []byte{'\n'})
	if bytes.IndexByte(b, '\r') < 0 {
		return n
	}
	for i, c := range b {
		if c == '\r' && (i+1 == len(b) || b[i+1] != '\n') {
			n++
		}
	}
	return n
}

// splitPlain splits buf[s:e], which holds no quote, at the delimiter.
func (p *csvParser) splitPlain(s, e int) {
	f := p.fields[:0]
	line := p.buf[s:e]
	d := p.delim
	for {
		k := bytes.IndexByte(line, d)
		if k < 0 {
			f = append(f, line)
			break
		}
		f = append(f, line[:k:k])
		line = line[k+1:]
	}
	p.fields = f
}

// splitQuoted splits buf[s:e] into fields, unquoting quoted fields in place
// ("" → ") and noting each field's start line when the record spans lines.
func (p *csvParser) splitQuoted(s, e int) {
	f := p.fields[:0]
	fl := p.fieldLine[:0]
	buf := p.buf
	d := p.delim
	line := p.recLine
	i := s
	for {
		if p.multiLine {
			fl = append(fl, line)
		}
		start := i
		w := i // write position
		if i < e && buf[i] == '"' {
			i++
			for {
				k := bytes.IndexByte(buf[i:e], '"')
				if k < 0 { // cannot happen: scan saw the closing quote
					k = e - i
				}
				if p.multiLine {
					line += int64(countBreaks(buf[i : i+k]))
				}
				w += copy(buf[w:], buf[i:i+k])
				i += k + 1
				if i < e && buf[i] == '"' {
					buf[w] = '"'
					w++
					i++
					continue
				}
				break
			}
		}
		// Unquoted part: up to the delimiter, kept literally.
		k := bytes.IndexByte(buf[i:e], d)
		if k < 0 {
			k = e - i
		}
		if w != i {
			w += copy(buf[w:], buf[i:i+k])
		} else {
			w += k
		}
		i += k
		f = append(f, buf[start:w:w])
		if i >= e {
			break
		}
		i++ // the delimiter
	}
	p.fields = f
	p.fieldLine = fl
}

// lineAt returns the line of stream offset off in the record at buf[s:].
func (p *csvParser) lineAt(s int, off int64) int64 {
	k := int(off - p.base)
	if k < s {
		return p.recLine
	}
	return p.recLine + int64(countBreaks(p.buf[s:k]))
}

// lineOf returns the start line of field j of the last record.
func (p *csvParser) lineOf(j int) int64 {
	if p.multiLine && j < len(p.fieldLine) {
		return p.fieldLine[j]
	}
	return p.recLine
}
