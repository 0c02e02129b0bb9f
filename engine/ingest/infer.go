package ingest

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"querent/engine/imports"
	"querent/engine/text"
)

// The Inferrer's rooms: this file adds the values; numbers.go, booleans.go
// and dates.go read them as each kind; decide.go decides the type and its
// reason; convert.go converts the cells to it.

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
