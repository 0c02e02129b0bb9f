package ingest

import (
	"strconv"
	"strings"
)

// Numbers: how the Inferrer reads a value as a number, an amount or a
// percentage (the US and European styles, currency signs, accounting
// parentheses), and what a number column showed (numInfo).

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
	if !pct && st.addQuick(line, t) {
		return whyNot{}
	}
	var body, sym string
	var neg, paren bool
	if pct {
		var why whyNot
		if body, neg, why = splitPercent(t); why.key != "" {
			return why
		}
	} else {
		var ok bool
		body, neg, sym, paren, ok = splitAmount(t)
		if !ok {
			return whyNotNumber(t)
		}
	}
	ns := scanNumber(body)
	if ns.dropInexact(body, neg) {
		return whyNot{key: "too_large"}
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
	st.addStyles(line, t, body, &ns, us, eu)
	if sym != "" && (st.sym == "" || line < st.symBy.line) {
		st.sym = sym
		st.symBy = offender{line: line, value: shown(t)}
	}
	st.paren = st.paren || paren
	st.exp = st.exp || ns.exp
	return whyNot{}
}

// addQuick takes the fast paths, and reports whether t took one: a plain
// whole number reads the same in both styles; a plain decimal like 12.5
// (unless it could be European 1.234) reads only US-style.
func (st *numInfo) addQuick(line int64, t string) bool {
	switch quickNumber(t) {
	case quickWhole:
		return true
	case quickDecimal:
		if !st.noUS {
			if !st.noEU {
				st.noEU = true
				st.ruledOut(line, t)
			}
			st.fracUS = true
			st.fracUSAt.add(line, t, whyNot{})
			return true
		}
	}
	return false
}

// ruledOut keeps t as the value that ruled a style out, if it is the
// first (the lowest line).
func (st *numInfo) ruledOut(line int64, t string) {
	if st.styleBy.line == 0 || line < st.styleBy.line {
		st.styleBy = offender{line: line, value: shown(t)}
	}
}

// splitPercent takes the % sign and a sign off t, or says why t is not a
// percentage.
func splitPercent(t string) (body string, neg bool, why whyNot) {
	if t[len(t)-1] != '%' {
		if _, _, _, _, ok := splitAmount(t); ok && numberLike(t) {
			return "", false, whyNot{key: "no_pct_sign"}
		}
		return "", false, whyNot{key: "not_percentage"}
	}
	body = trimSpace(t[:len(t)-1])
	if body != "" && (body[0] == '-' || body[0] == '+') {
		neg = body[0] == '-'
		body = trimSpace(body[1:])
	}
	if body == "" {
		return "", false, whyNot{key: "not_percentage"}
	}
	return body, neg, whyNot{}
}

// dropInexact drops the readings of body that a column could not store
// exactly: a whole number beyond int64, a number with an exponent beyond
// float64. It reports a whole number too large in every reading.
func (ns *numScan) dropInexact(body string, neg bool) (tooLarge bool) {
	if ns.digits > 18 {
		if ns.us && ns.usWhole && !fitsInt64(body, neg, 'u') {
			ns.us = false
		}
		if ns.eu && ns.euWhole && !fitsInt64(body, neg, 'e') {
			ns.eu = false
		}
		if !ns.us && !ns.eu {
			return true
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
	return false
}

// addStyles keeps what a value that fits showed of the styles: us and eu
// are the styles the column can still be read in, ns how t (body without
// its sign and currency) reads.
func (st *numInfo) addStyles(line int64, t, body string, ns *numScan, us, eu bool) {
	if (!ns.us && !st.noUS) || (!ns.eu && !st.noEU) {
		st.ruledOut(line, t)
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
