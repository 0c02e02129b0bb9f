package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"querent/engine"
	"querent/engine/files"
	"querent/engine/imports"
	"querent/engine/sqltext"
	"querent/engine/words"
)

// ImportOptions control how Import writes tables.
type ImportOptions struct {
	// Table names the one table of the import (--table).
	Table string
	// Replace replaces a table of the same name that Querent imported (it
	// has a row in _querent_imports); Append adds rows to it.
	Replace, Append bool
	// ReplaceUserTable is Replace that also replaces a table Querent did
	// not import (one added to a Querent-made database by other means), with
	// a warning that says what it replaced (--replace-user-table). It
	// implies Replace.
	ReplaceUserTable bool
	// Progress, when set, is told how far the writing has come.
	Progress func(imports.Progress)
	// BusyTimeout is how long to wait for another program's lock on an
	// existing target (default 5 s).
	BusyTimeout time.Duration
	// MaxMemory is the import's share of the memory ceiling (0: 1 GB):
	// SQLite's page cache takes an eighth of it, 64 MB at most.
	MaxMemory int64
}

// cachePragma is the page cache of an import with this memory.
func (o ImportOptions) cachePragma() string {
	kib := int64(65536)
	if o.MaxMemory > 0 {
		kib = max(min(kib, o.MaxMemory/8>>10), 2048)
	}
	return fmt.Sprintf("PRAGMA cache_size = -%d", kib)
}

var safeTableName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// Import writes tables into the SQLite file target, all or nothing:
//
//   - target does not exist: the file is built whole under a temporary name
//     in the same folder and renamed into place at the end;
//   - it exists: it must be a database that Querent's import made (it has
//     the _querent_imports table; design.md rule 10), checked first through
//     a read-only connection, so that another program's database is never
//     opened for writing. Everything happens in one transaction (with the
//     rollback journal), so on any error or cancellation the file is
//     exactly as it was; a table that exists already is an error unless
//     opts.Replace or opts.Append says what to do, and Replace replaces a
//     table that Querent did not import only with opts.ReplaceUserTable.
//
// The sources are only read. Each table's provenance goes into
// _querent_imports.
func Import(ctx context.Context, target string, tables []*imports.Table, opts ImportOptions) (*imports.Report, error) {
	start := time.Now()
	opts, abs, err := checkRequest(target, tables, opts, false)
	if err != nil {
		return nil, err
	}
	names := plannedNames(tables, opts.Table)
	st, statErr := os.Stat(abs)
	var rep *imports.Report
	switch {
	case errors.Is(statErr, os.ErrNotExist):
		if opts.Append || opts.Replace {
			// Nothing to replace or append to: the table is simply created.
			opts.Append, opts.Replace = false, false
		}
		rep, err = importNew(ctx, abs, tables, names, opts)
	case statErr != nil:
		return nil, engine.Errorf(engine.CodeImport, "%s: cannot read the target: %v", target, statErr).WithErr(statErr).WithHint("check the path and its permissions")
	case st.IsDir():
		return nil, folderTarget(target)
	default:
		if err := checkQuerentMade(ctx, abs, target); err != nil {
			return nil, err
		}
		rep, err = importExisting(ctx, abs, tables, names, opts)
	}
	if err != nil {
		return nil, err
	}
	rep.Database = abs
	rep.ElapsedS = engine.Seconds(time.Since(start))
	for _, t := range tables {
		rep.Warnings = append(rep.Warnings, t.Warnings...)
	}
	return rep, nil
}

// checkRequest checks what needs no file: the options, the names, that
// no source is the target, that no table is a sample (unless samples, for
// Check). It returns the options made consistent and the target's
// absolute path.
func checkRequest(target string, tables []*imports.Table, opts ImportOptions, samples bool) (ImportOptions, string, error) {
	if len(tables) == 0 {
		return opts, "", engine.Errorf(engine.CodeImport, "there is nothing to import: no table was read").WithHint("check that the files hold data")
	}
	if opts.ReplaceUserTable && opts.Append {
		return opts, "", engine.Say(engine.CodeUsage, words.New("target.not_together", words.ReplaceUserTable, words.Append)).WithHint("choose one")
	}
	if opts.ReplaceUserTable {
		opts.Replace = true
	}
	if opts.Replace && opts.Append {
		return opts, "", engine.Say(engine.CodeUsage, words.New("target.not_together", words.Replace, words.Append)).WithHint("choose one")
	}
	if opts.Table != "" {
		if len(tables) != 1 {
			return opts, "", engine.Say(engine.CodeUsage, words.New("target.table_one", words.Table, words.Value(strconv.Itoa(len(tables))))).SayHint(
				words.New("target.one_at_a_time", words.Table))
		}
		if !safeTableName.MatchString(opts.Table) || isInternalTable(opts.Table) {
			return opts, "", engine.Say(engine.CodeUsage, words.New("target.bad_table_name", words.Table, words.Quoted(opts.Table))).WithHint(
				"use letters, digits and _ (not starting with a digit, sqlite_ or _querent_)")
		}
	}
	for _, t := range tables {
		if t.Sampled && !samples {
			return opts, "", engine.Errorf(engine.CodeInternal, "%s was read as a sample (a preview); it cannot be imported", t.Source)
		}
	}
	abs, err := filepath.Abs(target)
	if err != nil {
		return opts, "", engine.Errorf(engine.CodeUsage, "cannot resolve the path %s: %v", target, err).WithErr(err)
	}
	for _, t := range tables {
		if t.SourcePath != "" && sameFile(t.SourcePath, abs) {
			return opts, "", engine.Errorf(engine.CodeUsage, "the target %s is also a source of this import", target).SayHint(words.New("target.other_target", words.DB))
		}
	}
	return opts, abs, nil
}

// checkQuerentMade refuses an existing target that is not a SQLite file
// Querent's import made, reading it through a read-only connection: a
// database that another program made is never opened for writing at all
// (which could leave a -wal or -journal file beside it). importExisting
// checks again under its lock.
func checkQuerentMade(ctx context.Context, abs, target string) error {
	if cerr := checkFile(abs, target); cerr != nil {
		e := engine.AsError(cerr)
		return engine.Errorf(engine.CodeImport, "the target is not a usable SQLite database: %s", e.Message).SayHint(
			words.New("target.sqlite_only", words.DB))
	}
	made, merr := madeByQuerent(ctx, abs)
	if merr != nil {
		return merr
	}
	if !made {
		return notQuerentMade(target)
	}
	return nil
}

// TargetCheck is what an import would do with one table: its name in the
// target, and create, replace or append.
type TargetCheck struct {
	Name, Action string
}

// Check says what Import would do with target and tables, and finds the
// errors it would stop at, without writing anything: it reads the target
// (if it exists) through a read-only connection. Tables may be samples.
// The warnings are those writing would give (a table replaced that
// Querent did not import, types that differ from an appended table's).
func Check(ctx context.Context, target string, tables []*imports.Table, opts ImportOptions) ([]TargetCheck, []string, error) {
	opts, abs, err := checkRequest(target, tables, opts, true)
	if err != nil {
		return nil, nil, err
	}
	names := plannedNames(tables, opts.Table)
	out := make([]TargetCheck, len(tables))
	for i, n := range names {
		out[i] = TargetCheck{Name: n, Action: "create"}
	}
	st, statErr := os.Stat(abs)
	switch {
	case errors.Is(statErr, os.ErrNotExist):
		return out, nil, nil
	case statErr != nil:
		return nil, nil, engine.Errorf(engine.CodeImport, "%s: cannot read the target: %v", target, statErr).WithErr(statErr).WithHint("check the path and its permissions")
	case st.IsDir():
		return nil, nil, folderTarget(target)
	}
	if err := checkQuerentMade(ctx, abs, target); err != nil {
		return nil, nil, err
	}
	db, err := sql.Open("sqlite", fileDSN(abs, false))
	if err != nil {
		return nil, nil, importErr(abs, err)
	}
	defer db.Close()
	q := func(query string, args ...string) ([][]string, error) {
		a := make([]any, len(args))
		for i, x := range args {
			a[i] = x
		}
		rows, err := db.QueryContext(ctx, query, a...)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		cols, _ := rows.Columns()
		var out [][]string
		for rows.Next() {
			vals := make([]sql.NullString, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				return nil, err
			}
			r := make([]string, len(cols))
			for i, v := range vals {
				r[i] = v.String
			}
			out = append(out, r)
		}
		return out, rows.Err()
	}
	existing, err := existingTablesQ(q)
	if err != nil {
		return nil, nil, importErr(abs, err)
	}
	var warnings []string
	rep := &imports.Report{}
	for i, name := range names {
		kind, ok := existing[strings.ToLower(name)]
		if !ok {
			continue
		}
		if kind == "view" {
			return nil, nil, engine.Errorf(engine.CodeImport, "%s has a view named %s", filepath.Base(abs), name).SayHint(words.New("target.other_table_name", words.Table))
		}
		switch {
		case opts.Append:
			out[i].Action = "append"
			if err := checkAppend(q, abs, name, tables[i], rep); err != nil {
				return nil, nil, err
			}
		case opts.Replace:
			out[i].Action = "replace"
			w, err := checkReplace(q, abs, name, opts)
			if err != nil {
				return nil, nil, err
			}
			if w != "" {
				warnings = append(warnings, w)
			}
		default:
			return nil, nil, existsErr(abs, name, tables[i].Source)
		}
	}
	return out, append(warnings, rep.Warnings...), nil
}

// folderTarget refuses a target that is a folder.
func folderTarget(target string) *engine.Error {
	return engine.Errorf(engine.CodeUsage, "%s is a folder", target).SayHint(
		words.New("target.give_name", words.DB, words.Value(filepath.Join(target, "data.sqlite"))))
}

func existsErr(abs, name, source string) error {
	return engine.Errorf(engine.CodeImport, "%s already has a table named %s (from %s)", filepath.Base(abs), name, source).SayHint(
		words.New("target.exists_choose", words.Replace, words.Append, words.Table.With("NAME")))
}

// plannedNames gives each table its name: --table, else its own, made
// unique within this import (two files or sheets with the same name).
func plannedNames(tables []*imports.Table, override string) []string {
	names := make([]string, len(tables))
	used := map[string]bool{}
	for i, t := range tables {
		base := t.Name
		if override != "" {
			base = override
		}
		if base == "" {
			base = "data"
		}
		name := base
		for n := 2; used[strings.ToLower(name)]; n++ {
			name = fmt.Sprintf("%s_%d", base, n)
		}
		used[strings.ToLower(name)] = true
		names[i] = name
	}
	return names
}

func sameFile(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	if err1 != nil || err2 != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	return os.SameFile(sa, sb)
}

// importNew builds a new file under a temporary name beside the target and
// renames it into place; nothing is left behind on failure.
func importNew(ctx context.Context, abs string, tables []*imports.Table, names []string, opts ImportOptions) (rep *imports.Report, err error) {
	dir := filepath.Dir(abs)
	if st, serr := os.Stat(dir); serr != nil || !st.IsDir() {
		return nil, engine.Errorf(engine.CodeImport, "the folder %s does not exist", dir).SayHint(words.New("target.create_folder", words.DB))
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(abs)+".querent-import-*")
	if err != nil {
		return nil, engine.Errorf(engine.CodeImport, "cannot create a file in %s: %v", dir, err).WithErr(err).WithHint("check that you may write there and that the disk has space")
	}
	tmp := f.Name()
	f.Close()
	defer func() {
		if err != nil {
			removeDB(tmp)
		}
	}()
	c, err := openBulk(tmp)
	if err != nil {
		return nil, importErr(abs, err)
	}
	defer c.close()
	// A new file needs no journal: a failure discards the whole file.
	// Exclusive locking and a large cache make the writing fast.
	if err := c.exec(`PRAGMA page_size = 4096; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
		PRAGMA locking_mode = EXCLUSIVE; ` + opts.cachePragma() + `; PRAGMA temp_store = MEMORY; BEGIN`); err != nil {
		return nil, importErr(abs, err)
	}
	rep = &imports.Report{Warnings: []string{}, Errors: []engine.ErrorDoc{}, Tables: []imports.ImportedTable{}}
	if err := writeTables(ctx, c, abs, tables, names, map[string]string{}, opts, rep); err != nil {
		return nil, err
	}
	if err := c.exec("COMMIT"); err != nil {
		return nil, importErr(abs, err)
	}
	if err := c.close(); err != nil {
		return nil, importErr(abs, err)
	}
	if err := syncFile(tmp); err != nil {
		return nil, importErr(abs, err)
	}
	if err := renameNoReplace(tmp, abs); err != nil {
		return nil, err
	}
	files.SyncDir(dir)
	return rep, nil
}

// importExisting adds to an existing file in one transaction, with the
// rollback journal: on any error the file is restored byte for byte.
func importExisting(ctx context.Context, abs string, tables []*imports.Table, names []string, opts ImportOptions) (rep *imports.Report, err error) {
	c, err := openBulk(abs)
	if err != nil {
		return nil, importErr(abs, err)
	}
	defer c.close()
	busy := opts.BusyTimeout
	if busy <= 0 {
		busy = 5 * time.Second
	}
	c.busyTimeout(int(busy.Milliseconds()))
	if err := c.exec(opts.cachePragma() + "; BEGIN IMMEDIATE"); err != nil {
		return nil, importErr(abs, err)
	}
	committed := false
	defer func() {
		if !committed {
			c.exec("ROLLBACK")
		}
	}()
	existing, err := existingTables(c)
	if err != nil {
		return nil, importErr(abs, err)
	}
	if existing[querentImportsTable] != "table" {
		return nil, notQuerentMade(abs)
	}
	rep = &imports.Report{Warnings: []string{}, Errors: []engine.ErrorDoc{}, Tables: []imports.ImportedTable{}}
	for i, name := range names {
		kind, ok := existing[strings.ToLower(name)]
		if !ok {
			continue
		}
		if !opts.Replace && !opts.Append {
			return nil, existsErr(abs, name, tables[i].Source)
		}
		if !opts.Replace || kind != "table" {
			continue // a view is refused by writeTables
		}
		// Everything is checked before the first write.
		warning, err := checkReplace(c.queryStrings, abs, name, opts)
		if err != nil {
			return nil, err
		}
		if warning != "" {
			rep.Warnings = append(rep.Warnings, warning)
		}
	}
	if err := writeTables(ctx, c, abs, tables, names, existing, opts, rep); err != nil {
		return nil, err
	}
	if err := c.exec("COMMIT"); err != nil {
		return nil, importErr(abs, err)
	}
	committed = true
	if err := c.close(); err != nil {
		return nil, importErr(abs, err)
	}
	return rep, nil
}

// querentImportsTable is Querent's metadata table: a database that has it
// was made by Querent's import, and only such a database is written.
const querentImportsTable = "_querent_imports"

// madeByQuerent reports whether the SQLite file at abs has Querent's
// _querent_imports table, reading it through a read-only, immutable
// connection that writes nothing and creates no file.
func madeByQuerent(ctx context.Context, abs string) (bool, error) {
	db, err := sql.Open("sqlite", fileDSN(abs, false))
	if err != nil {
		return false, importErr(abs, err)
	}
	defer db.Close()
	var n int
	err = db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?", querentImportsTable).Scan(&n)
	if err != nil {
		return false, importErr(abs, err)
	}
	return n > 0, nil
}

// notQuerentMade refuses writing into a database Querent's import did not
// make: it belongs to another program or to the user, who may have it
// open, and Querent writes only what it made.
func notQuerentMade(target string) *engine.Error {
	dir, base := filepath.Split(target)
	other := filepath.Join(dir, strings.TrimSuffix(base, filepath.Ext(base))+"-imported.sqlite")
	return engine.Errorf(engine.CodeImport, "%s was not made by Querent's import (it has no %s table): Querent never writes into another database",
		base, querentImportsTable).SayHint(words.New("target.new_file_instead", words.DB.With(other), words.Value(other)))
}

// checkReplace allows replacing the table name when Querent imported it
// (it has a row in _querent_imports); a table Querent did not import is
// replaced only with opts.ReplaceUserTable, and the warning returned says
// so, with its row count.
func checkReplace(q queryFunc, abs, name string, opts ImportOptions) (string, error) {
	rows, err := q("SELECT count(*) FROM "+querentImportsTable+" WHERE lower(table_name) = lower(?)", name)
	if err != nil {
		return "", importErr(abs, err)
	}
	if len(rows) == 1 && rows[0][0] != "0" {
		return "", nil
	}
	rows, err = q("SELECT count(*) FROM " + sqltext.QuoteIdent(name))
	if err != nil {
		return "", importErr(abs, err)
	}
	count := "?"
	if len(rows) == 1 {
		if n, err := strconv.ParseInt(rows[0][0], 10, 64); err == nil {
			count = engine.GroupThousands(n)
		}
	}
	if !opts.ReplaceUserTable {
		return "", engine.Say(engine.CodeImport, words.New("target.user_table", words.Value(filepath.Base(abs)), words.Value(name), words.Value(count), words.Replace)).SayHint(
			words.New("target.user_table_hint", words.ReplaceUserTable, words.Table.With("NAME")))
	}
	return fmt.Sprintf("replaced table %s, which Querent did not import (%s rows)", name, count), nil
}

// queryFunc runs a query and gives its rows as text: the bulk
// connection's (writing), or a read-only one's (Check).
type queryFunc func(query string, args ...string) ([][]string, error)

// existingTables maps lower-cased names of the file's tables and views to
// their kind.
func existingTables(c *bulkConn) (map[string]string, error) { return existingTablesQ(c.queryStrings) }

func existingTablesQ(q queryFunc) (map[string]string, error) {
	rows, err := q("SELECT name, type FROM sqlite_schema WHERE type IN ('table', 'view')")
	if err != nil {
		return nil, err
	}
	m := map[string]string{}
	for _, r := range rows {
		m[strings.ToLower(r[0])] = r[1]
	}
	return m, nil
}

// execArgs runs one statement with arguments.
func execArgs(c *bulkConn, sql string, args ...any) error {
	st, err := c.prepare(sql)
	if err != nil {
		return err
	}
	defer st.close()
	return st.execValues(args)
}

// writeTables creates (or replaces, or appends to) each table, streams its
// rows in, and records its provenance.
func writeTables(ctx context.Context, c *bulkConn, abs string, tables []*imports.Table, names []string,
	existing map[string]string, opts ImportOptions, rep *imports.Report) error {
	if err := migrateImports(c); err != nil {
		return importErr(abs, err)
	}
	for i, t := range tables {
		name := names[i]
		action := "created"
		into := name
		kind, exists := existing[strings.ToLower(name)]
		if exists && kind == "view" {
			return engine.Errorf(engine.CodeImport, "%s has a view named %s", filepath.Base(abs), name).SayHint(words.New("target.other_table_name", words.Table))
		}
		switch {
		case exists && opts.Append:
			action = "appended"
			if err := checkAppend(c.queryStrings, abs, name, t, rep); err != nil {
				return err
			}
		case exists && opts.Replace:
			action = "replaced"
			into = "_querent_new_" + name
			if err := c.exec("DROP TABLE IF EXISTS " + sqltext.QuoteIdent(into)); err != nil {
				return importErr(abs, err)
			}
			fallthrough
		default:
			if err := c.exec(createTableSQL(into, t.Columns)); err != nil {
				return importErr(abs, err)
			}
		}
		n, err := insertRows(ctx, c, abs, into, t, opts)
		if err != nil {
			return err
		}
		if into != name {
			// Replace atomically: the new table takes the old one's place
			// inside the same transaction.
			if err := c.exec(fmt.Sprintf("DROP TABLE %s; ALTER TABLE %s RENAME TO %s", sqltext.QuoteIdent(name), sqltext.QuoteIdent(into), sqltext.QuoteIdent(name))); err != nil {
				return importErr(abs, err)
			}
			if err := execArgs(c, "DELETE FROM _querent_imports WHERE table_name = ?", name); err != nil {
				return importErr(abs, err)
			}
		}
		it := imports.ImportedTable{Name: name, Source: t.Source, Rows: n, Action: action, Columns: t.Columns,
			Layout: t.Layout, Skipped: t.Skipped, Overridden: t.Overridden}
		if t.Sheet != "" {
			s := t.Sheet
			it.Sheet = &s
		}
		if it.Columns == nil {
			it.Columns = []imports.Column{}
		}
		if it.Skipped == nil {
			it.Skipped = []imports.SkippedColumn{}
		}
		if it.Overridden == nil {
			it.Overridden = []string{}
		}
		for i := range it.Columns {
			it.BadValues += it.Columns[i].BadValues
		}
		colsJSON, _ := json.Marshal(it.Columns)
		details, _ := json.Marshal(importDetails{Layout: t.Layout, Overridden: it.Overridden, Skipped: it.Skipped,
			EmptyColumns: imports.EmptyColumnRule, BadValues: it.BadValues})
		var sheet any
		if t.Sheet != "" {
			sheet = t.Sheet
		}
		if err := execArgs(c, `INSERT INTO _querent_imports (table_name, source_name, source_sha256, sheet, imported_at, rows,
  columns_json, details_json, bad_values) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			name, t.Source, t.SourceSHA256, sheet, time.Now().UTC().Format("2006-01-02 15:04:05"), n, string(colsJSON),
			string(details), it.BadValues); err != nil {
			return importErr(abs, err)
		}
		existing[strings.ToLower(name)] = "table"
		rep.Tables = append(rep.Tables, it)
	}
	return nil
}

// importDetails is details_json in _querent_imports: how the source was
// read and what the analyst chose for the table (each column's choices
// and bad values are in columns_json).
type importDetails struct {
	imports.Layout
	Overridden   []string                `json:"overridden"`
	Skipped      []imports.SkippedColumn `json:"skipped"`
	EmptyColumns string                  `json:"empty_columns"`
	BadValues    int64                   `json:"bad_values"`
}

// importsColumns are the columns _querent_imports gained after its first
// version; migrateImports adds them to the tables of older files.
var importsColumns = []struct{ name, decl string }{
	{"details_json", "TEXT"},  // how the source was read, what was chosen (importDetails)
	{"bad_values", "INTEGER"}, // values stored as NULL because they did not fit the chosen type
}

// migrateImports creates _querent_imports, or adds to an older one the
// columns it lacks (rows imported before have NULL there).
func migrateImports(c *bulkConn) error {
	if err := c.exec(`CREATE TABLE IF NOT EXISTS _querent_imports (
  table_name TEXT NOT NULL, source_name TEXT, source_sha256 TEXT, sheet TEXT,
  imported_at TEXT NOT NULL, rows INTEGER, columns_json TEXT,
  details_json TEXT, bad_values INTEGER)`); err != nil {
		return err
	}
	have, err := c.queryStrings("SELECT name FROM pragma_table_info('" + querentImportsTable + "')")
	if err != nil {
		return err
	}
	got := map[string]bool{}
	for _, r := range have {
		got[strings.ToLower(r[0])] = true
	}
	for _, col := range importsColumns {
		if !got[col.name] {
			if err := c.exec("ALTER TABLE " + querentImportsTable + " ADD COLUMN " + col.name + " " + col.decl); err != nil {
				return err
			}
		}
	}
	return nil
}

func createTableSQL(name string, cols []imports.Column) string {
	defs := make([]string, len(cols))
	for i, c := range cols {
		defs[i] = sqltext.QuoteIdent(c.Name) + " " + c.Type
	}
	return fmt.Sprintf("CREATE TABLE %s (\n  %s\n)", sqltext.QuoteIdent(name), strings.Join(defs, ",\n  "))
}

// checkAppend requires the existing table to have the same columns, in the
// same order; differing types are allowed, with a warning.
func checkAppend(q queryFunc, abs, name string, t *imports.Table, rep *imports.Report) error {
	have, err := q("SELECT name, type FROM pragma_table_info(?) ORDER BY cid", name)
	if err != nil {
		return importErr(abs, err)
	}
	var haveNames, wantNames []string
	for _, r := range have {
		haveNames = append(haveNames, r[0])
	}
	for _, col := range t.Columns {
		wantNames = append(wantNames, col.Name)
	}
	if !strings.EqualFold(strings.Join(haveNames, ","), strings.Join(wantNames, ",")) {
		return engine.Errorf(engine.CodeImport, "cannot append %s to %s: the columns differ (the table has %s; the file has %s)",
			t.Source, name, strings.Join(haveNames, ", "), strings.Join(wantNames, ", ")).SayHint(appendHint(t, haveNames))
	}
	for i, r := range have {
		if !strings.EqualFold(r[1], t.Columns[i].Type) {
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s: column %s is %s in table %s, but the file's values are %s; they are stored as read",
				t.Source, r[0], orText(r[1]), name, t.Columns[i].Type))
		}
	}
	return nil
}

// appendHint is the hint of an append whose columns differ: to append
// only files with the same columns, or, when the table has empty unnamed
// columns an older Querent kept (the one empty-column rule now leaves them
// out), how to keep them.
func appendHint(t *imports.Table, haveNames []string) words.Sentence {
	var keep []words.Part
	var positions []string
	for _, k := range t.Skipped {
		for _, h := range haveNames {
			if !k.ByAnalyst && strings.EqualFold(h, k.Name) {
				if len(keep) > 0 {
					keep = append(keep, words.Value(" "))
				}
				keep = append(keep, words.Column.With(fmt.Sprintf(`"#%d:text"`, k.Position)))
				positions = append(positions, fmt.Sprintf("#%d", k.Position))
			}
		}
	}
	if len(keep) > 0 {
		return words.New("target.keep_unnamed", words.Seq(keep...), words.Values(words.Comma, positions...))
	}
	return words.New("target.append_same", words.Replace, words.Table.With("NAME"))
}

func orText(t string) string {
	if t == "" {
		return "untyped"
	}
	return t
}

// importErr translates a writing error.
func importErr(abs string, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return engine.AsError(err)
	}
	var e *engine.Error
	if errors.As(err, &e) {
		return e
	}
	msg := sqliteMessage(err)
	var be *bulkError
	if errors.As(err, &be) {
		msg = be.msg
	}
	hint := words.Plain("check that the disk has space and that you may write to the file")
	switch {
	case strings.Contains(msg, "locked") || strings.Contains(msg, "busy"):
		hint = words.Plain("another program is writing to this database; close it and try again")
	case strings.Contains(msg, "readonly") || strings.Contains(msg, "read-only"):
		hint = words.New("target.read_only", words.DB)
	case strings.Contains(msg, "full"):
		hint = words.Plain("the disk is full; free some space and try again")
	}
	return engine.Errorf(engine.CodeImport, "%s: cannot write: %s", filepath.Base(abs), msg).WithErr(err).SayHint(hint)
}

// removeDB removes a database file and any sidecar SQLite left.
func removeDB(path string) {
	for _, s := range []string{"", "-journal", "-wal", "-shm"} {
		os.Remove(path + s)
	}
}

func syncFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

// renameNoReplace moves tmp to dst unless dst appeared meanwhile, which it
// must never overwrite.
func renameNoReplace(tmp, dst string) error {
	if err := os.Link(tmp, dst); err == nil {
		os.Remove(tmp)
		return nil
	} else if errors.Is(err, os.ErrExist) {
		return engine.Errorf(engine.CodeImport, "%s appeared while importing; it was left alone", filepath.Base(dst)).SayHint(words.New("target.appeared", words.DB))
	}
	// No hard links here (some file systems): check, then rename.
	if _, err := os.Stat(dst); err == nil {
		return engine.Errorf(engine.CodeImport, "%s appeared while importing; it was left alone", filepath.Base(dst)).SayHint(words.New("target.appeared", words.DB))
	}
	if err := os.Rename(tmp, dst); err != nil {
		return engine.Errorf(engine.CodeImport, "cannot move the new database into place: %v", err).WithErr(err).WithHint("check that you may write to the folder")
	}
	return nil
}
