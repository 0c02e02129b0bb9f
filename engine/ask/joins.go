package ask

import (
	"context"
	"strings"

	"querent/engine"
	"querent/engine/sqltext"
)

// colRef is a column of a table, as one name of the query reads it (by
// alias: a self-join reads the same table under two).
type colRef struct {
	table, column, alias string
}

// name is the column as the reasons say it: Table.Column.
func (c colRef) name() string { return c.table + "." + c.column }

// joinPair is an equality between columns of two tables (or of one table
// under two names) that the query joins on.
type joinPair struct{ left, right colRef }

// clauseWords end a table's name and alias in a FROM clause.
var clauseWords = map[string]bool{
	"ON": true, "USING": true, "WHERE": true, "JOIN": true, "LEFT": true, "RIGHT": true, "FULL": true, "INNER": true,
	"OUTER": true, "CROSS": true, "NATURAL": true, "GROUP": true, "ORDER": true, "LIMIT": true, "HAVING": true,
	"UNION": true, "EXCEPT": true, "INTERSECT": true, "WINDOW": true, "AS": true, "SELECT": true, "FROM": true,
	"INDEXED": true, "NOT": true, "OFFSET": true, "FETCH": true, "LATERAL": true,
}

// joinScan reads the joins of one query from its text (sqltext's tokens)
// and the schema: every table named after FROM, JOIN or a comma with its
// alias, then every equality between two column references of different
// names, wherever it is written (ON, WHERE, a subquery), and the columns
// of USING and NATURAL joins. It is a mechanism over the text, not a list
// of query shapes: a reference it cannot resolve to one table's column (a
// CTE, a subquery's alias, an expression) is left out, so that it never
// reports a join it did not see.
type joinScan struct {
	sql    string
	s      *engine.Schema
	toks   []sqltext.Token
	alias  map[string]string // alias or name (upper-cased) → table
	order  []colRef          // the tables in the order named (alias set)
	shadow map[string]bool   // names that mean two tables: never resolved
}

// queryJoins returns the joins of sql over the schema s.
func queryJoins(sql string, s *engine.Schema) []joinPair {
	if s == nil {
		return nil
	}
	js := &joinScan{sql: sql, s: s, alias: map[string]string{}, shadow: map[string]bool{}}
	for _, t := range sqltext.Lex(sql) {
		if t.Kind != sqltext.Space && t.Kind != sqltext.Comment {
			js.toks = append(js.toks, t)
		}
	}
	js.tables()
	pairs := js.usingJoins()
	for i := range js.toks {
		if op := js.text(i); op != "=" && op != "==" {
			continue
		}
		l, lok := js.refBefore(i)
		r, rok := js.refAfter(i + 1)
		if lok && rok && !strings.EqualFold(l.alias, r.alias) {
			pairs = append(pairs, joinPair{l, r})
		}
	}
	return pairs
}

func (js *joinScan) text(i int) string {
	if i < 0 || i >= len(js.toks) {
		return ""
	}
	t := js.toks[i]
	return js.sql[t.Start:t.End]
}

func (js *joinScan) ident(i int) (string, bool) {
	if i < 0 || i >= len(js.toks) {
		return "", false
	}
	t := js.toks[i]
	if t.Kind != sqltext.Word && t.Kind != sqltext.Quoted {
		return "", false
	}
	return sqltext.IdentText(js.sql, t), true
}

// tableAt reads a table's name at token i (name, or schema.name), and
// returns the table and the index after the name.
func (js *joinScan) tableAt(i int) (*engine.Table, int) {
	name, ok := js.ident(i)
	if !ok {
		return nil, i
	}
	if js.text(i+1) == "." {
		if second, ok := js.ident(i + 2); ok {
			if t := js.s.Table(name + "." + second); t != nil {
				return t, i + 3
			}
			if t := js.s.Table(second); t != nil {
				return t, i + 3
			}
		}
		return nil, i
	}
	if js.text(i+1) == "(" {
		return nil, i // a table-valued function
	}
	return js.s.Table(name), i + 1
}

// tables records the tables named after FROM, JOIN and a comma of a FROM
// list, with their aliases.
func (js *joinScan) tables() {
	inFrom := false
	for i := 0; i < len(js.toks); i++ {
		w := strings.ToUpper(js.text(i))
		switch {
		case w == "FROM" || w == "JOIN":
			inFrom = true
		case w == "," && inFrom:
		case w == "WHERE" || w == "GROUP" || w == "ORDER" || w == "SELECT" || w == "HAVING" || w == "LIMIT" || w == ")":
			inFrom = false
			continue
		default:
			continue
		}
		t, next := js.tableAt(i + 1)
		if t == nil {
			continue
		}
		alias := t.Name
		if strings.EqualFold(js.text(next), "AS") {
			next++
		}
		if a, ok := js.ident(next); ok && !clauseWords[strings.ToUpper(a)] {
			alias = a
		}
		js.name(alias, t.Name)
		js.name(t.Name, t.Name)
		js.order = append(js.order, colRef{table: t.Name, alias: alias})
	}
}

// name records that key names table; a key met for two tables means
// neither.
func (js *joinScan) name(key, table string) {
	k := strings.ToUpper(key)
	if prev, ok := js.alias[k]; ok && !strings.EqualFold(prev, table) {
		js.shadow[k] = true
	}
	js.alias[k] = table
}

// resolve finds the column a reference names: qualified by a table or
// alias, or bare when exactly one of the query's tables has it.
func (js *joinScan) resolve(qual, column string) (colRef, bool) {
	if qual != "" {
		k := strings.ToUpper(qual)
		table, ok := js.alias[k]
		if !ok || js.shadow[k] {
			return colRef{}, false
		}
		t := js.s.Table(table)
		if t == nil || t.Column(column) == nil {
			return colRef{}, false
		}
		return colRef{table: t.Name, column: t.Column(column).Name, alias: qual}, true
	}
	var found colRef
	n := 0
	for _, o := range js.order {
		if t := js.s.Table(o.table); t != nil && t.Column(column) != nil {
			if n == 0 || !strings.EqualFold(found.alias, o.alias) {
				n++
			}
			found = colRef{table: t.Name, column: t.Column(column).Name, alias: o.alias}
		}
	}
	return found, n == 1
}

// refBefore reads the column reference that ends just before token i.
func (js *joinScan) refBefore(i int) (colRef, bool) {
	col, ok := js.ident(i - 1)
	if !ok || clauseWords[strings.ToUpper(col)] {
		return colRef{}, false
	}
	if js.text(i-2) == "." {
		qual, ok := js.ident(i - 3)
		if !ok || js.text(i-4) == "." {
			return colRef{}, false
		}
		return js.resolve(qual, col)
	}
	if p := js.text(i - 2); p == "(" && i >= 3 {
		if _, fn := js.ident(i - 3); fn {
			return colRef{}, false // f(x) = …: not a column
		}
	}
	return js.resolve("", col)
}

// refAfter reads the column reference that starts at token i, when
// nothing but a comparison's end follows it.
func (js *joinScan) refAfter(i int) (colRef, bool) {
	first, ok := js.ident(i)
	if !ok || clauseWords[strings.ToUpper(first)] {
		return colRef{}, false
	}
	end, ref, ok := i+1, colRef{}, false
	if js.text(i+1) == "." {
		col, cok := js.ident(i + 2)
		if !cok {
			return colRef{}, false
		}
		end = i + 3
		ref, ok = js.resolve(first, col)
	} else {
		ref, ok = js.resolve("", first)
	}
	switch js.text(end) {
	case "(", ".", "||", "+", "-", "*", "/", "%":
		return colRef{}, false // part of a larger expression
	}
	return ref, ok
}

// usingJoins reads the columns of JOIN … USING (a, b) and NATURAL JOIN:
// the table joined, and the first table named before it that has the
// column.
func (js *joinScan) usingJoins() []joinPair {
	var pairs []joinPair
	seen := 0
	for i := 0; i < len(js.toks); i++ {
		w := strings.ToUpper(js.text(i))
		if w != "JOIN" {
			continue
		}
		natural := strings.EqualFold(js.text(i-1), "NATURAL") || strings.EqualFold(js.text(i-2), "NATURAL") ||
			strings.EqualFold(js.text(i-3), "NATURAL")
		t, next := js.tableAt(i + 1)
		if t == nil {
			continue
		}
		// js.order holds this table at the position of its JOIN.
		for seen < len(js.order) && !strings.EqualFold(js.order[seen].table, t.Name) {
			seen++
		}
		if seen >= len(js.order) {
			break
		}
		right := js.order[seen]
		earlier := js.order[:seen]
		seen++
		var cols []string
		switch {
		case natural:
			for _, c := range t.Columns {
				cols = append(cols, c.Name)
			}
		default:
			for j := next; j < len(js.toks) && j < next+3; j++ {
				if strings.EqualFold(js.text(j), "USING") && js.text(j+1) == "(" {
					for k := j + 2; k < len(js.toks) && js.text(k) != ")"; k++ {
						if c, ok := js.ident(k); ok {
							cols = append(cols, c)
						}
					}
				}
			}
		}
		for _, c := range cols {
			for _, e := range earlier {
				if et := js.s.Table(e.table); et != nil && et.Column(c) != nil {
					pairs = append(pairs, joinPair{colRef{table: et.Name, column: et.Column(c).Name, alias: e.alias},
						colRef{table: t.Name, column: t.Column(c).Name, alias: right.alias}})
					break
				}
			}
		}
	}
	return pairs
}

// keyed reports whether the schema has a key between the two columns of
// a join: a foreign key from one to the other, two foreign keys to the
// same column, the two tables' single-column primary keys, or a column
// of the same name that is one side's primary key.
func keyed(s *engine.Schema, p joinPair) bool {
	lt, rt := s.Table(p.left.table), s.Table(p.right.table)
	if lt == nil || rt == nil {
		return true
	}
	lref, rref := references(lt, p.left.column), references(rt, p.right.column)
	switch {
	case lref != "" && strings.EqualFold(lref, p.right.name()):
		return true
	case rref != "" && strings.EqualFold(rref, p.left.name()):
		return true
	case lref != "" && strings.EqualFold(lref, rref):
		return true
	}
	lpk, rpk := soleKey(lt, p.left.column), soleKey(rt, p.right.column)
	if lpk && rpk {
		return true
	}
	return (lpk || rpk) && strings.EqualFold(p.left.column, p.right.column)
}

// references is what column of t references, as Table.Column ("" when it
// is no foreign key).
func references(t *engine.Table, column string) string {
	for _, fk := range t.ForeignKeys {
		if !strings.EqualFold(fk.Column, column) {
			continue
		}
		table, col, ok := strings.Cut(strings.TrimSuffix(fk.References, ")"), "(")
		if !ok {
			return ""
		}
		return strings.Trim(table, `"`) + "." + strings.Trim(col, `"`)
	}
	return ""
}

// soleKey reports whether column is t's whole primary key.
func soleKey(t *engine.Table, column string) bool {
	return len(t.PrimaryKey) == 1 && strings.EqualFold(t.PrimaryKey[0], column)
}

// declaresKeys reports whether the schema says what its keys are (any
// foreign key at all): without one (a database of imported files), a join
// on no key says nothing about the answer.
func declaresKeys(s *engine.Schema) bool {
	for _, t := range s.Tables {
		if len(t.ForeignKeys) > 0 {
			return true
		}
	}
	return false
}

// unkeyedJoins are the joins of sql on columns with no key between them,
// each once.
func unkeyedJoins(sql string, s *engine.Schema) []joinPair {
	if s == nil || !declaresKeys(s) {
		return nil
	}
	var out []joinPair
	seen := map[string]bool{}
	for _, p := range queryJoins(sql, s) {
		k := strings.ToLower(p.left.name() + "=" + p.right.name())
		if keyed(s, p) || seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, p)
	}
	return out
}

// JoinHinter gives a database's joins read from the values, by table, as
// foreign keys marked Inferred (profile.Joins).
type JoinHinter interface {
	Hints(ctx context.Context, db engine.Database) map[string][]engine.ForeignKey
}

// withJoins is s with the inferred joins of Joins added to its tables'
// foreign keys (a copy: s is the database's own); s itself without them.
func (a *Asker) withJoins(ctx context.Context, s *engine.Schema) *engine.Schema {
	if a.Joins == nil {
		return s
	}
	a.mu.Lock()
	if !a.hintsRead {
		a.hints, a.hintsRead = a.Joins.Hints(ctx, a.DB), true
	}
	hints := a.hints
	a.mu.Unlock()
	if len(hints) == 0 {
		return s
	}
	c := *s
	c.Tables = make([]*engine.Table, len(s.Tables))
	for i, t := range s.Tables {
		c.Tables[i] = t
		fks := hints[t.Name]
		if len(fks) == 0 {
			continue
		}
		tc := *t
		tc.ForeignKeys = append(append([]engine.ForeignKey{}, t.ForeignKeys...), fks...)
		c.Tables[i] = &tc
	}
	return &c
}
