package ask

// Questions that ask for a change: Querent only reads, so such a question
// ends the loop (asking again would be refused again), and the answer says
// how to see the rows the change would touch.

import (
	"strings"

	"querent/engine"
	"querent/engine/sqltext"
	"querent/engine/words"
)

// writeVerbs start statements that change a database.
var writeVerbs = map[string]bool{"INSERT": true, "UPDATE": true, "DELETE": true, "REPLACE": true, "UPSERT": true, "MERGE": true,
	"CREATE": true, "DROP": true, "ALTER": true, "TRUNCATE": true, "GRANT": true, "REVOKE": true}

// isWrite reports whether sql is a statement that changes the database: its
// first keyword, or the first after a WITH clause, is a write.
func isWrite(sql string) bool {
	sts := sqltext.Split(sql)
	if len(sts) == 0 {
		return false
	}
	st := sts[0]
	depth := 0
	first := true
	for _, t := range st.Toks {
		switch t.Kind {
		case sqltext.Space, sqltext.Comment:
			continue
		case sqltext.Op:
			switch sql[t.Start:t.End] {
			case "(":
				depth++
			case ")":
				depth--
			}
		case sqltext.Word:
			w := strings.ToUpper(sql[t.Start:t.End])
			if depth == 0 && writeVerbs[w] {
				return true
			}
			if first && w != "WITH" {
				return false
			}
		}
		first = false
	}
	return false
}

// writeRefused is the answer to a question that asks for a change: Querent
// only reads, and when the change has a read-only counterpart (the rows a
// DELETE or an UPDATE would touch), the hint gives it.
func writeRefused(sql string, e *engine.Error) *engine.Error {
	out := &engine.Error{Code: engine.CodeRefused, Query: sql, Position: e.Position, Err: e,
		Message: "this question asks for a change to the database, and Querent only reads it: " + e.Message}
	if ro := readOnlyVersion(sql); ro != "" {
		return out.SayHint(words.New("hint.write_rows", words.Value(ro), words.SQL))
	}
	return out.SayHint(words.New("hint.write_instead", words.SQL))
}

// readOnlyVersion is the SELECT that shows the rows a DELETE or UPDATE would
// touch (its table and its WHERE), or "".
func readOnlyVersion(sql string) string {
	sts := sqltext.Split(sql)
	if len(sts) != 1 {
		return ""
	}
	st := sts[0]
	var sig []sqltext.Token
	for _, t := range st.Toks {
		if t.Kind != sqltext.Space && t.Kind != sqltext.Comment {
			sig = append(sig, t)
		}
	}
	word := func(i int) string {
		if i < 0 || i >= len(sig) || sig[i].Kind != sqltext.Word {
			return ""
		}
		return strings.ToUpper(sql[sig[i].Start:sig[i].End])
	}
	isName := func(i int) bool {
		return i < len(sig) && (sig[i].Kind == sqltext.Word || sig[i].Kind == sqltext.Quoted)
	}
	// The table: DELETE FROM t …, UPDATE [OR …] t SET …
	table, from := "", -1
	for i := range sig {
		switch word(i) {
		case "DELETE":
			if word(i+1) == "FROM" && isName(i+2) {
				table, from = sql[sig[i+2].Start:sig[i+2].End], i+3
			}
		case "UPDATE":
			j := i + 1
			if word(j) == "OR" {
				j += 2
			}
			if isName(j) {
				table, from = sql[sig[j].Start:sig[j].End], j+1
			}
		}
		if table != "" {
			break
		}
	}
	if table == "" {
		return ""
	}
	where := ""
	depth := 0
	for i := from; i < len(sig); i++ {
		if sig[i].Kind == sqltext.Op {
			switch sql[sig[i].Start:sig[i].End] {
			case "(":
				depth++
			case ")":
				depth--
			}
		}
		if depth == 0 && word(i) == "WHERE" {
			end := len(sql)
			for k := i + 1; k < len(sig); k++ {
				if w := word(k); depth == 0 && (w == "RETURNING" || w == "ORDER" || w == "LIMIT") {
					end = sig[k].Start
					break
				}
			}
			where = " " + strings.TrimSpace(sql[sig[i].Start:min(end, st.End)])
			break
		}
	}
	return "SELECT * FROM " + table + where
}
