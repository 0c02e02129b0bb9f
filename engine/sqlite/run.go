package sqlite

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"modernc.org/sqlite"
	lib "modernc.org/sqlite/lib"

	"querent/engine"
	"querent/engine/words"
)

// wrapperName is the CTE of the execution wrapper; Querent's own names start
// with _querent_ so that they never meet a user's table.
const wrapperName = "_querent_q"

// wrap puts a validated statement inside the execution wrapper:
//
//	WITH _querent_q(c1, …) AS MATERIALIZED (SELECT * FROM (
//	<sql>
//	) LIMIT cap+1)
//	SELECT +c1, … FROM _querent_q
//
// MATERIALIZED makes SQLite do all the work in the first step, while the
// context's deadline is watched (later steps are not interruptible in the
// driver). The newlines keep a trailing -- comment from swallowing the
// closing parenthesis. The unary + drops the declared type, so that the
// driver hands back text exactly as stored instead of parsing DATE columns.
// limit < 0 means no LIMIT; offset > 0 skips that many rows first.
func wrap(sql string, ncols int, limit int64, offset ...int64) string {
	names, outs := wrapColumns(ncols)
	lim := ""
	if limit >= 0 {
		lim = fmt.Sprintf(" LIMIT %d", limit)
		if len(offset) > 0 && offset[0] > 0 {
			lim += fmt.Sprintf(" OFFSET %d", offset[0])
		}
	}
	return fmt.Sprintf("WITH %s(%s) AS MATERIALIZED (SELECT * FROM (\n%s\n)%s)\nSELECT %s FROM %s",
		wrapperName, names, sql, lim, outs, wrapperName)
}

// Run validates query and runs it under the guard: the wrapper, a timeout
// (opts.Timeout, default 30 s) and a row cap (opts.MaxRows, default 1000;
// one more row sets Truncated). Cancelling ctx stops it at once.
func (d *DB) Run(ctx context.Context, query string, opts engine.RunOptions) (*engine.Result, error) {
	opts = opts.WithDefaults()
	var res *engine.Result
	err := d.withLock(ctx, func() error {
		v, err := d.validateLocked(ctx, query)
		if err != nil {
			return err
		}
		res, err = d.runLocked(ctx, query, v, opts)
		return err
	})
	if err != nil {
		return nil, engine.AsError(err)
	}
	d.MarkResult(res)
	return res, nil
}

func (d *DB) runLocked(ctx context.Context, query string, v *engine.Validation, opts engine.RunOptions) (*engine.Result, error) {
	res := &engine.Result{
		Query:       query,
		ExecutedSQL: wrap(v.SQL, len(v.Columns), int64(opts.MaxRows)+1, int64(max(opts.Offset, 0))),
		Columns:     append([]engine.Column(nil), v.Columns...),
		TablesUsed:  v.Tables,
		Warnings:    v.Warnings,
		ColumnsRead: v.ColumnsRead,
	}
	if d.tls == nil || d.handle == 0 {
		return nil, engine.Errorf(engine.CodeInternal, "the connection's handle is not available")
	}
	tctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	// Rows are read through SQLite's C API on the pinned connection (we hold
	// its lock), so that each row's size is known before its values are
	// copied out of SQLite, and every step, not only the first, is under
	// the deadline (interruptOn).
	stop := d.interruptOn(tctx)
	defer stop()
	c := &bulkConn{tls: d.tls, db: d.handle}
	d.auth.reset(policyQuery)
	d.auth.hideColumns(opts.Hide)
	start := time.Now()
	st, err := c.prepare(res.ExecutedSQL)
	if err != nil {
		return nil, d.runError(ctx, tctx, query, v.SQL, opts.Timeout, err)
	}
	defer st.close()
	n := len(v.Columns)
	vals := make([]any, n)
	var size int64
	for {
		ok, err := st.step()
		if err != nil {
			return nil, d.runError(ctx, tctx, query, v.SQL, opts.Timeout, err)
		}
		if !ok {
			break
		}
		if len(res.Rows) == opts.MaxRows {
			res.Truncated = true
			break
		}
		rowBytes := st.rowBytes()
		maxRow, maxResult := d.caps()
		if rowBytes > maxRow {
			return nil, engine.QueryErrorf(engine.CodeTooBig, query, -1,
				"row %d of the result holds %s, more than the %s a row may take", len(res.Rows)+1,
				humanBytes(rowBytes), humanBytes(maxRow)).WithHint(
				"select fewer or shorter columns: substr(col, 1, 200) or length(col) instead of a long text or blob")
		}
		size += rowBytes + 24 + 16*int64(n)
		if size > maxResult {
			return nil, engine.QueryErrorf(engine.CodeTooBig, query, -1,
				"the result is larger than %s after %d rows", humanBytes(maxResult), len(res.Rows)).WithHint(
				"select fewer or shorter columns (substr(col, 1, 200), length(col)) or fewer rows (LIMIT, WHERE)")
		}
		st.readRow(vals)
		row := make([]engine.Value, n)
		copy(row, vals)
		res.Rows = append(res.Rows, row)
	}
	res.Elapsed = time.Since(start)
	fillTypes(res)
	return res, nil
}

// interruptOn interrupts the statement running on the connection when ctx
// ends, until the returned stop is called. The driver only watches a
// context while a statement starts (its progress handler): reading later
// rows, and steps run through the C API, are covered by this instead. The
// interrupt never reaches a later statement: once stop returns it cannot
// fire, and SQLite clears a stale interrupt when the next statement starts
// with none running.
func (d *DB) interruptOn(ctx context.Context) (stop func()) {
	if d.tls == nil || d.handle == 0 {
		return func() {}
	}
	var mu sync.Mutex
	active := true
	after := context.AfterFunc(ctx, func() {
		mu.Lock()
		defer mu.Unlock()
		if active {
			d.interrupt()
		}
	})
	return func() {
		after()
		mu.Lock()
		active = false
		mu.Unlock()
	}
}

// normalize returns a scanned value as one of the engine's value types.
func normalize(x any) engine.Value {
	switch v := x.(type) {
	case []byte:
		if v == nil {
			return []byte{} // an empty blob, not NULL
		}
		return v
	case nil, int64, float64, string:
		return v
	case time.Time:
		// Not expected: the wrapper's unary + keeps the driver from parsing
		// dates. Keep SQLite's own text format if it ever happens.
		return v.Format("2006-01-02 15:04:05")
	case bool:
		if v {
			return int64(1)
		}
		return int64(0)
	default:
		return fmt.Sprint(v)
	}
}

// fillTypes gives a type to each column without a declared type: the storage
// class of its first non-NULL value.
func fillTypes(res *engine.Result) {
	for i := range res.Columns {
		if res.Columns[i].Type != "" {
			continue
		}
		res.Columns[i].Type = "NULL"
		for _, row := range res.Rows {
			if t := storageClass(row[i]); t != "NULL" {
				res.Columns[i].Type = t
				break
			}
		}
	}
}

func storageClass(v engine.Value) string {
	switch v.(type) {
	case int64:
		return "INTEGER"
	case float64:
		return "REAL"
	case string:
		return "TEXT"
	case []byte:
		return "BLOB"
	}
	return "NULL"
}

// runError translates an error that happened while the statement ran.
func (d *DB) runError(ctx, tctx context.Context, query, text string, timeout time.Duration, err error) error {
	if ctx.Err() != nil {
		return engine.AsError(ctx.Err())
	}
	if tctx.Err() != nil || isInterrupt(err) {
		return engine.QueryErrorf(engine.CodeTimeout, query, -1, "the query ran past its %s timeout and was stopped", timeout).SayHint(
			words.New("hint.cheaper", words.Timeout))
	}
	if code, ok := sqliteCode(err); ok {
		switch code {
		case lib.SQLITE_TOOBIG:
			return engine.QueryErrorf(engine.CodeTooBig, query, -1, "a value in the result is larger than the %s limit", humanBytes(maxValueBytes)).WithHint(
				"select length(col) or substr(col, 1, 1000) instead of the whole value")
		case lib.SQLITE_IOERR, lib.SQLITE_CORRUPT, lib.SQLITE_NOTADB, lib.SQLITE_FULL, lib.SQLITE_CANTOPEN:
			return openError(d.name, err)
		case lib.SQLITE_NOMEM:
			return engine.QueryErrorf(engine.CodeTooBig, query, -1, "SQLite ran out of memory running the query").WithHint(
				"ask for less: fewer rows, fewer columns, or aggregate first")
		}
	}
	// A denial while running comes from a statement SQLite prepares inside
	// the query (a pragma function's PRAGMA).
	base := strings.Index(query, text)
	return d.compileError(ctx, query, text, max(base, 0), -1, d.auth.denied, err)
}

func isInterrupt(err error) bool {
	code, ok := sqliteCode(err)
	return ok && code == lib.SQLITE_INTERRUPT
}

// sqliteCode returns the primary SQLite result code of an error from the
// driver or from a bulk connection.
func sqliteCode(err error) (int, bool) {
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code() & 0xff, true
	}
	var be *bulkError
	if errors.As(err, &be) {
		return int(be.code) & 0xff, true
	}
	return 0, false
}

// wrapColumns names the wrapper's columns c1, c2… and the outer select's
// +c1, +c2… (the unary + drops the declared type).
func wrapColumns(ncols int) (names, outs string) {
	var n, o strings.Builder
	for i := 1; i <= ncols; i++ {
		if i > 1 {
			n.WriteString(", ")
			o.WriteString(", ")
		}
		fmt.Fprintf(&n, "c%d", i)
		fmt.Fprintf(&o, "+c%d", i)
	}
	return n.String(), o.String()
}

// streamWrap is the wrapper of a streamed run: no materialization (the
// rows flow to the caller as SQLite finds them), the same unary + to keep
// text as stored, and a LIMIT only when a limit is asked for.
func streamWrap(sql string, ncols int, limit int64) string {
	names, outs := wrapColumns(ncols)
	lim := ""
	if limit > 0 {
		lim = fmt.Sprintf(" LIMIT %d", limit)
	}
	return fmt.Sprintf("WITH %s(%s) AS NOT MATERIALIZED (SELECT * FROM (\n%s\n))\nSELECT %s FROM %s%s",
		wrapperName, names, sql, outs, wrapperName, lim)
}

// Stream validates and runs query under the guard without the display cap,
// handing each row to row as SQLite produces it (for exports: memory stays
// bounded however large the result). The timeout covers the whole run: the
// driver only watches the context while a statement starts, so Stream
// interrupts SQLite itself when the deadline passes between rows, and it
// checks ctx between rows.
func (d *DB) Stream(ctx context.Context, query string, opts engine.StreamOptions, columns func([]engine.Column) error, row func([]engine.Value) error) (*engine.StreamInfo, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = engine.DefaultExportTimeout
	}
	var info *engine.StreamInfo
	err := d.withLock(ctx, func() error {
		v, err := d.validateLocked(ctx, query)
		if err != nil {
			return err
		}
		info, err = d.streamLocked(ctx, query, v, opts, columns, row)
		return err
	})
	if err != nil {
		return info, engine.AsError(err)
	}
	return info, nil
}

func (d *DB) streamLocked(ctx context.Context, query string, v *engine.Validation, opts engine.StreamOptions,
	columns func([]engine.Column) error, row func([]engine.Value) error) (*engine.StreamInfo, error) {
	limit := int64(0)
	if opts.MaxRows > 0 {
		limit = opts.MaxRows + 1
	}
	info := &engine.StreamInfo{Query: query, ExecutedSQL: streamWrap(v.SQL, len(v.Columns), limit), Statement: v.SQL,
		Columns: append([]engine.Column(nil), v.Columns...), TablesUsed: v.Tables, Warnings: v.Warnings}
	if d.tls == nil || d.handle == 0 {
		return info, engine.Errorf(engine.CodeInternal, "the connection's handle is not available for streaming")
	}
	tctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	// Rows are read through SQLite's C API on the pinned connection (we hold
	// its lock): database/sql and the driver cost more per value than the
	// rest of an export. So the deadline is ours to enforce.
	stop := d.interruptOn(tctx)
	defer stop()
	c := &bulkConn{tls: d.tls, db: d.handle}
	d.auth.reset(policyQuery)
	start := time.Now()
	fail := func(err error) (*engine.StreamInfo, error) {
		if ctx.Err() != nil {
			return info, engine.AsError(ctx.Err())
		}
		if tctx.Err() != nil {
			return info, engine.QueryErrorf(engine.CodeTimeout, query, -1, "the query ran past its %s timeout and was stopped", opts.Timeout).SayHint(
				words.New("hint.cheaper_stream", words.Timeout))
		}
		return info, d.runError(ctx, tctx, query, v.SQL, opts.Timeout, err)
	}
	st, err := c.prepare(info.ExecutedSQL)
	if err != nil {
		return fail(err)
	}
	defer st.close()
	s := newStreamer(info, opts.MaxRows, columns, row)
	vals := make([]any, len(v.Columns))
	var cbErr error
	for {
		if info.Rows%256 == 0 && ctx.Err() != nil {
			return info, engine.AsError(ctx.Err())
		}
		ok, err := st.step()
		if err != nil {
			return fail(err)
		}
		if !ok {
			break
		}
		rb, maxRow := st.rowBytes(), d.maxRow()
		if rb > maxRow {
			return info, engine.QueryErrorf(engine.CodeTooBig, query, -1,
				"row %d of the result holds %s, more than the %s a row may take", info.Rows+int64(len(s.ahead))+1,
				humanBytes(rb), humanBytes(maxRow)).WithHint(
				"select fewer or shorter columns: substr(col, 1, 200) or length(col) instead of a long text or blob")
		}
		st.readRow(vals)
		if cbErr = s.add(vals, rb); cbErr != nil {
			break
		}
	}
	if cbErr == nil && !s.sent {
		cbErr = s.sendColumns()
	}
	if cbErr != nil && cbErr != errStop {
		return info, cbErr
	}
	info.Elapsed = time.Since(start)
	return info, nil
}

// streamer hands a stream's rows to its caller, up to the row limit: the
// columns first, then each row. Column types need the first non-NULL
// value of each undeclared column: it looks ahead at the first rows
// before telling the caller, until each has one, for 100 rows at most and
// lookAheadBytes of values (100 rows of 10 MB values were a gigabyte held
// before the first row was sent).
type streamer struct {
	info    *engine.StreamInfo
	maxRows int64
	columns func([]engine.Column) error
	row     func([]engine.Value) error

	ahead      [][]engine.Value // the rows looked ahead at, not yet sent
	aheadBytes int64
	untyped    map[int]bool // the columns without a type yet
	sent       bool         // the columns were sent
	out        []engine.Value
}

func newStreamer(info *engine.StreamInfo, maxRows int64, columns func([]engine.Column) error, row func([]engine.Value) error) *streamer {
	s := &streamer{info: info, maxRows: maxRows, columns: columns, row: row,
		untyped: map[int]bool{}, out: make([]engine.Value, len(info.Columns))}
	for i, c := range info.Columns {
		if c.Type == "" {
			s.untyped[i] = true
		}
	}
	return s
}

// add hands on one row read (rowBytes its values' size): looked ahead at
// while the columns are not sent, else sent.
func (s *streamer) add(vals []any, rowBytes int64) error {
	if s.sent {
		copy(s.out, vals)
		return s.emit(s.out)
	}
	r := make([]engine.Value, len(vals))
	copy(r, vals)
	s.ahead = append(s.ahead, r)
	for i := range s.untyped {
		if r[i] != nil {
			delete(s.untyped, i)
		}
	}
	s.aheadBytes += rowBytes
	if len(s.ahead) < 100 && len(s.untyped) > 0 && s.aheadBytes < lookAheadBytes {
		return nil
	}
	return s.sendColumns()
}

// emit sends one row, or errStop past the row limit.
func (s *streamer) emit(r []engine.Value) error {
	if s.maxRows > 0 && s.info.Rows == s.maxRows {
		s.info.Truncated = true
		return errStop
	}
	s.info.Rows++
	return s.row(r)
}

// sendColumns types the columns from the rows looked ahead at, sends them,
// then those rows.
func (s *streamer) sendColumns() error {
	res := &engine.Result{Columns: s.info.Columns, Rows: s.ahead}
	fillTypes(res)
	s.info.Columns = res.Columns
	s.sent = true
	if err := s.columns(s.info.Columns); err != nil {
		return err
	}
	for _, r := range s.ahead {
		if err := s.emit(r); err != nil {
			return err
		}
	}
	s.ahead = nil
	return nil
}

// lookAheadBytes bounds the rows a stream holds before it sends its
// columns.
const lookAheadBytes = 4 << 20

// errStop ends a streamed run early without an error (the row limit).
var errStop = errors.New("stop")
