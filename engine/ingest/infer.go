package ingest

import (
	"querent/engine/text"
	"strconv"
	"strings"
	"unicode/utf8"

	"querent/engine"
	"querent/engine/imports"
)

// The interpretations an Inferrer keeps while every value fits them.
const (
	kNumber  = iota // plain numbers and amounts (INTEGER or REAL)
	kPercent        // percentages (REAL fractions)
	kBool           // yes/no words (BOOLEAN)
	kDate           // dates and date-times (DATE, DATETIME)
	nKinds
)

// offender is a value that ruled an interpretation out: the reasons quote
// the first one (the lowest line).
type offender struct {
	line  int64 // 0: none
	value string
	why   whyNot
}

// whyNot is why a value does not fit a kind: a sentence of the reasons'
// tables (importWords) and what it cites; the zero value: it fits.
type whyNot struct {
	key  string
	a, b string // the values or currency signs it cites
	line int64  // the line it cites
}

// part words w for a reason.
func (w whyNot) part() part {
	switch w.key {
	case "other_style":
		return say(w.key, quoted(w.a), lineAt(w.line))
	case "other_currency":
		return say(w.key, val(w.a), lineAt(w.line), val(w.b))
	case "month_then_day", "day_then_month":
		return say(w.key, lineAt(w.line), quoted(w.a))
	}
	return say(w.key)
}

// badList counts the values that did not fit an interpretation and keeps
// the first of them (the lowest lines), for reasons and reports.
type badList struct {
	n  int64
	k  int
	at [imports.MaxBadListed]offender
}

// add counts a value that does not fit; s is cloned only when kept.
func (b *badList) add(line int64, s string, why whyNot) {
	b.n++
	switch {
	case b.k < len(b.at):
		b.k++
	case line < b.at[b.k-1].line:
	default:
		return
	}
	b.at[b.k-1] = offender{line: line, value: shown(s), why: why}
	for i := b.k - 1; i > 0 && b.at[i].line < b.at[i-1].line; i-- {
		b.at[i], b.at[i-1] = b.at[i-1], b.at[i]
	}
}

// merge adds the values of o (another reason not to fit).
func (b badList) merge(o badList) badList {
	n := b.n + o.n
	for _, x := range o.at[:o.k] {
		b.add(x.line, x.value, x.why)
	}
	b.n = n
	return b
}

// values lists the kept values for a report.
func (b *badList) values() []imports.BadValue {
	out := make([]imports.BadValue, b.k)
	for i, o := range b.at[:b.k] {
		out[i] = imports.BadValue{Line: o.line, Value: o.value}
	}
	return out
}

// lines words the kept values' lines: "12, 40, 55".
func (b *badList) lines() string {
	parts := make([]string, b.k)
	for i, o := range b.at[:b.k] {
		parts[i] = strconv.FormatInt(o.line, 10)
	}
	return strings.Join(parts, ", ")
}

// trackLimit: a dead interpretation is checked until more than this many
// values, and more than fit it, do not fit it: past that it is no
// candidate for a chosen type, and checking it costs time for nothing.
const trackLimit = 1000

// numInfo is what the values of a number (or percentage) column showed.
type numInfo struct {
	noUS, noEU     bool     // a value cannot be read in that style (US: 1,234.5; European: 1.234,5)
	fracUS, fracEU bool     // a value is not whole in that style
	groupUS        bool     // thousands separators seen (read US-style)
	groupEU        bool     // thousands separators seen (read European-style)
	decComma       bool     // a decimal comma seen (European)
	styleBy        offender // the first value that ruled a style out
	sym            string   // the currency symbol, "" when none
	symBy          offender
	paren          bool // accounting parentheses seen
	exp            bool // an exponent seen
	// The numbers that are not whole, in each style: a chosen INTEGER
	// type does not store them.
	fracUSAt, fracEUAt badList
}

// dateInfo is what the values of a date column showed.
type dateInfo struct {
	mdOK, dmOK bool     // every n/n/yyyy value reads as month/day, as day/month
	numeric    bool     // an n/n/yyyy value seen
	ambiguous  offender // the first value that reads both ways, differently
	dmBy, mdBy offender // a value that shows day/month (first part over 12), month/day
	twoDigit   bool
	withTime   bool
	dateOnly   bool
	seen       []dateFormat // distinct formats, at most 8
	// The date-times with a time of day other than midnight: a chosen
	// DATE type does not store them.
	timedAt badList
}

// Inferrer infers the type of one column from all its values: Add every
// raw cell, then read Result, Counts and Converter. A column converts only
// if every value that is not missing converts; otherwise it stays TEXT with
// a reason quoting the first offending value and its line.
//
// The zero value is not ready: use NewInferrer. An Inferrer is not safe for
// concurrent use.
type Inferrer struct {
	n         int64 // values added
	blank     int64 // empty values
	missing   int64 // other missing values (NA, N/A, null, -, #N/A, whitespace)
	markers   []string
	maxLine   int64
	first     offender // the first value that is not missing
	alive     [nKinds]bool
	accepted  [nKinds]int64
	dead      [nKinds]offender
	num, pct  numInfo
	boolWords uint8 // bw* bits of the yes/no words seen
	date      dateInfo
	spaces    bool  // a value of white space only
	spacesN   int64 // values of white space only
	// Every interpretation keeps being checked after a value ruled it out
	// (tracked), until trackLimit: fit counts the values that fit it, bad
	// those that do not; partial says that the checking stopped (bad is a
	// lower bound).
	fit     [nKinds]int64
	bad     [nKinds]badList
	tracked [nKinds]bool
	partial [nKinds]bool
}

// NewInferrer returns an Inferrer for one column.
func NewInferrer() *Inferrer {
	c := &Inferrer{}
	for k := range c.alive {
		c.alive[k] = true
	}
	c.date.mdOK, c.date.dmOK = true, true
	return c
}

// trimSpace trims ASCII white space.
func trimSpace(s string) string {
	i, j := 0, len(s)
	for i < j && isSpace(s[i]) {
		i++
	}
	for j > i && isSpace(s[j-1]) {
		j--
	}
	return s[i:j]
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'
}

// IsMissing reports whether s is a missing-value marker: empty (or only
// white space), NA, N/A, null, -, or #N/A, case-insensitively. In typed
// columns these become NULL; in TEXT columns only empty values do.
func IsMissing(s string) bool {
	t := trimSpace(s)
	return t == "" || isMarker(t)
}

func isMarker(t string) bool {
	switch len(t) {
	case 1:
		return t == "-"
	case 2:
		return eqFoldASCII(t, "na")
	case 3:
		return eqFoldASCII(t, "n/a")
	case 4:
		return eqFoldASCII(t, "null") || eqFoldASCII(t, "#n/a")
	}
	return false
}

// eqFoldASCII compares t with lower, a lowercase ASCII word, ignoring the
// case of t's ASCII letters.
func eqFoldASCII(t, lower string) bool {
	if len(t) != len(lower) {
		return false
	}
	for i := 0; i < len(t); i++ {
		c := t[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// shown is a value as reasons quote it: at most 60 bytes, cut on a rune.
func shown(s string) string {
	if len(s) <= 60 {
		return strings.Clone(s)
	}
	cut := 57
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strings.Clone(s[:cut]) + "…"
}

// Add records one raw cell of the column and the 1-based line (or row) it
// comes from. Add does not keep s (it may alias a reused buffer); values
// may come in any order of lines, the reasons always quoting the lowest.
func (c *Inferrer) Add(line int64, s string) {
	c.n++
	t := s
	if t != "" && (isSpace(t[0]) || isSpace(t[len(t)-1])) {
		t = trimSpace(t)
	}
	if len(t) <= 4 && (t == "" || isMarker(t)) {
		if s == "" {
			c.blank++
		} else {
			c.missing++
			if t == "" {
				c.spaces = true
				c.spacesN++
			}
			if t != "" && len(c.markers) < 4 && !text.ContainsFold(c.markers, t) {
				c.markers = append(c.markers, strings.Clone(t))
			}
		}
		return
	}
	recheck := line < c.maxLine
	if line > c.maxLine {
		c.maxLine = line
	}
	if c.first.line == 0 || line < c.first.line {
		c.first = offender{line: line, value: shown(s)}
	}
	if c.alive == [nKinds]bool{} && c.tracked == [nKinds]bool{} && !recheck {
		return // TEXT already: nothing more to learn
	}
	for k := range nKinds {
		counted := c.alive[k] || c.tracked[k]
		if !counted && !(recheck && line < c.dead[k].line) {
			continue
		}
		var why whyNot
		switch k {
		case kNumber:
			why = c.num.add(line, t, false)
		case kPercent:
			why = c.pct.add(line, t, true)
		case kBool:
			why = c.addBool(t)
		case kDate:
			why = c.date.add(line, t)
		}
		if why.key == "" {
			if c.alive[k] {
				c.accepted[k]++
			}
			if counted {
				c.fit[k]++
			}
			continue
		}
		if counted {
			c.bad[k].add(line, s, why)
			if c.alive[k] {
				c.alive[k], c.tracked[k] = false, true
			} else if c.bad[k].n > trackLimit && c.bad[k].n > c.fit[k] {
				c.tracked[k], c.partial[k] = false, true
			}
		}
		if c.dead[k].line == 0 || line < c.dead[k].line {
			c.dead[k] = offender{line: line, value: shown(s), why: why}
		}
	}
}

// --- numbers ---

// splitAmount takes a currency symbol, a sign and accounting parentheses
// off t: "($1,234.50)" gives body "1,234.50", negative, "$".
func splitAmount(t string) (body string, neg bool, sym string, paren, ok bool) {
	if len(t) >= 2 && t[0] == '(' && t[len(t)-1] == ')' {
		paren = true
		t = trimSpace(t[1 : len(t)-1])
	}
	signed := false
	if t != "" && (t[0] == '-' || t[0] == '+') {
		neg, signed = t[0] == '-', true
		t = trimSpace(t[1:])
	}
	if p := currencyPrefix(t); p != "" {
		sym = p
		t = trimSpace(t[len(p):])
		if !signed && t != "" && (t[0] == '-' || t[0] == '+') {
			neg = t[0] == '-'
			t = t[1:]
		}
	} else if p := currencySuffix(t); p != "" {
		sym = p
		t = trimSpace(t[:len(t)-len(p)])
	}
	if paren {
		if sym == "" || signed {
			return "", false, "", false, false
		}
		neg = true
	}
	return t, neg, sym, paren, t != ""
}

var currencies = []string{"$", "€", "£", "¥"}

func currencyPrefix(t string) string {
	for _, c := range currencies {
		if strings.HasPrefix(t, c) {
			return c
		}
	}
	return ""
}

func currencySuffix(t string) string {
	for _, c := range currencies {
		if strings.HasSuffix(t, c) {
			return c
		}
	}
	return ""
}

// numScan is how an unsigned number reads in the two styles.
type numScan struct {
	us, eu           bool // readable US-style (1,234.5) and European-style (1.234,5)
	usWhole, euWhole bool
	usGroup, euGroup bool // thousands separators in that reading
	exp              bool
	digits           int // digits before the decimal separator (max of the readings)
	leadingZero      bool
}

const maxRuns = 12

// scanNumber reads b (digits with . and , separators, an optional
// exponent) in both styles.
func scanNumber(b string) (r numScan) {
	mant := b
	if i := strings.IndexAny(b, "eE"); i >= 0 {
		mant = b[:i]
		e := b[i+1:]
		if e != "" && (e[0] == '+' || e[0] == '-') {
			e = e[1:]
		}
		if e == "" || len(e) > 4 {
			return numScan{}
		}
		for j := 0; j < len(e); j++ {
			if e[j] < '0' || e[j] > '9' {
				return numScan{}
			}
		}
		r.exp = true
	}
	var runs [maxRuns]int
	var seps [maxRuns]byte
	nr, cur := 0, 0
	for i := 0; i < len(mant); i++ {
		c := mant[i]
		switch {
		case c >= '0' && c <= '9':
			cur++
		case c == '.' || c == ',':
			if nr == maxRuns-1 {
				return numScan{}
			}
			runs[nr], seps[nr] = cur, c
			nr++
			cur = 0
		default:
			return numScan{}
		}
	}
	runs[nr] = cur
	if mant == "" {
		return numScan{}
	}
	r.leadingZero = len(mant) > 1 && mant[0] == '0' && mant[1] >= '0' && mant[1] <= '9'
	var du, de int
	r.us, r.usWhole, r.usGroup, du = readStyle(runs[:nr+1], seps[:nr], mant, ',', '.')
	r.eu, r.euWhole, r.euGroup, de = readStyle(runs[:nr+1], seps[:nr], mant, '.', ',')
	if r.exp {
		// An exponent only on an ungrouped number: 1.5e3, not 1,234e3.
		r.us = r.us && !r.usGroup
		r.eu = r.eu && !r.euGroup && nr == 0
		r.usWhole, r.euWhole = false, false
	}
	r.digits = max(du, de)
	return r
}

// readStyle reads runs of digits separated by seps with the given group and
// decimal separators; digits counts the integer part's digits.
func readStyle(runs []int, seps []byte, mant string, group, dec byte) (ok, whole, grouped bool, digits int) {
	decAt := -1
	for i, c := range seps {
		if c == dec {
			if decAt >= 0 {
				return
			}
			decAt = i
		} else if decAt >= 0 {
			return // a group separator after the decimal one
		}
	}
	intRuns := runs
	if decAt >= 0 {
		intRuns = runs[:decAt+1]
	}
	if len(intRuns) > 1 {
		if intRuns[0] < 1 || intRuns[0] > 3 || mant[0] == '0' {
			return
		}
		for _, n := range intRuns[1:] {
			if n != 3 {
				return
			}
		}
		grouped = true
	} else if intRuns[0] > 1 && mant[0] == '0' {
		return // a leading zero: a code, not a number
	}
	for _, n := range intRuns {
		digits += n
	}
	if decAt < 0 {
		return digits > 0, true, grouped, digits
	}
	frac := runs[decAt+1]
	if digits == 0 && frac == 0 {
		return
	}
	return true, false, grouped, digits
}

// canonical writes the number in Go syntax (no group separators, a decimal
// point) into buf.
func canonical(buf []byte, body string, neg bool, style byte) []byte {
	group, dec := byte(','), byte('.')
	if style == 'e' {
		group, dec = '.', ','
	}
	if neg {
		buf = append(buf, '-')
	}
	for i := 0; i < len(body); i++ {
		switch c := body[i]; c {
		case group:
		case dec:
			buf = append(buf, '.')
		default:
			buf = append(buf, c)
		}
	}
	return buf
}

// fitsInt64 checks a whole number with many digits.
func fitsInt64(body string, neg bool, style byte) bool {
	var a [64]byte
	_, err := strconv.ParseInt(string(canonical(a[:0], body, neg, style)), 10, 64)
	return err == nil
}

func finiteFloat(body string, neg bool, style byte) bool {
	var a [64]byte
	_, err := strconv.ParseFloat(string(canonical(a[:0], body, neg, style)), 64)
	return err == nil
}

// add checks one value against a number (pct false) or percentage column;
// it returns why the value does not fit, or "".
func (st *numInfo) add(line int64, t string, pct bool) whyNot {
	if !pct {
		// Fast paths: a plain whole number reads the same in both styles;
		// a plain decimal like 12.5 (unless it could be European 1.234)
		// reads only US-style.
		switch quickNumber(t) {
		case quickWhole:
			return whyNot{}
		case quickDecimal:
			if !st.noUS {
				if !st.noEU {
					st.noEU = true
					if st.styleBy.line == 0 || line < st.styleBy.line {
						st.styleBy = offender{line: line, value: shown(t)}
					}
				}
				st.fracUS = true
				st.fracUSAt.add(line, t, whyNot{})
				return whyNot{}
			}
		}
	}
	var body, sym string
	var neg, paren bool
	if pct {
		if t[len(t)-1] != '%' {
			if _, _, _, _, ok := splitAmount(t); ok && numberLike(t) {
				return whyNot{key: "no_pct_sign"}
			}
			return whyNot{key: "not_percentage"}
		}
		body = trimSpace(t[:len(t)-1])
		if body != "" && (body[0] == '-' || body[0] == '+') {
			neg = body[0] == '-'
			body = trimSpace(body[1:])
		}
		if body == "" {
			return whyNot{key: "not_percentage"}
		}
	} else {
		var ok bool
		body, neg, sym, paren, ok = splitAmount(t)
		if !ok {
			return whyNotNumber(t)
		}
	}
	ns := scanNumber(body)
	if ns.digits > 18 {
		if ns.us && ns.usWhole && !fitsInt64(body, neg, 'u') {
			ns.us = false
		}
		if ns.eu && ns.euWhole && !fitsInt64(body, neg, 'e') {
			ns.eu = false
		}
		if !ns.us && !ns.eu {
			return whyNot{key: "too_large"}
		}
	}
	if ns.exp {
		if ns.us && !finiteFloat(body, neg, 'u') {
			ns.us = false
		}
		if ns.eu && !finiteFloat(body, neg, 'e') {
			ns.eu = false
		}
	}
	if !ns.us && !ns.eu {
		if ns.leadingZero {
			return whyNot{key: "leading_zero"}
		}
		if pct {
			return whyNot{key: "not_percentage"}
		}
		return whyNotNumber(t)
	}
	us, eu := ns.us && !st.noUS, ns.eu && !st.noEU
	if !us && !eu {
		return whyNot{key: "other_style", a: st.styleBy.value, line: st.styleBy.line}
	}
	if sym != "" && st.sym != "" && sym != st.sym {
		return whyNot{key: "other_currency", a: sym, b: st.sym, line: st.symBy.line}
	}
	if (!ns.us && !st.noUS) || (!ns.eu && !st.noEU) {
		if st.styleBy.line == 0 || line < st.styleBy.line {
			st.styleBy = offender{line: line, value: shown(t)}
		}
	}
	st.noUS, st.noEU = !us, !eu
	if ns.us && !ns.usWhole {
		st.fracUS = true
		st.fracUSAt.add(line, t, whyNot{})
	}
	if ns.eu && !ns.euWhole {
		st.fracEU = true
		st.fracEUAt.add(line, t, whyNot{})
		if strings.IndexByte(body, ',') >= 0 {
			st.decComma = true
		}
	}
	st.groupUS = st.groupUS || ns.us && ns.usGroup
	st.groupEU = st.groupEU || ns.eu && ns.euGroup
	if sym != "" && (st.sym == "" || line < st.symBy.line) {
		st.sym = sym
		st.symBy = offender{line: line, value: shown(t)}
	}
	st.paren = st.paren || paren
	st.exp = st.exp || ns.exp
	return whyNot{}
}

// Kinds of quickNumber.
const (
	quickOther   = iota
	quickWhole   // -?digits, no leading zero, at most 18 digits
	quickDecimal // -?digits.digits, US-style only
)

// quickNumber recognises the common shapes of numbers without the general
// scanner.
func quickNumber(t string) int {
	i := 0
	if t[0] == '-' {
		i = 1
	}
	start := i
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	nInt := i - start
	if nInt == 0 || nInt > 18 || nInt > 1 && t[start] == '0' {
		return quickOther
	}
	if i == len(t) {
		return quickWhole
	}
	if t[i] != '.' {
		return quickOther
	}
	i++
	fs := i
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	nFrac := i - fs
	if i != len(t) || nFrac == 0 || nFrac == 3 && nInt <= 3 {
		return quickOther
	}
	return quickDecimal
}

// numberLike reports text that starts like a number (for the wording of
// reasons).
func numberLike(t string) bool {
	body, _, _, _, ok := splitAmount(t)
	if !ok {
		return false
	}
	ns := scanNumber(body)
	return ns.us || ns.eu
}

func whyNotNumber(t string) whyNot {
	if t[len(t)-1] == '%' {
		return whyNot{key: "pct_among"}
	}
	return whyNot{key: "not_number"}
}

// style is the number style a column reads in: 'u' (1,234.5) unless only
// the European style (1.234,5) reads every value.
func (st *numInfo) style() byte {
	if st.noUS {
		return 'e'
	}
	return 'u'
}

func (st *numInfo) whole() bool {
	if st.style() == 'e' {
		return !st.fracEU
	}
	return !st.fracUS
}

// --- booleans ---

// The pairs of yes/no words, as bits of Inferrer.boolWords.
const (
	bwTrueFalse = 1 << iota
	bwYesNo
	bwTF
	bwYN
	bw10
)

var boolPairs = []struct {
	bit  uint8
	text string
}{{bwTrueFalse, "true/false"}, {bwYesNo, "yes/no"}, {bwTF, "t/f"}, {bwYN, "y/n"}, {bw10, "1/0"}}

// boolValue reads a yes/no word: true/false, yes/no, t/f, y/n (any case)
// or 1/0; pair is its bw* bit.
func boolValue(t string) (v int64, pair uint8, ok bool) {
	switch len(t) {
	case 1:
		switch t[0] {
		case '0':
			return 0, bw10, true
		case '1':
			return 1, bw10, true
		case 't', 'T':
			return 1, bwTF, true
		case 'y', 'Y':
			return 1, bwYN, true
		case 'f', 'F':
			return 0, bwTF, true
		case 'n', 'N':
			return 0, bwYN, true
		}
	case 2:
		if eqFoldASCII(t, "no") {
			return 0, bwYesNo, true
		}
	case 3:
		if eqFoldASCII(t, "yes") {
			return 1, bwYesNo, true
		}
	case 4:
		if eqFoldASCII(t, "true") {
			return 1, bwTrueFalse, true
		}
	case 5:
		if eqFoldASCII(t, "false") {
			return 0, bwTrueFalse, true
		}
	}
	return 0, 0, false
}

func (c *Inferrer) addBool(t string) whyNot {
	_, pair, ok := boolValue(t)
	if !ok {
		return whyNot{key: "not_yes_no"}
	}
	c.boolWords |= pair
	return whyNot{}
}

// boolWord reports a yes/no word other than 1/0: a column of only 1 and 0
// is INTEGER.
func (c *Inferrer) boolWord() bool { return c.boolWords&^bw10 != 0 }

// --- dates ---

// dateFormat is one way of writing dates seen in a column.
type dateFormat struct {
	date     uint8 // df*
	twoDigit bool
	time     uint8 // tf* bits
}

const (
	dfISO       = iota + 1 // yyyy-mm-dd
	dfISOSlash             // yyyy/mm/dd
	dfISODot               // yyyy.mm.dd
	dfSlash                // n/n/yyyy (order from the data)
	dfDash                 // n-n-yyyy (order from the data)
	dfDot                  // d.m.yyyy
	dfDMonDash             // d-Mon-yyyy
	dfDMonSpace            // d Mon yyyy
	dfMonD                 // Mon d, yyyy
)

const (
	tfTime   = 1 << iota // a time
	tfSecond             // with seconds
	tfAMPM               // with AM/PM
	tfT                  // ISO 'T' between date and time
)

// dateScan is one parsed date or date-time.
type dateScan struct {
	y, a, b   int // year; month and day, or for n/n/yyyy the first and second parts
	ambiguous bool
	h, mi, s  int
	f         dateFormat
}

var monthNames = [12]string{"january", "february", "march", "april", "may", "june", "july",
	"august", "september", "october", "november", "december"}

// monthOf reads an English month name or its three-letter abbreviation
// (and "Sept").
func monthOf(w string) int {
	if len(w) < 3 {
		return 0
	}
	for i, m := range monthNames {
		if len(w) == 3 && strings.EqualFold(w, m[:3]) || strings.EqualFold(w, m) {
			return i + 1
		}
	}
	if strings.EqualFold(w, "sept") {
		return 9
	}
	return 0
}

func digitsAt(t string, i int) (v, end int) {
	end = i
	for end < len(t) && end-i < 5 && t[end] >= '0' && t[end] <= '9' {
		v = v*10 + int(t[end]-'0')
		end++
	}
	return v, end
}

func lettersAt(t string, i int) int {
	for i < len(t) && (t[i] >= 'a' && t[i] <= 'z' || t[i] >= 'A' && t[i] <= 'Z') {
		i++
	}
	return i
}

// year reads a 4- or 2-digit year: 00–68 → 20xx, 69–99 → 19xx.
func year(v, n int, f *dateFormat) (int, bool) {
	switch n {
	case 4:
		return v, v >= 1
	case 2:
		f.twoDigit = true
		if v <= 68 {
			return 2000 + v, true
		}
		return 1900 + v, true
	}
	return 0, false
}

// parseDate reads t as a date or date-time; why says what is wrong with a
// value that almost is one ("" when it is not a date at all).
func parseDate(t string) (d dateScan, why string, ok bool) {
	if len(t) < 6 {
		return d, "", false
	}
	var i int
	c := t[0]
	switch {
	case c >= '0' && c <= '9':
		n1, e1 := digitsAt(t, 0)
		l1 := e1
		if e1 >= len(t) {
			return d, "", false
		}
		sep := t[e1]
		switch {
		case (sep == '-' || sep == ' ') && l1 <= 2 && e1+1 < len(t) && isLetter(t[e1+1]):
			// d-Mon-yy, d Mon yyyy
			e2 := lettersAt(t, e1+1)
			m := monthOf(t[e1+1 : e2])
			if m == 0 || e2 >= len(t) || t[e2] != sep {
				return d, "", false
			}
			yv, e3 := digitsAt(t, e2+1)
			y, okY := year(yv, e3-e2-1, &d.f)
			if !okY || sep == ' ' && d.f.twoDigit {
				return d, "", false
			}
			d.y, d.a, d.b, i = y, m, n1, e3
			d.f.date = dfDMonDash
			if sep == ' ' {
				d.f.date = dfDMonSpace
			}
		case sep == '-' || sep == '/' || sep == '.':
			n2, e2 := digitsAt(t, e1+1)
			l2 := e2 - e1 - 1
			if l2 < 1 || l2 > 2 || e2 >= len(t) || t[e2] != sep {
				return d, "", false
			}
			n3, e3 := digitsAt(t, e2+1)
			l3 := e3 - e2 - 1
			i = e3
			switch {
			case l1 == 4 && l3 >= 1 && l3 <= 2:
				d.y, d.a, d.b = n1, n2, n3
				switch sep {
				case '-':
					d.f.date = dfISO
				case '/':
					d.f.date = dfISOSlash
				default:
					d.f.date = dfISODot
				}
				if n1 < 1 {
					return d, "", false
				}
			case l1 <= 2 && (l3 == 4 || l3 == 2 && sep != '-'):
				y, _ := year(n3, l3, &d.f)
				d.y = y
				if sep == '.' {
					d.a, d.b = n2, n1
					d.f.date = dfDot
				} else {
					d.a, d.b = n1, n2
					d.ambiguous = true
					d.f.date = dfSlash
					if sep == '-' {
						d.f.date = dfDash
					}
				}
			default:
				return d, "", false
			}
		default:
			return d, "", false
		}
	case isLetter(c):
		// Mon d, yyyy
		e1 := lettersAt(t, 0)
		m := monthOf(t[:e1])
		if m == 0 || e1 >= len(t) || t[e1] != ' ' {
			return d, "", false
		}
		n, e2 := digitsAt(t, e1+1)
		if e2-e1-1 < 1 || e2-e1-1 > 2 {
			return d, "", false
		}
		j := e2
		if j < len(t) && t[j] == ',' {
			j++
		}
		if j >= len(t) || t[j] != ' ' {
			return d, "", false
		}
		yv, e3 := digitsAt(t, j+1)
		if e3-j-1 != 4 {
			return d, "", false
		}
		d.y, d.a, d.b, i = yv, m, n, e3
		d.f.date = dfMonD
	default:
		return d, "", false
	}
	if !d.ambiguous && !engine.ValidDate(d.y, d.a, d.b) {
		return d, "invalid_date", false
	}
	if d.ambiguous && !engine.ValidDate(d.y, d.a, d.b) && !engine.ValidDate(d.y, d.b, d.a) {
		return d, "invalid_date", false
	}
	if i == len(t) {
		return d, "", true
	}
	return parseTimeOf(d, t[i:])
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// parseTimeOf reads the time after a date: " HH:MM[:SS][ AM|PM]" or ISO
// "THH:MM[:SS]".
func parseTimeOf(d dateScan, r string) (dateScan, string, bool) {
	iso := d.f.date == dfISO
	switch {
	case r[0] == 'T' && iso:
		d.f.time |= tfT
		r = r[1:]
	case r[0] == ' ':
		r = strings.TrimLeft(r, " ")
	default:
		return d, "", false
	}
	h, e := digitsAt(r, 0)
	if e < 1 || e > 2 || e >= len(r) || r[e] != ':' {
		return d, "", false
	}
	mi, e2 := digitsAt(r, e+1)
	if e2-e-1 != 2 {
		return d, "", false
	}
	d.f.time |= tfTime
	r = r[e2:]
	if r != "" && r[0] == ':' {
		s, e3 := digitsAt(r, 1)
		if e3 != 3 {
			return d, "", false
		}
		d.s = s
		d.f.time |= tfSecond
		r = r[e3:]
		if r != "" && r[0] == '.' {
			return d, "fraction_secs", false
		}
	}
	rest := strings.TrimLeft(r, " ")
	switch {
	case rest == "":
	case strings.EqualFold(rest, "am"), strings.EqualFold(rest, "a.m."):
		d.f.time |= tfAMPM
		if h == 12 {
			h = 0
		} else if h < 1 || h > 12 {
			return d, "invalid_time", false
		}
	case strings.EqualFold(rest, "pm"), strings.EqualFold(rest, "p.m."):
		d.f.time |= tfAMPM
		if h < 1 || h > 12 {
			return d, "invalid_time", false
		}
		if h != 12 {
			h += 12
		}
	case rest == "Z" || rest[0] == '+' || rest[0] == '-' || strings.EqualFold(rest, "utc") || strings.EqualFold(rest, "gmt"):
		return d, "time_zone", false
	default:
		return d, "", false
	}
	if h > 23 || mi > 59 || d.s > 59 {
		return d, "invalid_time", false
	}
	d.h, d.mi = h, mi
	return d, "", true
}

func (st *dateInfo) add(line int64, t string) whyNot {
	d, why, ok := parseDate(t)
	if !ok {
		if why == "" {
			why = "not_date"
		}
		return whyNot{key: why}
	}
	if d.ambiguous {
		// parseDate made sure that at least one order reads the value.
		md := engine.ValidDate(d.y, d.a, d.b)
		dm := engine.ValidDate(d.y, d.b, d.a)
		if !(st.mdOK && md) && !(st.dmOK && dm) {
			if md {
				return whyNot{key: "month_then_day", a: st.dmBy.value, line: st.dmBy.line}
			}
			return whyNot{key: "day_then_month", a: st.mdBy.value, line: st.mdBy.line}
		}
		st.numeric = true
		if !md && (st.dmBy.line == 0 || line < st.dmBy.line) {
			st.dmBy = offender{line: line, value: shown(t)}
		}
		if !dm && (st.mdBy.line == 0 || line < st.mdBy.line) {
			st.mdBy = offender{line: line, value: shown(t)}
		}
		if md && dm && d.a != d.b && (st.ambiguous.line == 0 || line < st.ambiguous.line) {
			st.ambiguous = offender{line: line, value: shown(t)}
		}
		st.mdOK = st.mdOK && md
		st.dmOK = st.dmOK && dm
	}
	if d.f.twoDigit {
		st.twoDigit = true
	}
	if d.f.time&tfTime != 0 {
		st.withTime = true
		if d.h != 0 || d.mi != 0 || d.s != 0 {
			st.timedAt.add(line, t, whyNot{})
		}
	} else {
		st.dateOnly = true
	}
	if len(st.seen) < 8 {
		found := false
		for _, f := range st.seen {
			if f == d.f {
				found = true
				break
			}
		}
		if !found {
			st.seen = append(st.seen, d.f)
		}
	}
	return whyNot{}
}

// dayFirst is the order of n/n/yyyy dates: true when only day/month reads
// every value.
func (st *dateInfo) dayFirst() bool { return !st.mdOK && st.dmOK }

// label names a date format as reasons show it.
func (f dateFormat) label(dayFirst bool) string {
	y := "yyyy"
	if f.twoDigit {
		y = "yy"
	}
	var s string
	switch f.date {
	case dfISO:
		s = "yyyy-mm-dd"
	case dfISOSlash:
		s = "yyyy/mm/dd"
	case dfISODot:
		s = "yyyy.mm.dd"
	case dfSlash, dfDash:
		sep := "/"
		if f.date == dfDash {
			sep = "-"
		}
		if dayFirst {
			s = "d" + sep + "m" + sep + y
		} else {
			s = "m" + sep + "d" + sep + y
		}
	case dfDot:
		s = "d.m." + y
	case dfDMonDash:
		s = "d-Mon-" + y
	case dfDMonSpace:
		s = "d Mon yyyy"
	case dfMonD:
		s = "Mon d, yyyy"
	}
	if f.time&tfTime != 0 {
		if f.time&tfT != 0 {
			s += "Thh:mm"
		} else {
			s += " hh:mm"
		}
		if f.time&tfSecond != 0 {
			s += ":ss"
		}
		if f.time&tfAMPM != 0 {
			s += " AM/PM"
		}
	}
	return s
}

// --- the result ---

// Result returns the column's type (one of the engine.Type* constants) and
// the reason for it, in words a user understands (in English: result
// gives the reason in parts, for every language).
func (c *Inferrer) Result() (typ string, reason string) {
	typ, r := c.decide()
	return typ, english(r, false)
}

// result is Result with the reason in parts.
func (c *Inferrer) result() (string, seq) { return c.decide() }

// Counts returns how many values are stored converted to the column's type
// and how many are stored as their original text (values that are not
// missing; in a TEXT column every non-empty value, missing-value markers
// included, is kept as text).
func (c *Inferrer) Counts() (converted, keptAsText int64) {
	typ, _ := c.decide()
	if typ == imports.TypeText {
		return 0, c.n - c.blank
	}
	return c.n - c.blank - c.missing, 0
}

// missingNote words the missing values ("; 3 values missing (empty, NA),
// stored as NULL"); nil when there are none.
func (c *Inferrer) missingNote() part {
	if c.missing == 0 && c.blank == 0 {
		return nil
	}
	words := []part{}
	if c.blank > 0 || c.spaces {
		words = append(words, say("empty_word"))
	}
	for _, m := range c.markers {
		words = append(words, val(m))
	}
	n := c.blank + c.missing
	return say(pluralKey("missing", n), count(n), list{sep: "comma", items: words})
}

func countNoun(n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return engine.GroupThousands(n) + " " + many
}

func (c *Inferrer) decide() (string, seq) {
	values := c.n - c.blank - c.missing
	if values == 0 {
		switch {
		case c.n == 0:
			return imports.TypeText, seq{say("no_rows")}
		case len(c.markers) > 0:
			return imports.TypeText, seq{say("all_markers", vals("comma", c.markers))}
		}
		return imports.TypeText, seq{say("all_empty")}
	}
	note := c.missingNote()
	if c.alive[kBool] && c.boolWord() {
		var words []string
		for _, p := range boolPairs {
			if c.boolWords&p.bit != 0 {
				words = append(words, p.text)
			}
		}
		return imports.TypeBoolean, seq{say("boolean", vals("or", words)), note}
	}
	if c.alive[kNumber] {
		return c.numberResult(note)
	}
	if c.alive[kPercent] {
		st := &c.pct
		r := seq{say("percentages")}
		if st.style() == 'e' && st.decComma {
			r = append(r, say("pct_dec_comma"))
		}
		return imports.TypeReal, append(r, note)
	}
	if c.alive[kDate] {
		return c.dateResult(note)
	}
	// TEXT: quote the value that ruled out the interpretation that lasted
	// longest.
	best := -1
	for _, k := range []int{kNumber, kPercent, kDate, kBool} {
		if c.accepted[k] > 0 && (best < 0 || c.accepted[k] > c.accepted[best]) {
			best = k
		}
	}
	if best < 0 {
		// Nothing fitted any interpretation; a value that almost did (a
		// code with a leading zero, a date with a time zone) says why.
		for _, k := range []int{kNumber, kDate} {
			if o := c.dead[k]; o.line == c.first.line && !genericWhy[o.why.key] {
				best = k
				break
			}
		}
	}
	if best < 0 {
		return imports.TypeText, seq{say("text_values", lineAt(c.first.line), quoted(c.first.value))}
	}
	o := c.dead[best]
	return imports.TypeText, seq{say("kept_text", lineAt(o.line), quoted(o.value), o.why.part()), c.fitNote(best)}
}

// fitNote words how many values fit kind k when most do: "; 378 of 379
// values are dates written m/d/yy, 1 is not". It is nil when the kind was
// not checked to the end or fits fewer values than it does not.
func (c *Inferrer) fitNote(k int) part {
	b := &c.bad[k]
	if c.partial[k] || b.n == 0 || c.fit[k] <= b.n {
		return nil
	}
	values := c.fit[k] + b.n
	not := say("fit_not_1")
	if b.n > 1 {
		lines := make(lineList, b.k)
		for i, o := range b.at[:b.k] {
			lines[i] = o.line
		}
		not = say("fit_not_n", count(b.n), lines)
	}
	return say("fit", count(c.fit[k]), count(values), c.kindWords(k), not)
}

// kindWords names what the values of kind k are, as reasons say it.
func (c *Inferrer) kindWords(k int) part {
	switch k {
	case kNumber:
		st := &c.num
		switch {
		case st.sym != "":
			return say("amounts_in", val(st.sym))
		case st.whole():
			return say("whole_numbers")
		}
		return say("numbers")
	case kPercent:
		return say("percentages_w")
	case kBool:
		return say("yes_no_values")
	case kDate:
		st := &c.date
		var labels []string
		for _, f := range st.seen {
			if l := f.label(st.dayFirst()); !text.ContainsFold(labels, l) {
				labels = append(labels, l)
			}
		}
		if len(labels) == 0 {
			if st.withTime {
				return say("date_times")
			}
			return say("dates")
		}
		if st.withTime {
			return say("date_times_in", vals("comma", labels))
		}
		return say("dates_in", vals("comma", labels))
	}
	return say("values")
}

// kindType is the type a column of kind k's values gets.
func (c *Inferrer) kindType(k int) string {
	switch k {
	case kNumber:
		if c.num.whole() {
			return imports.TypeInteger
		}
		return imports.TypeReal
	case kPercent:
		return imports.TypeReal
	case kBool:
		if c.boolWord() {
			return imports.TypeBoolean
		}
		return imports.TypeInteger
	case kDate:
		if c.date.withTime {
			return imports.TypeDateTime
		}
		return imports.TypeDate
	}
	return imports.TypeText
}

// Suggested returns, for a column that stays TEXT because some values do
// not fit, the type that most values fit (checked to the end), or "".
func (c *Inferrer) Suggested() string {
	if typ, _ := c.decide(); typ != imports.TypeText {
		return ""
	}
	best := -1
	for _, k := range []int{kBool, kNumber, kPercent, kDate} {
		if c.alive[k] || c.partial[k] || c.fit[k] <= c.bad[k].n {
			continue
		}
		if best < 0 || c.fit[k] > c.fit[best] {
			best = k
		}
	}
	if best < 0 {
		return ""
	}
	return c.kindType(best)
}

// choice is how a column's values fit a type an analyst chose.
type choice struct {
	cv      *converter
	bad     badList // the values that do not fit
	atLeast bool    // bad.n is a lower bound
	words   part    // what the values that fit are ("dates written m/d/yy")
	fit     int64   // how many fit
	note    part    // how the values are read, when that needs saying (nil: no need)
}

// choose says how the values fit typ (one of the Type* constants), the
// type an analyst chose instead of the detected one, and gives the
// converter that stores it: values that do not fit it fail to convert.
func (c *Inferrer) choose(typ string) choice {
	cv := &converter{typ: typ, style: 'u', strict: true}
	var ch choice
	k := -1
	switch typ {
	case imports.TypeInteger:
		k = kNumber
		cv.kind = cvInteger
		cv.style = c.num.style()
		cv.sym = c.num.sym
		frac := c.num.fracUSAt
		if cv.style == 'e' {
			frac = c.num.fracEUAt
		}
		ch.bad = c.bad[kNumber].merge(frac)
		ch.fit = c.fit[kNumber] - frac.n
		ch.words = say("whole_numbers")
	case imports.TypeReal:
		k = kNumber
		cv.kind = cvReal
		if c.bad[kPercent].n < c.bad[kNumber].n && c.fit[kPercent] > 0 {
			k = kPercent
			cv.pct = true
			cv.style = c.pct.style()
		} else {
			cv.style = c.num.style()
			cv.sym = c.num.sym
		}
		ch.bad, ch.fit = c.bad[k], c.fit[k]
		ch.words = say("numbers")
		if k == kPercent {
			ch.words = say("percentages_w")
			ch.note = say("pct_fractions")
		}
	case imports.TypeBoolean:
		k = kBool
		cv.kind = cvBoolean
		ch.bad, ch.fit = c.bad[k], c.fit[k]
		ch.words = say("yes_no_values")
	case imports.TypeDate, imports.TypeDateTime:
		k = kDate
		cv.kind = cvDateTime
		cv.dayFirst = c.date.dayFirst()
		ch.bad, ch.fit = c.bad[k], c.fit[k]
		if typ == imports.TypeDate {
			cv.kind = cvDate
			ch.bad = ch.bad.merge(c.date.timedAt)
			ch.fit -= c.date.timedAt.n
		}
		ch.words = c.kindWords(kDate)
		if c.date.numeric && c.date.mdOK && c.date.dmOK && c.date.ambiguous.line != 0 {
			ch.note = say("month_first_read")
		}
	default:
		cv.kind = cvText
		ch.fit = c.n - c.blank
		ch.words = say("text")
	}
	if k >= 0 {
		ch.atLeast = c.partial[k]
	}
	ch.cv = cv
	return ch
}

// genericWhy are the reasons that only say a value is not of a kind.
var genericWhy = map[string]bool{
	"not_number": true, "not_percentage": true, "not_yes_no": true,
	"not_date": true, "no_pct_sign": true, "pct_among": true,
}

func (c *Inferrer) numberResult(note part) (string, seq) {
	st := &c.num
	var parts []part
	typ := imports.TypeReal
	if st.whole() {
		typ = imports.TypeInteger
	}
	switch {
	case st.sym != "":
		if st.paren {
			parts = append(parts, say("amounts_paren", val(st.sym)))
		} else {
			parts = append(parts, say("amounts", val(st.sym)))
		}
		if typ == imports.TypeInteger {
			parts = append(parts, say("amount_whole"))
		}
	case typ == imports.TypeInteger:
		parts = append(parts, say("all_whole"))
	default:
		parts = append(parts, say("all_numbers"))
	}
	if st.style() == 'e' {
		switch {
		case st.decComma && st.groupEU:
			parts = append(parts, say("european"))
		case st.decComma:
			parts = append(parts, say("decimal_comma"))
		case st.groupEU:
			parts = append(parts, say("dot_thousands"))
		}
	} else if st.groupUS && st.sym == "" {
		parts = append(parts, say("thousands_gone"))
	}
	return typ, seq{list{sep: "semi", items: parts}, note}
}

func (c *Inferrer) dateResult(note part) (string, seq) {
	st := &c.date
	if st.numeric && st.mdOK && st.dmOK && st.ambiguous.line != 0 {
		return imports.TypeText, seq{say("ambiguous_dates", quoted(st.ambiguous.value), lineAt(st.ambiguous.line))}
	}
	dayFirst := st.dayFirst()
	var labels []string
	for _, f := range st.seen {
		l := f.label(dayFirst)
		if !text.ContainsFold(labels, l) {
			labels = append(labels, l)
		}
	}
	typ, what := imports.TypeDate, "dates_in"
	if st.withTime {
		typ, what = imports.TypeDateTime, "date_times_in"
	}
	r := seq{say(what, vals("comma", labels))}
	var notes []part
	if st.numeric {
		switch {
		case dayFirst:
			notes = append(notes, say("day_first", lineAt(st.dmBy.line)))
		case st.mdBy.line != 0:
			notes = append(notes, say("month_first", lineAt(st.mdBy.line)))
		}
	}
	if st.twoDigit {
		notes = append(notes, say("two_digit_years"))
	}
	if st.withTime && st.dateOnly {
		notes = append(notes, say("midnight"))
	}
	if len(notes) > 0 {
		r = append(r, say("notes", list{sep: "semi", items: notes}))
	}
	return typ, append(r, note)
}

// --- conversion ---

// converter turns raw cells into the column's values.
type converter struct {
	typ      string
	kind     int  // cv* of typ
	style    byte // 'u' or 'e'
	pct      bool
	dayFirst bool
	// strict is set for a type the analyst chose: amounts in another
	// currency than sym, and date-times (not at midnight) as dates, do
	// not convert.
	strict bool
	sym    string
	cache  valueCache
}

// The kinds of converter, typ as a number for the hot path.
const (
	cvText = iota
	cvInteger
	cvReal
	cvBoolean
	cvDate
	cvDateTime
)

func (c *Inferrer) converter() *converter {
	typ, _ := c.decide()
	cv := &converter{typ: typ, style: 'u'}
	switch typ {
	case imports.TypeInteger:
		cv.kind = cvInteger
		cv.style = c.num.style()
	case imports.TypeReal:
		cv.kind = cvReal
		if c.alive[kNumber] {
			cv.style = c.num.style()
		} else {
			cv.pct = true
			cv.style = c.pct.style()
		}
	case imports.TypeBoolean:
		cv.kind = cvBoolean
	case imports.TypeDate, imports.TypeDateTime:
		cv.kind = cvDate
		if typ == imports.TypeDateTime {
			cv.kind = cvDateTime
		}
		cv.dayFirst = c.date.dayFirst()
	}
	return cv
}

// valueCache remembers the converted values of the first distinct cells of
// a text or date column: repeated values (categories, dates) then cost no
// allocation. It keeps at most max values (none when max is 0) and turns
// itself off when most lookups miss.
type valueCache struct {
	m       map[string]engine.Value
	max     int
	lookups int
	hits    int
	off     bool
}

const (
	cacheMax     = 4096    // distinct values kept per column
	cacheTotal   = 1 << 16 // and for all the columns of a table
	cacheProbe   = 8192    // lookups before judging the hit rate
	cacheLongest = 64      // bytes of the longest value kept
)

func (vc *valueCache) get(s string) (engine.Value, bool) {
	if vc.off || vc.m == nil {
		return nil, false
	}
	vc.lookups++
	if vc.lookups == cacheProbe && vc.hits < cacheProbe/2 {
		vc.off, vc.m = true, nil
		return nil, false
	}
	v, ok := vc.m[s]
	if ok {
		vc.hits++
	}
	return v, ok
}

func (vc *valueCache) put(s string, v engine.Value) {
	if vc.off || vc.max == 0 || len(s) > cacheLongest {
		return
	}
	if vc.m == nil {
		vc.m = make(map[string]engine.Value, min(64, vc.max))
	}
	if len(vc.m) < vc.max {
		vc.m[strings.Clone(s)] = v
	}
}

// Converter returns the function that converts one raw cell of this column
// to the chosen type: int64, float64 or string, nil for a missing value
// (an empty cell in a TEXT column; any missing-value marker in a typed
// one). BOOLEAN gives int64 1/0; DATE and DATETIME give 'YYYY-MM-DD' and
// 'YYYY-MM-DD HH:MM:SS' strings. A cell that does not convert (one the
// Inferrer never saw) is returned as its text. The returned value never
// aliases s. Call Converter after the last Add; the function it returns is
// not safe for concurrent use.
func (c *Inferrer) Converter() func(s string) engine.Value {
	cv := c.converter()
	return func(s string) engine.Value {
		v, ok := cv.convert(s)
		if !ok {
			return strings.Clone(s)
		}
		return v
	}
}

// convert converts s; ok is false when s does not fit the type. The value
// never aliases s.
func (cv *converter) convert(s string) (engine.Value, bool) {
	if cv.kind == cvText {
		if s == "" {
			return nil, true
		}
		if v, ok := cv.cache.get(s); ok {
			return v, true
		}
		var v engine.Value = strings.Clone(s)
		cv.cache.put(s, v)
		return v, true
	}
	t := s
	if t != "" && (isSpace(t[0]) || isSpace(t[len(t)-1])) {
		t = trimSpace(t)
	}
	if len(t) <= 4 && (t == "" || isMarker(t)) {
		return nil, true
	}
	switch cv.kind {
	case cvBoolean:
		v, _, ok := boolValue(t)
		return v, ok
	case cvInteger:
		if v, ok := plainInt(t); ok {
			return v, true
		}
		body, neg, sym, _, ok := splitAmount(t)
		if !ok || !checkStyle(body, cv.style, true) || cv.strict && sym != "" && cv.sym != "" && sym != cv.sym {
			return nil, false
		}
		var a [64]byte
		v, err := strconv.ParseInt(string(canonical(a[:0], body, neg, cv.style)), 10, 64)
		return v, err == nil
	case cvReal:
		if !cv.pct && cv.style == 'u' && quickNumber(t) != quickOther {
			f, err := strconv.ParseFloat(t, 64)
			return f, err == nil
		}
		var body string
		var neg, ok bool
		if cv.pct {
			if t[len(t)-1] != '%' {
				return nil, false
			}
			body = trimSpace(t[:len(t)-1])
			if body != "" && (body[0] == '-' || body[0] == '+') {
				neg = body[0] == '-'
				body = trimSpace(body[1:])
			}
			ok = body != ""
		} else {
			var sym string
			body, neg, sym, _, ok = splitAmount(t)
			ok = ok && !(cv.strict && sym != "" && cv.sym != "" && sym != cv.sym)
		}
		if !ok || !checkStyle(body, cv.style, false) {
			return nil, false
		}
		var a [72]byte
		b := canonical(a[:0], body, neg, cv.style)
		if cv.pct {
			if strings.ContainsAny(body, "eE") {
				f, err := strconv.ParseFloat(string(b), 64)
				return f / 100, err == nil
			}
			b = append(b, 'e', '-', '2')
		}
		f, err := strconv.ParseFloat(string(b), 64)
		return f, err == nil
	case cvDate, cvDateTime:
		if v, ok := cv.cache.get(t); ok {
			return v, true
		}
		d, _, ok := parseDate(t)
		if !ok {
			return nil, false
		}
		m, day := d.a, d.b
		if d.ambiguous && cv.dayFirst {
			m, day = day, m
		}
		if !engine.ValidDate(d.y, m, day) || cv.kind == cvDate && (d.h != 0 || d.mi != 0 || d.s != 0) {
			return nil, false
		}
		var v engine.Value = formatDate(d.y, m, day, d.h, d.mi, d.s, cv.kind == cvDateTime)
		cv.cache.put(t, v)
		return v, true
	}
	return nil, false
}

// plainInt reads an optional minus and 1–18 digits without a leading zero.
func plainInt(t string) (int64, bool) {
	i := 0
	neg := false
	if t[0] == '-' {
		neg = true
		i = 1
	}
	n := len(t) - i
	if n < 1 || n > 18 || n > 1 && t[i] == '0' {
		return 0, false
	}
	var v int64
	for ; i < len(t); i++ {
		c := t[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	if neg {
		v = -v
	}
	return v, true
}

// checkStyle checks that body reads in the style (and is whole when asked).
func checkStyle(body string, style byte, whole bool) bool {
	ns := scanNumber(body)
	if style == 'e' {
		return ns.eu && (!whole || ns.euWhole)
	}
	return ns.us && (!whole || ns.usWhole)
}

func formatDate(y, m, d, h, mi, s int, withTime bool) string {
	var b [19]byte
	put := func(i, v, n int) {
		for k := n - 1; k >= 0; k-- {
			b[i+k] = byte('0' + v%10)
			v /= 10
		}
	}
	put(0, y, 4)
	b[4] = '-'
	put(5, m, 2)
	b[7] = '-'
	put(8, d, 2)
	if !withTime {
		return string(b[:10])
	}
	b[10] = ' '
	put(11, h, 2)
	b[13] = ':'
	put(14, mi, 2)
	b[16] = ':'
	put(17, s, 2)
	return string(b[:])
}
