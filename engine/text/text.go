// Package text holds the text rules every part of Querent shares, so that
// each is written once: folding case and accents (golang.org/x/text), the
// words of identifiers and questions, a crude stem, an edit distance with a
// limit, and the display width of a string.
package text

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
	"golang.org/x/text/width"
)

// Fold lowercases s, removes its accents and keeps only letters and
// digits: "São Paulo" → "saopaulo", "AC/DC" → "acdc". Accents come off by
// Unicode decomposition (golang.org/x/text's NFD), and the Latin letters
// that do not decompose get their usual spelling (ß → ss, æ → ae, ø → o…).
func Fold(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 || !('a' <= c && c <= 'z' || '0' <= c && c <= '9') {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		FoldRune(&b, r)
	}
	return b.String()
}

// FoldRune writes r as Fold would: lowercased and without its accent, or
// nothing when r is not a letter or digit.
func FoldRune(b *strings.Builder, r rune) {
	switch {
	case 'a' <= r && r <= 'z', '0' <= r && r <= '9':
		b.WriteRune(r)
	case 'A' <= r && r <= 'Z':
		b.WriteRune(r + 'a' - 'A')
	case r < 0x80:
	default:
		r = unicode.ToLower(r)
		if s, ok := undecomposable[r]; ok {
			b.WriteString(s)
			return
		}
		var buf [utf8.UTFMax]byte
		n := utf8.EncodeRune(buf[:], r)
		dec := norm.NFD.Properties(buf[:n]).Decomposition()
		if dec == nil {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				b.WriteRune(r)
			}
			return
		}
		for _, d := range string(dec) {
			if unicode.IsLetter(d) || unicode.IsDigit(d) {
				b.WriteRune(d)
			}
		}
	}
}

// undecomposable are lowercase Latin letters that NFD leaves whole.
var undecomposable = map[rune]string{
	'ß': "ss", 'æ': "ae", 'œ': "oe", 'þ': "th", 'ĳ': "ij", 'ø': "o", 'ǿ': "o",
	'đ': "d", 'ð': "d", 'ħ': "h", 'ı': "i", 'ł': "l", 'ŀ': "l", 'ŧ': "t", 'ŉ': "n",
}

// IsCJK reports whether r is a Chinese, Japanese or Korean character:
// those languages write words without spaces, so each such character is a
// word of its own for Querent's matching (n-grams of them find the stored
// values and names a question mentions).
func IsCJK(r rune) bool {
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r)
}

// IdentWords splits an identifier (or a question) into folded, stemmed
// words: camelCase, snake_case and digits are boundaries, each Chinese,
// Japanese or Korean character is a word; numbers and one-letter words are
// dropped.
func IdentWords(s string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = appendWord(out, string(cur))
			cur = cur[:0]
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush()
			continue
		}
		if IsCJK(r) {
			flush()
			out = append(out, string(r))
			continue
		}
		if i > 0 && len(cur) > 0 {
			p := rs[i-1]
			switch {
			case unicode.IsUpper(r) && unicode.IsLower(p):
				flush()
			case unicode.IsUpper(r) && unicode.IsUpper(p) && i+1 < len(rs) && unicode.IsLower(rs[i+1]):
				flush()
			case unicode.IsDigit(r) != unicode.IsDigit(p):
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return out
}

// Words splits text into folded, stemmed words at anything that is not a
// letter or digit (an apostrophe too: French "l'artiste" gives "artiste"),
// without camelCase splitting; each Chinese, Japanese or Korean character
// is a word; numbers and one-letter words are dropped.
func Words(s string) []string {
	var out []string
	start := -1
	for i, r := range s {
		if IsCJK(r) {
			if start >= 0 {
				out = appendWord(out, s[start:i])
				start = -1
			}
			out = append(out, string(r))
			continue
		}
		if IsWordRune(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			out = appendWord(out, s[start:i])
			start = -1
		}
	}
	if start >= 0 {
		out = appendWord(out, s[start:])
	}
	return out
}

// IsWordRune reports whether r belongs to a word: a letter, a digit or a
// combining mark.
func IsWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
}

func appendWord(out []string, w string) []string {
	w = Fold(w)
	if w == "" || AllDigits(w) {
		return out
	}
	w = Stem(w)
	if len(w) < 2 {
		return out
	}
	return append(out, w)
}

// AllDigits reports whether s is made of ASCII digits only.
func AllDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Stem maps singular and plural to one form, crudely but consistently:
// "invoices" and "invoice" → "invoic", "categories" and "category" →
// "categor", "addresses" and "address" → "address". A stem is only ever
// compared with other stems.
func Stem(w string) string {
	n := len(w)
	switch {
	case n > 4 && strings.HasSuffix(w, "ies"):
		return w[:n-3]
	case n > 4 && strings.HasSuffix(w, "es"):
		w = w[:n-2]
	case n > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		w = w[:n-1]
	}
	if n = len(w); n > 3 && (w[n-1] == 'e' || w[n-1] == 'y') {
		w = w[:n-1]
	}
	return w
}

// Distancer computes edit distances, reusing its rows between calls (it is
// not safe for concurrent use; the zero value is ready).
type Distancer struct{ prev2, prev, cur []int }

// Distance is the optimal-string-alignment (restricted Damerau–Levenshtein)
// distance between a and b: insertions, deletions, substitutions and
// transpositions of adjacent letters each count one. It returns limit as
// soon as the distance is known to be at least limit, which keeps matching
// a word against thousands of stored values cheap. (A library such as
// agnivade/levenshtein counts a transposition as two edits and has no
// limit.)
func (s *Distancer) Distance(a, b []rune, limit int) int {
	la, lb := len(a), len(b)
	if d := la - lb; d >= limit || -d >= limit {
		return limit
	}
	if cap(s.prev) < lb+1 {
		s.prev2, s.prev, s.cur = make([]int, lb+1), make([]int, lb+1), make([]int, lb+1)
	}
	prev2, prev, cur := s.prev2[:lb+1], s.prev[:lb+1], s.cur[:lb+1]
	for j := range prev {
		prev[j] = j
	}
	prevMin := 0
	for i := 1; i <= la; i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= lb; j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d = min(d, prev2[j-2]+1)
			}
			cur[j] = d
			rowMin = min(rowMin, d)
		}
		// A cell is at least the smaller of the previous row's minimum and
		// the one before's plus one (a transposition), so once both are at
		// the limit, so is every later row.
		if rowMin >= limit && prevMin+1 >= limit {
			return limit
		}
		prevMin = rowMin
		prev2, prev, cur = prev, cur, prev2
	}
	return min(prev[lb], limit)
}

// Distance is Distancer.Distance for a single comparison.
func Distance(a, b string, limit int) int {
	var d Distancer
	return d.Distance([]rune(a), []rune(b), limit)
}

// RuneWidth is the number of columns a character takes on a terminal or in
// a spreadsheet cell: 0 for combining marks and zero-width characters, 2
// for East Asian wide and fullwidth characters and emoji (golang.org/x/text's
// East Asian Width property), 1 otherwise.
func RuneWidth(r rune) int {
	switch {
	case r == 0x200B || r == 0x200C || r == 0x200D || r == 0xFE0F || r == 0xFEFF:
		return 0
	case unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r):
		return 0
	case r >= 0x1F300 && r <= 0x1FAFF: // emoji and pictographs show wide
		return 2
	}
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	return 1
}

// Width is the display width of s (the sum of its characters' RuneWidth).
func Width(s string) int {
	w := 0
	for _, r := range s {
		w += RuneWidth(r)
	}
	return w
}

// Slug makes a file name's stem of s: its words folded (lowercase, no
// accents), joined by hyphens, at most max bytes and cut between words —
// "Top 10 customers by spending?" → "top-10-customers-by-spending". An
// apostrophe joins ("customer's" → "customers"). It returns "" when s has no
// letter or digit.
func Slug(s string, max int) string {
	var words []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			words = append(words, cur.String())
			cur.Reset()
		}
	}
	for _, r := range s {
		switch {
		case r == '\'' || r == '’':
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			FoldRune(&cur, r)
		default:
			flush()
		}
	}
	flush()
	out := ""
	for _, w := range words {
		next := w
		if out != "" {
			next = out + "-" + w
		}
		if len(next) > max {
			if out == "" {
				// One long word: cut it at a character boundary.
				for i := range w {
					if i > max {
						break
					}
					out = w[:i]
				}
			}
			break
		}
		out = next
	}
	return out
}
