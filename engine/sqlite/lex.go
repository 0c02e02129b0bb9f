package sqlite

import (
	"strings"
)

// tokKind is the kind of a lexical token of SQLite's SQL.
type tokKind int

const (
	tokSpace   tokKind = iota // whitespace
	tokComment                // -- … or /* … */
	tokWord                   // a keyword or bare identifier
	tokQuoted                 // "identifier", [identifier] or `identifier`
	tokString                 // 'string'
	tokNumber                 // 123, 1.5e3, 0x1F
	tokParam                  // ?, ?1, :name, @name, $name
	tokSemi                   // ;
	tokOp                     // any other punctuation
)

// token is one token of a statement: its kind and its byte span.
type token struct {
	kind       tokKind
	start, end int
}

// lex splits sql into tokens the way SQLite's tokenizer does for everything
// that matters to statement boundaries: quotes of all four kinds (with their
// doubled-quote escapes), both comment styles, and semicolons. An unterminated
// quote or block comment runs to the end of the text, as in SQLite.
func lex(sql string) []token {
	var toks []token
	i := 0
	n := len(sql)
	for i < n {
		start := i
		c := sql[i]
		kind := tokOp
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			for i < n && isSpace(sql[i]) {
				i++
			}
			kind = tokSpace
		case c == '-' && i+1 < n && sql[i+1] == '-':
			for i < n && sql[i] != '\n' {
				i++
			}
			kind = tokComment
		case c == '/' && i+1 < n && sql[i+1] == '*':
			end := strings.Index(sql[i+2:], "*/")
			if end < 0 {
				i = n
			} else {
				i += 2 + end + 2
			}
			kind = tokComment
		case c == '\'':
			i = skipQuoted(sql, i, '\'')
			kind = tokString
		case c == '"' || c == '`':
			i = skipQuoted(sql, i, c)
			kind = tokQuoted
		case c == '[':
			end := strings.IndexByte(sql[i:], ']')
			if end < 0 {
				i = n
			} else {
				i += end + 1
			}
			kind = tokQuoted
		case c == ';':
			i++
			kind = tokSemi
		case isDigit(c) || (c == '.' && i+1 < n && isDigit(sql[i+1])):
			i = skipNumber(sql, i)
			kind = tokNumber
		case c == '?':
			i++
			for i < n && isDigit(sql[i]) {
				i++
			}
			kind = tokParam
		case (c == ':' || c == '@' || c == '$') && i+1 < n && isIdentChar(sql[i+1]):
			i++
			for i < n && isIdentChar(sql[i]) {
				i++
			}
			kind = tokParam
		case isIdentStart(c):
			for i < n && isIdentChar(sql[i]) {
				i++
			}
			kind = tokWord
		default:
			i++
		}
		toks = append(toks, token{kind: kind, start: start, end: i})
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
func isIdentChar(c byte) bool { return isIdentStart(c) || isDigit(c) || c == '$' }

// statement is one statement of a text: its span without the terminating
// semicolon, and its tokens.
type statement struct {
	start, end int
	toks       []token
}

// splitStatements returns the statements of sql that hold anything but
// whitespace and comments.
func splitStatements(sql string) []statement {
	var out []statement
	var cur []token
	flush := func() {
		first, last := -1, -1
		for i, t := range cur {
			if t.kind != tokSpace && t.kind != tokComment {
				if first < 0 {
					first = i
				}
				last = i
			}
		}
		if first >= 0 {
			out = append(out, statement{start: cur[first].start, end: cur[last].end, toks: cur[first : last+1]})
		}
		cur = nil
	}
	for _, t := range lex(sql) {
		if t.kind == tokSemi {
			flush()
			continue
		}
		cur = append(cur, t)
	}
	flush()
	return out
}

// firstWord returns the first keyword of a statement, upper-cased, or "".
func (s statement) firstWord(sql string) string {
	for _, t := range s.toks {
		switch t.kind {
		case tokSpace, tokComment:
			continue
		case tokWord:
			return strings.ToUpper(sql[t.start:t.end])
		default:
			return ""
		}
	}
	return ""
}

// identText returns the identifier a word or quoted token names, without
// its quotes.
func identText(sql string, t token) string {
	s := sql[t.start:t.end]
	if t.kind != tokQuoted || len(s) < 2 {
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

// lineCol returns the 1-based line and column of byte offset pos in s.
func lineCol(s string, pos int) (line, col int) {
	if pos > len(s) {
		pos = len(s)
	}
	line = 1 + strings.Count(s[:pos], "\n")
	col = pos - strings.LastIndex(s[:pos], "\n")
	return line, col
}

// quoteIdent quotes name as an SQL identifier.
func quoteIdent(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// quoteString quotes s as an SQL string literal.
func quoteString(s string) string {
	return `'` + strings.ReplaceAll(s, `'`, `''`) + `'`
}
