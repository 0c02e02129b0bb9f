package ingest

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Date and boolean cells: the streaming iterator does not expose cell
// styles, so a column's kind is told by how Excel shows its sampled cells.

// detectKinds compares the raw and formatted values of the sampled data
// rows: a column whose numbers Excel all shows as the same dates (or times)
// holds date cells; one whose 1s and 0s it shows as TRUE and FALSE holds
// booleans.
func detectKinds(rows []headRow, width int, date1904 bool) []columnKind {
	kinds := make([]columnKind, width)
	for c := range kinds {
		dates, bools, others := 0, 0, 0
		var k columnKind
		for _, r := range rows {
			if c >= len(r.raw) || r.fmt == nil || c >= len(r.fmt) {
				continue
			}
			raw, shown := strings.TrimSpace(r.raw[c]), strings.TrimSpace(r.fmt[c])
			if raw == "" || !isNumber(raw) {
				continue
			}
			if shown == raw || isNumber(shown) {
				others++ // shown as a number
				continue
			}
			if (raw == "1" && shown == "TRUE") || (raw == "0" && shown == "FALSE") {
				bools++
				continue
			}
			v, _ := strconv.ParseFloat(raw, 64)
			if v == 0 {
				continue // the zero serial shows oddly ("1/0/1900"): no evidence either way
			}
			if ok, hasDate, hasTime := looksLikeDate(v, shown, date1904); ok {
				dates++
				if k.example == "" {
					k.example = shown
				}
				k.showDate = k.showDate || hasDate
				k.showTime = k.showTime || hasTime
				continue
			}
			others++
		}
		switch {
		case dates > 0 && bools == 0 && others == 0:
			k.date = true
			kinds[c] = k
		case bools > 0 && dates == 0 && others == 0:
			kinds[c] = columnKind{boolean: true}
		}
	}
	return kinds
}

// prepare turns a raw cell of a date or boolean column into the text the
// Inferrer reads; other cells pass unchanged.
func (k columnKind) prepare(v string, date1904 bool) string {
	switch {
	case k.boolean:
		switch v {
		case "1":
			return "true"
		case "0":
			return "false"
		}
	case k.date:
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			if s, ok := serialText(f, date1904, k.showTime, k.showDate); ok {
				return s
			}
		}
	}
	return v
}

// serialParts splits an Excel serial into its date and its time of day,
// rounded to the second. ok is false outside Excel's dates (negative, or
// from the year 10000 on).
func serialParts(serial float64, date1904 bool) (day time.Time, secs int64, ok bool) {
	if math.IsNaN(serial) || serial < 0 || serial >= excelMaxSerial {
		return time.Time{}, 0, false
	}
	total := int64(math.Round(serial * 86400))
	days, secs := total/86400, total%86400
	switch {
	case date1904:
		day = time.Date(1904, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, int(days))
	case days >= 61:
		// Excel counts 1900-02-29, which did not exist: serials from
		// 1900-03-01 on are one day ahead.
		day = time.Date(1899, 12, 30, 0, 0, 0, 0, time.UTC).AddDate(0, 0, int(days))
	case days == 60:
		// The fictitious 1900-02-29: the nearest real day.
		day = time.Date(1900, 2, 28, 0, 0, 0, 0, time.UTC)
	default:
		// 1 is 1900-01-01; 0 (Excel's "1900-01-00") holds a time of day.
		day = time.Date(1899, 12, 31, 0, 0, 0, 0, time.UTC).AddDate(0, 0, int(days))
	}
	return day, secs, true
}

// serialText writes an Excel serial as 'YYYY-MM-DD' (a whole day in a
// column that shows no times), 'YYYY-MM-DD HH:MM:SS', or 'HH:MM:SS' (a time
// of day alone, in a column that shows no dates).
func serialText(serial float64, date1904, showTime, showDate bool) (string, bool) {
	day, secs, ok := serialParts(serial, date1904)
	if !ok {
		return "", false
	}
	clock := fmt.Sprintf("%02d:%02d:%02d", secs/3600, secs/60%60, secs%60)
	if !showDate && serial < 1 {
		return clock, true
	}
	date := day.Format("2006-01-02")
	if showTime || secs != 0 {
		return date + " " + clock, true
	}
	return date, true
}

var xlsxMonthNames = []string{"january", "february", "march", "april", "may", "june", "july",
	"august", "september", "october", "november", "december"}

var xlsxWeekdayNames = []string{"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"}

// looksLikeDate reports whether shown, the text Excel shows for the number
// serial, is that serial as a date, a time or both: every number in it must
// be the serial's year, month, day, hour, minute or second, and its words
// month or weekday names or AM/PM. A number shown in another format ("80%",
// "D +1.3", "1,234.50") is not.
func looksLikeDate(serial float64, shown string, date1904 bool) (ok, hasDate, hasTime bool) {
	day, secs, valid := serialParts(serial, date1904)
	if !valid || shown == "" {
		return false, false, false
	}
	toks, ok := shownTokens(shown)
	if !ok {
		return false, false, false
	}
	used := make([]bool, len(toks))
	hasTime, ok = timeFits(toks, secs, used)
	if !ok {
		return false, false, false
	}
	roles, ok := dateRoles(toks, used, day)
	if !ok {
		return false, false, false
	}
	for i, ri := range roles {
		for j, rj := range roles {
			if i != j && ri&roleM != 0 && rj&(roleY|roleD) != 0 {
				hasDate = true
			}
		}
	}
	if !hasDate && len(roles) > 0 {
		return false, false, false // a lone number that happens to fit
	}
	return hasDate || hasTime, hasDate, hasTime
}

// shownToken is a number or a word of the text Excel shows for a cell.
type shownToken struct {
	num    int // -1 for a word
	digits int
	word   string // lower case; "" for a number
	sep    byte   // the character after the token
}

// shownTokens cuts shown into numbers and words, between the separators
// of dates and times; any other character (%, currency signs, +, ( …)
// says shown is no date.
func shownTokens(shown string) ([]shownToken, bool) {
	var toks []shownToken
	for i := 0; i < len(shown); {
		c := shown[i]
		switch {
		case c >= '0' && c <= '9':
			j := i
			n := 0
			for j < len(shown) && shown[j] >= '0' && shown[j] <= '9' {
				if j-i < 9 {
					n = n*10 + int(shown[j]-'0')
				}
				j++
			}
			t := shownToken{num: n, digits: j - i}
			if j < len(shown) {
				t.sep = shown[j]
			}
			toks = append(toks, t)
			i = j
		case c < 0x80 && unicode.IsLetter(rune(c)):
			j := i
			for j < len(shown) && shown[j] < 0x80 && unicode.IsLetter(rune(shown[j])) {
				j++
			}
			t := shownToken{word: strings.ToLower(shown[i:j]), num: -1}
			if j < len(shown) {
				t.sep = shown[j]
			}
			toks = append(toks, t)
			i = j
		case c == ' ' || c == '/' || c == '-' || c == '.' || c == ',' || c == ':':
			i++
		default:
			return nil, false // %, currency signs, +, ( …
		}
	}
	return toks, true
}

// timeFits finds the time among the tokens (h:mm, h:mm:ss, with fractions
// of a second; AM/PM anywhere), marks its tokens used, and reports whether
// there is one; ok is false for a time that is not the serial's secs
// (within a minute).
func timeFits(toks []shownToken, secs int64, used []bool) (hasTime, ok bool) {
	pm, am := false, false
	for _, t := range toks {
		switch t.word {
		case "pm", "p":
			pm = true
		case "am", "a":
			am = true
		}
	}
	timeAt := -1
	for k := 0; k+1 < len(toks); k++ {
		if toks[k].word == "" && toks[k].sep == ':' && toks[k+1].word == "" {
			timeAt = k
			break
		}
	}
	if timeAt < 0 {
		return false, true
	}
	h, m := toks[timeAt].num, toks[timeAt+1].num
	if m > 59 || h > 23 || ((am || pm) && (h < 1 || h > 12)) {
		return false, false
	}
	if pm && h != 12 {
		h += 12
	} else if am && h == 12 {
		h = 0
	}
	want := int(secs / 60)
	diff := (h*60 + m - want + 1440) % 1440
	if diff > 1 && diff < 1439 {
		return false, false
	}
	used[timeAt], used[timeAt+1] = true, true
	k := timeAt + 2
	if toks[timeAt+1].sep == ':' && k < len(toks) && toks[k].word == "" && toks[k].num <= 59 {
		used[k] = true // seconds
		if toks[k].sep == '.' && k+1 < len(toks) && toks[k+1].word == "" {
			used[k+1] = true // fractions of a second
		}
	}
	return true, true
}

// The roles a number of a date may have (several when it fits more than
// one).
const (
	roleY = 1 << iota
	roleM
	roleD
)

// dateRoles gives each token the time did not use its roles in day's date:
// each must be the year, the month or the day (a month's or weekday's name
// for a word, or AM/PM, which has none); ok is false for one that is none.
func dateRoles(toks []shownToken, used []bool, day time.Time) (roles []int, ok bool) {
	for k, t := range toks {
		if used[k] {
			continue
		}
		if t.word != "" {
			switch {
			case t.word == "am" || t.word == "pm" || t.word == "a" || t.word == "p":
			case len(t.word) >= 3 && strings.HasPrefix(xlsxMonthNames[day.Month()-1], t.word):
				roles = append(roles, roleM)
			case len(t.word) >= 3 && isPrefixOfAny(xlsxWeekdayNames, t.word):
			default:
				return nil, false
			}
			continue
		}
		r := 0
		if t.digits == 4 && t.num == day.Year() || t.digits == 2 && t.num == day.Year()%100 {
			r |= roleY
		}
		if t.digits <= 2 && t.num == int(day.Month()) {
			r |= roleM
		}
		if t.digits <= 2 && t.num == day.Day() {
			r |= roleD
		}
		if r == 0 {
			return nil, false
		}
		roles = append(roles, r)
	}
	return roles, true
}

func isPrefixOfAny(list []string, w string) bool {
	for _, s := range list {
		if strings.HasPrefix(s, w) {
			return true
		}
	}
	return false
}
