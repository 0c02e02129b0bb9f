package postgres

import (
	"strings"
	"unicode"

	"querent/engine/sqltext"
)

func isSpace(r rune) bool { return unicode.IsSpace(r) || r == ';' }

// skipSpace returns the offset of the first character at or after i that is
// not whitespace or a comment.
func skipSpace(s string, i int) int {
	for i < len(s) {
		switch {
		case s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r' || s[i] == '\f' || s[i] == '\v':
			i++
		case strings.HasPrefix(s[i:], "--") || strings.HasPrefix(s[i:], "/*"):
			i = skipComment(s, i)
		default:
			return i
		}
	}
	return i
}

// skipComment skips the comment that starts at i (-- to the end of the line,
// or /* … */, which nests in PostgreSQL).
func skipComment(s string, i int) int {
	if strings.HasPrefix(s[i:], "--") {
		j := strings.IndexByte(s[i:], '\n')
		if j < 0 {
			return len(s)
		}
		return i + j + 1
	}
	depth := 0
	for j := i; j+1 < len(s); j++ {
		switch {
		case s[j] == '/' && s[j+1] == '*':
			depth++
			j++
		case s[j] == '*' && s[j+1] == '/':
			depth--
			j++
			if depth == 0 {
				return j + 1
			}
		}
	}
	return len(s)
}

// charToByte converts a 0-based character offset (PostgreSQL counts
// characters) into a byte offset.
func charToByte(s string, chars int) int {
	if chars <= 0 {
		return 0
	}
	n := 0
	for i := range s {
		if n == chars {
			return i
		}
		n++
	}
	return len(s)
}

// quoteIdent quotes name as an SQL identifier.
func quoteIdent(name string) string { return sqltext.QuoteIdent(name) }

// ident writes name as PostgreSQL reads it: quoted when needed.
func ident(name string) string { return sqltext.Ident(sqltext.PostgreSQL, name) }
