package sqlite

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"querent/engine/adapter"
	"querent/engine/sqltext"

	"modernc.org/sqlite"
	lib "modernc.org/sqlite/lib"

	"querent/engine"
	"querent/engine/text"
	"querent/engine/words"
)

// Validate compiles query with SQLite's own compiler, without running it,
// under the guard's policy: exactly one statement, read-only by the
// authorizer, at least one result column, not EXPLAIN. Failures are
// *engine.Error values whose messages say precisely what is wrong (they are
// what a model reads when it repairs its SQL).
func (d *DB) Validate(ctx context.Context, query string) (*engine.Validation, error) {
	var v *engine.Validation
	err := d.withLock(ctx, func() error {
		var err error
		v, err = d.validateLocked(ctx, query)
		return err
	})
	if err != nil {
		return nil, engine.AsError(err)
	}
	return v, nil
}

// precheck applies the checks that need no database: size, NUL bytes,
// exactly one statement, not EXPLAIN. It returns the statement's span.
func precheck(query string) (sqltext.Statement, *engine.Error) {
	if len(query) > maxSQLBytes {
		return sqltext.Statement{}, engine.QueryErrorf(engine.CodeTooBig, query, -1,
			"the SQL is %s long; the limit is %s", humanBytes(int64(len(query))), humanBytes(maxSQLBytes)).WithHint(
			"write a shorter query: long IN (…) lists and repeated expressions can usually be replaced by a join or a CTE")
	}
	if i := strings.IndexByte(query, 0); i >= 0 {
		return sqltext.Statement{}, engine.QueryErrorf(engine.CodeRefused, query, i, "the SQL contains a NUL byte (at byte %d)", i).WithHint(
			"remove the invisible NUL character; it often comes from copying binary data")
	}
	stmts := sqltext.Split(query)
	switch {
	case len(stmts) == 0:
		return sqltext.Statement{}, engine.QueryErrorf(engine.CodeSyntax, query, -1, "there is no SQL statement here, only whitespace or comments").WithHint(
			"write a query, for example: SELECT * FROM some_table LIMIT 10")
	case len(stmts) > 1:
		second := stmts[1]
		line, col := sqltext.LineCol(query, second.Start)
		return sqltext.Statement{}, engine.QueryErrorf(engine.CodeRefused, query, second.Start,
			"only one statement can run at a time; this text holds %d (the second starts at line %d, column %d: %s)",
			len(stmts), line, col, text.Excerpt(query[second.Start:second.End], 40)).WithHint(
			"run the statements one at a time, or combine them into one query with a CTE (WITH …), a join or UNION ALL")
	}
	s := stmts[0]
	for _, t := range s.Toks {
		if t.Kind == sqltext.Param && t.Start > 0 && query[t.Start] == ':' && query[t.Start-1] == ':' {
			h := foreignSyntax["::"]
			return sqltext.Statement{}, engine.QueryErrorf(engine.CodeSyntax, query, t.Start-1, "%s (%s)", h[0], query[t.Start-1:t.End]).WithHint("%s", h[1])
		}
		if t.Kind == sqltext.Param {
			return sqltext.Statement{}, engine.QueryErrorf(engine.CodeSyntax, query, t.Start,
				"the query has a parameter (%s) but no value is bound to it", query[t.Start:t.End]).WithHint(
				"write the value into the SQL itself: 'text' in single quotes, numbers as they are")
		}
	}
	if s.FirstWord(query) == "EXPLAIN" {
		return sqltext.Statement{}, engine.QueryErrorf(engine.CodeRefused, query, s.Start, "EXPLAIN is not a query that returns data").WithHint(
			"run the query itself; Querent adds query-plan hints (optimization_hints) to every answer")
	}
	return s, nil
}

func (d *DB) validateLocked(ctx context.Context, query string) (*engine.Validation, error) {
	s, perr := precheck(query)
	if perr != nil {
		return nil, perr
	}
	text := query[s.Start:s.End]
	// Double-quoted text that names no column is read as text, one token
	// per round (dqtext.go); each round compiles the new text under the
	// whole policy again. Every round removes one double-quoted token, so
	// their number bounds the loop.
	var lits []quotedText
	var edits []textEdit
	budget := countDoubleQuoted(query, s.Toks)
	var cols []sqlite.ColumnInfo
	var denied string
	var sawSelect bool
	var reads []read
	var funcs []string
	for {
		d.auth.reset(policyQuery)
		var offset int
		var err error
		cols, offset, err = d.columnInfoLocked(text)
		denied, sawSelect = d.auth.denied, d.auth.sawSelect
		reads = append([]read(nil), d.auth.reads...)
		funcs = append([]string(nil), d.auth.funcs...)
		if err == nil {
			break
		}
		if denied == "" && len(lits) < budget && ctx.Err() == nil {
			if next, edit, lit, ok := d.rewriteQuoted(ctx, text, offset, sqliteMessage(err)); ok {
				text = next
				edits = append(edits, edit)
				lits = append(lits, lit)
				continue
			}
		}
		if offset >= 0 {
			offset += s.Start
		}
		e := d.compileError(ctx, query, text, s.Start, offset, nameStatement(denied, query, s.Toks), err)
		if len(edits) > 0 && e.Query == query && e.Position >= s.Start {
			// The error was found in the rewritten text: point at the same
			// place in the query as written.
			e.Position = s.Start + mapBack(e.Position-s.Start, edits)
		}
		return nil, e
	}
	if denied != "" {
		return nil, engine.Refused(query, s.Start, nameStatement(denied, query, s.Toks))
	}
	word := s.FirstWord(query)
	if len(cols) == 0 || !sawSelect {
		what := "this statement"
		if word != "" {
			what = "a " + word + " statement"
		}
		return nil, engine.Refused(query, s.Start, what+" is not a query: it returns no rows to show")
	}
	v := &engine.Validation{SQL: text, Columns: uniqueColumns(cols)}
	if len(lits) > 0 {
		v.Columns = uniqueColumns(writtenColumnNames(cols, query[s.Start:s.End], text, edits, lits))
		v.Warnings = []string{quotedTextWarning(lits)}
	}
	v.Tables, v.ColumnsRead = summarizeReads(reads)
	v.Tables = d.addJoinedTables(ctx, text, v.Tables)
	v.Tables = byFirstMention(text, v.Tables)
	v.Functions = calledFunctions(text, funcs)
	return v, nil
}

// nameStatement words a denial of a CREATE or DROP by the statement as
// written ("DROP TABLE Track would change the database") rather than by the
// write to SQLite's schema table it starts with.
func nameStatement(denied, query string, toks []sqltext.Token) string {
	if denied == "" || !schemaWrite(denied) {
		return denied
	}
	if what := describeStatement(query, toks); what != "" {
		return what + " would change the database"
	}
	return denied
}

// uniqueColumns names the result columns uniquely, in the query's order: a
// repeated name gets a suffix (name, name_2, …), so no value is lost.
func uniqueColumns(info []sqlite.ColumnInfo) []engine.Column {
	cols := make([]engine.Column, len(info))
	for i, c := range info {
		cols[i] = engine.Column{Name: c.Name, Type: c.DeclType, DeclType: c.DeclType}
		if c.TableName != "" && c.OriginName != "" {
			cols[i].Origin = c.TableName + "." + c.OriginName
		}
	}
	engine.UniqueNames(cols)
	return cols
}

// summarizeReads lists the tables (and views) read, in order of first use,
// and the table.column pairs, without Querent's own wrapper.
func summarizeReads(reads []read) (tables, columns []string) {
	seenT, seenC := map[string]bool{}, map[string]bool{}
	add := func(t string) {
		if t == "" || strings.HasPrefix(t, "_querent_") || seenT[strings.ToLower(t)] {
			return
		}
		seenT[strings.ToLower(t)] = true
		tables = append(tables, t)
	}
	for _, r := range reads {
		if r.view != "" && !strings.HasPrefix(r.view, "_querent_") && !isCTEName(r.view, reads) {
			add(r.view)
		}
		add(r.table)
		if r.table != "" && r.column != "" {
			key := r.table + "." + r.column
			if !seenC[strings.ToLower(key)] {
				seenC[strings.ToLower(key)] = true
				columns = append(columns, key)
			}
		}
	}
	return tables, columns
}

// addJoinedTables adds the tables that a USING or NATURAL join reads without
// telling the authorizer: SQLite builds the join's column references already
// resolved, so a table whose only columns read are the join's (FROM Artist
// JOIN Album USING (ArtistId) ... count(*)) gets no SQLITE_READ callback. The
// names right after FROM or JOIN that are tables or views of the schema,
// and not common table expressions of the statement, are added.
func (d *DB) addJoinedTables(ctx context.Context, text string, tables []string) []string {
	if !reJoinWords.MatchString(text) {
		return tables // the common case: no lexing on the validation path
	}
	var sig []sqltext.Token
	joins := false
	for _, t := range sqltext.Lex(text) {
		if t.Kind == sqltext.Space || t.Kind == sqltext.Comment {
			continue
		}
		if t.Kind == sqltext.Word {
			w := text[t.Start:t.End]
			joins = joins || strings.EqualFold(w, "USING") || strings.EqualFold(w, "NATURAL")
		}
		sig = append(sig, t)
	}
	if !joins {
		return tables
	}
	idx, _ := d.nameIndexLocked(ctx)
	if idx == nil {
		return tables
	}
	word := func(i int) string {
		if i < 0 || i >= len(sig) || sig[i].Kind != sqltext.Word {
			return ""
		}
		return strings.ToUpper(text[sig[i].Start:sig[i].End])
	}
	isName := func(i int) bool { return sig[i].Kind == sqltext.Word || sig[i].Kind == sqltext.Quoted }
	// The statement's CTE names: NAME AS (, NAME AS MATERIALIZED (, NAME (cols) AS (.
	ctes := map[string]bool{}
	for i := range sig {
		if !isName(i) {
			continue
		}
		j := i + 1
		if j < len(sig) && text[sig[j].Start:sig[j].End] == "(" && (i == 0 || word(i-1) == "WITH" || word(i-1) == "RECURSIVE" || text[sig[i-1].Start:sig[i-1].End] == ",") {
			for depth := 0; j < len(sig); j++ {
				switch text[sig[j].Start:sig[j].End] {
				case "(":
					depth++
				case ")":
					depth--
				}
				if depth == 0 {
					j++
					break
				}
			}
		}
		if word(j) == "AS" && j+1 < len(sig) && (text[sig[j+1].Start:sig[j+1].End] == "(" || word(j+1) == "MATERIALIZED" || word(j+1) == "NOT") {
			ctes[strings.ToLower(sqltext.IdentText(text, sig[i]))] = true
		}
	}
	seen := map[string]bool{}
	for _, t := range tables {
		seen[strings.ToLower(t)] = true
	}
	for i := 1; i < len(sig); i++ {
		if (word(i-1) != "FROM" && word(i-1) != "JOIN") || !isName(i) {
			continue
		}
		name := sqltext.IdentText(text, sig[i])
		tn := idx.Table(name)
		if tn == nil || ctes[strings.ToLower(name)] || seen[strings.ToLower(tn.Name)] {
			continue
		}
		seen[strings.ToLower(tn.Name)] = true
		tables = append(tables, tn.Name)
	}
	return tables
}

// byFirstMention orders tables by where the statement first names them;
// tables it reads only through a view come after, in the order read.
func byFirstMention(text string, tables []string) []string {
	pos := map[string]int{}
	for _, t := range sqltext.Lex(text) {
		if t.Kind == sqltext.Word || t.Kind == sqltext.Quoted {
			name := strings.ToLower(sqltext.IdentText(text, t))
			if _, ok := pos[name]; !ok {
				pos[name] = t.Start
			}
		}
	}
	out := append([]string(nil), tables...)
	sort.SliceStable(out, func(i, j int) bool {
		pi, iok := pos[strings.ToLower(out[i])]
		pj, jok := pos[strings.ToLower(out[j])]
		switch {
		case iok && jok:
			return pi < pj
		case iok != jok:
			return iok
		}
		return false
	})
	return out
}

// isCTEName is true when name is never read as a table itself, which is how
// the authorizer reports a CTE (reads "inside" it carry its name).
func isCTEName(name string, reads []read) bool {
	for _, r := range reads {
		if strings.EqualFold(r.table, name) {
			return false
		}
	}
	return true
}

// calledFunctions keeps the functions the authorizer saw that the statement
// itself calls: the authorizer also reports functions of the schema (a
// column's DEFAULT), which the query does not call.
func calledFunctions(text string, seen []string) []string {
	named := map[string]bool{}
	toks := sqltext.Lex(text)
	for i, t := range toks {
		if t.Kind != sqltext.Word && t.Kind != sqltext.Quoted {
			continue
		}
		j := i + 1
		for j < len(toks) && (toks[j].Kind == sqltext.Space || toks[j].Kind == sqltext.Comment) {
			j++
		}
		if j < len(toks) && text[toks[j].Start:toks[j].End] == "(" {
			named[strings.ToLower(sqltext.IdentText(text, t))] = true
		}
	}
	if strings.Contains(text, "->") {
		named["->"], named["->>"] = true, true
	}
	var out []string
	dup := map[string]bool{}
	for _, f := range seen {
		if named[f] && !dup[f] {
			dup[f] = true
			out = append(out, f)
		}
	}
	return out
}

var (
	reNoTable    = regexp.MustCompile(`^no such table: (.+)$`)
	reNoColumn   = regexp.MustCompile(`^no such column: (.+?)( - should this be a string literal in single-quotes\?)?$`)
	reAmbiguous  = regexp.MustCompile(`^ambiguous column name: (.+)$`)
	reNoFunction = regexp.MustCompile(`^no such function: (.+)$`)
	reNear       = regexp.MustCompile(`^near "(.*)": syntax error$`)
	reUnsafe     = regexp.MustCompile(`^unsafe use of (.+)$`)
	// reJoinWords finds statements that may join with USING or NATURAL.
	reJoinWords = regexp.MustCompile(`(?i)\b(using|natural)\b`)
)

// foreignSyntax are words of other SQL dialects that SQLite does not know,
// with what to write instead: a model that writes them gets the fix in one
// repair round.
var foreignSyntax = map[string][2]string{
	"ILIKE":  {"SQLite has no ILIKE", "write LIKE, which already ignores the case of ASCII letters (or lower(col) LIKE lower('%…%'))"},
	"::":     {"SQLite has no :: casts", "write CAST(x AS INTEGER), CAST(x AS REAL) or CAST(x AS TEXT)"},
	"TOP":    {"SQLite has no TOP", "put LIMIT n at the end of the query instead of TOP n after SELECT"},
	"ISNULL": {"SQLite's ISNULL takes no arguments", "write coalesce(x, default) or ifnull(x, default)"},
}

// compileError turns a failed compile into the contract's error types.
// offset is SQLite's byte offset of the problem in query, or -1.
func (d *DB) compileError(ctx context.Context, query, stmt string, base, offset int, denied string, err error) *engine.Error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return engine.AsError(err)
	}
	if denied != "" {
		return engine.Refused(query, base, denied)
	}
	msg := sqliteMessage(err)
	code, _ := sqliteCode(err)
	if code == lib.SQLITE_TOOBIG || isLimitMessage(msg) {
		return engine.QueryErrorf(engine.CodeTooBig, query, offset, "%s: the query goes past one of the guard's limits", msg).WithHint(
			"simplify the query: fewer nested expressions, fewer UNION terms, shorter patterns and values under 10 MB")
	}
	if code == lib.SQLITE_CORRUPT || code == lib.SQLITE_NOTADB {
		return dbError(d.name, "the file is damaged: %s", msg).WithErr(err).WithHint(
			"open a backup copy, or rescue what is readable with the sqlite3 shell's .recover")
	}
	idx, _ := d.nameIndexLocked(ctx)
	if idx == nil {
		idx = &adapter.Names{}
	}
	if m := reNoTable.FindStringSubmatch(msg); m != nil {
		return unknownTable(query, stmt, base, m[1], idx)
	}
	if m := reNoColumn.FindStringSubmatch(msg); m != nil {
		return unknownColumn(query, stmt, base, offset, m[1], m[2] != "", idx)
	}
	if m := reAmbiguous.FindStringSubmatch(msg); m != nil {
		return ambiguousColumn(query, stmt, base, offset, m[1], idx)
	}
	if m := reNoFunction.FindStringSubmatch(msg); m != nil {
		return unknownFunction(query, stmt, base, offset, m[1])
	}
	if m := reUnsafe.FindStringSubmatch(msg); m != nil {
		return engine.QueryErrorf(engine.CodeRefused, query, offset,
			"%s is called from this file's own schema (a view, a generated column or a default), which Querent does not trust", m[1]).WithHint(
			"query the underlying tables directly instead of that view or column")
	}
	if m := reNear.FindStringSubmatch(msg); m != nil {
		return nearError(query, stmt, base, offset, m[1])
	}
	return syntaxError(query, stmt, base, offset, msg)
}

// ambiguousColumn is the error of a column that more than one table of the
// query has: its hint names them qualified.
func ambiguousColumn(query, stmt string, base, offset int, name string, idx *adapter.Names) *engine.Error {
	var owners []string
	tables, _ := queryTables(stmt, idx)
	for _, t := range tables {
		if tn := idx.Table(t); tn != nil && text.ContainsFold(tn.Columns, name) {
			owners = append(owners, tn.Name+"."+name)
		}
	}
	hint := "qualify the column with its table or alias, e.g. t." + name
	if len(owners) > 0 {
		hint = "qualify the column with its table or alias: " + strings.Join(owners, " or ")
	}
	return engine.QueryErrorf(engine.CodeSyntax, query, firstPos(offset, stmt, base, name),
		"ambiguous column name %s: more than one table in the query has it", name).WithHint("%s", hint)
}

// nearError is SQLite's syntax error near the token near: where it is, and
// what another dialect's word is written as in SQLite.
func nearError(query, stmt string, base, offset int, near string) *engine.Error {
	pos := offset
	if pos < 0 {
		pos = firstPos(-1, stmt, base, near)
	}
	where := ""
	if pos >= 0 {
		line, col := sqltext.LineCol(query, pos)
		where = fmt.Sprintf(" at line %d, column %d", line, col)
	}
	e := engine.QueryErrorf(engine.CodeSyntax, query, pos, "syntax error near %q%s", near, where)
	word := strings.ToUpper(near)
	if pos > 0 {
		// "SELECT TOP 5 …": SQLite reads TOP as a column and stumbles on 5.
		before := strings.Fields(strings.ToUpper(query[:min(pos, len(query))]))
		if len(before) > 0 && before[len(before)-1] == "TOP" {
			word = "TOP"
		}
	}
	if h, ok := foreignSyntax[word]; ok {
		// Another dialect's word: say what SQLite writes instead.
		e.Message += ": " + h[0]
		return e.WithHint("%s", h[1])
	}
	if pos >= 0 {
		return e.WithHint("check the SQL just before %q: a missing or extra comma, parenthesis, quote or keyword (%s)", near, sqltext.Marked(query, pos))
	}
	return e.WithHint("check the SQL around %q: a missing or extra comma, parenthesis, quote or keyword", near)
}

// syntaxError is the error of SQLite's other compile messages, with the
// hint each calls for.
func syntaxError(query, stmt string, base, offset int, msg string) *engine.Error {
	if msg == "incomplete input" {
		return engine.QueryErrorf(engine.CodeSyntax, query, base+len(stmt), "the statement ends too early (incomplete input)").WithHint(
			"a closing parenthesis or quote, or the rest of a clause, is missing at the end")
	}
	if strings.HasPrefix(msg, "unrecognized token:") {
		return engine.QueryErrorf(engine.CodeSyntax, query, offset, "%s", msg).WithHint(
			"close every quote ('text', \"column\"), and use only characters SQL understands outside quotes")
	}
	e := engine.QueryErrorf(engine.CodeSyntax, query, offset, "%s", msg)
	switch {
	case strings.Contains(msg, "wrong number of arguments"):
		e.Hint = "check how many arguments the function takes in SQLite"
	case strings.Contains(msg, "aggregate"):
		e.Hint = "aggregates (count, sum, avg…) belong in the SELECT list or HAVING, with GROUP BY for the other columns; to filter rows before grouping use WHERE"
	case strings.Contains(msg, "do not have the same number of result columns"):
		e.Hint = "every SELECT joined by UNION/INTERSECT/EXCEPT must return the same number of columns"
	case strings.Contains(msg, "ORDER BY term out of range"), strings.Contains(msg, "GROUP BY term out of range"):
		e.Hint = "a number in ORDER BY or GROUP BY refers to a result column by position; use a position that exists, or the column's name"
	default:
		e.Hint = "fix the SQL and try again"
	}
	return e
}

func isLimitMessage(msg string) bool {
	for _, s := range []string{"too large", "too many", "too big", "too long", "too complex", "parser stack overflow", "Recursion limit"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// unknownTable builds the unknown_table error with the closest names, at
// the first token of the statement that names the table.
func unknownTable(query, stmt string, base int, name string, idx *adapter.Names) *engine.Error {
	pos := firstPos(-1, stmt, base, adapter.BareName(name))
	return adapter.UnknownTable(query, pos, name, idx.TableList(), "this database has no tables")
}

// unknownColumn builds the unknown_column error: the closest columns of the
// tables the query reads, or the table that has the column when the query
// does not read it.
func unknownColumn(query, stmt string, base, offset int, raw string, dqs bool, idx *adapter.Names) *engine.Error {
	name := raw
	if dqs {
		// SQLite prints the dequoted name between quotes, without escaping
		// ("a"b" for "a""b"): drop one quote on each side.
		if len(raw) >= 2 && raw[0] == '"' && raw[len(raw)-1] == '"' {
			name = raw[1 : len(raw)-1]
		}
	}
	qualifier := ""
	if i := strings.LastIndexByte(name, '.'); i >= 0 && !dqs {
		qualifier, name = name[:i], name[i+1:]
	}
	pos := offset
	if pos < 0 {
		pos = firstPos(-1, stmt, base, name)
	}
	tables, aliases := queryTables(stmt, idx)
	var nearColumns, otherColumns []string
	if dqs {
		// The names the double-quoted-text rule found close, so that the
		// hint names what kept the error (dqtext.go).
		tables = tablesInScope(stmt, name, idx)
		nearColumns, otherColumns = columnsLike(name, tables, idx)
	}
	if qualifier != "" {
		if t, ok := aliases[strings.ToLower(qualifier)]; ok {
			tables = []string{t}
		} else if tn := idx.Table(qualifier); tn != nil {
			tables = []string{tn.Name}
		}
	}
	var cands []string
	owner := map[string]string{}
	for _, t := range tables {
		if tn := idx.Table(t); tn != nil {
			for _, c := range tn.Columns {
				cands = append(cands, c)
				if _, ok := owner[c]; !ok {
					owner[c] = tn.Name
				}
			}
		}
	}
	shown := raw
	if dqs {
		shown = `"` + name + `"`
	}
	e := engine.QueryErrorf(engine.CodeUnknownColumn, query, pos, "no such column: %s", shown)
	var hint []words.Part
	if dqs {
		hint = append(hint, adapter.TextQuotes("SQL", strings.ReplaceAll(name, "'", "''")))
	}
	qualify := func(c string) string {
		if len(tables) > 1 {
			return owner[c] + "." + c
		}
		return c
	}
	if len(nearColumns) > 0 {
		hint = append(hint, adapter.DidYouMean(nearColumns[:min(3, len(nearColumns))]))
	} else if len(otherColumns) > 0 {
		hint = append(hint, adapter.JoinIt(otherColumns[:min(3, len(otherColumns))]))
	} else if s := text.Closest(name, cands, 3); len(s) > 0 {
		for i := range s {
			s[i] = qualify(s[i])
		}
		hint = append(hint, adapter.DidYouMean(s))
	} else {
		// Perhaps the column is in a table the query does not read yet.
		var elsewhere []string
		for _, tn := range idx.Tables {
			if tn.Internal || text.ContainsFold(tables, tn.Name) {
				continue
			}
			for _, c := range text.Closest(name, tn.Columns, 1) {
				elsewhere = append(elsewhere, tn.Name+"."+c)
			}
		}
		if len(elsewhere) > 0 {
			hint = append(hint, adapter.JoinIt(elsewhere[:min(3, len(elsewhere))]))
		}
	}
	for _, t := range tables {
		if tn := idx.Table(t); tn != nil && len(tn.Columns) > 0 {
			hint = append(hint, adapter.TableHas(tn.Name, tn.Columns))
		}
	}
	if len(hint) == 0 {
		return e.SayHint(words.New("hint.column_in_schema", words.Schema))
	}
	return e.SayHint(adapter.SayHints(hint))
}

// sqliteEquivalents tells a model how to write, in SQLite, functions it
// knows from other databases.
var sqliteEquivalents = map[string]string{
	"year":              "use strftime('%Y', col) for the year as text, or CAST(strftime('%Y', col) AS INTEGER) for a number",
	"month":             "use strftime('%m', col) for the month as text ('01'…'12')",
	"day":               "use strftime('%d', col) for the day of the month",
	"now":               "use datetime('now') for the current UTC date and time",
	"getdate":           "use datetime('now') for the current UTC date and time",
	"curdate":           "use date('now') for today's date",
	"date_format":       "use strftime(format, col), e.g. strftime('%Y-%m', col)",
	"to_char":           "use strftime(format, col), e.g. strftime('%Y-%m', col)",
	"date_trunc":        "use strftime('%Y-%m-01', col) for the month, strftime('%Y-01-01', col) for the year",
	"datediff":          "use julianday(a) - julianday(b) for the difference in days",
	"date_part":         "use strftime('%Y', col) and its other formats",
	"extract":           "use strftime('%Y', col) and its other formats",
	"len":               "use length(text)",
	"char_length":       "use length(text)",
	"character_length":  "use length(text)",
	"left":              "use substr(text, 1, n)",
	"right":             "use substr(text, -n)",
	"isnull":            "use ifnull(x, y) or coalesce(x, y)",
	"nvl":               "use ifnull(x, y) or coalesce(x, y)",
	"ucase":             "use upper(text)",
	"lcase":             "use lower(text)",
	"to_date":           "use date(text) for 'YYYY-MM-DD' text",
	"listagg":           "use group_concat(x, ', ')",
	"array_agg":         "use json_group_array(x)",
	"stddev":            "use sqrt(avg(x*x) - avg(x)*avg(x)) for the population standard deviation",
	"median":            "sort with ORDER BY and take the middle row with LIMIT 1 OFFSET (SELECT count(*) FROM t) / 2",
	"regexp_like":       "use LIKE or GLOB patterns",
	"position":          "use instr(text, part)",
	"locate":            "use instr(text, part)",
	"split_part":        "use substr() with instr()",
	"greatest":          "use max(a, b, …) with several arguments",
	"least":             "use min(a, b, …) with several arguments",
	"rand":              "use random()",
	"current_timestamp": "write CURRENT_TIMESTAMP without parentheses",
}

func unknownFunction(query, stmt string, base, offset int, name string) *engine.Error {
	e := engine.QueryErrorf(engine.CodeSyntax, query, firstPos(offset, stmt, base, name), "no such function: %s (SQLite does not have it)", name)
	if eq, ok := sqliteEquivalents[strings.ToLower(name)]; ok {
		return e.WithHint("%s", eq)
	}
	var names []string
	for f := range allowedFunctions {
		names = append(names, f)
	}
	sort.Strings(names)
	if s := text.Closest(name, names, 3); len(s) > 0 {
		return e.WithHint("did you mean %s?", text.OrList(s))
	}
	return e.WithHint("use SQLite's built-in functions: core (abs, coalesce, length, lower, substr, replace, round…), aggregate (count, sum, avg, min, max, group_concat), date (date, time, datetime, julianday, strftime), JSON (json_extract…) and window functions")
}

// firstPos returns offset when known, else the byte offset in the query of
// the first token naming name (case-insensitively), else -1.
func firstPos(offset int, text string, base int, name string) int {
	if offset >= 0 {
		return offset
	}
	for _, t := range sqltext.Lex(text) {
		if (t.Kind == sqltext.Word || t.Kind == sqltext.Quoted || t.Kind == sqltext.String) && strings.EqualFold(sqltext.IdentText(text, t), name) {
			return base + t.Start
		}
	}
	return -1
}

// queryTables finds the tables of the schema that the statement names, and
// the aliases given to them (FROM Invoice i, JOIN Customer AS c).
func queryTables(text string, idx *adapter.Names) (tables []string, aliases map[string]string) {
	aliases = map[string]string{}
	var sig []sqltext.Token
	for _, t := range sqltext.Lex(text) {
		if t.Kind != sqltext.Space && t.Kind != sqltext.Comment {
			sig = append(sig, t)
		}
	}
	seen := map[string]bool{}
	for i, t := range sig {
		if t.Kind != sqltext.Word && t.Kind != sqltext.Quoted {
			continue
		}
		tn := idx.Table(sqltext.IdentText(text, t))
		if tn == nil {
			continue
		}
		if !seen[strings.ToLower(tn.Name)] {
			seen[strings.ToLower(tn.Name)] = true
			tables = append(tables, tn.Name)
		}
		aliases[strings.ToLower(tn.Name)] = tn.Name
		j := i + 1
		if j < len(sig) && strings.EqualFold(text[sig[j].Start:sig[j].End], "AS") {
			j++
		}
		if j < len(sig) && (sig[j].Kind == sqltext.Word || sig[j].Kind == sqltext.Quoted) {
			a := sqltext.IdentText(text, sig[j])
			if sig[j].Kind == sqltext.Quoted || !sqlKeywords[strings.ToUpper(a)] {
				aliases[strings.ToLower(a)] = tn.Name
			}
		}
	}
	return tables, aliases
}

var sqlKeywords = func() map[string]bool {
	m := map[string]bool{}
	for _, k := range strings.Fields(`ALL AND AS ASC BETWEEN BY CASE CROSS DESC DISTINCT ELSE END EXCEPT EXISTS
		FROM FULL GLOB GROUP HAVING IN INDEXED INNER INTERSECT IS JOIN LEFT LIKE LIMIT MATCH NATURAL NOT
		NOTNULL NULL OFFSET ON OR ORDER OUTER REGEXP RIGHT SELECT THEN UNION USING VALUES WHEN WHERE
		WINDOW WITH`) {
		m[k] = true
	}
	return m
}()
