package ingest

import (
	"bytes"
	"io"
	"strings"
	"unicode/utf8"

	"querent/engine/words"

	"golang.org/x/text/encoding/charmap"
)

// textEncoding is the encoding a source is decoded from; every reader
// produces UTF-8.
type textEncoding int

const (
	encUTF8 textEncoding = iota
	encUTF16LE
	encUTF16BE
	encWindows1252
)

// width is about how many bytes of the file one byte of its text takes
// (for estimates).
func (e textEncoding) width() int {
	if e == encUTF16LE || e == encUTF16BE {
		return 2
	}
	return 1
}

func (e textEncoding) String() string {
	switch e {
	case encUTF16LE:
		return "UTF-16LE"
	case encUTF16BE:
		return "UTF-16BE"
	case encWindows1252:
		return "Windows-1252"
	default:
		return "UTF-8"
	}
}

// name is the encoding as layouts and plans name it: utf-8, utf-8-bom,
// utf-16le, utf-16be or windows-1252.
func (ch encodingChoice) name() string {
	switch ch.enc {
	case encUTF16LE:
		return "utf-16le"
	case encUTF16BE:
		return "utf-16be"
	case encWindows1252:
		return "windows-1252"
	}
	if ch.skip == 3 {
		return "utf-8-bom"
	}
	return "utf-8"
}

// sampleSize is how much of a file the encoding and delimiter guesses read.
const sampleSize = 1 << 20

// encodingChoice is what detectEncoding decided.
type encodingChoice struct {
	enc  textEncoding
	skip int // bytes of byte-order mark to skip
	// note is a warning for the user ("" when the choice needs none),
	// without the file-name prefix.
	note string
}

// normEncoding maps an Options.Encoding value to its canonical name, or ""
// when the value is unknown.
func normEncoding(s string) string {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "auto":
		return "auto"
	case "utf-8", "utf8", "utf-8-bom", "utf8-bom":
		return "utf-8"
	case "utf-16", "utf16":
		return "utf-16"
	case "utf-16le", "utf16le":
		return "utf-16le"
	case "utf-16be", "utf16be":
		return "utf-16be"
	case "windows-1252", "cp1252", "windows1252":
		return "windows-1252"
	}
	return ""
}

// detectEncoding chooses the encoding from the start of a file (sample; whole
// is true when the sample is the whole file) and the forced choice (a
// normEncoding name). It reports binaryWhat, a description of the file, when
// the sample is clearly not text.
func detectEncoding(sample []byte, whole bool, forced string) (ch encodingChoice, binaryWhat string) {
	hasUTF8BOM := bytes.HasPrefix(sample, []byte{0xEF, 0xBB, 0xBF})
	hasLE := bytes.HasPrefix(sample, []byte{0xFF, 0xFE})
	hasBE := bytes.HasPrefix(sample, []byte{0xFE, 0xFF})
	switch forced {
	case "utf-8":
		if hasUTF8BOM {
			return encodingChoice{enc: encUTF8, skip: 3}, ""
		}
		return encodingChoice{enc: encUTF8}, ""
	case "windows-1252":
		return encodingChoice{enc: encWindows1252}, ""
	case "utf-16le", "utf-16be":
		e, bom := encUTF16LE, hasLE
		if forced == "utf-16be" {
			e, bom = encUTF16BE, hasBE
		}
		if bom {
			return encodingChoice{enc: e, skip: 2}, ""
		}
		return encodingChoice{enc: e}, ""
	case "utf-16":
		switch {
		case hasLE:
			return encodingChoice{enc: encUTF16LE, skip: 2}, ""
		case hasBE:
			return encodingChoice{enc: encUTF16BE, skip: 2}, ""
		}
		if e, ok := guessUTF16(sample); ok {
			return encodingChoice{enc: e}, ""
		}
		return encodingChoice{enc: encUTF16LE, note: "no byte-order mark: read as UTF-16LE"}, ""
	}
	// auto
	switch {
	case hasUTF8BOM:
		return encodingChoice{enc: encUTF8, skip: 3}, ""
	case hasLE:
		return encodingChoice{enc: encUTF16LE, skip: 2}, ""
	case hasBE:
		return encodingChoice{enc: encUTF16BE, skip: 2}, ""
	}
	if what := binaryMagic(sample); what != "" {
		return encodingChoice{}, what
	}
	if e, ok := guessUTF16(sample); ok {
		return encodingChoice{enc: e, note: "no byte-order mark, but the bytes are UTF-16: read as " + e.String()}, ""
	}
	if bytes.IndexByte(sample, 0) >= 0 || controlHeavy(sample) {
		return encodingChoice{}, "binary data, not text"
	}
	check := sample
	if !whole {
		check = sample[:len(sample)-incompleteTail(sample)]
	}
	if utf8.Valid(check) {
		return encodingChoice{enc: encUTF8}, ""
	}
	if looksWindows1252(check) {
		return encodingChoice{enc: encWindows1252,
			// A note is a warning, text (in English) like every warning.
			note: words.English(words.New("import.read_as_1252", words.Encoding))}, ""
	}
	return encodingChoice{enc: encUTF8}, ""
}

// binaryMagic names well-known binary formats from their first bytes.
func binaryMagic(b []byte) string {
	switch {
	case bytes.HasPrefix(b, []byte("SQLite format 3\x00")):
		return "an SQLite database"
	case bytes.HasPrefix(b, []byte{0x1F, 0x8B}):
		return "a gzip-compressed file"
	case bytes.HasPrefix(b, []byte("%PDF")):
		return "a PDF document"
	case bytes.HasPrefix(b, []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}):
		return "a legacy Excel (.xls) or other Office binary file"
	case bytes.HasPrefix(b, []byte("\x89PNG")), bytes.HasPrefix(b, []byte{0xFF, 0xD8, 0xFF}),
		bytes.HasPrefix(b, []byte("GIF8")):
		return "an image"
	case bytes.HasPrefix(b, []byte("BZh")), bytes.HasPrefix(b, []byte{0xFD, '7', 'z', 'X', 'Z', 0}),
		bytes.HasPrefix(b, []byte{'7', 'z', 0xBC, 0xAF}), bytes.HasPrefix(b, []byte("Rar!")),
		bytes.HasPrefix(b, []byte{0x28, 0xB5, 0x2F, 0xFD}):
		return "a compressed archive"
	}
	return ""
}

// guessUTF16 recognises UTF-16 without a byte-order mark from the zero
// bytes of mostly-ASCII text: every other byte is zero.
func guessUTF16(b []byte) (textEncoding, bool) {
	n := min(len(b), 8192) &^ 1
	if n < 4 {
		return 0, false
	}
	var even, odd int
	for i := 0; i < n; i += 2 {
		if b[i] == 0 {
			even++
		}
		if b[i+1] == 0 {
			odd++
		}
	}
	pairs := n / 2
	switch {
	case odd*10 >= pairs*3 && even*20 <= pairs:
		return encUTF16LE, true
	case even*10 >= pairs*3 && odd*20 <= pairs:
		return encUTF16BE, true
	}
	return 0, false
}

// controlHeavy reports text whose control characters (other than tab, line
// ends, form feed and the DOS end-of-file mark) exceed 10%: binary data.
func controlHeavy(b []byte) bool {
	n := 0
	for _, c := range b {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v' && c != 0x1A {
			n++
		}
	}
	return n*10 > len(b)
}

// looksWindows1252 reports whether the bytes that are not valid UTF-8 look
// like Windows-1252 text: none of the five bytes that encoding leaves
// undefined, and more invalid bytes than valid multi-byte sequences (a UTF-8
// file with a stray bad byte stays UTF-8).
func looksWindows1252(b []byte) bool {
	invalid, multi := 0, 0
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			switch c {
			case 0x81, 0x8D, 0x8F, 0x90, 0x9D:
				return false
			}
			invalid++
		} else {
			multi++
		}
		i += size
	}
	return invalid > 0 && invalid >= multi
}

// incompleteTail returns how many bytes at the end of b start a UTF-8
// sequence that b cuts short (0 when b ends on a boundary).
func incompleteTail(b []byte) int {
	for k := 1; k <= 3 && k <= len(b); k++ {
		c := b[len(b)-k]
		if c < 0x80 {
			return 0
		}
		if c >= 0xC0 { // a lead byte
			if utf8.FullRune(b[len(b)-k:]) {
				return 0
			}
			return k
		}
	}
	return 0
}

// decodeStats is what a textReader found while decoding.
type decodeStats struct {
	out          int64 // decoded bytes produced so far
	invalid      int64 // bytes that were not valid in the encoding, replaced by U+FFFD
	firstInvalid int64 // decoded offset of the first replacement, -1 when none
	firstNUL     int64 // decoded offset of the first NUL byte, -1 when none
}

// textReader decodes a source into UTF-8, replacing every invalid byte with
// U+FFFD and counting it, and noting the first NUL byte. Decoding is the
// same in both passes, so offsets and record boundaries agree.
type textReader struct {
	src    io.Reader
	enc    textEncoding
	raw    []byte
	rs, re int
	srcEOF bool
	srcErr error
	// checked: raw[rs:validEnd] is known valid UTF-8 (when validEnd is
	// short of the decodable end, an invalid byte is at validEnd or after).
	validEnd int
	checked  bool
	pend     []byte // bytes decoded but not yet returned
	st       decodeStats
}

var win1252 = func() (t [256]string) {
	for i := range 256 {
		r := charmap.Windows1252.DecodeByte(byte(i))
		t[i] = string(r)
	}
	return t
}()

func newTextReader(src io.Reader, enc textEncoding) *textReader {
	return &textReader{src: src, enc: enc, raw: make([]byte, 256<<10), st: decodeStats{firstInvalid: -1, firstNUL: -1}}
}

func (t *textReader) stats() *decodeStats { return &t.st }

// Read fills p with decoded UTF-8.
func (t *textReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	var n int
	var err error
	switch {
	case len(t.pend) > 0:
		n = copy(p, t.pend)
		t.pend = t.pend[n:]
	case t.enc == encUTF16LE || t.enc == encUTF16BE:
		n, err = t.readUTF16(p)
	case t.enc == encWindows1252:
		n, err = t.read1252(p)
	default:
		n, err = t.readUTF8(p)
	}
	if n > 0 {
		if t.st.firstNUL < 0 {
			if k := bytes.IndexByte(p[:n], 0); k >= 0 {
				t.st.firstNUL = t.st.out + int64(k)
			}
		}
		t.st.out += int64(n)
	}
	return n, err
}

// fillRaw reads more source bytes behind the unread ones; it returns false
// at the end of the source.
func (t *textReader) fillRaw() bool {
	if t.srcEOF {
		return false
	}
	if t.rs > 0 {
		copy(t.raw, t.raw[t.rs:t.re])
		t.re -= t.rs
		t.rs = 0
	}
	for range 100 {
		n, err := t.src.Read(t.raw[t.re:])
		t.re += n
		if err != nil {
			t.srcEOF = true
			if err != io.EOF {
				t.srcErr = err
			}
			return n > 0
		}
		if n > 0 {
			return true
		}
	}
	t.srcEOF, t.srcErr = true, io.ErrNoProgress
	return false
}

func (t *textReader) endErr() error {
	if t.srcErr != nil {
		return t.srcErr
	}
	return io.EOF
}

func (t *textReader) readUTF8(p []byte) (int, error) {
	for {
		// Decodable: the unread bytes, less an incomplete sequence at the
		// end while more bytes may complete it.
		end := t.re
		if !t.srcEOF {
			end -= incompleteTail(t.raw[t.rs:t.re])
		}
		if t.rs >= end {
			if t.srcEOF {
				return 0, t.endErr()
			}
			t.fillRaw()
			t.checked = false
			continue
		}
		if !t.checked {
			t.checked = true
			t.validEnd = end
			if !utf8.Valid(t.raw[t.rs:end]) {
				t.validEnd = t.rs
			}
		}
		if t.rs < t.validEnd {
			n := copy(p, t.raw[t.rs:t.validEnd])
			t.rs += n
			return n, nil
		}
		// raw[rs:end] holds an invalid byte: find the next one; everything
		// before it is valid.
		i := t.rs
		for i < end {
			if t.raw[i] < utf8.RuneSelf {
				i++
				continue
			}
			r, size := utf8.DecodeRune(t.raw[i:end])
			if r == utf8.RuneError && size == 1 {
				break
			}
			i += size
		}
		if i > t.rs {
			t.validEnd = i
			continue
		}
		t.noteInvalid(t.st.out)
		t.rs++
		t.validEnd = t.rs
		return t.emit(p, "\uFFFD"), nil
	}
}

func (t *textReader) noteInvalid(off int64) {
	t.st.invalid++
	if t.st.firstInvalid < 0 {
		t.st.firstInvalid = off
	}
}

// emit copies s into p, keeping what does not fit for the next Read.
func (t *textReader) emit(p []byte, s string) int {
	n := copy(p, s)
	if n < len(s) {
		t.pend = append(t.pend[:0], s[n:]...)
	}
	return n
}

// readUTF16 decodes UTF-16 code units; an unpaired surrogate (or an odd
// last byte) is invalid: replaced by U+FFFD and counted.
func (t *textReader) readUTF16(p []byte) (int, error) {
	if len(p) < utf8.UTFMax {
		// Too small for every character: decode one and keep the rest.
		var tmp [utf8.UTFMax]byte
		n, err := t.readUTF16(tmp[:])
		if n == 0 {
			return 0, err
		}
		return t.emit(p, string(tmp[:n])), nil
	}
	unit := func(i int) rune {
		if t.enc == encUTF16BE {
			return rune(t.raw[i])<<8 | rune(t.raw[i+1])
		}
		return rune(t.raw[i+1])<<8 | rune(t.raw[i])
	}
	n := 0
	for n+utf8.UTFMax <= len(p) {
		avail := t.re - t.rs
		if avail < 4 && !t.srcEOF {
			if n > 0 {
				break // return what is decoded before reading more
			}
			t.fillRaw()
			continue
		}
		if avail == 0 {
			break
		}
		if avail == 1 { // an odd last byte
			t.noteInvalid(t.st.out + int64(n))
			t.rs++
			n += copy(p[n:], "\uFFFD")
			continue
		}
		u := unit(t.rs)
		switch {
		case u < 0x80:
			p[n] = byte(u)
			n++
			t.rs += 2
			continue
		case u < 0xD800 || u > 0xDFFF:
			n += utf8.EncodeRune(p[n:], u)
			t.rs += 2
			continue
		case u <= 0xDBFF && avail >= 4:
			if u2 := unit(t.rs + 2); u2 >= 0xDC00 && u2 <= 0xDFFF {
				n += utf8.EncodeRune(p[n:], 0x10000+(u-0xD800)<<10+(u2-0xDC00))
				t.rs += 4
				continue
			}
		}
		t.noteInvalid(t.st.out + int64(n))
		t.rs += 2
		n += copy(p[n:], "\uFFFD")
	}
	if n == 0 {
		return 0, t.endErr()
	}
	return n, nil
}

func (t *textReader) read1252(p []byte) (int, error) {
	if t.rs >= t.re {
		if !t.fillRaw() {
			return 0, t.endErr()
		}
	}
	n := 0
	for t.rs < t.re && n < len(p) {
		c := t.raw[t.rs]
		if c < utf8.RuneSelf {
			// Copy the ASCII run.
			j := t.rs
			for j < t.re && t.raw[j] < utf8.RuneSelf && n+(j-t.rs) < len(p) {
				j++
			}
			n += copy(p[n:], t.raw[t.rs:j])
			t.rs = j
			continue
		}
		s := win1252[c]
		if s == "\uFFFD" {
			t.noteInvalid(t.st.out + int64(n))
		}
		if n+len(s) > len(p) {
			if n > 0 {
				break
			}
			t.rs++
			return t.emit(p, s), nil
		}
		n += copy(p[n:], s)
		t.rs++
	}
	return n, nil
}

// decodeAll decodes a whole sample (for sniffing the delimiter).
func decodeAll(b []byte, enc textEncoding) []byte {
	if enc == encUTF8 && utf8.Valid(b) {
		return b
	}
	out, _ := io.ReadAll(newTextReader(bytes.NewReader(b), enc))
	return out
}
