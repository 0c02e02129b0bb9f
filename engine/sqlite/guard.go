package sqlite

import (
	"fmt"
	"strings"

	"querent/engine"
	"querent/engine/sqltext"

	"modernc.org/sqlite"
	lib "modernc.org/sqlite/lib"
)

// policy selects what the authorizer allows.
type policy int

const (
	// policyQuery is for SQL that comes from a user or a model: one SELECT,
	// reading the main database through allowlisted functions only.
	policyQuery policy = iota
	// policyInternal is for Querent's own introspection statements (schema,
	// samples, PRAGMA quick_check): still no write of any kind.
	policyInternal
)

// read is one READ the authorizer allowed.
type read struct {
	table, column, view string
}

// authState is the authorizer's state for the statement being compiled. It
// belongs to one connection and is only touched under that connection's lock
// (SQLite calls the authorizer synchronously while preparing).
type authState struct {
	mode    policy
	actions int
	// sawSelect is true once a SELECT action was seen.
	sawSelect bool
	// denied is the reason of the first refusal, "" if none.
	denied string
	reads  []read
	funcs  []string
	// hide are the columns (folded "table\x00column") that read as NULL
	// (RunOptions.Hide): the authorizer answers SQLITE_IGNORE for them,
	// and SQLite compiles each such read as a NULL.
	hide map[string]bool
}

// hideColumns makes the columns ("table.column") read as NULL in the
// statement compiled next (reset clears them).
func (s *authState) hideColumns(cols []string) {
	for _, c := range cols {
		t, col := engine.SplitColumn(c)
		if s.hide == nil {
			s.hide = map[string]bool{}
		}
		s.hide[strings.ToLower(t)+"\x00"+strings.ToLower(col)] = true
	}
}

// reset prepares the state for compiling one statement under mode.
func (s *authState) reset(mode policy) {
	s.mode = mode
	s.actions = 0
	s.sawSelect = false
	s.denied = ""
	s.reads = s.reads[:0]
	s.funcs = s.funcs[:0]
	clear(s.hide)
}

func (s *authState) deny(format string, args ...any) sqlite.AuthorizerReturnCode {
	if s.denied == "" {
		s.denied = fmt.Sprintf(format, args...)
	}
	return sqlite.AuthorizerDeny
}

// authorize is the SQLite authorizer callback: an allowlist. Anything it does
// not know is denied.
func (s *authState) authorize(action sqlite.AuthorizerActionCode, arg1, arg2, dbName, view string) sqlite.AuthorizerReturnCode {
	first := s.actions == 0
	s.actions++
	if first && action != sqlite.AuthSelect && !(s.mode == policyInternal && action == sqlite.AuthPragma) {
		// The first action of a query is SELECT; anything else is some other
		// kind of statement, whatever its text looks like.
		return s.deny("%s", describeAction(action, arg1, arg2))
	}
	switch action {
	case sqlite.AuthSelect:
		s.sawSelect = true
		return sqlite.AuthorizerOK
	case sqlite.AuthRecursive:
		return sqlite.AuthorizerOK
	case sqlite.AuthRead:
		if dbName != "main" && dbName != "" && dbName != "temp" {
			return s.deny("reading from the attached database %q is not allowed", dbName)
		}
		table := strings.ToLower(arg1)
		if deniedTables[table] {
			return s.deny("reading %s is not allowed: it exposes the file's raw pages", arg1)
		}
		if p, ok := strings.CutPrefix(table, "pragma_"); ok && !allowedPragmas[p] && s.mode == policyQuery {
			return s.deny("the pragma function %s is not allowed; the introspection pragmas are: %s", arg1, pragmaList)
		}
		s.reads = append(s.reads, read{table: arg1, column: arg2, view: view})
		if len(s.hide) > 0 && s.hide[strings.ToLower(arg1)+"\x00"+strings.ToLower(arg2)] {
			return sqlite.AuthorizerIgnore
		}
		return sqlite.AuthorizerOK
	case sqlite.AuthFunction:
		name := strings.ToLower(arg2)
		if s.mode == policyQuery && !allowedFunctions[name] {
			if deniedFunctions[name] {
				return s.deny("the function %s() is not allowed: it can reach outside the query's data", arg2)
			}
			return s.deny("the function %s() is not allowed", arg2)
		}
		s.funcs = append(s.funcs, name)
		return sqlite.AuthorizerOK
	case sqlite.AuthPragma:
		// A PRAGMA action after the first comes from a pragma table-valued
		// function (pragma_table_info('t')), which SQLite runs as an inner
		// "PRAGMA table_info=t" while stepping. Only introspection pragmas
		// pass, and only those whose argument names a table or index.
		name := strings.ToLower(arg1)
		if allowedPragmas[name] && (arg2 == "" || pragmaTakesName[name]) {
			return sqlite.AuthorizerOK
		}
		// quick_check's argument is the most problems to list, not a setting.
		if s.mode == policyInternal && internalPragmas[name] {
			return sqlite.AuthorizerOK
		}
		return s.deny("%s", describeAction(action, arg1, arg2))
	}
	return s.deny("%s", describeAction(action, arg1, arg2))
}

// describeAction says in words what a denied action would have done.
func describeAction(action sqlite.AuthorizerActionCode, arg1, arg2 string) string {
	switch action {
	case sqlite.AuthInsert:
		return fmt.Sprintf("INSERT into %s would write to the database", arg1)
	case sqlite.AuthUpdate:
		return fmt.Sprintf("UPDATE of %s.%s would write to the database", arg1, arg2)
	case sqlite.AuthDelete:
		return fmt.Sprintf("DELETE from %s would write to the database", arg1)
	case sqlite.AuthCreateTable, sqlite.AuthCreateTempTable:
		return fmt.Sprintf("CREATE TABLE %s would change the database", arg1)
	case sqlite.AuthCreateIndex, sqlite.AuthCreateTempIndex:
		return fmt.Sprintf("CREATE INDEX %s would change the database", arg1)
	case sqlite.AuthCreateView, sqlite.AuthCreateTempView:
		return fmt.Sprintf("CREATE VIEW %s would change the database", arg1)
	case sqlite.AuthCreateTrigger, sqlite.AuthCreateTempTrigger:
		return fmt.Sprintf("CREATE TRIGGER %s would change the database", arg1)
	case sqlite.AuthCreateVTable:
		return fmt.Sprintf("CREATE VIRTUAL TABLE %s would change the database", arg1)
	case sqlite.AuthDropTable, sqlite.AuthDropTempTable, sqlite.AuthDropIndex, sqlite.AuthDropTempIndex,
		sqlite.AuthDropView, sqlite.AuthDropTempView, sqlite.AuthDropTrigger, sqlite.AuthDropTempTrigger,
		sqlite.AuthDropVTable:
		return fmt.Sprintf("DROP of %s would change the database", arg1)
	case sqlite.AuthAlterTable:
		return fmt.Sprintf("ALTER TABLE %s would change the database", arg2)
	case sqlite.AuthAttach:
		return "ATTACH would open another file"
	case sqlite.AuthDetach:
		return "DETACH is not a query"
	case sqlite.AuthTransaction:
		return fmt.Sprintf("%s (a transaction statement) is not a query", strings.ToUpper(arg1))
	case sqlite.AuthSavepoint:
		return "SAVEPOINT is not a query"
	case sqlite.AuthReindex:
		return "REINDEX would rewrite indexes"
	case sqlite.AuthAnalyze:
		return "ANALYZE would write statistics into the database"
	case sqlite.AuthPragma:
		name := strings.ToLower(arg1)
		switch {
		case allowedPragmas[name] && arg2 != "":
			return fmt.Sprintf("a PRAGMA statement is not a query; read it with SELECT * FROM pragma_%s(%s)", name, sqltext.QuoteString(arg2))
		case allowedPragmas[name]:
			return fmt.Sprintf("a PRAGMA statement is not a query; read it with SELECT * FROM pragma_%s", name)
		case arg2 != "":
			return fmt.Sprintf("PRAGMA %s = %s would change a setting", arg1, arg2)
		}
		return fmt.Sprintf("PRAGMA %s is not a query; the pragmas a query may read are %s", arg1, pragmaList)
	case sqlite.AuthFunction:
		return fmt.Sprintf("the function %s() is not allowed", arg2)
	case sqlite.AuthRead:
		return fmt.Sprintf("reading %s is not allowed here", arg1)
	}
	return fmt.Sprintf("this kind of statement (SQLite action %d) is not a query", action)
}

// deniedTables are virtual tables that expose the file's raw pages or the
// connection's internals.
var deniedTables = map[string]bool{
	"sqlite_dbpage": true,
	"dbstat":        true,
	"sqlite_stmt":   true,
}

// allowedPragmas are the pragmas a query may read as table-valued functions
// (pragma_table_info('t')…): introspection only. Table-valued pragma
// functions never have side effects, but some are expensive (integrity_check)
// or of no use to an analyst.
var allowedPragmas = map[string]bool{
	"table_info": true, "table_xinfo": true, "table_list": true,
	"index_list": true, "index_info": true, "index_xinfo": true,
	"foreign_key_list": true, "function_list": true, "collation_list": true,
	"pragma_list": true, "module_list": true, "database_list": true,
	"compile_options": true, "encoding": true, "page_count": true,
	"page_size": true, "freelist_count": true, "user_version": true,
	"application_id": true, "schema_version": true,
}

// pragmaTakesName are the allowed pragmas whose argument names a table or
// an index rather than setting a value.
var pragmaTakesName = map[string]bool{
	"table_info": true, "table_xinfo": true, "table_list": true,
	"index_list": true, "index_info": true, "index_xinfo": true,
	"foreign_key_list": true,
}

var pragmaList = "pragma_table_info, pragma_table_xinfo, pragma_table_list, pragma_index_list, pragma_index_info, pragma_index_xinfo, pragma_foreign_key_list and a few read-only settings"

// internalPragmas are the PRAGMA statements Querent itself runs.
var internalPragmas = map[string]bool{
	"quick_check": true, "integrity_check": true,
}

// deniedFunctions are built-ins that reach outside the query's data: loading
// code, file offsets, the error log, or extension internals.
var deniedFunctions = map[string]bool{
	"load_extension": true, "sqlite_offset": true, "sqlite_log": true,
	"fts3_tokenizer": true, "fts5": true, "fts5_get_locale": true,
	"fts5_insttoken": true, "fts5_locale": true, "fts5_source_id": true,
	"rtreecheck": true, "rtreenode": true, "rtreedepth": true,
	"geopoly_debug": true, "readfile": true, "writefile": true, "edit": true,
	"sqlite_dbdata": true, "sqlite_dbptr": true,
}

// allowedFunctions is every built-in of this SQLite build that only computes
// on its arguments (or reads harmless connection facts), minus the denied
// ones. Blob and string makers are safe: the LENGTH limit stops them.
var allowedFunctions = func() map[string]bool {
	m := map[string]bool{}
	for _, f := range strings.Fields(`-> ->> abs acos acosh asin asinh atan atan2 atanh avg bm25 ceil ceiling
		changes char coalesce concat concat_ws cos cosh count cume_dist current_date current_time
		current_timestamp date datetime degrees dense_rank exp first_value floor format
		geopoly_area geopoly_bbox geopoly_blob geopoly_ccw geopoly_contains_point geopoly_group_bbox
		geopoly_json geopoly_overlap geopoly_regular geopoly_svg geopoly_within geopoly_xform glob
		group_concat hex highlight if ifnull iif instr json json_array json_array_insert
		json_array_length json_error_position json_extract json_group_array json_group_object
		json_insert json_object json_patch json_pretty json_quote json_remove json_replace json_set
		json_type json_valid jsonb jsonb_array jsonb_array_insert jsonb_extract jsonb_group_array
		jsonb_group_object jsonb_insert jsonb_object jsonb_patch jsonb_remove jsonb_replace jsonb_set
		julianday lag last_insert_rowid last_value lead length like likelihood likely ln log log10
		log2 lower ltrim match max min mod nth_value ntile nullif octet_length percent_rank pi pow
		power printf quote radians random randomblob rank replace round row_number rtrim sign sin
		sinh snippet soundex sqlite_compileoption_get sqlite_compileoption_used sqlite_source_id
		sqlite_version sqrt strftime string_agg substr substring subtype sum tan tanh time timediff
		total total_changes trim trunc typeof unhex unicode unistr unistr_quote unixepoch unlikely
		upper zeroblob json_each json_tree`) {
		if !deniedFunctions[f] {
			m[f] = true
		}
	}
	return m
}()

// limits are the SQLite limits set on every guarded connection. They bound
// memory and work that a timeout cannot interrupt (a single opcode such as
// randomblob(3e8) cannot be interrupted; the LENGTH limit stops it at once).
var limits = []struct {
	id    int
	value int
	name  string
}{
	{lib.SQLITE_LIMIT_LENGTH, maxValueBytes, "LENGTH"},
	{lib.SQLITE_LIMIT_SQL_LENGTH, maxSQLBytes, "SQL_LENGTH"},
	{lib.SQLITE_LIMIT_COLUMN, 2000, "COLUMN"},
	{lib.SQLITE_LIMIT_EXPR_DEPTH, 256, "EXPR_DEPTH"},
	{lib.SQLITE_LIMIT_COMPOUND_SELECT, 200, "COMPOUND_SELECT"},
	{lib.SQLITE_LIMIT_VDBE_OP, 500_000, "VDBE_OP"},
	{lib.SQLITE_LIMIT_FUNCTION_ARG, 100, "FUNCTION_ARG"},
	{lib.SQLITE_LIMIT_ATTACHED, 0, "ATTACHED"},
	{lib.SQLITE_LIMIT_LIKE_PATTERN_LENGTH, 10_000, "LIKE_PATTERN_LENGTH"},
	{lib.SQLITE_LIMIT_VARIABLE_NUMBER, 100, "VARIABLE_NUMBER"},
	{lib.SQLITE_LIMIT_TRIGGER_DEPTH, 1, "TRIGGER_DEPTH"},
	{lib.SQLITE_LIMIT_WORKER_THREADS, 0, "WORKER_THREADS"},
}

const (
	// maxValueBytes is the largest string or blob (and row) SQLite may build.
	maxValueBytes = 10 << 20
	// maxSQLBytes is the longest statement accepted.
	maxSQLBytes = 100 << 10
)

// schemaWrite reports a denial of a write to SQLite's own schema table: the
// first thing SQLite checks for CREATE and DROP, so that the authorizer's
// words ("DELETE from sqlite_master") name what SQLite does inside, not what
// the user wrote.
func schemaWrite(denied string) bool {
	for _, t := range []string{"sqlite_master", "sqlite_schema", "sqlite_temp_master", "sqlite_temp_schema"} {
		if strings.Contains(denied, " "+t+" ") {
			return true
		}
	}
	return false
}

// describeStatement names a CREATE or DROP statement as the user wrote it
// ("DROP TABLE Track", "CREATE UNIQUE INDEX i"), or returns "" for another
// kind of statement. toks are the statement's tokens in sql.
func describeStatement(sql string, toks []sqltext.Token) string {
	var words []string
	var name string
	for _, t := range toks {
		if t.Kind == sqltext.Space || t.Kind == sqltext.Comment {
			continue
		}
		if name != "" {
			// schema.name
			if t.Kind == sqltext.Op && sql[t.Start:t.End] == "." && !strings.HasSuffix(name, ".") {
				name += "."
				continue
			}
			if strings.HasSuffix(name, ".") && (t.Kind == sqltext.Word || t.Kind == sqltext.Quoted) {
				name += sqltext.IdentText(sql, t)
				continue
			}
			break
		}
		if t.Kind == sqltext.Quoted {
			name = sqltext.IdentText(sql, t)
			continue
		}
		if t.Kind != sqltext.Word {
			break
		}
		w := strings.ToUpper(sql[t.Start:t.End])
		switch {
		case len(words) == 0:
			if w != "CREATE" && w != "DROP" {
				return ""
			}
			words = append(words, w)
		case w == "IF" || w == "NOT" || w == "EXISTS":
			// IF [NOT] EXISTS says nothing about what the statement does.
		case w == "TEMPORARY":
			words = append(words, "TEMP")
		case w == "TEMP" || w == "UNIQUE" || w == "VIRTUAL":
			words = append(words, w)
		case (w == "TABLE" || w == "INDEX" || w == "VIEW" || w == "TRIGGER") && !objectKind(words[len(words)-1]):
			words = append(words, w)
		default:
			if len(words) < 2 {
				return ""
			}
			name = sql[t.Start:t.End]
		}
	}
	if len(words) < 2 {
		return ""
	}
	return strings.TrimSpace(strings.Join(words, " ") + " " + name)
}

func objectKind(w string) bool {
	return w == "TABLE" || w == "INDEX" || w == "VIEW" || w == "TRIGGER"
}
