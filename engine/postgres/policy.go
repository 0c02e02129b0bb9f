package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"querent/engine/sqltext"
	"querent/engine/text"

	"querent/engine"
	"querent/engine/postgres/pgparse"
)

// maxSQLBytes bounds the SQL text (as on SQLite): longer text is no query an
// analyst writes, and it bounds the parser's work.
const maxSQLBytes = 100 << 10

// analysis is what the policy learnt from PostgreSQL's parse tree.
type analysis struct {
	// sql is the one statement as it will run: from its first character
	// to its end, without a trailing semicolon.
	sql string
	// start is sql's byte offset in the query as written.
	start int
	// tables are the relations the statement names (not its CTEs), in
	// order of first mention.
	tables []tableRef
	// aliases maps a lowercase alias (or bare table name) to its table.
	aliases map[string]tableRef
	// functions are the functions called (lowercase, without schema), in
	// order of first call.
	functions []string
	// columns are the column references: qualifier (lowercase, "" when
	// none) and name, in order.
	columns []columnRef
	ctes    map[string]bool
}

type tableRef struct {
	schema, name string
	pos          int
}

// String is the table as the query names it.
func (t tableRef) String() string {
	if t.schema != "" {
		return t.schema + "." + t.name
	}
	return t.name
}

type columnRef struct {
	qualifier, name string
	pos             int
}

// unknownFunctionError is the policy's verdict on a function that is not a
// built-in: the database decides whether it exists (refused) or not (syntax).
type unknownFunctionError struct {
	schema, name string
	pos          int
}

// Error names the function (the caller turns it into an *engine.Error).
func (e *unknownFunctionError) Error() string { return "unknown function " + e.name }

// analyze parses query with PostgreSQL's own parser and applies the policy:
// exactly one statement, a SELECT (WITH … SELECT, VALUES and TABLE
// included), no data-modifying CTE, no SELECT INTO, no row locks, no
// parameter, built-in functions and operators only, and none that acts
// rather than reads. Its errors are *engine.Error values, but for a function
// that is not a built-in, which is an *unknownFunctionError for the caller
// to resolve against the database.
func analyze(ctx context.Context, query string) (*analysis, error) {
	return analyzeFor(ctx, query, 0)
}

// analyzeFor is analyze for a server of the given server_version_num (0:
// unknown), whose grammar decides what some constructs mean.
func analyzeFor(ctx context.Context, query string, versionNum int) (*analysis, error) {
	if len(query) > maxSQLBytes {
		return nil, engine.QueryErrorf(engine.CodeTooBig, query, -1,
			"the SQL is %s long; the limit is %s", engine.FormatSize(int64(len(query))), engine.FormatSize(maxSQLBytes)).WithHint(
			"write a shorter query: long IN (…) lists and repeated expressions can usually be replaced by a join or a CTE")
	}
	if i := strings.IndexByte(query, 0); i >= 0 {
		return nil, engine.QueryErrorf(engine.CodeRefused, query, i, "the SQL contains a NUL byte (at byte %d)", i).WithHint(
			"remove the invisible NUL character; it often comes from copying binary data")
	}
	if !utf8.ValidString(query) {
		return nil, engine.QueryErrorf(engine.CodeSyntax, query, -1, "the SQL is not valid UTF-8 text").WithHint(
			"save or paste the query as UTF-8")
	}
	tree, err := pgparse.Parse(ctx, query)
	if err != nil {
		return nil, parseError(ctx, query, err)
	}
	var doc struct {
		Stmts []struct {
			Stmt         map[string]any `json:"stmt"`
			StmtLocation int            `json:"stmt_location"`
			StmtLen      int            `json:"stmt_len"`
		} `json:"stmts"`
	}
	if err := json.Unmarshal(tree, &doc); err != nil {
		// encoding/json stops at 10,000 levels of nesting.
		return nil, engine.QueryErrorf(engine.CodeTooBig, query, -1, "the query is nested too deeply to check").WithHint(
			"simplify the query: fewer nested subqueries and expressions (a CTE with WITH … AS often helps)")
	}
	switch len(doc.Stmts) {
	case 0:
		return nil, engine.QueryErrorf(engine.CodeSyntax, query, -1, "there is no SQL statement here, only whitespace or comments").WithHint(
			"write a query, for example: SELECT * FROM some_table LIMIT 10")
	case 1:
	default:
		second := skipSpace(query, doc.Stmts[1].StmtLocation)
		line, col := sqltext.LineCol(query, second)
		end := len(query)
		if l := doc.Stmts[1].StmtLen; l > 0 {
			end = doc.Stmts[1].StmtLocation + l
		}
		return nil, engine.QueryErrorf(engine.CodeRefused, query, second,
			"only one statement can run at a time; this text holds %d (the second starts at line %d, column %d: %s)",
			len(doc.Stmts), line, col, text.Excerpt(query[second:max(second, end)], 40)).WithHint(
			"run the statements one at a time, or combine them into one query with a CTE (WITH …), a join or UNION ALL")
	}
	st := doc.Stmts[0]
	start := skipSpace(query, st.StmtLocation)
	end := len(query)
	if st.StmtLen > 0 {
		end = st.StmtLocation + st.StmtLen
	}
	a := &analysis{start: start, sql: strings.TrimRightFunc(query[start:max(start, end)], isSpace),
		aliases: map[string]tableRef{}, ctes: map[string]bool{}}
	kind, body := nodeOf(st.Stmt)
	if kind != "SelectStmt" {
		return nil, refusedStatement(query, start, kind, body)
	}
	w := &walker{query: query, a: a, versionNum: versionNum}
	w.walk(st.Stmt)
	// The tree's objects are maps: visit order is random. Names are kept
	// in the order the statement writes them.
	sort.SliceStable(w.funcs, func(i, j int) bool { return w.funcs[i].pos < w.funcs[j].pos })
	seenFn := map[string]bool{}
	for _, f := range w.funcs {
		if !seenFn[f.name] {
			seenFn[f.name] = true
			a.functions = append(a.functions, f.name)
		}
	}
	sort.SliceStable(a.columns, func(i, j int) bool { return a.columns[i].pos < a.columns[j].pos })
	if len(w.violations) > 0 {
		sort.SliceStable(w.violations, func(i, j int) bool { return w.violations[i].pos < w.violations[j].pos })
		return nil, w.violations[0].err
	}
	var tables []tableRef
	seen := map[string]bool{}
	sort.SliceStable(w.tables, func(i, j int) bool { return w.tables[i].pos < w.tables[j].pos })
	for _, t := range w.tables {
		if t.schema == "" && a.ctes[strings.ToLower(t.name)] {
			continue
		}
		k := strings.ToLower(t.String())
		if !seen[k] {
			seen[k] = true
			tables = append(tables, t)
		}
	}
	a.tables = tables
	return a, nil
}

// parseError translates an error of PostgreSQL's parser.
func parseError(ctx context.Context, query string, err error) error {
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return engine.AsError(err)
	}
	if errors.Is(err, pgparse.ErrTooDeep) {
		return engine.QueryErrorf(engine.CodeTooBig, query, -1, "the query is nested too deeply for PostgreSQL's parser").WithHint(
			"simplify the query: fewer nested subqueries, function calls and chained operators (a CTE with WITH … AS often helps)").WithErr(err)
	}
	var pe *pgparse.Error
	if !errors.As(err, &pe) {
		return engine.Errorf(engine.CodeInternal, "PostgreSQL's parser failed: %v", err).WithErr(err).WithHint(
			"this is a bug in Querent; please report it with the query that caused it")
	}
	pos := -1
	if pe.Cursor > 0 {
		pos = charToByte(query, pe.Cursor-1)
	}
	return syntaxError(query, pos, pe.Message)
}

// syntaxError builds the syntax error for PostgreSQL's message msg at byte
// pos (-1 when unknown), in the words the SQLite adapter uses.
func syntaxError(query string, pos int, msg string) *engine.Error {
	where := ""
	if pos >= 0 {
		line, col := sqltext.LineCol(query, pos)
		where = fmt.Sprintf(" at line %d, column %d", line, col)
	}
	switch {
	case strings.HasPrefix(msg, "memory exhausted"):
		return engine.QueryErrorf(engine.CodeTooBig, query, pos, "the query is nested too deeply for PostgreSQL's parser (%s)", msg).WithHint(
			"simplify the query: fewer nested subqueries and expressions (a CTE with WITH … AS often helps)")
	case msg == "syntax error at end of input":
		return engine.QueryErrorf(engine.CodeSyntax, query, len(query), "the statement ends too early (syntax error at end of input)").WithHint(
			"a closing parenthesis or quote, or the rest of a clause, is missing at the end")
	case strings.HasPrefix(msg, "syntax error at or near "):
		near := strings.TrimPrefix(msg, "syntax error at or near ")
		e := engine.QueryErrorf(engine.CodeSyntax, query, pos, "syntax error near %s%s", near, where)
		if pos >= 0 {
			return e.WithHint("check the SQL just before %s: a missing or extra comma, parenthesis, quote or keyword (%s)", near, sqltext.Marked(query, pos))
		}
		return e.WithHint("check the SQL around %s: a missing or extra comma, parenthesis, quote or keyword", near)
	case strings.HasPrefix(msg, "unterminated"):
		return engine.QueryErrorf(engine.CodeSyntax, query, pos, "%s%s", msg, where).WithHint(
			"close every quote ('text', \"column\", $$…$$) and comment (/* … */)")
	}
	e := engine.QueryErrorf(engine.CodeSyntax, query, pos, "%s%s", msg, where)
	if pos >= 0 {
		return e.WithHint("fix the SQL at the marked place (%s)", sqltext.Marked(query, pos))
	}
	return e.WithHint("fix the SQL and try again")
}

// statementWords names a statement's node type in SQL words.
var statementWords = map[string]string{
	"InsertStmt": "INSERT", "UpdateStmt": "UPDATE", "DeleteStmt": "DELETE", "MergeStmt": "MERGE",
	"CopyStmt": "COPY", "DoStmt": "DO", "CallStmt": "CALL", "ExplainStmt": "EXPLAIN",
	"VariableShowStmt": "SHOW", "ListenStmt": "LISTEN", "NotifyStmt": "NOTIFY", "UnlistenStmt": "UNLISTEN",
	"PrepareStmt": "PREPARE", "ExecuteStmt": "EXECUTE", "DeallocateStmt": "DEALLOCATE",
	"DeclareCursorStmt": "DECLARE CURSOR", "FetchStmt": "FETCH", "ClosePortalStmt": "CLOSE",
	"LockStmt": "LOCK", "VacuumStmt": "VACUUM", "CreateStmt": "CREATE TABLE", "ViewStmt": "CREATE VIEW",
	"IndexStmt": "CREATE INDEX", "CreateTableAsStmt": "CREATE TABLE AS", "DropStmt": "DROP",
	"AlterTableStmt": "ALTER TABLE", "TruncateStmt": "TRUNCATE", "GrantStmt": "GRANT",
	"GrantRoleStmt": "GRANT", "CreateFunctionStmt": "CREATE FUNCTION", "CreateExtensionStmt": "CREATE EXTENSION",
	"DiscardStmt": "DISCARD", "CheckPointStmt": "CHECKPOINT", "LoadStmt": "LOAD", "ClusterStmt": "CLUSTER",
	"ReindexStmt": "REINDEX", "RefreshMatViewStmt": "REFRESH MATERIALIZED VIEW", "CommentStmt": "COMMENT",
	"CreateSchemaStmt": "CREATE SCHEMA", "CreateRoleStmt": "CREATE ROLE", "AlterRoleStmt": "ALTER ROLE",
	"DropRoleStmt": "DROP ROLE", "AlterSystemStmt": "ALTER SYSTEM", "CreateTrigStmt": "CREATE TRIGGER",
	"RuleStmt": "CREATE RULE", "ConstraintsSetStmt": "SET CONSTRAINTS", "CreateSeqStmt": "CREATE SEQUENCE",
	"AlterSeqStmt": "ALTER SEQUENCE", "AlterDatabaseSetStmt": "ALTER DATABASE", "CreatedbStmt": "CREATE DATABASE",
	"DropdbStmt": "DROP DATABASE", "ReassignOwnedStmt": "REASSIGN OWNED", "DropOwnedStmt": "DROP OWNED",
	"SecLabelStmt": "SECURITY LABEL", "AlterOwnerStmt": "ALTER … OWNER", "RenameStmt": "ALTER … RENAME",
	"CreatePolicyStmt": "CREATE POLICY", "AlterDefaultPrivilegesStmt": "ALTER DEFAULT PRIVILEGES",
	"CreateEventTrigStmt": "CREATE EVENT TRIGGER", "CreateForeignTableStmt": "CREATE FOREIGN TABLE",
	"ImportForeignSchemaStmt": "IMPORT FOREIGN SCHEMA", "CreateSubscriptionStmt": "CREATE SUBSCRIPTION",
	"CreatePublicationStmt": "CREATE PUBLICATION",
}

var transactionWords = map[string]string{
	"TRANS_STMT_BEGIN": "BEGIN", "TRANS_STMT_START": "START TRANSACTION", "TRANS_STMT_COMMIT": "COMMIT",
	"TRANS_STMT_ROLLBACK": "ROLLBACK", "TRANS_STMT_SAVEPOINT": "SAVEPOINT", "TRANS_STMT_RELEASE": "RELEASE SAVEPOINT",
	"TRANS_STMT_ROLLBACK_TO": "ROLLBACK TO SAVEPOINT", "TRANS_STMT_PREPARE": "PREPARE TRANSACTION",
	"TRANS_STMT_COMMIT_PREPARED": "COMMIT PREPARED", "TRANS_STMT_ROLLBACK_PREPARED": "ROLLBACK PREPARED",
}

// statementName names a statement from its node: "a DELETE statement".
func statementName(kind string, body map[string]any) string {
	switch kind {
	case "TransactionStmt":
		if w, ok := transactionWords[str(body["kind"])]; ok {
			return w
		}
		return "transaction control"
	case "VariableSetStmt":
		name := strings.ToUpper(strings.ReplaceAll(str(body["name"]), "_", " "))
		k := str(body["kind"])
		switch {
		case strings.HasPrefix(k, "VAR_RESET"):
			if k == "VAR_RESET_ALL" {
				return "RESET ALL"
			}
			return "RESET " + name
		case k == "VAR_SET_MULTI":
			return "SET " + strings.ToUpper(strings.TrimPrefix(str(body["name"]), "TRANSACTION "))
		case name != "":
			return "SET " + name
		}
		return "SET"
	case "FetchStmt":
		if b, _ := body["ismove"].(bool); b {
			return "MOVE"
		}
	case "VacuumStmt":
		if b, _ := body["is_vacuumcmd"].(bool); !b {
			return "ANALYZE"
		}
	case "CreateTableAsStmt":
		if str(body["objtype"]) == "OBJECT_MATVIEW" {
			return "CREATE MATERIALIZED VIEW"
		}
	}
	if w, ok := statementWords[kind]; ok {
		return w
	}
	// CamelCase node names into words: AlterDomainStmt → ALTER DOMAIN.
	var b strings.Builder
	for i, r := range strings.TrimSuffix(kind, "Stmt") {
		if i > 0 && r >= 'A' && r <= 'Z' {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
	}
	return strings.ToUpper(b.String())
}

// refusedStatement explains why a statement that is not a SELECT is refused.
func refusedStatement(query string, pos int, kind string, body map[string]any) *engine.Error {
	name := statementName(kind, body)
	var reason string
	switch kind {
	case "InsertStmt", "UpdateStmt", "DeleteStmt", "MergeStmt", "TruncateStmt", "CopyStmt":
		reason = fmt.Sprintf("a %s statement would change the database (or, for COPY, read or write files)", name)
		if kind != "CopyStmt" {
			reason = fmt.Sprintf("a %s statement would change the database", name)
		}
	case "TransactionStmt":
		reason = fmt.Sprintf("%s controls transactions; Querent runs every query in a read-only transaction of its own", name)
	case "VariableSetStmt", "DiscardStmt":
		reason = fmt.Sprintf("%s changes the session's settings or role", name)
	case "ExplainStmt":
		return engine.QueryErrorf(engine.CodeRefused, query, pos, "EXPLAIN is not a query that returns data").WithHint(
			"run the query itself; Querent adds query-plan hints (optimization_hints) to every answer")
	case "DoStmt", "CallStmt":
		reason = fmt.Sprintf("%s runs procedural code, which Querent cannot check", name)
	case "PrepareStmt", "ExecuteStmt", "DeallocateStmt", "DeclareCursorStmt", "FetchStmt", "ClosePortalStmt":
		reason = fmt.Sprintf("%s works on prepared statements or cursors that outlive the query", name)
	case "ListenStmt", "NotifyStmt", "UnlistenStmt":
		reason = fmt.Sprintf("%s talks to other sessions", name)
	case "VariableShowStmt":
		reason = "SHOW is not a query; to read a setting, SELECT current_setting('name')"
	default:
		if strings.HasPrefix(kind, "Create") || strings.HasPrefix(kind, "Alter") || strings.HasPrefix(kind, "Drop") ||
			strings.HasPrefix(kind, "Grant") || strings.HasPrefix(kind, "Revoke") {
			reason = fmt.Sprintf("a %s statement would change the database", name)
		} else {
			reason = fmt.Sprintf("a %s statement is not a query: it returns no rows to show", name)
		}
	}
	return engine.Refused(query, pos, reason)
}

// walker visits the parse tree, collecting names and violations.
type walker struct {
	query      string
	versionNum int
	a          *analysis
	tables     []tableRef
	funcs      []funcRef
	violations []violation
}

type funcRef struct {
	name string
	pos  int
}

type violation struct {
	pos int
	err error
}

func (w *walker) violate(pos int, err error) {
	w.violations = append(w.violations, violation{pos: pos, err: err})
}

// nodeOf returns a node's type and fields: {"SelectStmt": {…}}.
func nodeOf(m map[string]any) (string, map[string]any) {
	if len(m) != 1 {
		return "", nil
	}
	for k, v := range m {
		if k == "" || k[0] < 'A' || k[0] > 'Z' {
			return "", nil
		}
		body, _ := v.(map[string]any)
		if body == nil {
			body = map[string]any{}
		}
		return k, body
	}
	return "", nil
}

func (w *walker) walk(v any) {
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			w.walk(e)
		}
	case map[string]any:
		if kind, body := nodeOf(x); kind != "" {
			w.node(kind, body)
			return
		}
		for _, e := range x {
			w.walk(e)
		}
	}
}

func (w *walker) node(kind string, n map[string]any) {
	pos := loc(n)
	switch kind {
	case "SelectStmt":
		w.selectStmt(n)
	case "CommonTableExpr":
		w.a.ctes[strings.ToLower(str(n["ctename"]))] = true
		if q, ok := n["ctequery"].(map[string]any); ok {
			if k, body := nodeOf(q); k != "" && k != "SelectStmt" {
				w.violate(pos, engine.Refused(w.query, pos, fmt.Sprintf("the WITH query %s is a %s statement: a data-modifying WITH would change the database",
					str(n["ctename"]), statementName(k, body))))
				return
			}
		}
	case "RangeVar":
		w.rangeVar(n, pos)
		return
	case "ColumnRef":
		w.columnRef(n, pos)
		return
	case "ParamRef":
		w.violate(pos, engine.QueryErrorf(engine.CodeSyntax, w.query, pos,
			"the query has a parameter ($%v) but no value is bound to it", n["number"]).WithHint(
			"write the value into the SQL itself: 'text' in single quotes, numbers as they are"))
		return
	case "FuncCall":
		w.function(n, pos)
	case "A_Expr":
		switch str(n["kind"]) {
		case "AEXPR_OP", "AEXPR_OP_ANY", "AEXPR_OP_ALL", "AEXPR_DISTINCT", "AEXPR_NOT_DISTINCT", "AEXPR_NULLIF",
			"AEXPR_IN", "AEXPR_LIKE", "AEXPR_ILIKE", "AEXPR_SIMILAR":
			// Each names the operator it runs: = for IN, DISTINCT and
			// NULLIF, ~~ for LIKE…
			w.operator(n["name"], pos)
		}
	case "SubLink":
		// x op ANY (SELECT …), x op ALL (…), (a, b) op (SELECT …).
		if _, ok := n["operName"]; ok {
			w.operator(n["operName"], pos)
		}
	case "A_Indirection":
		// (x).f is f(x) when f is not a field of x.
		if ind, ok := n["indirection"].([]any); ok {
			for _, e := range ind {
				if k, body := nodeOf(asMap(e)); k == "String" {
					w.attribute(str(body["sval"]), "(…)."+str(body["sval"]), pos)
				}
			}
		}
	case "JsonObjectConstructor", "JsonArrayConstructor", "JsonArrayQueryConstructor", "JsonObjectAgg", "JsonArrayAgg", "JsonIsPredicate",
		"JsonFuncExpr", "JsonTable", "JsonParseExpr", "JsonScalarExpr", "JsonSerializeExpr", "MergeSupportFunc":
		w.grammar(kind, n, pos)
	case "RangeTableSample":
		w.tableSample(n, pos)
	case "A_Const":
		return
	default:
		if strings.HasSuffix(kind, "Stmt") {
			// A statement inside the SELECT (only a CTE can hold one,
			// checked above; this is a backstop).
			w.violate(pos, engine.Refused(w.query, pos, fmt.Sprintf("the query holds a %s statement", statementName(kind, n))))
			return
		}
	}
	for _, v := range n {
		w.walk(v)
	}
}

// selectStmt refuses SELECT … INTO (it creates a table) and row locks.
func (w *walker) selectStmt(n map[string]any) {
	if into, ok := n["intoClause"].(map[string]any); ok {
		rel, _ := into["rel"].(map[string]any)
		p := loc(rel)
		w.violate(p, engine.QueryErrorf(engine.CodeRefused, w.query, p,
			"SELECT … INTO %s creates a table: Querent only runs read-only queries", str(rel["relname"])).WithHint(
			"leave out INTO …: the rows come back as the answer"))
	}
	if locks, ok := n["lockingClause"].([]any); ok && len(locks) > 0 {
		_, lc := nodeOf(asMap(locks[0]))
		what := map[string]string{"LCS_FORUPDATE": "FOR UPDATE", "LCS_FORNOKEYUPDATE": "FOR NO KEY UPDATE",
			"LCS_FORSHARE": "FOR SHARE", "LCS_FORKEYSHARE": "FOR KEY SHARE"}[str(lc["strength"])]
		if what == "" {
			what = "FOR UPDATE"
		}
		p := w.lockingClausePos()
		w.violate(p, engine.QueryErrorf(engine.CodeRefused, w.query, p,
			"%s locks the rows it reads: Querent only runs read-only queries", what).WithHint(
			"leave out %s: a query that only reads needs no row locks", what))
	}
}

// rangeVar records a relation the statement names (and its alias), and
// refuses the relations that hold the server's secrets.
func (w *walker) rangeVar(n map[string]any, pos int) {
	t := tableRef{schema: str(n["schemaname"]), name: str(n["relname"]), pos: pos}
	if t.schema == "" || strings.EqualFold(t.schema, "pg_catalog") {
		if what, _ := secretRelation(strings.ToLower(t.name)); what != "" && str(n["catalogname"]) == "" {
			w.violate(pos, engine.QueryErrorf(engine.CodeRefused, w.query, pos, "%s is not readable through Querent: it holds %s", t.name, what).WithHint(
				"query the data; for the roles, pg_roles shows them without their passwords"))
		}
	}
	if c := str(n["catalogname"]); c != "" {
		t.schema = c + "." + t.schema
	}
	w.tables = append(w.tables, t)
	w.a.aliases[strings.ToLower(t.name)] = t
	if al, ok := n["alias"].(map[string]any); ok {
		if name := str(al["aliasname"]); name != "" {
			w.a.aliases[strings.ToLower(name)] = t
		}
	}
}

// columnRef records a column reference; a qualified one may be attribute
// notation (t.f is f(t) when f is not a column of t).
func (w *walker) columnRef(n map[string]any, pos int) {
	fields, _ := n["fields"].([]any)
	var parts []string
	for _, f := range fields {
		k, body := nodeOf(asMap(f))
		if k != "String" {
			parts = nil // A_Star: t.* or *
			break
		}
		parts = append(parts, str(body["sval"]))
	}
	if len(parts) >= 2 {
		w.attribute(parts[len(parts)-1], strings.Join(parts, "."), pos)
	}
	switch len(parts) {
	case 1:
		w.a.columns = append(w.a.columns, columnRef{name: parts[0], pos: pos})
	case 2, 3:
		w.a.columns = append(w.a.columns, columnRef{qualifier: strings.ToLower(parts[len(parts)-2]), name: parts[len(parts)-1], pos: pos})
	}
}

// tableSample allows PostgreSQL's built-in TABLESAMPLE methods only.
func (w *walker) tableSample(n map[string]any, pos int) {
	method := names(n["method"])
	m := strings.ToLower(method[len(method)-1])
	if len(method) > 2 || (len(method) == 2 && !strings.EqualFold(method[0], "pg_catalog")) || !allowedTableSamples[m] {
		w.violate(pos, engine.QueryErrorf(engine.CodeRefused, w.query, pos,
			"the TABLESAMPLE method %s is not allowed: only PostgreSQL's built-in SYSTEM and BERNOULLI are", strings.Join(method, ".")).WithHint(
			"use TABLESAMPLE BERNOULLI (10) for a 10%% sample of the rows, or ORDER BY random() LIMIT n"))
	}
}

func (w *walker) function(n map[string]any, pos int) {
	parts := names(n["funcname"])
	if len(parts) == 0 {
		return
	}
	name := strings.ToLower(parts[len(parts)-1])
	schema := ""
	if len(parts) > 1 {
		schema = strings.Join(parts[:len(parts)-1], ".")
	}
	shown := strings.Join(parts, ".")
	w.funcs = append(w.funcs, funcRef{name: name, pos: pos})
	if schema != "" && !strings.EqualFold(schema, "pg_catalog") {
		w.violate(pos, &unknownFunctionError{schema: schema, name: parts[len(parts)-1], pos: pos})
		return
	}
	switch verdict, reason := checkFunction(name); verdict {
	case funcDenied:
		w.violate(pos, engine.QueryErrorf(engine.CodeRefused, w.query, pos, "the function %s() is not allowed: %s", shown, reason).WithHint(
			"%s", deniedHint(name)))
	case funcUnknown:
		w.violate(pos, &unknownFunctionError{name: parts[len(parts)-1], pos: pos})
	}
}

// deniedHint says what to do instead of calling a denied function.
func deniedHint(name string) string {
	switch {
	case name == "set_config":
		return "read settings with current_setting('name'); Querent sets the query's own limits itself"
	case strings.HasPrefix(name, "pg_sleep"):
		return "leave the sleep out; Querent bounds every query with its timeout"
	case name == "nextval" || name == "setval" || name == "currval" || name == "lastval":
		return "to see a sequence's state, SELECT last_value FROM the_sequence"
	case strings.Contains(name, "advisory"):
		return "leave the lock out: a read-only query needs none"
	}
	return "write the query with PostgreSQL's built-in functions that read data (aggregates, window, string, date, math, JSON and array functions)"
}

func (w *walker) operator(name any, pos int) {
	parts := names(name)
	if len(parts) == 0 {
		return
	}
	op := parts[len(parts)-1]
	qualified := len(parts) > 1
	if (qualified && !(len(parts) == 2 && strings.EqualFold(parts[0], "pg_catalog"))) || !builtinOperators[op] {
		shown := op
		if qualified {
			shown = "OPERATOR(" + strings.Join(parts, ".") + ")"
		}
		w.violate(pos, engine.QueryErrorf(engine.CodeRefused, w.query, pos,
			"the operator %s is not allowed: it is not one of PostgreSQL's built-in operators, and Querent does not run the database's own", shown).WithHint(
			"use PostgreSQL's built-in operators (=, <>, <, >, +, -, *, /, ||, ~, ~~, ->, ->>, @>, …) or functions"))
	}
}

// attribute checks attribute notation: PostgreSQL reads x.f and (x).f as
// the call f(x) when f is not a column (or field) of x. A name the function
// policy refuses is refused here, with what it would do (a column of that
// name is unheard of); any other call it makes is judged by the server
// check, which sees what PostgreSQL resolved.
func (w *walker) attribute(name, shown string, pos int) {
	f := strings.ToLower(name)
	if verdict, reason := checkFunction(f); verdict == funcDenied {
		w.violate(pos, engine.QueryErrorf(engine.CodeRefused, w.query, pos,
			"%s calls the function %s(): PostgreSQL reads x.%s as %s(x) when %s is not a column, and %s() is not allowed: %s", shown, f, name, f, name, f, reason).WithHint(
			"%s", deniedHint(f)))
	}
}

// jsonGrammar are the SQL/JSON constructs of PostgreSQL 16 and 17: an older
// server's grammar reads JSON_ARRAY(…) and the like as plain calls of
// functions of that name, which it does not have built in (so a function
// of the database's own of that name would run).
var jsonGrammar = map[string]struct {
	since int
	shown string
	use   string
}{
	"JsonObjectConstructor":     {160000, "JSON_OBJECT(…)", "json_build_object(key, value, …)"},
	"JsonArrayConstructor":      {160000, "JSON_ARRAY(…)", "json_build_array(…)"},
	"JsonArrayQueryConstructor": {160000, "JSON_ARRAY(SELECT …)", "(SELECT json_agg(…) FROM …)"},
	"JsonObjectAgg":             {160000, "JSON_OBJECTAGG(…)", "json_object_agg(key, value)"},
	"JsonArrayAgg":              {160000, "JSON_ARRAYAGG(…)", "json_agg(…)"},
	"JsonIsPredicate":           {160000, "IS JSON", "a CASE over jsonb_typeof(…)"},
	"JsonFuncExpr":              {170000, "JSON_QUERY, JSON_VALUE or JSON_EXISTS", "jsonb_path_query_first(…), ->> or jsonb_path_exists(…)"},
	"JsonTable":                 {170000, "JSON_TABLE(…)", "jsonb_to_recordset(…) or jsonb_array_elements(…)"},
	"JsonParseExpr":             {170000, "JSON(…)", "a cast: x::json"},
	"JsonScalarExpr":            {170000, "JSON_SCALAR(…)", "to_json(…)"},
	"JsonSerializeExpr":         {170000, "JSON_SERIALIZE(…)", "a cast: x::text"},
	"MergeSupportFunc":          {170000, "MERGE_ACTION()", "nothing: it belongs to MERGE, which Querent does not run"},
}

// grammar refuses a construct of a newer PostgreSQL than the server's.
func (w *walker) grammar(kind string, n map[string]any, pos int) {
	g, ok := jsonGrammar[kind]
	if !ok || w.versionNum == 0 || w.versionNum >= g.since {
		return
	}
	w.violate(pos, engine.QueryErrorf(engine.CodeRefused, w.query, pos,
		"%s is the syntax of PostgreSQL %d and later; this server (PostgreSQL %d) reads it as a call of a function of that name, which it does not have built in, so Querent does not send it", g.shown, g.since/10000, w.versionNum/10000).WithHint(
		"use %s", g.use))
}

// lockingClausePos finds where a locking clause starts: FOR followed by
// UPDATE, SHARE, NO KEY or KEY SHARE (the parse tree gives it no location),
// or -1.
func (w *walker) lockingClausePos() int {
	words := w.words()
	for i := 0; i+1 < len(words); i++ {
		if words[i].text == "FOR" {
			switch words[i+1].text {
			case "UPDATE", "SHARE", "NO", "KEY":
				return words[i].pos
			}
		}
	}
	return -1
}

type word struct {
	text string // upper case
	pos  int
}

// words lists the query's words outside quotes and comments.
func (w *walker) words() []word {
	q := w.query
	var out []word
	for i := w.a.start; i < len(q); {
		switch c := q[i]; {
		case c == '\'' || c == '"':
			j := i + 1
			for j < len(q) {
				if q[j] == c {
					if j+1 < len(q) && q[j+1] == c {
						j += 2
						continue
					}
					break
				}
				j++
			}
			i = j + 1
		case c == '-' && i+1 < len(q) && q[i+1] == '-', c == '/' && i+1 < len(q) && q[i+1] == '*':
			i = skipComment(q, i)
		case c == '$':
			// A dollar-quoted string: $tag$ … $tag$.
			j := i + 1
			for j < len(q) && isWordByte(q[j]) && q[j] != '$' {
				j++
			}
			if j < len(q) && q[j] == '$' {
				tag := q[i : j+1]
				if k := strings.Index(q[j+1:], tag); k >= 0 {
					i = j + 1 + k + len(tag)
					continue
				}
				return out
			}
			i = j
		case isWordByte(c):
			j := i
			for j < len(q) && isWordByte(q[j]) {
				j++
			}
			out = append(out, word{text: strings.ToUpper(q[i:j]), pos: i})
			i = j
		default:
			i++
		}
	}
	return out
}

func isWordByte(c byte) bool {
	return c == '_' || c == '$' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9') || c >= 0x80
}

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// loc is a node's location (a byte offset), or -1.
func loc(n map[string]any) int {
	if f, ok := n["location"].(float64); ok {
		return int(f)
	}
	return -1
}

// names reads a list of String nodes (a qualified name).
func names(v any) []string {
	list, _ := v.([]any)
	var out []string
	for _, e := range list {
		if k, body := nodeOf(asMap(e)); k == "String" {
			out = append(out, str(body["sval"]))
		}
	}
	return out
}
