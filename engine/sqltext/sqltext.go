// Package sqltext is the one lexer of SQL text in Querent: SQLite's tokens
// as far as statement boundaries, quotes and comments go, and what the
// engine reads from SQL without compiling it (string literals, a top-level
// ORDER BY, identifiers). Compiling is the database's job (engine/sqlite
// asks SQLite itself); this only splits and reads text.
package sqltext

import (
	"strings"
)

// Kind is the kind of a lexical token of SQLite's SQL.
type Kind int

const (
	Space   Kind = iota // whitespace
	Comment             // -- … or /* … */
	Word                // a keyword or bare identifier
	Quoted              // "identifier", [identifier] or `identifier`
	String              // 'string'
	Number              // 123, 1.5e3, 0x1F
	Param               // ?, ?1, :name, @name, $name
	Semi                // ;
	Op                  // any other punctuation
)

// Token is one Token of a statement: its kind and its byte span.
type Token struct {
	Kind       Kind
	Start, End int
}

// Lex splits sql into tokens the way SQLite's tokenizer does for everything
// that matters to statement boundaries: quotes of all four kinds (with their
// doubled-quote escapes), both comment styles, and semicolons. An unterminated
// quote or block comment runs to the end of the text, as in SQLite.
func Lex(sql string) []Token {
	var toks []Token
	i := 0
	n := len(sql)
	for i < n {
		start := i
		c := sql[i]
		kind := Op
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			for i < n && isSpace(sql[i]) {
				i++
			}
			kind = Space
		case c == '-' && i+1 < n && sql[i+1] == '-':
			for i < n && sql[i] != '\n' {
				i++
			}
			kind = Comment
		case c == '/' && i+1 < n && sql[i+1] == '*':
			end := strings.Index(sql[i+2:], "*/")
			if end < 0 {
				i = n
			} else {
				i += 2 + end + 2
			}
			kind = Comment
		case c == '\'':
			i = skipQuoted(sql, i, '\'')
			kind = String
		case c == '"' || c == '`':
			i = skipQuoted(sql, i, c)
			kind = Quoted
		case c == '[':
			end := strings.IndexByte(sql[i:], ']')
			if end < 0 {
				i = n
			} else {
				i += end + 1
			}
			kind = Quoted
		case c == ';':
			i++
			kind = Semi
		case isDigit(c) || (c == '.' && i+1 < n && isDigit(sql[i+1])):
			i = skipNumber(sql, i)
			kind = Number
		case c == '?':
			i++
			for i < n && isDigit(sql[i]) {
				i++
			}
			kind = Param
		case (c == ':' || c == '@' || c == '$') && i+1 < n && IsIdentChar(sql[i+1]):
			i++
			for i < n && IsIdentChar(sql[i]) {
				i++
			}
			kind = Param
		case isIdentStart(c):
			for i < n && IsIdentChar(sql[i]) {
				i++
			}
			kind = Word
		default:
			i++
		}
		toks = append(toks, Token{Kind: kind, Start: start, End: i})
	}
	return toks
}

func skipQuoted(sql string, i int, q byte) int {
	i++
	for i < len(sql) {
		if sql[i] == q {
			if i+1 < len(sql) && sql[i+1] == q {
				i += 2
				continue
			}
			return i + 1
		}
		i++
	}
	return i
}

func skipNumber(sql string, i int) int {
	n := len(sql)
	if sql[i] == '0' && i+1 < n && (sql[i+1] == 'x' || sql[i+1] == 'X') {
		i += 2
		for i < n && (isHex(sql[i]) || sql[i] == '_') {
			i++
		}
		return i
	}
	for i < n && (isDigit(sql[i]) || sql[i] == '_') {
		i++
	}
	if i < n && sql[i] == '.' {
		i++
		for i < n && (isDigit(sql[i]) || sql[i] == '_') {
			i++
		}
	}
	if i < n && (sql[i] == 'e' || sql[i] == 'E') {
		j := i + 1
		if j < n && (sql[j] == '+' || sql[j] == '-') {
			j++
		}
		if j < n && isDigit(sql[j]) {
			i = j
			for i < n && isDigit(sql[i]) {
				i++
			}
		}
	}
	return i
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}
func isDigit(c byte) bool { return '0' <= c && c <= '9' }
func isHex(c byte) bool {
	return isDigit(c) || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F')
}

// isIdentStart reports whether c can start a bare identifier. Bytes ≥ 0x80
// (UTF-8 sequences) count as identifier characters, as in SQLite.
func isIdentStart(c byte) bool {
	return c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || c >= 0x80
}

// IsIdentChar reports whether c can continue a bare identifier.
func IsIdentChar(c byte) bool { return isIdentStart(c) || isDigit(c) || c == '$' }

// Statement is one Statement of a text: its span without the terminating
// semicolon, and its tokens.
type Statement struct {
	Start, End int
	Toks       []Token
}

// Split returns the statements of sql that hold anything but
// whitespace and comments.
func Split(sql string) []Statement {
	var out []Statement
	var cur []Token
	flush := func() {
		first, last := -1, -1
		for i, t := range cur {
			if t.Kind != Space && t.Kind != Comment {
				if first < 0 {
					first = i
				}
				last = i
			}
		}
		if first >= 0 {
			out = append(out, Statement{Start: cur[first].Start, End: cur[last].End, Toks: cur[first : last+1]})
		}
		cur = nil
	}
	for _, t := range Lex(sql) {
		if t.Kind == Semi {
			flush()
			continue
		}
		cur = append(cur, t)
	}
	flush()
	return out
}

// FirstWord returns the first keyword of a statement, upper-cased, or "".
func (s Statement) FirstWord(sql string) string {
	for _, t := range s.Toks {
		switch t.Kind {
		case Space, Comment:
			continue
		case Word:
			return strings.ToUpper(sql[t.Start:t.End])
		default:
			return ""
		}
	}
	return ""
}

// IdentText returns the identifier a word or quoted token names, without
// its quotes.
func IdentText(sql string, t Token) string {
	s := sql[t.Start:t.End]
	if t.Kind != Quoted || len(s) < 2 {
		return s
	}
	switch s[0] {
	case '"':
		return strings.ReplaceAll(s[1:len(s)-1], `""`, `"`)
	case '`':
		return strings.ReplaceAll(s[1:len(s)-1], "``", "`")
	case '[':
		return s[1 : len(s)-1]
	}
	return s
}

// LineCol returns the 1-based line and column (in bytes) of byte offset
// pos in s, pos clamped to s.
func LineCol(s string, pos int) (line, col int) {
	pos = min(max(pos, 0), len(s))
	line = 1 + strings.Count(s[:pos], "\n")
	col = pos - strings.LastIndex(s[:pos], "\n")
	return line, col
}

// QuoteIdent quotes name as an SQL identifier.
func QuoteIdent(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// QuoteString quotes s as an SQL string literal.
func QuoteString(s string) string {
	return `'` + strings.ReplaceAll(s, `'`, `''`) + `'`
}

// StringLiterals returns the text of sql's single-quoted string literals,
// their ” escapes undone; comments, quoted names and x'…' blobs are not
// literals.
func StringLiterals(sql string) []string {
	var out []string
	toks := Lex(sql)
	for i, t := range toks {
		if t.Kind != String {
			continue
		}
		if i > 0 && toks[i-1].Kind == Word && toks[i-1].End == t.Start && strings.EqualFold(sql[toks[i-1].Start:toks[i-1].End], "x") {
			continue // a blob
		}
		s := sql[t.Start:t.End]
		s = strings.TrimPrefix(s, "'")
		if strings.HasSuffix(s, "'") && len(s) > 0 {
			s = s[:len(s)-1]
		}
		out = append(out, strings.ReplaceAll(s, "''", "'"))
	}
	return out
}

// HasTopLevelOrderBy reports whether sql orders its own result: an ORDER BY
// outside parentheses (subqueries, window definitions, an aggregate's
// ORDER BY), string literals, quoted names and comments.
func HasTopLevelOrderBy(sql string) bool {
	depth := 0
	prevOrder := false // the last word at depth 0 was ORDER
	for _, t := range Lex(sql) {
		switch t.Kind {
		case Space, Comment:
			continue
		case Word:
			w := strings.ToUpper(sql[t.Start:t.End])
			if depth == 0 {
				if prevOrder && w == "BY" {
					return true
				}
				prevOrder = w == "ORDER"
			}
			continue
		case Op:
			switch sql[t.Start:t.End] {
			case "(":
				depth++
			case ")":
				depth--
			}
		}
		prevOrder = false
	}
	return false
}

// Marked shows about 30 bytes of query on each side of the byte offset
// pos, on one line, with ⟶ where the problem is (an error's context); the
// cut never splits a character.
func Marked(query string, pos int) string {
	pos = min(max(pos, 0), len(query))
	start := max(0, pos-30)
	end := min(len(query), pos+30)
	for start > 0 && start < len(query) && query[start]&0xC0 == 0x80 {
		start--
	}
	for end < len(query) && query[end]&0xC0 == 0x80 {
		end++
	}
	before := strings.Join(strings.Fields(query[start:pos]), " ")
	after := strings.Join(strings.Fields(query[pos:end]), " ")
	if start > 0 {
		before = "…" + before
	}
	if end < len(query) {
		after += "…"
	}
	return before + " ⟶" + after
}
