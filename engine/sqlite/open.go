package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"querent/engine/adapter"
	"querent/engine/sqltext"

	"modernc.org/libc"
	"modernc.org/sqlite"
	lib "modernc.org/sqlite/lib"

	"querent/engine"
	"querent/engine/files"
	"querent/engine/words"
)

// Options tune how a database is opened and bounded. The zero value gives
// the defaults.
type Options struct {
	// QuickCheckTimeout bounds PRAGMA quick_check when the file is opened
	// (default 10 s). A check that runs out of time is skipped with a
	// warning; a negative value skips it.
	QuickCheckTimeout time.Duration
	// MaxMemory is the memory ceiling of one statement (default
	// DefaultMaxMemory, 1 GB). The row and result caps below are derived
	// from it when they are not set; the query worker also gives it to
	// SQLite as its hard heap limit and watches its own size against it.
	MaxMemory int64
	// MaxResultBytes bounds the memory a result may take (default an
	// eighth of MaxMemory: 128 MB).
	MaxResultBytes int64
	// MaxRowBytes bounds one row of a result, checked before its values
	// are copied out of SQLite (default a sixteenth of MaxMemory: 64 MB).
	MaxRowBytes int64
	// ExactCountMaxBytes is the file size up to which schema introspection
	// counts the rows of tables exactly (default 256 MB): SQLite counts a
	// table in one step that no deadline can interrupt, so on larger files
	// the count is estimated from the largest rowid or sqlite_stat1.
	ExactCountMaxBytes int64
	// LargeTableRows is the row count from which query-plan hints speak of
	// full scans and sorts (default 10,000).
	LargeTableRows int64
	// SchemaTableBudget bounds the time spent counting, sampling and finding
	// distinct values of one table during schema introspection (default 250 ms).
	SchemaTableBudget time.Duration
	// SchemaBudget bounds the time spent on those steps for all tables
	// together (default 1.5 s), so that any file opens at once: past it,
	// the remaining tables get estimated counts and no samples, with a note.
	SchemaBudget time.Duration
	// CheckCache, when set, remembers files that passed the integrity check
	// so that an unchanged file is not read whole on every open.
	CheckCache CheckCache
	// SnapshotRoot is the private folder that holds the snapshots of files
	// with pending -wal or -journal changes (see MakeSnapshot); default
	// DefaultSnapshotRoot().
	SnapshotRoot string
	// File is the database file already open: the query worker's parent
	// opens the user's file once (files.OpenDatabase), or the private
	// snapshot it made of it, and passes the descriptor down. It is read
	// through that descriptor, never by name (the path only names it), so
	// a file replaced, re-linked or swapped for a FIFO since is never read
	// in its place, and a worker started again reads the same file. No
	// snapshot is made here; FileIsSnapshot says File is the parent's
	// snapshot (checked at every open, never remembered in CheckCache).
	// The caller keeps File open until the database is closed.
	File           *os.File
	FileIsSnapshot bool

	// capsOfMemory: the row and result caps follow MaxMemory (they were
	// not set), and SetMemoryLimit moves them.
	capsOfMemory bool
}

// DefaultMaxMemory is the default memory ceiling of one statement.
const DefaultMaxMemory = 1 << 30

func (o Options) withDefaults() Options {
	if o.QuickCheckTimeout == 0 {
		o.QuickCheckTimeout = 10 * time.Second
	}
	if o.MaxMemory <= 0 {
		o.MaxMemory = DefaultMaxMemory
	}
	if o.MaxResultBytes == 0 && o.MaxRowBytes == 0 {
		o.capsOfMemory = true
	}
	if o.MaxResultBytes == 0 {
		o.MaxResultBytes = o.MaxMemory / 8
	}
	if o.MaxRowBytes == 0 {
		o.MaxRowBytes = o.MaxMemory / 16
	}
	if o.ExactCountMaxBytes == 0 {
		o.ExactCountMaxBytes = 256 << 20
	}
	if o.LargeTableRows == 0 {
		o.LargeTableRows = 10_000
	}
	if o.SchemaTableBudget == 0 {
		o.SchemaTableBudget = 250 * time.Millisecond
	}
	if o.SchemaBudget == 0 {
		o.SchemaBudget = 1500 * time.Millisecond
	}
	return o
}

// DB is one guarded, read-only SQLite database: a single pinned connection
// with the limits and the authorizer installed. It is safe for use by several
// goroutines; calls wait their turn (or their context's end).
type DB struct {
	engine.SensitiveHolder
	name     string // as shown to the user
	path     string // absolute path of the user's file, "" for the demo
	opts     Options
	sqldb    *sql.DB
	conn     *sql.Conn
	lock     chan struct{}
	auth     *authState
	warnings []string
	cleanup  []func()

	names *adapter.Names // under lock

	schemaMu sync.Mutex
	schema   *engine.Schema

	rowCounts map[string]rowCount // under lock

	shaMu sync.Mutex
	sha   string
	// file is the user's file as opened (nil when the parent holds it).
	file *os.File

	// size is the opened file's size in bytes (the snapshot's when there
	// is one), for choosing between exact and estimated row counts.
	size int64

	// maxRowB and maxResultB are the row and result caps now
	// (SetMemoryLimit moves them while a statement runs).
	maxRowB, maxResultB atomic.Int64

	// tls and handle are the connection's SQLite handle, for interrupting
	// a streamed run between rows (sqlite3_interrupt may be called from any
	// goroutine; the driver does the same).
	tls    *libc.TLS
	handle uintptr
}

var _ engine.Database = (*DB)(nil)

// Open opens the SQLite file at path for guarded, read-only querying. The
// file is opened once (opts.File, or here without blocking) and SQLite
// reads that descriptor, whatever the path names since; it is never
// written, and no file is created beside it. Every failure is an
// *engine.Error with code "database" that says what is wrong and what to
// do.
func Open(ctx context.Context, path string, opts Options) (*DB, error) {
	opts = opts.withDefaults()
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, dbError(path, "cannot resolve the path: %v", err).WithErr(err).WithHint("check the path")
	}
	var warnings []string
	var cleanup []func()
	fail := func(err error) (*DB, error) {
		for i := len(cleanup) - 1; i >= 0; i-- {
			cleanup[i]()
		}
		return nil, err
	}
	user, read, snapshot := opts.File, opts.File, opts.FileIsSnapshot
	if user == nil {
		f, _, err := files.OpenDatabase(abs)
		if err != nil {
			return nil, renamed(err, abs, path)
		}
		cleanup = append(cleanup, func() { f.Close() })
		user, read = f, f
		dir, snap, warning, err := MakeSnapshotOf(ctx, opts.SnapshotRoot, abs, f)
		if err != nil {
			return fail(err)
		}
		if warning != "" {
			warnings = append(warnings, warning)
		}
		if dir != "" {
			cleanup = append(cleanup, func() { ReleaseSnapshot(dir) })
			sf, _, err := files.OpenDatabase(snap)
			if err != nil {
				return fail(err)
			}
			cleanup = append(cleanup, func() { sf.Close() })
			read, snapshot = sf, true
		}
	} else if snapshot {
		user = nil // the user's file is the parent's
	}
	st, head, err := checkOpened(read, path)
	if err != nil {
		return fail(err)
	}
	key := ""
	if !snapshot {
		key = checkKey(abs, st, head)
	}
	name, closeVFS, err := registerFileVFS(read)
	if err != nil {
		return fail(engine.Errorf(engine.CodeInternal, "cannot read %s through its descriptor: %v", path, err).WithErr(err))
	}
	// After the connections: a VFS is unregistered once nothing uses it.
	cleanup = append([]func(){func() { closeVFS() }}, cleanup...)
	db, err := openGuarded(ctx, descriptorDSN(name, true), abs, path, key, opts)
	if err != nil && errors.Is(err, errDQS) {
		// The file's own schema relies on double-quoted string literals.
		db, err = openGuarded(ctx, descriptorDSN(name, false), abs, path, key, opts)
		if err == nil {
			db.warnings = append(db.warnings, "this file's views use double-quoted text (\"like this\") where SQL expects 'single quotes'; "+
				"Querent allowed that old SQLite habit for this file, so a misspelt column name in double quotes may read as text instead of failing")
		}
	}
	if err != nil {
		return fail(err)
	}
	db.name = abs
	db.path = abs
	db.file = user
	db.size = st.Size()
	db.warnings = append(warnings, db.warnings...)
	db.cleanup = append(db.cleanup, cleanup...)
	return db, nil
}

// renamed names a files.OpenDatabase error after the path as the user gave
// it.
func renamed(err error, abs, shown string) error {
	if e := engine.AsError(err); e != nil && abs != shown {
		e.Message = strings.Replace(e.Message, abs+": ", shown+": ", 1)
		return e
	}
	return err
}

// descriptorDSN is the connection string of the file a VFS made by
// registerFileVFS serves.
func descriptorDSN(vfsName string, strictQuotes bool) string {
	q := connParams(strictQuotes)
	q.Set("vfs", vfsName)
	u := url.URL{Scheme: "file", Opaque: fileVFSName, RawQuery: q.Encode()}
	return u.String()
}

// errDQS marks a file whose views need double-quoted string literals.
var errDQS = errors.New("the schema uses double-quoted string literals")

// fileDSN builds the connection string for a file with net/url, so that no
// character of the path can add a parameter.
func fileDSN(path string, strictQuotes bool) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // Windows: C:/x → /C:/x
	}
	u := url.URL{Scheme: "file", Path: p, RawQuery: connParams(strictQuotes).Encode()}
	return u.String()
}

// connParams are the connection's parameters: read-only, immutable (no lock,
// no journal, no sidecar file), query_only, defensive, no double-quoted
// string literals, schema functions untrusted, cell sizes checked, no mmap,
// and temporary data in memory. A statement's temporary data (a
// MATERIALIZED CTE, a sort or a GROUP BY too large for the cache, an
// automatic index) otherwise goes to an unlinked file in TMPDIR, which no
// memory ceiling sees: the red team's CTE wrote 8.8 GB there in 20 s. In
// memory it is allocated from SQLite's heap, under the worker's hard heap
// limit, and fails with too_big at the ceiling. (With temp_store=MEMORY
// the sorter keeps its runs in memory too: SQLite skips its spill files.)
func connParams(strictQuotes bool) url.Values {
	q := url.Values{}
	q.Set("mode", "ro")
	q.Set("immutable", "1")
	q.Set("_query_only", "1")
	q.Set("_defensive", "1")
	if strictQuotes {
		q.Set("_dqs", "0")
	}
	q.Add("_pragma", "trusted_schema(0)")
	q.Add("_pragma", "cell_size_check(1)")
	q.Add("_pragma", "mmap_size(0)")
	q.Add("_pragma", "temp_store(2)")
	return q
}

// openGuarded opens dsn on one pinned connection and installs every layer.
// key identifies the file's state for opts.CheckCache ("": always check).
func openGuarded(ctx context.Context, dsn, abs, shown, key string, opts Options) (*DB, error) {
	sqldb, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, dbError(shown, "cannot open: %v", err).WithErr(err)
	}
	sqldb.SetMaxOpenConns(1)
	sqldb.SetMaxIdleConns(1)
	sqldb.SetConnMaxLifetime(0)
	sqldb.SetConnMaxIdleTime(0)
	conn, err := sqldb.Conn(ctx)
	if err != nil {
		sqldb.Close()
		return nil, openError(shown, err)
	}
	d := &DB{opts: opts, sqldb: sqldb, conn: conn, lock: make(chan struct{}, 1), auth: &authState{}}
	d.maxRowB.Store(opts.MaxRowBytes)
	d.maxResultB.Store(opts.MaxResultBytes)
	if err := d.install(); err != nil {
		d.Close()
		return nil, dbError(shown, "cannot set up the guarded connection: %v", err).WithErr(err)
	}
	if key == "" || opts.CheckCache == nil || !opts.CheckCache.Passed(key) {
		passed, err := d.quickCheck(ctx, abs, shown)
		if err != nil {
			d.Close()
			return nil, err
		}
		if passed && key != "" && opts.CheckCache != nil {
			opts.CheckCache.Remember(key)
		}
	}
	if err := d.checkViews(ctx); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// install sets the limits and the authorizer on the pinned connection.
func (d *DB) install() error {
	for _, l := range limits {
		if _, err := sqlite.Limit(d.conn, l.id, l.value); err != nil {
			return fmt.Errorf("limit %s: %w", l.name, err)
		}
	}
	return d.conn.Raw(func(dc any) error {
		r, ok := dc.(sqlite.AuthorizerRegisterer)
		if !ok {
			return fmt.Errorf("the driver has no authorizer (%T)", dc)
		}
		d.tls, d.handle = connHandle(dc)
		return r.RegisterAuthorizer(d.auth.authorize)
	})
}

// caps are the row and result caps now.
func (d *DB) caps() (maxRow, maxResult int64) { return d.maxRowB.Load(), d.maxResultB.Load() }

func (d *DB) maxRow() int64 { return d.maxRowB.Load() }

// SetMemoryLimit sets the memory the statements of this database may take
// from now on, the one running included: the query worker's share of
// Querent's ceiling (engine/worker's Budget), which changes as other
// statements start and end. The row and result caps follow it (a
// sixteenth and an eighth) unless Options set them, and so does SQLite's
// hard heap limit (three quarters) in a process where LimitProcessHeap
// turned it on.
func (d *DB) SetMemoryLimit(limit int64) {
	if limit <= 0 {
		return
	}
	if d.opts.capsOfMemory {
		d.maxRowB.Store(limit / 16)
		d.maxResultB.Store(limit / 8)
	}
	setProcessHeapLimit(limit / 4 * 3)
}

// interrupt stops the statement running on the connection.
func (d *DB) interrupt() {
	if d.tls != nil && d.handle != 0 {
		lib.Xsqlite3_interrupt(d.tls, d.handle)
	}
}

// quickCheck runs PRAGMA quick_check on its own deadline: corrupt pages are
// found when the file is opened, not halfway through an answer.
// It reports whether the check ran to the end and found nothing.
func (d *DB) quickCheck(ctx context.Context, abs, shown string) (passed bool, err error) {
	if d.opts.QuickCheckTimeout < 0 {
		return false, nil
	}
	cctx, cancel := context.WithTimeout(ctx, d.opts.QuickCheckTimeout)
	defer cancel()
	var problems []string
	err = d.withLock(ctx, func() error {
		stop := d.interruptOn(cctx)
		defer stop()
		d.auth.reset(policyInternal)
		rows, err := d.conn.QueryContext(cctx, "PRAGMA quick_check(20)")
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				return err
			}
			problems = append(problems, s)
		}
		return rows.Err()
	})
	switch {
	case err == nil:
	case ctx.Err() != nil:
		return false, engine.AsError(ctx.Err())
	case cctx.Err() != nil:
		size := ""
		if st, serr := os.Stat(abs); serr == nil {
			size = " (" + humanBytes(st.Size()) + ")"
		}
		d.warnings = append(d.warnings, fmt.Sprintf("the integrity check stopped after %s%s; "+
			"if part of the file is damaged, a query that reads it fails with a clear error", d.opts.QuickCheckTimeout, size))
		return false, nil
	default:
		return false, openError(shown, err)
	}
	if len(problems) == 1 && problems[0] == "ok" {
		return true, nil
	}
	first := strings.Join(problems[:min(3, len(problems))], "; ")
	return false, dbError(shown, "the file is damaged: %s", first).WithHint(
		"open a backup copy, or rescue what is readable with the sqlite3 shell: sqlite3 %s .recover > rescued.sql", quoteShell(filepath.Base(shown)))
}

// checkViews compiles every view. A view that only fails because it relies on
// double-quoted string literals asks for a reopen with them allowed.
func (d *DB) checkViews(ctx context.Context) error {
	return d.withLock(ctx, func() error {
		d.auth.reset(policyInternal)
		rows, err := d.conn.QueryContext(ctx, "SELECT name FROM sqlite_schema WHERE type = 'view'")
		if err != nil {
			return openError(d.name, err)
		}
		var views []string
		for rows.Next() {
			var v string
			if err := rows.Scan(&v); err != nil {
				rows.Close()
				return openError(d.name, err)
			}
			views = append(views, v)
		}
		rows.Close()
		for _, v := range views {
			d.auth.reset(policyInternal)
			_, _, err := d.columnInfoLocked("SELECT * FROM " + sqltext.QuoteIdent(v))
			if err != nil && strings.Contains(err.Error(), "should this be a string literal in single-quotes") {
				return errDQS
			}
		}
		return nil
	})
}

// withLock runs f holding the connection, or returns when ctx ends first.
func (d *DB) withLock(ctx context.Context, f func() error) error {
	return adapter.WithLock(ctx, d.lock, f)
}

// columnInfoLocked compiles query without running it (the authorizer sees
// it) and returns its result columns, or the compile error with SQLite's
// byte offset of the problem (-1 when SQLite gives none).
func (d *DB) columnInfoLocked(query string) (cols []sqlite.ColumnInfo, offset int, err error) {
	offset = -1
	err = d.conn.Raw(func(dc any) error {
		ci, ok := dc.(interface {
			ColumnInfo(string) ([]sqlite.ColumnInfo, error)
		})
		if !ok {
			return fmt.Errorf("the driver cannot describe columns (%T)", dc)
		}
		var e error
		cols, e = ci.ColumnInfo(query)
		if e != nil {
			offset = errorOffset(dc)
		}
		return e
	})
	return cols, offset, err
}

// connHandle reads the driver connection's libc TLS and sqlite3 handle by
// reflection (the driver does not expose them); (nil, 0) if its layout
// changed, which a test notices.
func connHandle(dc any) (*libc.TLS, uintptr) {
	v := reflect.ValueOf(dc)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return nil, 0
	}
	v = v.Elem()
	if v.Kind() != reflect.Struct {
		return nil, 0
	}
	tf, df := v.FieldByName("tls"), v.FieldByName("db")
	if !tf.IsValid() || !df.IsValid() || tf.Kind() != reflect.Pointer || df.Kind() != reflect.Uintptr {
		return nil, 0
	}
	return (*libc.TLS)(tf.UnsafePointer()), uintptr(df.Uint())
}

// errorOffset asks SQLite where in the statement the last error was found
// (sqlite3_error_offset), or -1.
func errorOffset(dc any) int {
	tls, db := connHandle(dc)
	if tls == nil || db == 0 {
		return -1
	}
	return int(lib.Xsqlite3_error_offset(tls, db))
}

// Close releases the connection and any private snapshot.
func (d *DB) Close() error {
	var err error
	if d.conn != nil {
		err = d.conn.Close()
	}
	if d.sqldb != nil {
		if e := d.sqldb.Close(); err == nil {
			err = e
		}
	}
	for _, f := range d.cleanup {
		f()
	}
	d.cleanup = nil
	return err
}

// Dialect is "sqlite".
func (d *DB) Dialect() string { return "sqlite" }

// Name is the file's absolute path, or the demo's name.
func (d *DB) Name() string { return d.name }

// Path is the absolute path of the user's file, "" for the built-in demo.
func (d *DB) Path() string { return d.path }

// Warnings are what the user should know about this file.
func (d *DB) Warnings() []string { return append([]string(nil), d.warnings...) }

// checkOpened checks that the open file f (named shown) is a readable
// SQLite file: a regular file (what was opened, not what the path names
// now), not empty, with SQLite's header; it returns its stat and the first
// 512 bytes, read with ReadAt (the descriptor may be shared).
func checkOpened(f *os.File, shown string) (fs.FileInfo, []byte, error) {
	st, err := f.Stat()
	switch {
	case err != nil:
		return nil, nil, dbError(shown, "cannot read: %v", err).WithErr(err).WithHint("check that the disk is available")
	case st.IsDir():
		return nil, nil, dbError(shown, "this is a folder, not a database file").WithHint("choose a .sqlite or .db file inside it")
	case !st.Mode().IsRegular():
		return nil, nil, dbError(shown, "this is not a regular file").WithHint("choose a .sqlite or .db file")
	case st.Size() == 0:
		return nil, nil, dbError(shown, "the file is empty (0 bytes), so it holds no database").SayHint(
			words.New("open.empty_file", importInto("data.csv")))
	}
	head := make([]byte, 512)
	n, err := f.ReadAt(head, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, nil, dbError(shown, "cannot read: %v", err).WithErr(err).WithHint("check the disk and the file's permissions")
	}
	head = head[:n]
	if bytes.HasPrefix(head, []byte("SQLite format 3\x00")) {
		if n < 100 {
			return nil, nil, dbError(shown, "the file is cut short: it ends inside the SQLite header").WithHint("the copy is incomplete; copy or download it again")
		}
		return st, head, nil
	}
	return nil, nil, notSQLite(shown, head)
}

// checkFile checks that the file at abs is a readable SQLite file, without
// keeping it open.
func checkFile(abs, shown string) error {
	f, _, err := files.OpenDatabase(abs)
	if err != nil {
		return renamed(err, abs, shown)
	}
	defer f.Close()
	_, _, err = checkOpened(f, shown)
	return err
}

// notSQLite explains what a file that is not SQLite seems to be.
func notSQLite(shown string, head []byte) *engine.Error {
	ext := strings.ToLower(filepath.Ext(shown))
	switch {
	case bytes.HasPrefix(head, []byte("PK\x03\x04")):
		return dbError(shown, "this is not a SQLite database: it is a ZIP archive (an .xlsx workbook is one)").SayHint(
			words.New("open.import_spreadsheet", importInto(quoteShell(shown))))
	case bytes.HasPrefix(head, []byte("\xd0\xcf\x11\xe0")):
		return dbError(shown, "this is not a SQLite database: it is an old Office file (.xls)").SayHint(
			words.New("open.save_as", words.Import))
	case bytes.HasPrefix(head, []byte("%PDF")):
		return dbError(shown, "this is not a SQLite database: it is a PDF document").WithHint("choose a .sqlite or .db file")
	case looksLikeText(head):
		what := "a text file"
		if ext == ".db" || ext == ".sqlite" || ext == ".sqlite3" {
			what = "a text file with a database name"
		}
		return dbError(shown, "this is not a SQLite database: it is %s (CSV or similar?)", what).SayHint(
			words.New("open.import_csv", importInto(quoteShell(shown))))
	}
	return dbError(shown, "this is not a SQLite database, or it is encrypted (SQLCipher and similar tools scramble the whole file)").WithHint(
		"Querent cannot open encrypted files: open it in the program that made it and export an unencrypted copy")
}

// importInto is the import of source into a new database, the way on
// from a file that is not one: querent import --db new.sqlite source.
func importInto(source string) words.Part {
	return words.Import.With(words.DB.With("new.sqlite"), words.Value(source))
}

func looksLikeText(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	if bytes.HasPrefix(b, []byte("\xff\xfe")) || bytes.HasPrefix(b, []byte("\xfe\xff")) {
		return true // UTF-16 with a byte-order mark
	}
	// A cut can split the last UTF-8 character.
	for i := 0; i < 3 && len(b) > 0 && !utf8.Valid(b); i++ {
		b = b[:len(b)-1]
	}
	if !utf8.Valid(b) {
		return false
	}
	for _, c := range b {
		if c < 0x20 && c != '\n' && c != '\r' && c != '\t' {
			return false
		}
	}
	return true
}

// openError translates an error from opening or first reading a file.
func openError(shown string, err error) *engine.Error {
	if code, ok := sqliteCode(err); ok {
		switch code {
		case lib.SQLITE_NOTADB:
			return dbError(shown, "this is not a SQLite database, or it is encrypted").WithErr(err).WithHint(
				"Querent cannot open encrypted files: open it in the program that made it and export an unencrypted copy")
		case lib.SQLITE_CORRUPT, lib.SQLITE_ERROR:
			if m := sqliteMessage(err); strings.Contains(m, "unsafe use of") {
				return dbError(shown, "the file's schema calls a function that Querent will not run from a file (%s)", m).WithErr(err).WithHint(
					"a file whose tables or views call such functions may be built to attack whoever opens it; if you trust it, open it with the program that made it")
			}
			if code == lib.SQLITE_ERROR && !strings.Contains(sqliteMessage(err), "malformed") {
				break
			}
			return dbError(shown, "the file is damaged: %s", sqliteMessage(err)).WithErr(err).WithHint(
				"open a backup copy, or rescue what is readable with the sqlite3 shell: sqlite3 %s .recover > rescued.sql", quoteShell(filepath.Base(shown)))
		case lib.SQLITE_CANTOPEN:
			return dbError(shown, "cannot open the file").WithErr(err).WithHint("check that it exists and that you may read it")
		case lib.SQLITE_IOERR:
			return dbError(shown, "the disk reported an error while reading the file").WithErr(err).WithHint("check the disk or copy the file elsewhere and try again")
		}
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return engine.AsError(err)
	}
	return dbError(shown, "cannot read the database: %s", sqliteMessage(err)).WithErr(err).WithHint(
		"check that this is an intact SQLite file; the sqlite3 shell's .recover can rescue a damaged one")
}

func dbError(shown, format string, args ...any) *engine.Error {
	e := engine.Errorf(engine.CodeDatabase, format, args...)
	if shown != "" {
		e.Message = shown + ": " + e.Message
	}
	return e
}

// quoteShell quotes s for a shell command line when it needs it.
func quoteShell(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '_' || r == '-' || r == ':' || r == '\\' ||
			('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9'))
	}) < 0 {
		return s
	}
	if runtime.GOOS == "windows" {
		return `"` + s + `"`
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// humanBytes writes a size the one way Querent shows sizes.
func humanBytes(n int64) string { return engine.FormatSize(n) }

// SHA256 returns the hex sha256 of the database file (the user's file, not
// a snapshot; the bundled demo's own bytes for the demo), computed once
// from the descriptor that was opened. It reads the whole file: the query
// worker's parent computes it in the background instead (engine/worker).
func (d *DB) SHA256(ctx context.Context) (string, error) {
	d.shaMu.Lock()
	defer d.shaMu.Unlock()
	if d.sha != "" {
		return d.sha, nil
	}
	if d.path == "" {
		d.sha = DemoSHA256()
		return d.sha, nil
	}
	f := d.file
	if f == nil {
		of, _, err := files.OpenDatabase(d.path)
		if err != nil {
			return "", err
		}
		defer of.Close()
		f = of
	}
	st, err := f.Stat()
	if err != nil {
		return "", dbError(d.name, "cannot read: %v", err).WithErr(err)
	}
	sum, err := files.HashFile(ctx, f, st.Size(), nil)
	if err != nil {
		if ctx.Err() != nil {
			return "", engine.AsError(ctx.Err())
		}
		return "", dbError(d.name, "cannot read: %v", err).WithErr(err)
	}
	d.sha = sum
	return d.sha, nil
}
