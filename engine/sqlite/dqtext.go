package sqlite

import (
	"context"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"querent/engine/adapter"
	"querent/engine/sqltext"
	"querent/engine/text"

	"modernc.org/sqlite"
)

// Double-quoted text.
//
// The connection turns SQLite's double-quoted-string quirk off (_dqs=0), so
// that a misspelt column in double quotes ("InvoiceDat") fails with an error
// the model can repair instead of silently becoming the text 'InvoiceDat'.
// But much SQL, and most of what models learnt from (Spider's gold queries
// among it), writes text in double quotes on purpose: WHERE Airline =
// "JetBlue Airways". Refusing all of it costs a repair round per answer.
//
// So when SQLite reports that a double-quoted token names no column, the
// guard decides, token by token, what the writer meant. A token that looks
// like a column name (columnsLike) keeps the unknown_column error and its
// hint; any other is rewritten as the single-quoted string it is — exactly
// what SQLite itself does with the quirk on — the statement is compiled
// again, and the Validation says so in a warning. The rewritten statement
// goes through the whole guard again (one statement, the authorizer), so a
// rewrite cannot let anything through that the guard would refuse.

// quotedText is one double-quoted token read as text.
type quotedText struct {
	written string // the token as written, quotes included
	text    string // the text it stands for
}

// textEdit is one replacement in a statement's text, in the coordinates of
// the text it was made in: oldLen bytes at at became newLen bytes.
type textEdit struct {
	at, oldLen, newLen int
}

// mapBack turns a byte offset in the text after edits into the offset of
// the same place in the text before them (a place inside a replacement maps
// to its start).
func mapBack(pos int, edits []textEdit) int {
	for i := len(edits) - 1; i >= 0; i-- {
		e := edits[i]
		switch {
		case pos >= e.at+e.newLen:
			pos -= e.newLen - e.oldLen
		case pos > e.at:
			pos = e.at
		}
	}
	return pos
}

// countDoubleQuoted counts the double-quoted tokens of a statement: the
// bound on how many rewrites one validation may make.
func countDoubleQuoted(sql string, toks []sqltext.Token) int {
	n := 0
	for _, t := range toks {
		if t.Kind == sqltext.Quoted && sql[t.Start] == '"' {
			n++
		}
	}
	return n
}

// quotedNoColumn returns the name in SQLite's error for a double-quoted token
// that names no column ("no such column: "X" - should this be a string
// literal in single-quotes?"). SQLite gives that message exactly when, with
// the quirk on, it would have read the token as text: an unqualified
// double-quoted identifier in an expression that matches no column in scope.
func quotedNoColumn(msg string) (string, bool) {
	m := reNoColumn.FindStringSubmatch(msg)
	if m == nil || m[2] == "" {
		return "", false
	}
	raw := m[1]
	// SQLite prints the dequoted name between quotes, without escaping.
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	return raw[1 : len(raw)-1], true
}

// rewriteQuoted reads the double-quoted token that SQLite could not resolve as
// text, when it does not look like a column. offset is SQLite's error
// offset in text, or -1. It returns the rewritten text, the edit and the
// literal, or ok false when the error must stand: another error, a token it
// cannot find for certain, or a name close to a column.
func (d *DB) rewriteQuoted(ctx context.Context, text string, offset int, msg string) (next string, edit textEdit, lit quotedText, ok bool) {
	name, isDQ := quotedNoColumn(msg)
	if !isDQ {
		return "", textEdit{}, quotedText{}, false
	}
	toks := sqltext.Lex(text)
	i := quotedTokenAt(text, toks, offset, name)
	if i < 0 {
		return "", textEdit{}, quotedText{}, false
	}
	idx, _ := d.nameIndexLocked(ctx)
	if idx == nil {
		return "", textEdit{}, quotedText{}, false // without the names, closeness cannot be told: keep the error
	}
	if near, elsewhere := columnsLike(name, tablesInScope(text, name, idx), idx); len(near) > 0 || len(elsewhere) > 0 {
		return "", textEdit{}, quotedText{}, false
	}
	t := toks[i]
	repl := sqltext.QuoteString(name)
	next = text[:t.Start] + repl + text[t.End:]
	// The replacement is one string token where there was one identifier
	// token; check it all the same, since what runs is next.
	if len(sqltext.Split(next)) != 1 {
		return "", textEdit{}, quotedText{}, false
	}
	return next, textEdit{at: t.Start, oldLen: t.End - t.Start, newLen: len(repl)},
		quotedText{written: text[t.Start:t.End], text: repl}, true
}

// quotedTokenAt finds the token SQLite complained about: the double-quoted
// token at offset when there is one naming name, else the only
// double-quoted token naming name in an expression's place (SQLite gives no
// offset for a token in a join's ON clause). It returns -1 when it cannot
// tell: rewriting the wrong one of two tokens would change the meaning of
// a column reference.
func quotedTokenAt(text string, toks []sqltext.Token, offset int, name string) int {
	isName := func(t sqltext.Token) bool {
		return t.Kind == sqltext.Quoted && text[t.Start] == '"' && t.End-t.Start >= 2 && text[t.End-1] == '"' && sqltext.IdentText(text, t) == name
	}
	if offset >= 0 {
		for i, t := range toks {
			if t.Start == offset && isName(t) {
				return i
			}
		}
	}
	found := -1
	for i, t := range toks {
		if !isName(t) || !exprPlace(text, toks, i) {
			continue
		}
		if found >= 0 {
			return -1
		}
		found = i
	}
	return found
}

// exprPlace reports whether token i stands where an expression can, judged
// by its neighbours: not a qualifier or qualified name (x.y), not a
// function or CTE name (followed by "("), not an alias, table, collation or
// window name (after AS, FROM, JOIN, COLLATE, OVER, …).
func exprPlace(text string, toks []sqltext.Token, i int) bool {
	prev, next := "", ""
	for j := i - 1; j >= 0; j-- {
		if toks[j].Kind != sqltext.Space && toks[j].Kind != sqltext.Comment {
			prev = strings.ToUpper(text[toks[j].Start:toks[j].End])
			break
		}
	}
	for j := i + 1; j < len(toks); j++ {
		if toks[j].Kind != sqltext.Space && toks[j].Kind != sqltext.Comment {
			next = text[toks[j].Start:toks[j].End]
			break
		}
	}
	switch prev {
	case ".", "AS", "FROM", "JOIN", "INTO", "TABLE", "VIEW", "UPDATE", "WITH", "RECURSIVE", "COLLATE", "OVER", "WINDOW", "INDEXED":
		return false
	}
	return next != "." && next != "("
}

// tablesInScope returns the tables the statement names, not counting the
// double-quoted tokens named name: text that happens to equal a table's
// name ("Artist") does not bring that table's columns into the comparison.
func tablesInScope(text, name string, idx *adapter.Names) []string {
	var b strings.Builder
	last := 0
	for _, t := range sqltext.Lex(text) {
		if t.Kind == sqltext.Quoted && text[t.Start] == '"' && sqltext.IdentText(text, t) == name {
			b.WriteString(text[last:t.Start])
			b.WriteString("''")
			last = t.End
		}
	}
	b.WriteString(text[last:])
	tables, _ := queryTables(b.String(), idx)
	return tables
}

// columnsLike returns the columns that a double-quoted name looks like:
// near, the columns of the tables in scope (qualified as table.column when
// there are several tables), and elsewhere, "table.column" of the other
// tables. Either non-empty means the name is taken for a misspelt or
// misplaced column, and stays an unknown_column error.
//
// The rule is the unknown_column hint's (closest), made stricter where the
// hint is generous on purpose and text often matches: after normalising
// both names (case, "_", " " and "-" ignored), a name is close to a column
// when
//   - it is the same name (InvoiceDate, "invoice date"), in any table;
//   - it is one slip away per four characters, a swap of two letters
//     counting as one ("Titel", "Totl", "Adress"), in the tables in scope;
//   - it is written like an identifier (letters, digits, "_") and starts,
//     ends or sits inside a column's name, or the column's name inside it,
//     as in the hint ("Country" for BillingCountry, "InvoiceDat",
//     "ArtistName"), in the tables in scope.
//
// The hint's looser edit distance (1 + length/4) would call "Sale" close to
// Name, and its containment would call "United Airlines" close to Airline
// and "Kansas City" close to City: words of text, not columns.
func columnsLike(name string, scope []string, idx *adapter.Names) (near, elsewhere []string) {
	n := normName(name)
	if n == "" {
		return nil, nil
	}
	ident := identShaped(name)
	for _, t := range scope {
		tn := idx.Table(t)
		if tn == nil {
			continue
		}
		for _, c := range tn.Columns {
			if closeToColumn(n, normName(c), ident) {
				if len(scope) > 1 {
					c = tn.Name + "." + c
				}
				near = append(near, c)
			}
		}
	}
	for _, tn := range idx.Tables {
		if tn.Internal || text.ContainsFold(scope, tn.Name) {
			continue
		}
		for _, c := range tn.Columns {
			if normName(c) == n {
				elsewhere = append(elsewhere, tn.Name+"."+c)
			}
		}
	}
	return near, elsewhere
}

// closeToColumn is columnsLike's test for one column; n and c are normalised.
func closeToColumn(n, c string, ident bool) bool {
	if n == c {
		return true
	}
	if l := utf8.RuneCountInString(n); l >= 4 && osaDistance(n, c) <= l/4 {
		return true
	}
	if !ident {
		return false
	}
	return (len(n) >= 3 && strings.HasPrefix(c, n)) || (len(c) >= 3 && strings.HasPrefix(n, c)) ||
		(len(n) >= 4 && strings.Contains(c, n)) || (len(c) >= 4 && strings.Contains(n, c))
}

// normName is the form names are compared in: lower case, without "_",
// spaces and "-" (as closest compares them).
func normName(s string) string {
	return strings.NewReplacer("_", "", " ", "", "-", "").Replace(strings.ToLower(s))
}

// identShaped reports whether s is written like an identifier: letters,
// digits and "_" only.
func identShaped(s string) bool {
	for _, r := range s {
		if r != '_' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return false
		}
	}
	return s != ""
}

// osaDistance is the optimal-string-alignment edit distance of a and b, in
// runes: insertions, deletions, substitutions and swaps of two adjacent
// runes cost one each. A swap is the commonest slip in a typed name
// ("Titel"), which plain Levenshtein counts as two.
func osaDistance(a, b string) int {
	x, y := []rune(a), []rune(b)
	prev2 := make([]int, len(y)+1)
	prev := make([]int, len(y)+1)
	cur := make([]int, len(y)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(x); i++ {
		cur[0] = i
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(y)]
}

// writtenColumnNames gives the result columns the names SQLite gives them with
// the quirk on. SQLite names a column without an alias by its expression as
// written, so a rewritten token shows in the name ('hello' for "hello",
// coalesce(x, 'none') for coalesce(x, "none")): such a name, found in the
// rewritten text, is replaced with the same span of the text as written.
// Columns are looked for in order, each after the last one found, since a
// statement's result columns come in the order of its text.
func writtenColumnNames(cols []sqlite.ColumnInfo, written, rewritten string, edits []textEdit, lits []quotedText) []sqlite.ColumnInfo {
	out := append([]sqlite.ColumnInfo(nil), cols...)
	from := 0
	for i := range out {
		name := out[i].Name
		holds := false
		for _, l := range lits {
			holds = holds || strings.Contains(name, l.text)
		}
		if !holds {
			continue
		}
		at := strings.Index(rewritten[from:], name)
		if at >= 0 {
			at += from
		} else if at = strings.Index(rewritten, name); at < 0 {
			continue
		}
		from = at + len(name)
		a, b := mapBack(at, edits), mapBack(at+len(name), edits)
		if 0 <= a && a <= b && b <= len(written) {
			out[i].Name = written[a:b]
		}
	}
	return out
}

// quotedTextWarning says which double-quoted tokens were read as text.
func quotedTextWarning(lits []quotedText) string {
	var written, texts []string
	seen := map[string]bool{}
	for _, l := range lits {
		if seen[l.written] {
			continue
		}
		seen[l.written] = true
		written = append(written, l.written)
		texts = append(texts, l.text)
	}
	const shown = 5
	more := ""
	if len(written) > shown {
		more = fmt.Sprintf(" (and %d more)", len(written)-shown)
		written, texts = written[:shown], texts[:shown]
	}
	if len(written) == 1 {
		return fmt.Sprintf("%s in double quotes is not a column: read as the text %s (write text in 'single quotes')", written[0], texts[0])
	}
	return fmt.Sprintf("%s%s in double quotes are not columns: read as the text %s (write text in 'single quotes')",
		andList(written), more, andList(texts))
}

func andList(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}
