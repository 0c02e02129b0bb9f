package ingest

import (
	"strconv"
	"strings"

	"querent/engine"
	"querent/engine/imports"
)

// Conversion: the raw cells of a column as the values of its type.

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
