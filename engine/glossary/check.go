package glossary

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"

	"querent/engine"
	"querent/engine/sqltext"
	"querent/engine/text"
	"querent/engine/words"
)

// checked is what checking an entry's SQL found.
type checked struct {
	kind   string
	tables []string
}

// checkSQL compiles an entry's SQL against db by the guard, without running
// it. A whole query is validated as it is. An expression or a condition is
// validated inside a query over the tables it names (or whose columns it
// names):
//
//	SELECT (
//	<expression or condition>
//	) FROM "Invoice" LIMIT 0
//
// so that an unknown column gets the database's own hint (the closest
// names of those tables). A failure is the guard's error, its message
// saying which term it is about.
//
// before are the tables the SQL read when it was last checked: a fragment
// reads those that are still there too, so that a column renamed since
// gets a hint that lists its table's columns now.
func checkSQL(ctx context.Context, db engine.Database, s *engine.Schema, term, sql string, before []string) (checked, error) {
	sts := sqltext.Split(sql)
	switch {
	case len(sts) == 0:
		return checked{}, engine.Errorf(engine.CodeSyntax, "the SQL of %q holds only comments", term).WithHint("write the condition, the expression or the query the term means")
	case len(sts) > 1:
		return checked{}, engine.QueryErrorf(engine.CodeRefused, sql, sts[1].Start, "the SQL of %q holds %d statements; a term's SQL is one", term, len(sts)).WithHint(
			"give one condition, one expression or one query")
	}
	kind := KindQuery
	stmt, prefix := sql, 0
	if w := sts[0].FirstWord(sql); w != "SELECT" && w != "WITH" && w != "VALUES" {
		kind = fragmentKind(sql)
		head := "SELECT (\n"
		stmt = head + sql + "\n) AS glossary_term"
		from := fromTables(sql, s)
		for _, t := range before {
			if tableNamed(s, t) && !containsFold(from, t) {
				from = append(from, t)
			}
		}
		if len(from) > 0 {
			idents := make([]string, len(from))
			for i, t := range from {
				idents[i] = sqltext.TableIdent(db.Dialect(), t)
			}
			stmt += " FROM " + strings.Join(idents, ", ")
		}
		stmt += " LIMIT 0"
		prefix = len(head)
	}
	v, err := db.Validate(ctx, stmt)
	if err != nil {
		return checked{}, checkError(term, sql, prefix, err)
	}
	tables := v.Tables
	if tables == nil {
		tables = []string{}
	}
	return checked{kind: kind, tables: tables}, nil
}

// checkError is the guard's refusal of a term's SQL, about the SQL as the
// analyst wrote it (the position moved out of the wrapping query).
func checkError(term, sql string, prefix int, err error) error {
	e := engine.AsError(err)
	if e.Code == engine.CodeCancelled || e.Code == engine.CodeDatabase || e.Code == engine.CodeInternal {
		return err
	}
	pos := -1
	if e.Position >= prefix && e.Position-prefix <= len(sql) {
		pos = e.Position - prefix
	}
	out := &engine.Error{Code: e.Code, Query: sql, Position: pos, Err: err}
	out.MessageWords = words.New("glossary.sql_refused", words.Quoted(term), words.Value(e.Message))
	out.Message = words.English(out.MessageWords)
	if h := e.HintSentence(); !h.IsZero() {
		out.SayHint(h)
	}
	return out
}

// fragmentKind tells a condition (it compares, tests or combines: =, <,
// AND, IN, LIKE, IS, BETWEEN, EXISTS… outside parentheses) from an
// expression (a value).
func fragmentKind(sql string) string {
	depth := 0
	for _, t := range sqltext.Lex(sql) {
		w := strings.ToUpper(sql[t.Start:t.End])
		switch t.Kind {
		case sqltext.Op:
			switch w {
			case "(":
				depth++
			case ")":
				depth--
			case "=", "==", "<", ">", "<=", ">=", "<>", "!=":
				if depth == 0 {
					return KindCondition
				}
			}
		case sqltext.Word:
			switch w {
			case "CASE":
				depth++
			case "END":
				depth--
			case "AND", "OR", "NOT", "IN", "LIKE", "ILIKE", "GLOB", "REGEXP", "MATCH", "BETWEEN", "IS", "EXISTS", "SIMILAR":
				if depth == 0 {
					return KindCondition
				}
			}
		}
	}
	return KindExpression
}

// fromTables chooses the tables a fragment reads: those it names (as a
// qualifier, T.col, or alone; not those a subquery of it reads FROM), then, for each bare name that is a column
// of none of them, the table holding it (the one that holds the most such
// names first), and for a name no table holds, the table of its closest
// column, so that the guard's hint lists that table's columns.
func fromTables(sql string, s *engine.Schema) []string {
	var idents []string
	qualifiers := map[string]bool{}
	toks := sqltext.Lex(sql)
	prev := "" // the previous keyword or name
	for i, t := range toks {
		if t.Kind != sqltext.Word && t.Kind != sqltext.Quoted {
			continue
		}
		name := sqltext.IdentText(sql, t)
		after := prev
		prev = strings.ToUpper(name)
		if t.Kind == sqltext.Word && (after == "FROM" || after == "JOIN") {
			continue // a subquery's own table: it reads it itself
		}
		next := ""
		if i+1 < len(toks) {
			next = sql[toks[i+1].Start:toks[i+1].End]
		}
		switch {
		case next == ".":
			qualifiers[strings.ToLower(name)] = true
		case next == "(" || t.Kind == sqltext.Word && keywords[strings.ToUpper(name)]:
		case i > 0 && sql[toks[i-1].Start:toks[i-1].End] == ".":
			// T.col: T's column (or an alias's), which the guard checks.
		default:
			idents = append(idents, name)
		}
	}
	var chosen []*engine.Table
	has := func(t *engine.Table) bool {
		for _, c := range chosen {
			if c == t {
				return true
			}
		}
		return false
	}
	for _, t := range s.Tables {
		if !t.Internal && (qualifiers[strings.ToLower(t.Name)] || containsFold(idents, t.Name)) {
			chosen = append(chosen, t)
		}
	}
	// The bare names that no chosen table holds.
	var rest []string
	for _, n := range idents {
		if !chosenHold(chosen, n) && !tableNamed(s, n) {
			rest = append(rest, n)
		}
	}
	for len(rest) > 0 {
		var best *engine.Table
		bestN := 0
		for _, t := range s.Tables {
			if t.Internal || has(t) {
				continue
			}
			n := 0
			for _, r := range rest {
				if t.Column(r) != nil {
					n++
				}
			}
			if n > bestN {
				best, bestN = t, n
			}
		}
		if best == nil {
			break
		}
		chosen = append(chosen, best)
		var left []string
		for _, r := range rest {
			if best.Column(r) == nil {
				left = append(left, r)
			}
		}
		rest = left
	}
	// Names no table holds: a misspelt column. Read the table of its
	// closest column, so that the guard's hint names it.
	for _, r := range rest {
		if t := closestTable(s, r); t != nil && !has(t) {
			chosen = append(chosen, t)
		}
	}
	out := make([]string, len(chosen))
	for i, t := range chosen {
		out[i] = t.Name
	}
	return out
}

func chosenHold(chosen []*engine.Table, name string) bool {
	for _, t := range chosen {
		if t.Column(name) != nil {
			return true
		}
	}
	return false
}

func tableNamed(s *engine.Schema, name string) bool {
	for _, t := range s.Tables {
		if strings.EqualFold(t.Name, name) {
			return true
		}
	}
	return false
}

func containsFold(list []string, s string) bool { return text.ContainsFold(list, s) }

// closestTable is the table of the column whose name is closest to name,
// or nil when none is close.
func closestTable(s *engine.Schema, name string) *engine.Table {
	var cands []string
	owner := map[string]*engine.Table{}
	for _, t := range s.Tables {
		if t.Internal {
			continue
		}
		for _, c := range t.Columns {
			q := t.Name + "." + c.Name
			cands = append(cands, q)
			owner[q] = t
		}
	}
	if best := text.Closest(name, cands, 1); len(best) > 0 {
		return owner[best[0]]
	}
	return nil
}

// keywords are SQL words that name no column, left out of the names a
// fragment reads.
var keywords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`AND OR NOT IN IS NULL LIKE ILIKE GLOB REGEXP MATCH BETWEEN EXISTS CASE WHEN THEN ELSE END
		AS CAST DISTINCT ALL ANY SOME TRUE FALSE ESCAPE COLLATE NOCASE SELECT FROM WHERE GROUP BY ORDER HAVING LIMIT OFFSET
		JOIN LEFT RIGHT INNER OUTER CROSS ON USING UNION EXCEPT INTERSECT ASC DESC INTEGER INT REAL TEXT NUMERIC BLOB DATE
		TIMESTAMP INTERVAL VARCHAR BOOLEAN FLOAT DOUBLE PRECISION DECIMAL CURRENT_DATE CURRENT_TIME CURRENT_TIMESTAMP SIMILAR TO
		FILTER OVER PARTITION ROWS RANGE PRECEDING FOLLOWING UNBOUNDED CURRENT ROW WITH RECURSIVE VALUES`) {
		m[w] = true
	}
	return m
}()

// Fingerprint is a short hash of the definitions of tables in s: each
// table's name and kind, and its columns' names and declared types, in
// the schema's order. A table s lacks counts as missing. Another
// fingerprint means the tables changed since an entry was checked.
func Fingerprint(s *engine.Schema, tables []string) string {
	if len(tables) == 0 {
		return ""
	}
	names := make([]string, len(tables))
	for i, t := range tables {
		names[i] = strings.ToLower(t)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, n := range names {
		var t *engine.Table
		for _, x := range s.Tables {
			if strings.EqualFold(x.Name, n) {
				t = x
				break
			}
		}
		if t == nil {
			fmt.Fprintf(h, "%s\x00missing\n", n)
			continue
		}
		fmt.Fprintf(h, "%s\x00%s\n", n, t.Kind)
		for _, c := range t.Columns {
			fmt.Fprintf(h, "\x00%s\x00%s\n", strings.ToLower(c.Name), strings.ToUpper(c.Type))
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}
