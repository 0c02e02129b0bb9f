package ingest

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/xuri/excelize/v2"

	"querent/engine"
)

// The XLSX scanner: each XML part that excelize parses is read once more
// as it inflates, by a small tokenizer that holds nothing but its buffer,
// and checked against the bounds before excelize builds anything from it.
// excelize decodes a cell, a shared string or a whole small part at once,
// and its XML decoder keeps any run of text, tag or comment whole in
// memory: a value of a gigabyte costs several gigabytes before any check
// could see it. The scanner measures those pieces instead of building
// them, so a hostile part is refused at the cost of reading it.
//
// Sizes are of the XML text (entities not decoded), an upper bound of the
// value excelize would build.

const (
	// maxDepth is the deepest nesting of XML elements accepted; Excel's
	// parts nest a dozen deep, and the decoder keeps a stack entry per level.
	maxDepth = 256
	// maxRow and maxCol are Excel's last row and column (XFD).
	maxRow = excelize.TotalRows
	maxCol = excelize.MaxColumns
	// tagKeep bytes of each tag are kept, enough for the names and the
	// r attribute of rows and cells.
	tagKeep = 256
)

// What a scan checks.
const (
	scanOther         = iota // a part parsed whole: elements, depth, tokens
	scanSheet                // a worksheet: also rows, cells, values
	scanSharedStrings        // the shared-string table: also each string
)

// Tokenizer states.
const (
	xsText    = iota
	xsTag     // after '<': a start or end tag, a declaration
	xsComment // <!-- … -->
	xsCDATA   // <![CDATA[ … ]]>
	xsPI      // <? … ?>
	xsBang    // after "<!", until it is known which
)

// partScan scans one part; its fields are the tokenizer's state, what the
// part held so far, and where in it the scan is (for messages).
type partScan struct {
	mode  int
	fail  func(format string, args ...any) *engine.Error // an error naming the file, part or sheet
	gate  *scanGate                                      // told of each row vetted (worksheets)
	state int
	quote byte
	tag   []byte // the current tag's first bytes
	tagN  int64  // its length
	last  byte   // its last byte before '>'
	tail  [2]byte
	runN  int64 // the current text run, comment or PI

	depth    int
	elements int64
	bytes    int64

	// worksheets
	row, rows    int64 // the current row's number; row elements
	cells        int   // cells in the row
	cellTag      []byte
	inRow, inC   bool
	inVal, inIS  bool // in <v>/<f>, in <is>
	inT          bool
	valN, rowN   int64 // the current value's text, the row's text
	items, itemN int64 // shared strings: how many, the current one's text
	itemAll      int64 // the current one's text with phonetic runs
	inSI, inRPh  bool
	maxItems     int64 // shared strings allowed (the index excelize keeps)
}

func newXLScan(mode int, fail func(string, ...any) *engine.Error) *partScan {
	return &partScan{mode: mode, fail: fail, tag: make([]byte, 0, tagKeep), maxItems: -1}
}

// scanPart inflates zf and scans it. An archive error (the data is
// longer or shorter than the directory says, its checksum differs) is
// returned as damaged: archive/zip stops at the declared size, so a part
// never inflates beyond what the directory's checks allowed.
func scanPart(ctx context.Context, zf *zip.File, sc *partScan, damaged func(error) *engine.Error) error {
	rc, err := zf.Open()
	if err != nil {
		return damaged(err)
	}
	defer rc.Close()
	buf := make([]byte, 128<<10)
	declared := int64(zf.UncompressedSize64)
	for k := 0; ; k++ {
		n, rerr := rc.Read(buf)
		sc.bytes += int64(n)
		if sc.bytes > declared { // archive/zip checks this too; the bound must not depend on it
			return damaged(zip.ErrFormat)
		}
		if n > 0 {
			if err := sc.feed(buf[:n]); err != nil {
				return err
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return damaged(rerr)
		}
		if k%16 == 0 {
			if err := ctx.Err(); err != nil {
				return engine.AsError(err)
			}
		}
	}
	if sc.bytes != declared {
		return damaged(io.ErrUnexpectedEOF)
	}
	return nil
}

// feed tokenizes p, carrying the state over to the next call.
func (s *partScan) feed(p []byte) error {
	i := 0
	for i < len(p) {
		switch s.state {
		case xsText:
			j := 0
			if p[i] != '<' { // tags mostly follow tags: no call for an empty run
				j = bytes.IndexByte(p[i:], '<')
			}
			if j < 0 {
				return s.text(int64(len(p) - i))
			}
			if j > 0 {
				if err := s.text(int64(j)); err != nil {
					return err
				}
			}
			i += j + 1
			s.runN = 0
			if s.mode == scanSheet && i+2 < len(p) {
				// Most of a sheet's tags are <v>, </v>, </c>, <t>, </t>:
				// taken here without the general path.
				if k, err := s.shortTag(p, i); k > 0 || err != nil {
					if err != nil {
						return err
					}
					i += k
					continue
				}
			}
			s.state, s.quote, s.tag, s.tagN = xsTag, 0, s.tag[:0], 0
		case xsTag:
			var err error
			if i, err = s.feedTag(p, i); err != nil {
				return err
			}
		case xsBang:
			var err error
			if i, err = s.feedBang(p, i); err != nil {
				return err
			}
		default:
			var err error
			if i, err = s.feedUntil(p, i); err != nil {
				return err
			}
		}
	}
	return nil
}

// feedTag reads a tag up to its '>' (outside quoted attribute values).
// The loop only looks for the end and the quotes; the tag's bytes are
// kept and counted a segment at a time.
func (s *partScan) feedTag(p []byte, i int) (int, error) {
	if s.tagN == 0 {
		switch p[i] {
		case '?':
			s.state, s.tail, s.runN = xsPI, [2]byte{}, 1
			return i + 1, nil
		case '!':
			s.state, s.tag, s.tagN = xsBang, append(s.tag, '!'), 1
			return i + 1, nil
		}
	}
	from := i
	ended := false
	q := s.quote
	for ; i < len(p); i++ { // attribute values are short: a plain loop beats IndexByte's calls
		c := p[i]
		if q != 0 {
			if c == q {
				q = 0
			}
			continue
		}
		if c == '>' {
			ended = true
			break
		}
		if c == '"' || c == '\'' {
			q = c
		}
	}
	s.quote = q
	if seg := p[from:i]; len(seg) > 0 {
		s.tagN += int64(len(seg))
		s.last = seg[len(seg)-1]
		if room := tagKeep - len(s.tag); room > 0 {
			s.tag = append(s.tag, seg[:min(room, len(seg))]...)
		}
		if s.tagN > maxFieldBytes {
			return i, s.fail("a tag longer than %s (at byte %s of the part)", engine.FormatSize(maxFieldBytes), engine.GroupThousands(s.bytes)).
				WithHint("the file is damaged or was not written by a spreadsheet program; open it in Excel and save it again")
		}
	}
	if ended {
		s.state = xsText
		return i + 1, s.tagDone()
	}
	return i, nil
}

// shortTag takes a tag of one letter without attributes ("v>", "/c>")
// at p[i:], returning its length after the '<' (0 when it is not one).
func (s *partScan) shortTag(p []byte, i int) (int, error) {
	a, b := p[i], p[i+1]
	if a == '/' {
		if p[i+2] != '>' {
			return 0, nil
		}
		switch b {
		case 'c':
			s.inC, s.inVal, s.inIS, s.inT = false, false, false, false
		case 'v', 'f':
			s.inVal = false
		case 't':
			s.inT = false
		default:
			return 0, nil
		}
		s.depth--
		return 3, nil
	}
	if b != '>' {
		return 0, nil
	}
	switch a {
	case 'v', 'f':
		if s.inC {
			s.inVal, s.valN = true, 0
		}
	case 't':
		s.inT = s.inIS
	default:
		return 0, nil
	}
	s.elements++
	if s.depth++; s.depth > maxDepth {
		return 2, s.fail("XML elements nested more than %d deep", maxDepth).
			WithHint("the file is damaged or was not written by a spreadsheet program; open it in Excel and save it again")
	}
	return 2, nil
}

// feedBang reads what follows "<!" a byte at a time until it is a comment
// ("<!--"), a CDATA section ("<![CDATA[") or neither: a declaration, read
// on as a tag.
func (s *partScan) feedBang(p []byte, i int) (int, error) {
	for i < len(p) {
		c := p[i]
		i++
		if c == '>' {
			s.state = xsText
			return i, s.tagDone()
		}
		s.tag = append(s.tag, c)
		s.tagN++
		s.last = c
		switch t := s.tag; {
		case string(t) == "!--":
			s.state, s.tail, s.runN = xsComment, [2]byte{}, 0
			return i, nil
		case string(t) == "![CDATA[":
			s.state, s.tail, s.runN = xsCDATA, [2]byte{}, 0
			return i, nil
		case strings.HasPrefix("!--", string(t)) || strings.HasPrefix("![CDATA[", string(t)):
			continue
		}
		if c == '"' || c == '\'' {
			s.quote = c
		}
		s.state = xsTag
		return i, nil
	}
	return i, nil
}

// feedUntil reads a comment, CDATA section or processing instruction up
// to its end; CDATA is text.
func (s *partScan) feedUntil(p []byte, i int) (int, error) {
	for i < len(p) {
		j := bytes.IndexByte(p[i:], '>')
		if j < 0 {
			n := len(p) - i
			s.tailOf(p[i:])
			return len(p), s.runBytes(int64(n))
		}
		k := i + j
		b1, b2 := s.tail[0], s.tail[1] // the two bytes before '>'
		switch {
		case j >= 2:
			b1, b2 = p[k-2], p[k-1]
		case j == 1:
			b1, b2 = s.tail[1], p[k-1]
		}
		end := false
		switch s.state {
		case xsComment:
			end = b1 == '-' && b2 == '-'
		case xsCDATA:
			end = b1 == ']' && b2 == ']'
		case xsPI:
			end = b2 == '?'
		}
		if err := s.runBytes(int64(j + 1)); err != nil {
			return k + 1, err
		}
		s.tailOf(p[i : k+1])
		i = k + 1
		if end {
			s.state = xsText
			return i, nil
		}
	}
	return i, nil
}

func (s *partScan) tailOf(b []byte) {
	switch len(b) {
	case 0:
	case 1:
		s.tail = [2]byte{s.tail[1], b[0]}
	default:
		s.tail = [2]byte{b[len(b)-2], b[len(b)-1]}
	}
}

// runBytes counts the bytes of a comment, PI or CDATA section.
func (s *partScan) runBytes(n int64) error {
	if s.state == xsCDATA {
		return s.text(n)
	}
	s.runN += n
	if s.runN > maxFieldBytes {
		return s.fail("a comment or instruction longer than %s (at byte %s of the part)", engine.FormatSize(maxFieldBytes), engine.GroupThousands(s.bytes)).
			WithHint("the file is damaged or was not written by a spreadsheet program; open it in Excel and save it again")
	}
	return nil
}

// localName is the tag's name without its namespace prefix.
func localName(tag []byte) []byte {
	end := len(tag)
	for k, c := range tag {
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '/' {
			end = k
			break
		}
	}
	name := tag[:end]
	if k := bytes.LastIndexByte(name, ':'); k >= 0 {
		name = name[k+1:]
	}
	return name
}

// attrR returns the value of the tag's r attribute ("" when absent or past
// the bytes kept).
func attrR(tag []byte) []byte {
	for k := 1; k+3 < len(tag); k++ {
		c := tag[k-1]
		if tag[k] != 'r' || (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
			continue
		}
		j := k + 1
		for j < len(tag) && (tag[j] == ' ' || tag[j] == '\t' || tag[j] == '\n' || tag[j] == '\r') {
			j++
		}
		if j >= len(tag) || tag[j] != '=' {
			continue
		}
		j++
		for j < len(tag) && (tag[j] == ' ' || tag[j] == '\t' || tag[j] == '\n' || tag[j] == '\r') {
			j++
		}
		if j >= len(tag) || (tag[j] != '"' && tag[j] != '\'') {
			continue
		}
		q := tag[j]
		end := bytes.IndexByte(tag[j+1:], q)
		if end < 0 {
			return nil
		}
		return tag[j+1 : j+1+end]
	}
	return nil
}

func (s *partScan) tagDone() error {
	tag := s.tag
	if len(tag) == 0 {
		return nil
	}
	switch tag[0] {
	case '/':
		s.depth--
		return s.end(localName(tag[1:]))
	case '!': // a declaration (DOCTYPE): counted as a tag, nothing else
		return nil
	}
	s.elements++
	selfClosing := s.last == '/'
	name := localName(tag)
	if !selfClosing {
		s.depth++
		if s.depth > maxDepth {
			return s.fail("XML elements nested more than %d deep", maxDepth).
				WithHint("the file is damaged or was not written by a spreadsheet program; open it in Excel and save it again")
		}
	}
	if err := s.start(name, tag); err != nil {
		return err
	}
	if selfClosing {
		return s.end(name)
	}
	return nil
}

func (s *partScan) start(name, tag []byte) error {
	switch s.mode {
	case scanSheet:
		switch string(name) {
		case "row":
			return s.startRow(tag)
		case "c":
			if s.inRow {
				return s.startCell(tag)
			}
		case "v", "f":
			if s.inC {
				s.inVal, s.valN = true, 0
			}
		case "is":
			if s.inC {
				s.inIS, s.valN = true, 0
			}
		case "t":
			s.inT = s.inIS
		}
	case scanSharedStrings:
		switch string(name) {
		case "si":
			s.items++
			if s.maxItems >= 0 && s.items > s.maxItems {
				return s.fail("the table of shared strings holds more than %s strings, too many to index within the memory ceiling",
					engine.GroupThousands(s.maxItems)).
					WithHint("split the workbook, or save the sheet as CSV and import that")
			}
			s.inSI, s.itemN, s.itemAll, s.inRPh = true, 0, 0, false
		case "rPh":
			s.inRPh = true
		case "t":
			s.inT = s.inSI
		}
	}
	return nil
}

func (s *partScan) end(name []byte) error {
	switch s.mode {
	case scanSheet:
		switch string(name) {
		case "row":
			s.inRow, s.inC, s.inVal, s.inIS, s.inT = false, false, false, false, false
		case "c":
			s.inC, s.inVal, s.inIS, s.inT = false, false, false, false
		case "v", "f":
			s.inVal = false
		case "is":
			s.inIS, s.inT = false, false
		case "t":
			s.inT = false
		}
	case scanSharedStrings:
		switch string(name) {
		case "si":
			s.inSI, s.inT = false, false
		case "rPh":
			s.inRPh = false
		case "t":
			s.inT = false
		}
	}
	return nil
}

func (s *partScan) startRow(tag []byte) error {
	s.rows++
	num := s.row + 1
	if r := attrR(tag); len(r) > 0 {
		n, ok := parseDigits(r)
		if !ok { // excelize reads what strconv reads ("+5")
			v, err := strconv.ParseInt(string(r), 10, 64)
			n, ok = v, err == nil
		}
		if !ok || n < 1 {
			return s.fail("a row is numbered %q", shown(string(r))).
				WithHint("the file is damaged; open it in Excel and save it again as .xlsx")
		}
		if n <= s.row {
			// excelize would merge such a row's cells into the row before
			// it; the format requires rows in order.
			return s.fail("row %d comes after row %d: the rows are out of order", n, s.row).
				WithHint("open the file in Excel and save it again as .xlsx")
		}
		num = n
	}
	if num > maxRow || s.rows > maxRow {
		return s.fail("row %s is past Excel's last row (1,048,576)", engine.GroupThousands(max(num, s.rows))).
			WithHint("the sheet was not written by Excel; export the data as CSV from the program that made it and import that")
	}
	s.row, s.inRow, s.cells, s.rowN = num, true, 0, 0
	if s.gate != nil {
		s.gate.vet(num)
	}
	return nil
}

func (s *partScan) startCell(tag []byte) error {
	s.cells++
	s.inC, s.inVal, s.inIS, s.inT, s.valN = true, false, false, false, 0
	// The reference is only for messages: the tag is kept, read if needed.
	s.cellTag = append(s.cellTag[:0], tag...)
	if s.cells > maxCol {
		return s.fail("row %d has more cells than Excel's 16,384 columns", s.row).
			WithHint("the sheet was not written by Excel; export the data as CSV from the program that made it and import that")
	}
	return nil
}

// parseDigits reads a number of decimal digits only.
func parseDigits(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}

// ref names the current cell: its reference, or its place in the row.
func (s *partScan) ref() string {
	if r := attrR(s.cellTag); len(r) > 0 {
		return string(r)
	}
	return "number " + strconv.Itoa(s.cells) + " of row " + strconv.FormatInt(s.row, 10)
}

// text counts n bytes of character data.
func (s *partScan) text(n int64) error {
	s.runN += n
	switch s.mode {
	case scanSheet:
		if s.inRow {
			s.rowN += n
			if s.rowN > maxRecordBytes {
				return s.fail("row %d holds more than %s of text", s.row, engine.FormatSize(maxRecordBytes)).
					WithHint("Querent reads rows up to 64 MB; shorten or remove the long values in Excel, save a copy and import that")
			}
		}
		if s.inC && (s.inVal || s.inT) {
			s.valN += n
			if s.valN > maxFieldBytes {
				return s.fail("cell %s holds a value longer than %s", s.ref(), engine.FormatSize(maxFieldBytes)).
					WithHint("Querent reads values up to 10 MB; shorten or delete that cell in Excel, save a copy and import that")
			}
			return nil
		}
	case scanSharedStrings:
		if s.inSI {
			s.itemAll += n
			if s.inT && !s.inRPh {
				s.itemN += n
			}
			if s.itemN > maxFieldBytes || s.itemAll > maxRecordBytes {
				return s.fail("shared string %s is longer than %s", engine.GroupThousands(s.items), engine.FormatSize(maxFieldBytes)).
					WithHint("Querent reads values up to 10 MB; shorten or delete the cells that hold it in Excel, save a copy and import that")
			}
			return nil
		}
	}
	if s.runN > maxFieldBytes {
		return s.fail("a run of text longer than %s outside any value (at byte %s of the part)", engine.FormatSize(maxFieldBytes), engine.GroupThousands(s.bytes)).
			WithHint("the file is damaged or was not written by a spreadsheet program; open it in Excel and save it again")
	}
	return nil
}

// scanGate tells the reader of a worksheet how far the scan has vetted it,
// so that excelize never reads a row the scan has not passed: the scan
// runs on the other core, ahead, and the reader waits only when it
// catches up. Rows are strictly ascending (the scan refuses others), so a
// vetted row numbered above n means that everything excelize reads while
// it returns row n is vetted.
type scanGate struct {
	vetted  atomic.Int64 // the number of the last row whose start tag is vetted
	bad     atomic.Bool
	waiting atomic.Bool
	notify  chan struct{} // a row was vetted while the reader waited
	done    chan struct{} // closed when the scan ends; err is then set
	once    sync.Once
	err     error
}

func newXLGate() *scanGate {
	return &scanGate{notify: make(chan struct{}, 1), done: make(chan struct{})}
}

func (g *scanGate) vet(row int64) {
	g.vetted.Store(row)
	if g.waiting.Load() {
		select {
		case g.notify <- struct{}{}:
		default:
		}
	}
}

// finish ends the gate with the scan's outcome.
func (g *scanGate) finish(err error) {
	g.once.Do(func() {
		g.err = err
		if err != nil {
			g.bad.Store(true)
		}
		close(g.done)
	})
}

// wait returns once a row numbered above n is vetted or the scan ended,
// with the scan's error as soon as there is one.
func (g *scanGate) wait(ctx context.Context, n int) error {
	for {
		if g.bad.Load() {
			return g.err
		}
		if g.vetted.Load() > int64(n) {
			return nil
		}
		g.waiting.Store(true)
		if g.vetted.Load() > int64(n) {
			return nil
		}
		select {
		case <-g.notify:
			g.waiting.Store(false)
		case <-g.done:
			return g.err
		case <-ctx.Done():
			return engine.AsError(ctx.Err())
		}
	}
}

// waitDone returns the scan's outcome once it ended.
func (g *scanGate) waitDone(ctx context.Context) error {
	select {
	case <-g.done:
		return g.err
	case <-ctx.Done():
		return engine.AsError(ctx.Err())
	}
}
