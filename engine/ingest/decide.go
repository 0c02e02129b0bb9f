package ingest

import (
	"querent/engine"
	"querent/engine/imports"
	"querent/engine/text"
)

// The result: the type the Inferrer decides for a column, the reason for
// it in parts, and a type the analyst chose checked against the values.

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
