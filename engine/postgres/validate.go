package postgres

import (
	"context"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgconn"

	"querent/engine"
	"querent/engine/adapter"
	"querent/engine/text"
	"querent/engine/words"
)

// Validate checks query without running it: PostgreSQL's own parser and the
// guard's policy here, then the server's own Parse and Describe (a prepared
// statement, never planned nor executed) for names and types, and the
// server's reading of it judged (servercheck.go). Failures are
// *engine.Error values whose messages say precisely what is wrong and what
// is close (they are what a model reads when it repairs its SQL).
func (d *DB) Validate(ctx context.Context, query string) (*engine.Validation, error) {
	var v *engine.Validation
	err := d.withLock(ctx, func() error {
		a, err := d.analyzeLocked(ctx, query)
		if err != nil {
			return err
		}
		// The columns are named once the server is done with the statement
		// (their types and origins may need it).
		var fields []pgconn.FieldDescription
		err = d.runLocked(ctx, envelope{sql: a.sql, timeout: checkTimeout, query: query, a: a, checkOnly: true,
			described: func(sd *pgconn.StatementDescription) error {
				fields = append([]pgconn.FieldDescription(nil), sd.Fields...)
				return nil
			}})
		if err != nil {
			return d.runFailure(ctx, query, a, 0, checkTimeout, err)
		}
		v = d.validation(ctx, a, d.columnsOf(ctx, fields))
		return nil
	})
	if err != nil {
		return nil, engine.AsError(err)
	}
	return v, nil
}

// checkTimeout bounds checking a statement (the server's parse and the
// catalog lookups; no statement runs).
const checkTimeout = 10 * time.Second

// analyzeLocked applies the parser and the policy, resolving functions that
// are not built-ins against the database.
func (d *DB) analyzeLocked(ctx context.Context, query string) (*analysis, error) {
	a, err := analyzeFor(ctx, query, d.server.versionNum)
	var uf *unknownFunctionError
	if errors.As(err, &uf) {
		return nil, d.unknownFunction(ctx, query, uf)
	}
	return a, err
}

func (d *DB) validation(ctx context.Context, a *analysis, cols []engine.Column) *engine.Validation {
	v := &engine.Validation{SQL: a.sql, Columns: cols, Functions: a.functions}
	for _, t := range a.tables {
		v.Tables = append(v.Tables, t.String())
	}
	// Columns read: a qualified reference names its table through the
	// alias; an unqualified one belongs to the only table, or to the one
	// table of the query that has it.
	idx, _ := d.nameIndexLocked(ctx)
	seen := map[string]bool{}
	for _, c := range a.columns {
		table := ""
		if c.qualifier != "" {
			if t, ok := a.aliases[c.qualifier]; ok && (t.schema != "" || !a.ctes[strings.ToLower(t.name)]) {
				table = t.String()
			}
		} else if len(a.tables) == 1 {
			table = a.tables[0].String()
		} else if idx != nil {
			for _, t := range a.tables {
				if tn := idx.Table(t.String()); tn != nil && text.ContainsFold(tn.Columns, c.name) {
					if table != "" {
						table = ""
						break
					}
					table = t.String()
				}
			}
		}
		if table == "" {
			continue
		}
		k := table + "." + c.name
		if !seen[strings.ToLower(k)] {
			seen[strings.ToLower(k)] = true
			v.ColumnsRead = append(v.ColumnsRead, k)
		}
	}
	return v
}

var (
	reRelation     = regexp.MustCompile(`^relation "(.+)" does not exist$`)
	reColumn       = regexp.MustCompile(`^column (.+?) does not exist$`)
	reFunction     = regexp.MustCompile(`^function (.+?)\((.*)\) does not exist$`)
	reOperator     = regexp.MustCompile(`^operator does not exist: (.+)$`)
	reAmbiguous    = regexp.MustCompile(`^column reference "(.+)" is ambiguous$`)
	reGrouping     = regexp.MustCompile(`^column "(.+)" must appear in the GROUP BY clause`)
	reReadOnlyExec = regexp.MustCompile(`^cannot execute (.+) in a read-only transaction$`)
)

// serverError translates an error of the server about query; prefix is
// the number of characters Querent's wrapper put before the statement.
func (d *DB) serverError(ctx context.Context, query string, a *analysis, prefix int, err error) error {
	if ctx.Err() != nil {
		return engine.AsError(ctx.Err())
	}
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) {
		if tooLongRow(err) {
			return engine.QueryErrorf(engine.CodeTooBig, query, -1, "a row of the result is larger than the %s a row may take", engine.FormatSize(d.opts.MaxRowBytes)).WithHint(
				"select fewer or shorter columns: left(col, 200) or length(col) instead of a long text or bytea")
		}
		text := scrub(err.Error(), d.cfg.Password)
		return dbError(d.name, "the connection to the server failed: %s", lastPart(text)).WithErr(&secretError{text}).WithHint(
			"check that the server is still running; Querent connects again on the next query")
	}
	pos := -1
	if pgErr.Position > 0 && a != nil {
		c := int(pgErr.Position) - 1 - prefix
		if c >= 0 && c <= utf8.RuneCountInString(a.sql) {
			pos = a.start + charToByte(a.sql, c)
		}
	}
	msg := scrub(pgErr.Message, d.cfg.Password)
	pgHint := scrub(pgErr.Hint, d.cfg.Password)
	if e := d.nameError(ctx, query, a, pos, pgErr, msg, pgHint); e != nil {
		return e
	}
	if e := d.stateError(query, pos, pgErr, msg); e != nil {
		return e
	}
	e := engine.QueryErrorf(engine.CodeSyntax, query, pos, "%s", msg)
	if pgErr.Detail != "" {
		e.Message += " (" + scrub(pgErr.Detail, d.cfg.Password) + ")"
	}
	return withPG(e, pgHint, "fix the SQL and try again")
}

// withPG gives e PostgreSQL's own hint when it has one, else fallback.
func withPG(e *engine.Error, pgHint, fallback string) *engine.Error {
	if pgHint != "" {
		return e.WithHint("%s", pgHint)
	}
	return e.WithHint("%s", fallback)
}

// nameError translates the server's errors about names: an unknown table,
// column, function or operator, an ambiguous column, grouping, syntax,
// privileges (nil for others).
func (d *DB) nameError(ctx context.Context, query string, a *analysis, pos int, pgErr *pgconn.PgError, msg, pgHint string) error {
	idx, _ := d.nameIndexLocked(ctx)
	if idx == nil {
		idx = &adapter.Names{Qualified: true}
	}
	switch code := pgErr.Code; {
	case code == "42P01":
		if m := reRelation.FindStringSubmatch(msg); m != nil {
			if time.Since(d.namesAt) > 5*time.Second {
				// The schema may have changed since the names were read.
				d.names = nil
				if fresh, _ := d.nameIndexLocked(ctx); fresh != nil {
					idx = fresh
				}
			}
			return adapter.UnknownTable(query, pos, m[1], idx.TableList(), "the role sees no tables in this database")
		}
	case code == "42703":
		if m := reColumn.FindStringSubmatch(msg); m != nil {
			return unknownColumn(query, pos, m[1], a, idx, pgHint)
		}
	case code == "42883":
		if m := reFunction.FindStringSubmatch(msg); m != nil {
			return functionTypes(query, pos, m[1], m[2])
		}
		if m := reOperator.FindStringSubmatch(msg); m != nil {
			return engine.QueryErrorf(engine.CodeSyntax, query, pos, "operator does not exist: %s (the two sides have types PostgreSQL cannot compare or combine)", m[1]).WithHint(
				"make both sides the same type with a cast: col::text = '1', col = 1, d::date = '2024-01-01', or to_char(ts, 'YYYY') = '2024'")
		}
	case code == "42702":
		if m := reAmbiguous.FindStringSubmatch(msg); m != nil {
			var owners []string
			if a != nil {
				for _, t := range a.tables {
					if tn := idx.Table(t.String()); tn != nil && text.ContainsFold(tn.Columns, m[1]) {
						owners = append(owners, t.String()+"."+m[1])
					}
				}
			}
			hint := "qualify the column with its table or alias, e.g. t." + m[1]
			if len(owners) > 0 {
				hint = "qualify the column with its table or alias: " + text.OrList(owners)
			}
			return engine.QueryErrorf(engine.CodeSyntax, query, pos, "ambiguous column name %s: more than one table in the query has it", m[1]).WithHint("%s", hint)
		}
	case code == "42803":
		e := engine.QueryErrorf(engine.CodeSyntax, query, pos, "%s", msg)
		if m := reGrouping.FindStringSubmatch(msg); m != nil {
			return e.WithHint("every column of SELECT must be in GROUP BY or inside an aggregate: add %s to GROUP BY, or use an aggregate such as max(%s)", m[1], m[1])
		}
		return withPG(e, pgHint, "aggregates (count, sum, avg…) belong in SELECT or HAVING, with GROUP BY for the other columns; to filter rows before grouping use WHERE")
	case code == "42601":
		return syntaxError(query, pos, msg)
	case code == "42501":
		return engine.QueryErrorf(engine.CodeRefused, query, pos, "%s: the role %s may not read it", msg, d.role.Name).WithHint(
			"query the tables this role may read, or ask the database's owner for SELECT on it")
	}
	return nil
}

// stateError translates the server's errors about the run itself: a write
// the read-only transaction stopped, a timeout, a lock wait, a limit, a
// lost connection, a server failure (nil for others).
func (d *DB) stateError(query string, pos int, pgErr *pgconn.PgError, msg string) error {
	switch code := pgErr.Code; {
	case code == "25006":
		what := msg
		if m := reReadOnlyExec.FindStringSubmatch(msg); m != nil {
			what = m[1]
		}
		return engine.QueryErrorf(engine.CodeRefused, query, pos, "the query tried to change the database (%s), and the read-only transaction stopped it: Querent only runs read-only queries", what).WithHint(
			"a view or function of this database writes when it is read; query the underlying tables instead")
	case code == "57014":
		return engine.QueryErrorf(engine.CodeTimeout, query, -1, "the query was stopped: %s", msg).SayHint(cheaper)
	case code == "55P03":
		return engine.QueryErrorf(engine.CodeTimeout, query, -1, "the query waited too long for a lock (%s): another session is changing a table it reads", msg).WithHint(
			"try again in a moment; a table being altered or rebuilt (ALTER TABLE, VACUUM FULL, REINDEX) blocks readers until it is done")
	case strings.HasPrefix(code, "53"), strings.HasPrefix(code, "54"):
		return engine.QueryErrorf(engine.CodeTooBig, query, pos, "%s: the query goes past one of the server's limits", msg).WithHint(
			"ask for less: fewer rows or columns, aggregate first, shorter values; simplify deeply nested expressions")
	case strings.HasPrefix(code, "08"), strings.HasPrefix(code, "57P"), code == "25P03", strings.EqualFold(pgErr.Severity, "FATAL"):
		return dbError(d.name, "the server ended the connection: %s", msg).WithErr(&secretError{msg}).WithHint(
			"try again: Querent connects again on the next query")
	case strings.HasPrefix(code, "XX"), strings.HasPrefix(code, "58"):
		return dbError(d.name, "the server failed: %s (SQLSTATE %s)", msg, code).WithErr(&secretError{msg}).WithHint(
			"the database's administrator may find the cause in the server's log")
	}
	return nil
}

// functionTypes explains a function that exists but not for these argument
// types, the usual case being round() of a double precision.
func functionTypes(query string, pos int, name, args string) *engine.Error {
	e := engine.QueryErrorf(engine.CodeSyntax, query, pos, "no form of %s() takes (%s): the arguments have other types than it accepts", name, args)
	switch {
	case strings.EqualFold(name, "round") && strings.Contains(args, "double precision"):
		return e.WithHint("round(x, n) with decimals needs a numeric: round(x::numeric, 2)")
	case strings.EqualFold(name, "date_trunc") || strings.EqualFold(name, "date_part") || strings.EqualFold(name, "extract"):
		return e.WithHint("the unit comes first, as text, and the value must be a date, timestamp or interval: date_trunc('month', col::timestamp)")
	}
	return e.WithHint("cast the arguments to the types the function takes, e.g. col::numeric, col::text, col::date")
}

// unknownFunction resolves a function that is not a built-in: one the
// database has (its own or an extension's) is refused; one it does not have
// is a mistake to repair.
func (d *DB) unknownFunction(ctx context.Context, query string, uf *unknownFunctionError) error {
	shown := uf.name
	if uf.schema != "" {
		shown = uf.schema + "." + uf.name
	}
	rows, err := d.queryLocked(ctx, `SELECT count(*) FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
		WHERE p.proname = $1 AND ($2 = '' OR n.nspname = $2)`, uf.name, uf.schema)
	if err != nil {
		return d.readError(ctx, err)
	}
	if len(rows) == 1 && rows[0][0] != "0" {
		return engine.QueryErrorf(engine.CodeRefused, query, uf.pos,
			"the function %s() is not allowed: it is not one of PostgreSQL's built-in functions but this database's own or an extension's, and Querent does not call those (it cannot know what they do)", shown).WithHint(
			"write the query with PostgreSQL's built-in functions (aggregates, window, string, date, math, JSON and array functions)")
	}
	e := engine.QueryErrorf(engine.CodeSyntax, query, uf.pos, "no such function: %s() (PostgreSQL does not have it)", shown)
	if eq, ok := otherDialects[strings.ToLower(uf.name)]; ok {
		return e.WithHint("%s", eq)
	}
	if s := text.Closest(uf.name, allowedFunctionNames(), 3); len(s) > 0 {
		return e.WithHint("did you mean %s?", text.OrList(s))
	}
	return e.WithHint("use PostgreSQL's built-in functions: aggregates (count, sum, avg, string_agg, percentile_cont…), dates (date_trunc, EXTRACT, age, to_char), text (lower, substring, regexp_replace, split_part), JSON (->, ->>, jsonb_path_query) and window functions")
}

// unknownColumn builds the unknown_column error: the closest columns of the
// tables the query reads, or the table that has the column when the query
// does not read it. raw is PostgreSQL's "x", t.x or "t"."x".
func unknownColumn(query string, pos int, raw string, a *analysis, idx *adapter.Names, pgHint string) *engine.Error {
	qualifier, name := splitColumnName(raw)
	var tables []string
	if a != nil {
		for _, t := range a.tables {
			tables = append(tables, t.String())
		}
		if qualifier != "" {
			if t, ok := a.aliases[strings.ToLower(qualifier)]; ok {
				tables = []string{t.String()}
			}
		}
	}
	shown := name
	if qualifier != "" {
		shown = qualifier + "." + name
	}
	e := engine.QueryErrorf(engine.CodeUnknownColumn, query, pos, "no such column: %s", shown)
	var cands []string
	owner := map[string]string{}
	for _, t := range tables {
		if tn := idx.Table(t); tn != nil {
			for _, c := range tn.Columns {
				cands = append(cands, c)
				if _, ok := owner[c]; !ok {
					owner[c] = t
				}
			}
		}
	}
	var hint []words.Part
	if s := text.Closest(name, cands, 3); len(s) > 0 {
		for i := range s {
			if len(tables) > 1 {
				s[i] = owner[s[i]] + "." + s[i]
			}
		}
		hint = append(hint, adapter.DidYouMean(s))
	} else {
		var elsewhere []string
		for _, tn := range idx.Tables {
			if text.ContainsFold(tables, tn.Name) {
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
	if strings.Contains(query, `"`+name+`"`) && len(hint) == 0 {
		hint = append(hint, adapter.TextQuotes("PostgreSQL", strings.ReplaceAll(name, "'", "''")))
	}
	for _, t := range tables {
		if tn := idx.Table(t); tn != nil && len(tn.Columns) > 0 {
			hint = append(hint, adapter.TableHas(t, tn.Columns))
		}
	}
	if len(hint) == 0 && pgHint != "" {
		hint = append(hint, words.Plain(pgHint))
	}
	if len(hint) == 0 {
		return e.SayHint(words.New("hint.column_in_schema", words.Schema))
	}
	return e.SayHint(adapter.SayHints(hint))
}

// splitColumnName reads PostgreSQL's spelling of a column in its message:
// "name", t.name, "T"."Name".
func splitColumnName(raw string) (qualifier, name string) {
	var parts []string
	for raw != "" {
		if raw[0] == '"' {
			j := 1
			var b strings.Builder
			for j < len(raw) {
				if raw[j] == '"' {
					if j+1 < len(raw) && raw[j+1] == '"' {
						b.WriteByte('"')
						j += 2
						continue
					}
					break
				}
				b.WriteByte(raw[j])
				j++
			}
			parts = append(parts, b.String())
			raw = strings.TrimPrefix(raw[min(j+1, len(raw)):], ".")
			continue
		}
		i := strings.IndexByte(raw, '.')
		if i < 0 {
			parts = append(parts, raw)
			break
		}
		parts = append(parts, raw[:i])
		raw = raw[i+1:]
	}
	if len(parts) == 0 {
		return "", ""
	}
	name = parts[len(parts)-1]
	if len(parts) > 1 {
		qualifier = parts[len(parts)-2]
	}
	return qualifier, name
}

// namesSQL lists the relations the role can see outside the system schemas,
// with their columns (separated by the unit separator, which no sane name
// holds), those on the search path first.
const namesSQL = `SELECT CASE WHEN pg_catalog.pg_table_is_visible(c.oid) THEN c.relname ELSE n.nspname || '.' || c.relname END,
	c.relkind, coalesce((SELECT string_agg(a.attname, chr(31) ORDER BY a.attnum) FROM pg_catalog.pg_attribute a
		WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped), ''), c.reltuples
FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname !~ '^pg_(toast|temp)'
  AND pg_catalog.has_schema_privilege(n.oid, 'USAGE')
ORDER BY NOT pg_catalog.pg_table_is_visible(c.oid), 1
LIMIT 5000`

// nameIndexLocked loads the names once (again after an unknown table, when
// they are older than a few seconds: the schema may change while connected).
func (d *DB) nameIndexLocked(ctx context.Context) (*adapter.Names, error) {
	if d.names != nil {
		return d.names, nil
	}
	rows, err := d.queryLocked(ctx, namesSQL)
	if err != nil {
		return nil, err
	}
	idx := &adapter.Names{Qualified: true}
	for _, r := range rows {
		t := adapter.TableNames{Name: r[0], Kind: r[1], Rows: -1}
		if f, err := strconv.ParseFloat(r[3], 64); err == nil {
			t.Rows = f
		}
		if r[2] != "" {
			t.Columns = strings.Split(r[2], "\x1f")
		}
		idx.Tables = append(idx.Tables, t)
	}
	d.names, d.namesAt = idx, time.Now()
	return idx, nil
}
