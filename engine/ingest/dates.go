package ingest

import (
	"strings"

	"querent/engine"
)

// Dates: the formats of dates and date-times the Inferrer reads, and what
// a date column showed (dateInfo): the order of day and month, two-digit
// years, times of day.

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
		if e1 >= len(t) {
			return d, "", false
		}
		sep := t[e1]
		switch {
		case (sep == '-' || sep == ' ') && e1 <= 2 && e1+1 < len(t) && isLetter(t[e1+1]):
			i, ok = d.dayMonthName(t, n1, e1)
		case sep == '-' || sep == '/' || sep == '.':
			i, ok = d.numeric(t, n1, e1)
		}
	case isLetter(c):
		i, ok = d.monthNameDay(t)
	}
	if !ok {
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

// dayMonthName reads d-Mon-yy or d Mon yyyy, the day n1 ending at e1 (the
// separator); it returns where the date ends.
func (d *dateScan) dayMonthName(t string, n1, e1 int) (int, bool) {
	sep := t[e1]
	e2 := lettersAt(t, e1+1)
	m := monthOf(t[e1+1 : e2])
	if m == 0 || e2 >= len(t) || t[e2] != sep {
		return 0, false
	}
	yv, e3 := digitsAt(t, e2+1)
	y, okY := year(yv, e3-e2-1, &d.f)
	if !okY || sep == ' ' && d.f.twoDigit {
		return 0, false
	}
	d.y, d.a, d.b = y, m, n1
	d.f.date = dfDMonDash
	if sep == ' ' {
		d.f.date = dfDMonSpace
	}
	return e3, true
}

// numeric reads a date of three numbers separated by -, / or .: yyyy-mm-dd
// (and with / or .), d.m.yyyy, or n/n/yyyy and n-n-yyyy, whose order the
// data decides; the first number n1 ends at e1 (the separator). It returns
// where the date ends.
func (d *dateScan) numeric(t string, n1, e1 int) (int, bool) {
	sep := t[e1]
	l1 := e1
	n2, e2 := digitsAt(t, e1+1)
	l2 := e2 - e1 - 1
	if l2 < 1 || l2 > 2 || e2 >= len(t) || t[e2] != sep {
		return 0, false
	}
	n3, e3 := digitsAt(t, e2+1)
	l3 := e3 - e2 - 1
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
			return 0, false
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
		return 0, false
	}
	return e3, true
}

// monthNameDay reads Mon d, yyyy (the comma optional); it returns where
// the date ends.
func (d *dateScan) monthNameDay(t string) (int, bool) {
	e1 := lettersAt(t, 0)
	m := monthOf(t[:e1])
	if m == 0 || e1 >= len(t) || t[e1] != ' ' {
		return 0, false
	}
	n, e2 := digitsAt(t, e1+1)
	if e2-e1-1 < 1 || e2-e1-1 > 2 {
		return 0, false
	}
	j := e2
	if j < len(t) && t[j] == ',' {
		j++
	}
	if j >= len(t) || t[j] != ' ' {
		return 0, false
	}
	yv, e3 := digitsAt(t, j+1)
	if e3-j-1 != 4 {
		return 0, false
	}
	d.y, d.a, d.b = yv, m, n
	d.f.date = dfMonD
	return e3, true
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
