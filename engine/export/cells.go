package export

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"querent/engine/text"

	"querent/engine"
)

// maxCellChars is Excel's limit on the text of a cell, in UTF-16 code
// units; excelize silently cuts longer text.
const maxCellChars = 32767

// maxExactInt is the largest integer a double holds exactly: larger
// integers are written to XLSX as text.
const maxExactInt = 1 << 53

// excelEpochOffset is the Excel serial number of 1970-01-01 in the 1900
// date system; minSerial (1900-03-01) is the first day from which Excel's
// serials are right (Excel counts a 29 February 1900 that never was).
const (
	excelEpochOffset = 25569
	minSerial        = 61
)

// dateForm is the shape of an ISO date text, which chooses the cell's
// number format so that the date reads as the text did.
type dateForm int

const (
	formNone   dateForm = iota
	formDate            // YYYY-MM-DD
	formMinute          // YYYY-MM-DD HH:MM
	formSecond          // YYYY-MM-DD HH:MM:SS
	formMilli           // YYYY-MM-DD HH:MM:SS.fff…
	formMonth           // YYYY-MM, a month (strftime('%Y-%m'))
	formYear            // YYYY or an integer year, in a column named like a year
)

// numFmts are the number formats of the date forms.
var numFmts = [...]string{
	formDate:   "yyyy-mm-dd",
	formMinute: "yyyy-mm-dd hh:mm",
	formSecond: "yyyy-mm-dd hh:mm:ss",
	formMilli:  "yyyy-mm-dd hh:mm:ss.000",
	formMonth:  "yyyy-mm",
	formYear:   "yyyy",
}

// periodForm is the form of a column of months or years
// (describe.PeriodColumn), formNone for any other.
func periodForm(unit string) dateForm {
	switch unit {
	case engine.TimeMonth:
		return formMonth
	case engine.TimeYear:
		return formYear
	}
	return formNone
}

// periodSerial is the Excel serial of the first day of a month ("2009-01")
// or a year ("2009", 2009), for a cell of form f.
func periodSerial(v engine.Value, f dateForm) (float64, bool) {
	y, m := 0, 1
	switch v := v.(type) {
	case int64:
		if f != formYear || v < 1900 || v > 9999 {
			return 0, false
		}
		y = int(v)
	case string:
		var ok bool
		switch {
		case f == formYear && len(v) == 4:
			y, ok = digits(v)
		case f == formMonth && len(v) == 7 && v[4] == '-':
			var ok2 bool
			y, ok = digits(v[:4])
			m, ok2 = digits(v[5:])
			ok = ok && ok2 && 1 <= m && m <= 12
		}
		if !ok {
			return 0, false
		}
	default:
		return 0, false
	}
	serial := float64(daysFromCivil(y, m, 1) + excelEpochOffset)
	return serial, serial >= minSerial
}

// parseDate reads s as an ISO date or date-time without a zone
// (YYYY-MM-DD, then optionally a space or T and HH:MM, HH:MM:SS or
// HH:MM:SS.f…) and returns its Excel serial number (1900 date system) and
// form. Dates before 1900-03-01 are refused: Excel's serials are wrong
// there.
func parseDate(s string) (float64, dateForm, bool) {
	if len(s) < 10 || s[4] != '-' || s[7] != '-' {
		return 0, formNone, false
	}
	y, ok1 := digits(s[0:4])
	m, ok2 := digits(s[5:7])
	d, ok3 := digits(s[8:10])
	if !ok1 || !ok2 || !ok3 || !engine.ValidDate(y, m, d) {
		return 0, formNone, false
	}
	serial := float64(daysFromCivil(y, m, d) + excelEpochOffset)
	if serial < minSerial {
		return 0, formNone, false
	}
	if len(s) == 10 {
		return serial, formDate, true
	}
	rest := s[10:]
	if len(rest) < 6 || (rest[0] != ' ' && rest[0] != 'T') || rest[3] != ':' {
		return 0, formNone, false
	}
	h, ok1 := digits(rest[1:3])
	mi, ok2 := digits(rest[4:6])
	if !ok1 || !ok2 || h > 23 || mi > 59 {
		return 0, formNone, false
	}
	secs := float64(h*3600 + mi*60)
	form := formMinute
	rest = rest[6:]
	if rest != "" {
		if len(rest) < 3 || rest[0] != ':' {
			return 0, formNone, false
		}
		sec, ok := digits(rest[1:3])
		if !ok || sec > 59 {
			return 0, formNone, false
		}
		secs += float64(sec)
		form = formSecond
		rest = rest[3:]
		if rest != "" {
			if len(rest) < 2 || rest[0] != '.' {
				return 0, formNone, false
			}
			frac, scale := 0.0, 1.0
			for i := 1; i < len(rest); i++ {
				c := rest[i]
				if c < '0' || c > '9' {
					return 0, formNone, false
				}
				if scale < 1e15 {
					frac = frac*10 + float64(c-'0')
					scale *= 10
				}
			}
			secs += frac / scale
			form = formMilli
		}
	}
	return serial + secs/86400, form, true
}

// digits parses a short run of ASCII digits.
func digits(s string) (int, bool) {
	v := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, s != ""
}

// daysFromCivil is the number of days from 1970-01-01 to y-m-d in the
// proleptic Gregorian calendar (H. Hinnant's algorithm).
func daysFromCivil(y, m, d int) int {
	if m <= 2 {
		y--
	}
	era := y / 400
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// isDateType reports a declared type that holds dates.
func isDateType(t string) bool {
	t = strings.ToUpper(strings.TrimSpace(t))
	return strings.HasPrefix(t, "DATE") || strings.HasPrefix(t, "TIMESTAMP")
}

// round15 rounds x to 15 significant digits, Excel's precision. excelize
// cuts (does not round) longer floats; rounding first makes its cut a
// no-op, since a 15-digit decimal survives the trip through a double.
func round15(x float64) float64 {
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return x
	}
	var buf [32]byte
	b := strconv.AppendFloat(buf[:0], x, 'g', 15, 64)
	r, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return x
	}
	return r
}

// cutText cuts text longer than Excel's cell limit, ending it with a
// visible marker that gives the original length; cut reports whether it
// did, chars is the original length in characters.
func cutText(s string) (out string, cut bool, chars int) {
	if len(s) <= maxCellChars || utf16Len(s) <= maxCellChars {
		return s, false, 0
	}
	chars = utf8.RuneCountInString(s)
	marker := "… [cut: " + engine.GroupThousands(int64(chars)) + " characters]"
	return cutUTF16(s, maxCellChars-utf16Len(marker)) + marker, true, chars
}

// badXML reports text holding characters XML 1.0 cannot carry: control
// characters other than tab, LF and CR, invalid UTF-8, U+FFFE and U+FFFF.
// The XML encoder writes U+FFFD instead.
func badXML(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 {
			if c != '\t' && c != '\n' && c != '\r' {
				return true
			}
		} else if c >= 0x80 {
			return badXMLSlow(s[i:])
		}
	}
	return false
}

func badXMLSlow(s string) bool {
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && w == 1, r == 0xFFFE, r == 0xFFFF,
			r < 0x20 && r != '\t' && r != '\n' && r != '\r':
			return true
		}
		i += w
	}
	return false
}

// displayWidth estimates the width of text in Excel's character units:
// wide (East Asian, emoji) characters count two. It stops counting at
// limit.
func displayWidth(s string, limit int) int {
	w := 0
	for _, r := range s {
		if r == '\n' {
			break // a multi-line cell shows its first line
		}
		if w += text.RuneWidth(r); w >= limit {
			return limit
		}
	}
	return w
}
