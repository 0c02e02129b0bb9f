package postgres

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"querent/engine"
)

// wrapPrefix is what the run wrapper puts before the statement; positions in
// the server's errors are shifted back by its length (in characters).
const wrapPrefix = "SELECT * FROM (\n"

// wrap puts a checked statement inside the run wrapper:
//
//	SELECT * FROM (
//	<sql>
//	) AS _querent_q LIMIT cap+1
//
// The server plans the statement knowing the limit (a fast-start plan), and
// never sends more than cap+1 rows. The newline keeps a trailing -- comment
// from swallowing the closing parenthesis; a subquery in FROM keeps its
// columns' names, repeated ones included. limit < 0 means no LIMIT.
func wrap(sql string, limit int64) string {
	lim := ""
	if limit >= 0 {
		lim = " LIMIT " + strconv.FormatInt(limit, 10)
	}
	return wrapPrefix + sql + "\n) AS _querent_q" + lim
}

// envelope is one guarded run on the connection, in one round trip:
//
//	BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY
//	SELECT set_config('statement_timeout', …, true),   -- SET LOCAL
//	       set_config('lock_timeout', …, true),
//	       set_config('idle_in_transaction_session_timeout', …, true),
//	       date_part('epoch', statement_timestamp())    -- the snapshot's time
//	<the statement>
//	Sync
//	ROLLBACK
//	Sync
//
// all sent at once (the extended protocol's pipeline: each statement in its
// own Parse, so none can hold a second). A failure anywhere before the
// statement skips it: the server ignores the rest of a failed group until
// its Sync. ROLLBACK runs whatever happened. fields is called with the
// result's columns, row with each row's raw values; an error of either
// stops the run (the server is sent a cancel request and the connection is
// closed) and comes back as a *callbackError.
type envelope struct {
	sql     string
	timeout time.Duration
	fields  func([]pgconn.FieldDescription) error
	row     func([][]byte) error
}

// clientMargin is how long after the server's own statement_timeout the
// client gives up: a cancel request, and the connection closed if the
// server has not answered within cancelGrace. The server normally stops
// first, cleanly (within a millisecond or so); it does not when it is busy
// sending large rows, whose end it must send before its error.
const clientMargin = 50 * time.Millisecond

// callbackError is an error of a callback of the envelope (the caller's
// own: a full disk during an export…), as opposed to the server's or the
// connection's.
type callbackError struct{ err error }

// Error returns the callback's error text.
func (e *callbackError) Error() string { return e.err.Error() }

// Unwrap returns the callback's error.
func (e *callbackError) Unwrap() error { return e.err }

func (d *DB) runLocked(ctx context.Context, env envelope) (err error) {
	conn, err := d.connLocked(ctx)
	if err != nil {
		return err
	}
	tctx, cancel := context.WithTimeout(ctx, env.timeout+clientMargin)
	defer cancel()
	timeout := max(env.timeout, time.Millisecond)
	lock := min(d.opts.LockTimeout, timeout)
	p := conn.StartPipeline(tctx)
	send := func(q string) { p.SendQueryParams(q, nil, nil, nil, nil) }
	send("BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
	// set_config(…, true) is SET LOCAL: three settings and the snapshot's
	// time in one statement.
	send("SELECT pg_catalog.set_config('statement_timeout', '" + ms(timeout) + "', true), " +
		"pg_catalog.set_config('lock_timeout', '" + ms(lock) + "', true), " +
		"pg_catalog.set_config('idle_in_transaction_session_timeout', '" + ms(idleInTransaction) + "', true), " +
		"pg_catalog.date_part('epoch', pg_catalog.statement_timestamp())")
	send(env.sql)
	p.SendPipelineSync()
	send("ROLLBACK")
	p.SendPipelineSync()

	broken := false
	aborted := false
	// abort stops the statement on the server (a cancel request: it would
	// otherwise run on until it next writes to the closed connection) and
	// closes the connection, whose state is then unknown.
	abort := func() {
		if aborted {
			return
		}
		aborted = true
		cctx, ccancel := context.WithTimeout(context.Background(), time.Second)
		_ = conn.CancelRequest(cctx)
		ccancel()
		// The socket first: a polite close would send Terminate behind
		// the rows still coming, and wait.
		_ = conn.Conn().Close()
		d.dropConnLocked()
		p.Close()
	}
	defer func() {
		// A connection whose exchange broke, was cancelled, or that is
		// somehow still in a transaction is closed, never reused.
		switch {
		case aborted:
		case broken:
			abort()
		case ctx.Err() != nil || tctx.Err() != nil || (d.conn != nil && !d.conn.IsClosed() && d.conn.TxStatus() != 'I'):
			d.dropConnLocked()
		}
	}()
	if ferr := p.Flush(); ferr != nil {
		broken = true
		return ferr
	}
	var stmtErr error
	next := func() (any, error) {
		r, err := p.GetResults()
		if err != nil {
			var pgErr *pgconn.PgError
			if !errors.As(err, &pgErr) {
				broken = true
			}
		}
		return r, err
	}
	// The setup statements.
	setupOK := true
	for i := 0; i < 2 && setupOK; i++ {
		r, err := next()
		if err != nil {
			stmtErr, setupOK = err, false
			break
		}
		rr, ok := r.(*pgconn.ResultReader)
		if !ok {
			broken = true
			return fmt.Errorf("unexpected pipeline result %T", r)
		}
		if i == 1 && rr.NextRow() {
			if v := rr.Values(); len(v) == 4 {
				if f, err := strconv.ParseFloat(string(v[3]), 64); err == nil {
					sec, frac := math.Modf(f)
					d.snapMu.Lock()
					d.snapshot = time.Unix(int64(sec), int64(frac*1e9)).UTC()
					d.snapMu.Unlock()
				}
			}
		}
		if _, err := rr.Close(); err != nil {
			stmtErr, setupOK = err, false
		}
	}
	if broken {
		return stmtErr
	}
	// The statement.
	if setupOK {
		var cbErr error
		r, err := next()
		if err != nil {
			stmtErr = err
		} else if rr, ok := r.(*pgconn.ResultReader); !ok {
			broken = true
			return fmt.Errorf("unexpected pipeline result %T", r)
		} else {
			cbErr = env.fields(rr.FieldDescriptions())
			for cbErr == nil && rr.NextRow() {
				cbErr = env.row(rr.Values())
			}
			if cbErr != nil {
				// Stopped early (a full result, the caller's error): the
				// server is told to stop, and the connection is closed
				// rather than drained of the rows on their way. Nothing of
				// the transaction survives a closed connection.
				abort()
				return &callbackError{cbErr}
			}
			if _, err := rr.Close(); err != nil {
				stmtErr = err
				var pgErr *pgconn.PgError
				if !errors.As(err, &pgErr) {
					// The exchange broke mid-result: a row past the size
					// limit, a lost connection.
					abort()
					return err
				}
			}
		}
	}
	if broken {
		abort()
		return stmtErr
	}
	// The rest: the group's Sync, ROLLBACK and its Sync.
	for p != nil {
		r, err := next()
		if broken {
			return errors.Join(stmtErr, err)
		}
		switch x := r.(type) {
		case *pgconn.PipelineSync:
		case *pgconn.ResultReader:
			x.Close()
		case nil:
			if err == nil {
				// Nothing left: every Sync has been read.
				if cerr := p.Close(); cerr != nil {
					broken = true
				}
				p = nil
			}
		}
	}
	return stmtErr
}

// Run validates query and runs it under the guard: a read-only transaction,
// the timeout (opts.Timeout, default 30 s) as statement_timeout, a row cap
// (opts.MaxRows, default 1000; one more row sets Truncated) and the memory
// caps. Cancelling ctx cancels the statement on the server.
func (d *DB) Run(ctx context.Context, query string, opts engine.RunOptions) (*engine.Result, error) {
	opts = opts.WithDefaults()
	var res *engine.Result
	err := d.withLock(ctx, func() error {
		a, err := d.analyzeLocked(ctx, query)
		if err != nil {
			return err
		}
		res = &engine.Result{Query: query, ExecutedSQL: wrap(a.sql, int64(opts.MaxRows)+1)}
		for _, t := range a.tables {
			res.TablesUsed = append(res.TablesUsed, t.String())
		}
		var oids []uint32
		var fields []pgconn.FieldDescription
		var size int64
		var tooBig error
		start := time.Now()
		err = d.runLocked(ctx, envelope{sql: res.ExecutedSQL, timeout: opts.Timeout,
			fields: func(f []pgconn.FieldDescription) error {
				// The columns' type names may need the server, which is
				// busy with the pipeline: they are named after it.
				fields = append([]pgconn.FieldDescription(nil), f...)
				oids = make([]uint32, len(f))
				for i := range f {
					oids[i] = f[i].DataTypeOID
				}
				return nil
			},
			row: func(vals [][]byte) error {
				if len(res.Rows) == opts.MaxRows {
					res.Truncated = true
					return nil // the wrapper sends at most one more row
				}
				var rowBytes int64
				for _, v := range vals {
					rowBytes += valueBytes(v)
				}
				if rowBytes > d.opts.MaxRowBytes {
					tooBig = engine.QueryErrorf(engine.CodeTooBig, query, -1, "row %d of the result holds %s, more than the %s a row may take",
						len(res.Rows)+1, engine.FormatSize(rowBytes), engine.FormatSize(d.opts.MaxRowBytes)).WithHint(
						"select fewer or shorter columns: left(col, 200) or length(col) instead of a long text or bytea")
					return tooBig
				}
				size += rowBytes + 24 + 16*int64(len(vals))
				if size > d.opts.MaxResultBytes {
					tooBig = engine.QueryErrorf(engine.CodeTooBig, query, -1, "the result is larger than %s after %d rows",
						engine.FormatSize(d.opts.MaxResultBytes), len(res.Rows)).WithHint(
						"select fewer or shorter columns (left(col, 200), length(col)) or fewer rows (LIMIT, WHERE)")
					return tooBig
				}
				row := make([]engine.Value, len(vals))
				for i, v := range vals {
					row[i] = decode(oids[i], v)
				}
				res.Rows = append(res.Rows, row)
				return nil
			}})
		res.Elapsed = time.Since(start)
		if err != nil {
			if tooBig != nil {
				return tooBig
			}
			return d.runFailure(ctx, query, a, len(wrapPrefix), opts.Timeout, err)
		}
		res.Columns = d.columnsOf(ctx, fields)
		return nil
	})
	if err != nil {
		return nil, engine.AsError(err)
	}
	return res, nil
}

// runFailure translates an error of a guarded run.
func (d *DB) runFailure(ctx context.Context, query string, a *analysis, prefix int, timeout time.Duration, err error) error {
	if ctx.Err() != nil {
		return engine.AsError(ctx.Err())
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "57014" || errors.Is(err, context.DeadlineExceeded) {
		return engine.QueryErrorf(engine.CodeTimeout, query, -1, "the query ran past its %s timeout and was stopped", timeout).WithHint(
			"make it cheaper (filter with WHERE, join on key columns, aggregate before joining, add LIMIT) or allow more time with --timeout")
	}
	var e *engine.Error
	if errors.As(err, &e) {
		return e
	}
	return d.serverError(ctx, query, a, prefix, err)
}

// Stream validates and runs query under the guard without the display row
// cap, handing each row to row as the server sends it (for exports: memory
// stays bounded however large the result). The timeout (default 10 minutes)
// covers the whole run as statement_timeout; ctx is watched throughout
// (cancelling it cancels the statement on the server).
func (d *DB) Stream(ctx context.Context, query string, opts engine.StreamOptions, columns func([]engine.Column) error, row func([]engine.Value) error) (*engine.StreamInfo, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = engine.DefaultExportTimeout
	}
	var info *engine.StreamInfo
	err := d.withLock(ctx, func() error {
		a, err := d.analyzeLocked(ctx, query)
		if err != nil {
			return err
		}
		limit := int64(-1)
		if opts.MaxRows > 0 {
			limit = opts.MaxRows + 1
		}
		info = &engine.StreamInfo{Query: query, ExecutedSQL: wrap(a.sql, limit)}
		for _, t := range a.tables {
			info.TablesUsed = append(info.TablesUsed, t.String())
		}
		// The columns go to the caller before the first row: describe the
		// statement first (one round trip more, for an export), so that
		// their types are named while the connection is free.
		conn, err := d.connLocked(ctx)
		if err != nil {
			return err
		}
		sd, err := conn.Prepare(ctx, "", info.ExecutedSQL, nil)
		if err != nil {
			if ctx.Err() != nil || isClosedErr(err) {
				d.dropConnLocked()
			}
			return d.serverError(ctx, query, a, len(wrapPrefix), err)
		}
		described := d.columnsOf(ctx, sd.Fields)
		var oids []uint32
		var out []engine.Value
		var tooBig error
		start := time.Now()
		err = d.runLocked(ctx, envelope{sql: info.ExecutedSQL, timeout: opts.Timeout,
			fields: func(f []pgconn.FieldDescription) error {
				info.Columns = described
				if len(f) != len(described) {
					return fmt.Errorf("the statement's columns changed between describing and running it")
				}
				oids = make([]uint32, len(f))
				for i := range f {
					oids[i] = f[i].DataTypeOID
				}
				out = make([]engine.Value, len(f))
				return columns(info.Columns)
			},
			row: func(vals [][]byte) error {
				if opts.MaxRows > 0 && info.Rows == opts.MaxRows {
					info.Truncated = true
					return nil // the wrapper's LIMIT sends at most one more row
				}
				if info.Rows%256 == 0 && ctx.Err() != nil {
					return ctx.Err()
				}
				var rowBytes int64
				for i, v := range vals {
					rowBytes += valueBytes(v)
					out[i] = decode(oids[i], v)
				}
				if rowBytes > d.opts.MaxRowBytes {
					tooBig = engine.QueryErrorf(engine.CodeTooBig, query, -1, "row %d of the result holds %s, more than the %s a row may take",
						info.Rows+1, engine.FormatSize(rowBytes), engine.FormatSize(d.opts.MaxRowBytes)).WithHint(
						"select fewer or shorter columns: left(col, 200) or length(col) instead of a long text or bytea")
					return tooBig
				}
				info.Rows++
				return row(out)
			}})
		info.Elapsed = time.Since(start)
		if err != nil {
			if tooBig != nil {
				return tooBig
			}
			var cb *callbackError
			if errors.As(err, &cb) && ctx.Err() == nil {
				return cb.err // the caller's own error (a full disk…)
			}
			return d.runFailure(ctx, query, a, len(wrapPrefix), opts.Timeout, err)
		}
		return nil
	})
	if err != nil {
		return info, engine.AsError(err)
	}
	return info, nil
}
