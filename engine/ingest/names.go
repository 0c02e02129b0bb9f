package ingest

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// safeName turns raw text into the safe part of an imported name: letters,
// digits and _ only (every other run of characters becomes one _, but % and
// # become the words pct and num, so that "Primary %" keeps its meaning),
// lowercase, accents removed from Latin letters (é → e), leading and
// trailing _ trimmed. Letters of other scripts are kept with their marks
// (a Devanagari vowel sign is part of its word, not punctuation).
func safeName(raw string) string {
	var b strings.Builder
	b.Grow(len(raw))
	pendingUnderscore := false
	latinBase := false // the last base character was a Latin letter
	s := raw
	if !isASCII(raw) {
		s = norm.NFD.String(raw)
	}
	for _, r := range s {
		switch {
		case r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= '0' && r <= '9'):
			latinBase = r >= 'a'
		case r >= 'A' && r <= 'Z':
			r += 'a' - 'A'
			latinBase = true
		case r == '_':
			pendingUnderscore = true
			latinBase = false
			continue
		case r == '%' || r == '#':
			// Signs that carry meaning become words: "Primary %" →
			// primary_pct, "Order #" → order_num.
			if b.Len() > 0 {
				b.WriteByte('_')
			}
			if r == '%' {
				b.WriteString("pct")
			} else {
				b.WriteString("num")
			}
			pendingUnderscore = true
			latinBase = false
			continue
		case r < utf8.RuneSelf:
			pendingUnderscore = true
			latinBase = false
			continue
		case unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r) || unicode.Is(unicode.Mc, r):
			// An accent on a Latin letter is dropped (é → e), and so is a
			// mark that follows no letter; other scripts keep their marks.
			if latinBase || b.Len() == 0 || pendingUnderscore {
				continue
			}
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			latinBase = unicode.Is(unicode.Latin, r)
			r = unicode.ToLower(r)
		default:
			pendingUnderscore = true
			latinBase = false
			continue
		}
		if pendingUnderscore && b.Len() > 0 {
			b.WriteByte('_')
		}
		pendingUnderscore = false
		b.WriteRune(r)
	}
	out := b.String()
	if !isASCII(out) {
		out = norm.NFC.String(out)
	}
	return out
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func startsWithDigit(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsDigit(r)
}

// TableName returns the safe table name for raw (a file stem or a sheet
// name) following the naming rules of design.md: letters, digits and _ only,
// lowercase, accents removed from Latin letters, a t_ prefix before a
// leading digit, and "table" when nothing usable is left. A name that would
// start with sqlite_ (reserved by SQLite) gets the t_ prefix too.
func TableName(raw string) string {
	n := safeName(raw)
	if n == "" {
		return "table"
	}
	if startsWithDigit(n) || strings.HasPrefix(n, "sqlite_") || reservedWords[n] {
		n = "t_" + n
	}
	return n
}

// reservedWords are the SQLite keywords that cannot name a column or table
// without quotes (checked against SQLite in engine/sqlite's tests), and the
// three that would silently mean something else (SELECT current_date gives
// today's date, not the column). An imported name that is one of them gets
// the c_ (or t_) prefix, like a leading digit, so that every imported name
// works unquoted in the SQL a person or a model writes.
var reservedWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`add all alter and as autoincrement between case cast check collate commit
		constraint create current_date current_time current_timestamp default deferrable delete distinct drop
		else escape except exists foreign from group having if in index insert intersect into is isnull join
		limit not nothing notnull null on or order primary raise references returning select set table then to
		transaction union unique update using values when where`) {
		m[w] = true
	}
	return m
}()

// ReservedWord reports whether name needs quotes in SQLite (see reservedWords).
func ReservedWord(name string) bool { return reservedWords[strings.ToLower(name)] }

// ColumnNames returns one safe, unique column name per header cell,
// following design.md: letters, digits and _ only, lowercase, accents
// removed from Latin letters, a c_ prefix before a leading digit (and before
// an SQL keyword such as "default" or "primary"), column_N
// (N the 1-based position) for an empty or unusable header, and _2, _3… for
// a repeat. Uniqueness ignores case, and a suffixed name never takes a name
// another header produces on its own: headers "a", "a", "a_2" give "a",
// "a_3", "a_2".
func ColumnNames(header []string) []string {
	base := make([]string, len(header))
	taken := make(map[string]bool, len(header))
	for i, h := range header {
		n := safeName(h)
		switch {
		case n == "":
			n = "column_" + strconv.Itoa(i+1)
		case startsWithDigit(n), reservedWords[n]:
			n = "c_" + n
		}
		base[i] = n
		taken[strings.ToLower(n)] = true
	}
	out := make([]string, len(header))
	used := make(map[string]bool, len(header))
	for i, n := range base {
		key := strings.ToLower(n)
		if !used[key] {
			used[key] = true
			out[i] = n
			continue
		}
		for k := 2; ; k++ {
			cand := n + "_" + strconv.Itoa(k)
			ck := strings.ToLower(cand)
			if !used[ck] && !taken[ck] {
				used[ck] = true
				out[i] = cand
				break
			}
		}
	}
	return out
}
