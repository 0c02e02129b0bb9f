package ask

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// fieldScanner reads one string property of a JSON object while the object
// is still being written, so that the ask loop can run the SQL as soon as
// its closing quote arrives (the rest of the answer streams meanwhile), and
// show an explanation as it is written. It only understands the top level
// of one object, which is what a schema-constrained answer is.
type fieldScanner struct {
	key string
}

// scan looks for the property in the partial JSON text s: found is false
// until the property's value has begun; value is the string decoded so far
// (escapes undone, a cut escape or UTF-8 sequence held back); complete is
// true once the closing quote was read.
func (f fieldScanner) scan(s string) (value string, found, complete bool) {
	depth := 0
	expectKey := false
	i := 0
	for i < len(s) {
		c := s[i]
		switch c {
		case '{', '[':
			depth++
			expectKey = c == '{' && depth == 1
			i++
		case '}', ']':
			depth--
			i++
		case ',':
			expectKey = depth == 1
			i++
		case '"':
			end, text, closed := readString(s, i)
			if !closed {
				return "", false, false // another property's value, or a key being written
			}
			if depth == 1 && expectKey {
				expectKey = false
				if text == f.key {
					// The value follows the colon.
					j := end
					for j < len(s) && (s[j] == ' ' || s[j] == ':' || s[j] == '\n' || s[j] == '\t' || s[j] == '\r') {
						j++
					}
					if j >= len(s) {
						return "", false, false
					}
					if s[j] != '"' {
						return "", false, false // not a string: no such field for us
					}
					_, v, closed := readString(s, j)
					return v, true, closed
				}
			}
			i = end
		default:
			i++
		}
	}
	return "", false, false
}

// readString reads the JSON string starting at s[i] == '"': it returns the
// index after the closing quote, the decoded text, and whether the string
// was closed. An incomplete escape or UTF-8 sequence at the end is left out.
func readString(s string, i int) (end int, text string, closed bool) {
	var b strings.Builder
	j := i + 1
	for j < len(s) {
		c := s[j]
		switch {
		case c == '"':
			return j + 1, b.String(), true
		case c == '\\':
			if j+1 >= len(s) {
				return len(s), b.String(), false
			}
			switch e := s[j+1]; e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'u':
				if j+6 > len(s) {
					return len(s), b.String(), false
				}
				n, err := strconv.ParseUint(s[j+2:j+6], 16, 32)
				if err != nil {
					b.WriteRune(utf8.RuneError)
				} else {
					r := rune(n)
					// A surrogate pair: \\uD83D\\uDE00.
					if r >= 0xD800 && r < 0xDC00 {
						if j+12 > len(s) {
							return len(s), b.String(), false
						}
						if s[j+6] == '\\' && s[j+7] == 'u' {
							if lo, err := strconv.ParseUint(s[j+8:j+12], 16, 32); err == nil && lo >= 0xDC00 && lo < 0xE000 {
								r = (r-0xD800)<<10 + (rune(lo) - 0xDC00) + 0x10000
								j += 6
							}
						}
					}
					b.WriteRune(r)
				}
				j += 6
				continue
			default:
				b.WriteByte(e)
			}
			j += 2
		default:
			if c >= 0x80 {
				r, size := utf8.DecodeRuneInString(s[j:])
				if r == utf8.RuneError && size <= 1 && !utf8.FullRuneInString(s[j:]) {
					return len(s), b.String(), false
				}
				b.WriteString(s[j : j+size])
				j += size
				continue
			}
			b.WriteByte(c)
			j++
		}
	}
	return len(s), b.String(), false
}
