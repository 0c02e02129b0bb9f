package export

import (
	"bufio"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"math"
	"strconv"
	"unicode"
	"unicode/utf8"

	"querent/engine"
)

// csvWriter writes RFC 4180 CSV by hand: encoding/csv is slower and
// cannot tell NULL from empty text.
type csvWriter struct {
	w       *bufio.Writer
	delim   byte
	raw     bool
	scratch []byte
	blobs   []bool // columns already warned about
	warn    *warnings
	cols    []engine.Column
}

func newCSVWriter(w io.Writer, delim rune, raw bool, warn *warnings) *csvWriter {
	return &csvWriter{w: bufio.NewWriterSize(w, 256<<10), delim: byte(delim), raw: raw, warn: warn}
}

func (c *csvWriter) header(cols []engine.Column) error {
	c.cols = cols
	c.blobs = make([]bool, len(cols))
	b := c.scratch[:0]
	for j, col := range cols {
		if j > 0 {
			b = append(b, c.delim)
		}
		b = c.appendText(b, col.Name)
	}
	b = append(b, '\r', '\n')
	c.scratch = b
	_, err := c.w.Write(b)
	return err
}

func (c *csvWriter) row(vals []engine.Value) error {
	b := c.scratch[:0]
	for j, v := range vals {
		if j > 0 {
			b = append(b, c.delim)
		}
		switch x := v.(type) {
		case nil:
		case int64:
			b = strconv.AppendInt(b, x, 10)
		case float64:
			b = appendFloat(b, x)
		case string:
			if x == "" {
				b = append(b, '"', '"') // empty text, not NULL
			} else {
				b = c.appendText(b, x)
			}
		case []byte:
			if !c.blobs[j] {
				c.blobs[j] = true
				c.warn.add("column %s holds binary values (blobs): they are written as base64 text", c.cols[j].Name)
			}
			if len(x) == 0 {
				b = append(b, '"', '"')
				break
			}
			// Base64 never needs quoting, but may start with '+'.
			if !c.raw && x[0]>>2 == 62 { // the first sextet encodes '+'
				b = append(b, '\'')
			}
			b = base64.StdEncoding.AppendEncode(b, x)
		default:
			b = c.appendText(b, fmt.Sprint(x))
		}
	}
	b = append(b, '\r', '\n')
	c.scratch = b
	_, err := c.w.Write(b)
	return err
}

// appendText appends a text field: neutralised unless raw, quoted when it
// holds the delimiter, a quote, CR or LF.
func (c *csvWriter) appendText(b []byte, s string) []byte {
	prefix := !c.raw && neutralise(s)
	quote := false
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; ch {
		case '"', '\r', '\n':
			quote = true
		default:
			if ch == c.delim {
				quote = true
			}
		}
		if quote {
			break
		}
	}
	if !quote {
		if prefix {
			b = append(b, '\'')
		}
		return append(b, s...)
	}
	b = append(b, '"')
	if prefix {
		b = append(b, '\'')
	}
	for i := 0; i < len(s); i++ {
		if s[i] == '"' {
			b = append(b, '"')
		}
		b = append(b, s[i])
	}
	return append(b, '"')
}

// neutralise reports whether text could start a formula in a spreadsheet:
// its first character that is not blank (see blank) is = + - @, tab, CR or
// LF (OWASP's list, with LF), or a fullwidth ＝ ＋ － ＠ (which East Asian
// input converts to the ASCII signs), unless the text is one plain decimal
// number ("-5", " +3.25", "-1e-3": a spreadsheet reads those as the
// number, which runs nothing).
//
// Blanks count because spreadsheets strip them: LibreOffice 7.4, with
// "Trim spaces" ticked in its CSV import (an everyday option), evaluated
// the unquoted fields " =1+1" and "  =1+1" as formulas (2), while the same
// fields without the option, and every other prefix tried (BOM, zero-width
// space, fullwidth signs, NBSP, LF), stayed text; TestLibreOfficeReadsCSV
// keeps checking the first. The leading ' makes the field text in either
// case.
func neutralise(s string) bool {
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		switch r {
		case '=', '@', '\t', '\r', '\n', '＝', '＋', '－', '＠':
			return true
		case '+', '-':
			return !plainNumber(s[i+size:])
		}
		if !blank(r) {
			return false
		}
		i += size
	}
	return false
}

// blank reports characters a spreadsheet may strip before it reads a
// cell: white space (space, NBSP, the ideographic space, …) and the
// invisible byte-order mark and zero-width characters.
func blank(r rune) bool {
	switch r {
	case '\uFEFF', '\u200B', '\u200C', '\u200D', '\u2060':
		return true
	}
	return unicode.IsSpace(r)
}

// plainNumber reports digits with an optional fraction and exponent:
// 12, 12.5, .5, 1e-3.
func plainNumber(s string) bool {
	i, n := 0, len(s)
	start := i
	for i < n && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	intDigits := i - start
	fracDigits := 0
	if i < n && s[i] == '.' {
		i++
		f := i
		for i < n && '0' <= s[i] && s[i] <= '9' {
			i++
		}
		fracDigits = i - f
	}
	if intDigits+fracDigits == 0 {
		return false
	}
	if i < n && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < n && (s[i] == '+' || s[i] == '-') {
			i++
		}
		e := i
		for i < n && '0' <= s[i] && s[i] <= '9' {
			i++
		}
		if i == e {
			return false
		}
	}
	return i == n
}

// appendFloat appends x as engine.FormatFloat writes it (every digit, with
// a decimal point or exponent), ±Inf as Infinity/-Infinity and NaN (which
// SQLite never returns) as an empty field.
func appendFloat(b []byte, x float64) []byte {
	switch {
	case math.IsInf(x, 1):
		return append(b, "Infinity"...)
	case math.IsInf(x, -1):
		return append(b, "-Infinity"...)
	case math.IsNaN(x):
		return b
	}
	start := len(b)
	b = strconv.AppendFloat(b, x, 'g', -1, 64)
	for _, ch := range b[start:] {
		if ch == '.' || ch == 'e' || ch == 'E' {
			return b
		}
	}
	return append(b, '.', '0')
}

// writeCSV streams the result into w.
func writeCSV(ctx context.Context, db engine.Database, sql string, w io.Writer, opts Options, rep *Report, prog *progress) error {
	var warn warnings
	c := newCSVWriter(w, opts.Delimiter, opts.Raw, &warn)
	if opts.BOM {
		if _, err := c.w.WriteString("\uFEFF"); err != nil {
			return writeError(err)
		}
	}
	// Two goroutines: this one reads, the pipe's writes.
	write := func(vals []engine.Value) error {
		if err := c.row(vals); err != nil {
			return writeError(err)
		}
		return nil
	}
	info, err := streamPiped(ctx, db, sql, opts, prog,
		func(cols []engine.Column) (func([]engine.Value) error, error) {
			rep.Columns = append([]engine.Column(nil), cols...)
			if err := c.header(cols); err != nil {
				return nil, writeError(err)
			}
			return write, nil
		}, nil)
	if err != nil {
		return err
	}
	if err := c.w.Flush(); err != nil {
		return writeError(err)
	}
	rep.Rows = info.Rows
	rep.Truncated = info.Truncated
	for _, w := range info.Warnings {
		warn.add("%s", w)
	}
	if info.Truncated {
		warn.say(rowLimit(info.Rows))
	}
	rep.Warnings, rep.WarningWords = warn.list, warn.said
	return nil
}
