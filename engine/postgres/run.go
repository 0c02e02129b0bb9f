package postgres

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"querent/engine"
	"querent/engine/words"
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

// envelope is one guarded run on the connection, in two round trips
// (three when the catalog cache lacks a fact of the statement's tree):
//
//	BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY
//	SELECT set_config('statement_timeout', …, true),   -- SET LOCAL
//	       set_config('lock_timeout', …, true),
//	       set_config('idle_in_transaction_session_timeout', …, true),
//	       set_config('client_min_messages', 'log', true),
//	       set_config('debug_pretty_print', 'off', true),
//	       set_config('debug_print_rewritten', 'on', true),
//	       date_part('epoch', statement_timestamp())    -- the snapshot's time
//	Parse + Describe <the statement>                   -- analysed, never planned
//	Sync
//	  → the server's rewritten tree (a LOG notice) is judged (servercheck.go)
//	Bind + Execute <the statement>   (or EXPLAIN (FORMAT JSON) EXECUTE …)
//	Sync
//	ROLLBACK
//	Sync
//	DISCARD ALL                                        -- nothing of the session outlives the call
//	Sync
//
// each statement in its own Parse of the extended protocol, so none can
// hold a second. The statement is run only once the server's own reading
// of it has passed, in the same transaction: its relations stay locked, so
// their definitions cannot change in between, and a re-analysis at Bind
// (a concurrent change of the catalog) is seen — another tree — and the run
// stopped before its first row. ROLLBACK runs whatever happened. fields is
// called with the result's columns, row with each row's raw values; an
// error of either stops the run (the server is sent a cancel request and
// the connection is closed) and comes back as a *callbackError.
type envelope struct {
	sql     string
	timeout time.Duration
	// query and a are the statement as written (for messages); prefix is
	// the number of characters before a.sql in sql (the run wrapper's).
	query  string
	a      *analysis
	prefix int
	// explain runs EXPLAIN (FORMAT JSON) of the checked statement instead
	// of the statement; checkOnly stops after the check (Validate).
	explain   bool
	checkOnly bool
	// described, when set, receives the statement's description once it
	// has passed the check, before it runs.
	described func(*pgconn.StatementDescription) error
	fields    func([]pgconn.FieldDescription) error
	row       func([][]byte) error
	// unchecked skips the server check (the layer tests, which show what
	// each layer holds on its own).
	unchecked bool
}

// checkedStatement names the prepared statement that is checked, then run
// (EXPLAIN … EXECUTE names it; the unnamed one would be replaced by the
// catalog lookups in between). It is deallocated whatever happens.
const checkedStatement = "querent_checked"

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

// errChangedMeanwhile says the server analysed the statement again between
// the check and the run: the catalog changed meanwhile.
var errChangedMeanwhile = errors.New("the statement was analysed again before it ran")

func (d *DB) runLocked(ctx context.Context, env envelope) error {
	for {
		err := d.runOnce(ctx, env)
		var busy *busyError
		if !errors.As(err, &busy) {
			return err
		}
		// One of this Querent's earlier statements still runs on the
		// server: wait for it, within this statement's own time.
		if werr := d.waitAbandoned(ctx, env.timeout, busy); werr != nil {
			return werr
		}
	}
}

func (d *DB) runOnce(ctx context.Context, env envelope) error {
	conn, err := d.connLocked(ctx)
	if err != nil {
		return err
	}
	tctx, cancel := context.WithTimeout(ctx, env.timeout+clientMargin)
	defer cancel()
	g := &guarded{d: d, conn: conn, ctx: tctx, env: env}
	defer func() {
		// A connection whose exchange broke, was cancelled, or that is
		// somehow still in a transaction is closed, never reused.
		switch {
		case g.aborted:
		case ctx.Err() != nil || tctx.Err() != nil:
			g.abort()
		case d.conn != nil && !d.conn.IsClosed() && d.conn.TxStatus() != 'I':
			d.dropConnLocked()
		}
	}()
	sd, err := g.check()
	if err != nil {
		return err
	}
	if env.described != nil {
		if derr := env.described(sd); derr != nil {
			return g.finish(&callbackError{derr})
		}
	}
	if env.checkOnly {
		return g.finish(nil)
	}
	return g.execute()
}

// guarded is one run of the envelope on one connection.
type guarded struct {
	d       *DB
	conn    *pgconn.PgConn
	ctx     context.Context
	env     envelope
	p       *pgconn.Pipeline // the pipeline in flight, if any
	aborted bool
}

// abort stops the statement on the server (a cancel request: it would
// otherwise run on until it next writes to the closed connection) and
// closes the connection, whose state is then unknown; the backend is
// remembered until it is seen idle (waitAbandoned).
func (g *guarded) abort() {
	if g.aborted {
		return
	}
	g.aborted = true
	g.d.abandon(g.conn)
	cctx, ccancel := context.WithTimeout(context.Background(), time.Second)
	_ = g.conn.CancelRequest(cctx)
	ccancel()
	// The socket first: a polite close would send Terminate behind the
	// rows still coming, and wait.
	_ = g.conn.Conn().Close()
	g.d.dropConnLocked()
	if g.p != nil {
		g.p.Close()
		g.p = nil
	}
}

// send queues one statement of Querent's own on the pipeline.
func (g *guarded) send(q string) { g.p.SendQueryParams(q, nil, nil, nil, nil) }

// closePipeline ends the pipeline once every result was read.
func (g *guarded) closePipeline(stmtErr error) error {
	err := g.p.Close()
	g.p = nil
	if err != nil {
		g.abort()
		return errors.Join(stmtErr, err)
	}
	return nil
}

// finish ends the transaction after the check (a refusal, a failure or
// checkOnly) and returns result.
func (g *guarded) finish(result error) error {
	if err := g.d.rollbackLocked(g.ctx, g.conn, checkedStatement); err != nil {
		g.abort()
		return errors.Join(result, err)
	}
	return result
}

// check is the first round trip (the settings, the abandoned statements'
// state, the statement's Parse and Describe) and the judgement of the
// server's reading of the statement. On any failure the transaction is
// ended and the error returned.
func (g *guarded) check() (*pgconn.StatementDescription, error) {
	env, d := g.env, g.d
	timeout := max(env.timeout, time.Millisecond)
	lock := min(d.opts.LockTimeout, timeout)
	g.p = g.conn.StartPipeline(g.ctx)
	g.send("BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
	// set_config(…, true) is SET LOCAL: the settings and the snapshot's
	// time in one statement.
	g.send("SELECT pg_catalog.set_config('statement_timeout', '" + ms(timeout) + "', true), " +
		"pg_catalog.set_config('lock_timeout', '" + ms(lock) + "', true), " +
		"pg_catalog.set_config('idle_in_transaction_session_timeout', '" + ms(idleInTransaction) + "', true), " +
		"pg_catalog.set_config('client_min_messages', 'log', true), " +
		"pg_catalog.set_config('debug_pretty_print', 'off', true), " +
		"pg_catalog.set_config('debug_print_rewritten', '" + onOff(!env.unchecked) + "', true), " +
		"pg_catalog.date_part('epoch', pg_catalog.statement_timestamp())")
	abandoned := d.abandonedPIDs()
	if abandoned != "" {
		g.p.SendQueryParams(abandonedSQL, [][]byte{[]byte(abandoned)}, nil, nil, nil)
	}
	g.p.SendPrepare(checkedStatement, env.sql, nil)
	g.p.SendPipelineSync()
	if err := g.p.Flush(); err != nil {
		g.abort()
		return nil, err
	}
	sd, busy, stmtErr, err := g.readCheck(abandoned != "")
	if err != nil {
		return nil, err
	}
	switch {
	case busy != "":
		return nil, g.finish(&busyError{pids: busy})
	case stmtErr != nil:
		return nil, g.finish(stmtErr)
	case sd == nil:
		return nil, g.finish(errors.New("the server did not describe the statement"))
	}
	if !env.unchecked {
		rd, terr := captureTree(d.takeNotices())
		if terr != nil {
			return nil, g.finish(engine.QueryErrorf(engine.CodeRefused, env.query, -1,
				"Querent could not read back how PostgreSQL reads this query (%v), so it does not run it", terr).WithErr(terr).WithHint(
				"rename aliases or columns that start with ':' or are very long with many spaces, quotes or brackets; otherwise report it with the query"))
		}
		if cerr := d.checkReading(g.ctx, g.conn, env.query, env.a, env.prefix, rd); cerr != nil {
			return nil, g.finish(cerr)
		}
	}
	return sd, nil
}

// readCheck reads the first round trip's results, in order: BEGIN, the
// settings, [the abandoned statements], the statement's description (whose
// notices are the server's reading of it), the Sync. err is a broken
// exchange (the connection is then closed); stmtErr the server's error.
func (g *guarded) readCheck(withAbandoned bool) (sd *pgconn.StatementDescription, busy string, stmtErr, err error) {
	step, prepared := 0, 2
	if withAbandoned {
		prepared = 3
	}
	for {
		if step == prepared && sd == nil {
			g.d.noticesOn(true)
		}
		r, gerr := g.p.GetResults()
		g.d.noticesOn(false)
		if gerr != nil {
			var pgErr *pgconn.PgError
			if !errors.As(gerr, &pgErr) {
				g.abort()
				return nil, "", nil, gerr
			}
			stmtErr = gerr
			continue
		}
		if r == nil {
			break
		}
		switch x := r.(type) {
		case *pgconn.ResultReader:
			switch {
			case step == 1:
				if x.NextRow() {
					g.d.noteSnapshot(x.Values())
				}
			case step == 2 && withAbandoned:
				if x.NextRow() {
					busy = string(x.Values()[0])
				}
			}
			if _, cerr := x.Close(); cerr != nil && stmtErr == nil {
				stmtErr = cerr
			}
			step++
		case *pgconn.StatementDescription:
			sd = x
			step++
		}
	}
	if cerr := g.closePipeline(stmtErr); cerr != nil {
		return nil, "", nil, cerr
	}
	return sd, busy, stmtErr, nil
}

// execute is the second round trip: the checked statement (or EXPLAIN of
// it), its rows handed to the callbacks, then ROLLBACK and DISCARD ALL.
func (g *guarded) execute() error {
	env := g.env
	g.p = g.conn.StartPipeline(g.ctx)
	if env.explain {
		g.send("EXPLAIN (FORMAT JSON) EXECUTE " + checkedStatement)
	} else {
		g.p.SendQueryPrepared(checkedStatement, nil, nil, nil)
	}
	g.p.SendPipelineSync()
	g.send("ROLLBACK")
	g.p.SendPipelineSync()
	g.send("DISCARD ALL")
	if g.d.sessionSQL != "" {
		g.send(g.d.sessionSQL)
	}
	g.p.SendPipelineSync()
	g.d.noticesOn(true)
	if err := g.p.Flush(); err != nil {
		g.d.noticesOn(false)
		g.abort()
		return err
	}
	stmtErr, err := g.rows()
	if err != nil {
		return err
	}
	// The rest: the Syncs, ROLLBACK and DISCARD ALL.
	for {
		r, gerr := g.p.GetResults()
		if gerr != nil {
			var pgErr *pgconn.PgError
			if !errors.As(gerr, &pgErr) {
				g.abort()
				return errors.Join(stmtErr, gerr)
			}
			if stmtErr == nil {
				// ROLLBACK or DISCARD ALL failed: the session's state is
				// unknown.
				g.d.dropConnLocked()
			}
			continue
		}
		if r == nil {
			break
		}
		if rr, ok := r.(*pgconn.ResultReader); ok {
			rr.Close()
		}
	}
	if cerr := g.closePipeline(stmtErr); cerr != nil {
		return cerr
	}
	return stmtErr
}

// rows reads the statement's result into the callbacks. stmtErr is the
// server's error; err a broken run (the connection is then closed).
func (g *guarded) rows() (stmtErr, err error) {
	env := g.env
	r, gerr := g.p.GetResults()
	g.d.noticesOn(false)
	if gerr != nil {
		var pgErr *pgconn.PgError
		if !errors.As(gerr, &pgErr) {
			g.abort()
			return nil, gerr
		}
		return gerr, nil
	}
	rr, ok := r.(*pgconn.ResultReader)
	if !ok {
		g.abort()
		return nil, fmt.Errorf("unexpected pipeline result %T", r)
	}
	if !env.unchecked && reanalysed(g.d.takeNotices()) {
		g.abort()
		return nil, engine.QueryErrorf(engine.CodeRefused, env.query, -1,
			"the database's definitions changed while Querent checked this query, so it was stopped before it returned a row").WithErr(errChangedMeanwhile).WithHint(
			"run it again")
	}
	cbErr := env.fields(rr.FieldDescriptions())
	for cbErr == nil && rr.NextRow() {
		cbErr = env.row(rr.Values())
	}
	if cbErr != nil {
		// Stopped early (a full result, the caller's error): the server is
		// told to stop, and the connection is closed rather than drained
		// of the rows on their way. Nothing of the transaction survives a
		// closed connection.
		g.abort()
		return nil, &callbackError{cbErr}
	}
	if _, cerr := rr.Close(); cerr != nil {
		var pgErr *pgconn.PgError
		if !errors.As(cerr, &pgErr) {
			// The exchange broke mid-result: a row past the size limit, a
			// lost connection.
			g.abort()
			return nil, cerr
		}
		return cerr, nil
	}
	return nil, nil
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// reanalysed reports a second reading of a SELECT among notices: the
// server analysed the checked statement again at Bind.
func reanalysed(notices []*pgconn.Notice) bool {
	for _, n := range notices {
		if n.Message == noticeTree && strings.Contains(n.Detail, ":commandType 1 ") {
			return true
		}
	}
	return false
}

// noteSnapshot records the snapshot's time from the settings' row.
func (d *DB) noteSnapshot(v [][]byte) {
	if len(v) == 0 {
		return
	}
	if f, err := strconv.ParseFloat(string(v[len(v)-1]), 64); err == nil {
		sec, frac := math.Modf(f)
		d.snapMu.Lock()
		d.snapshot = time.Unix(int64(sec), int64(frac*1e9)).UTC()
		d.snapMu.Unlock()
	}
}

// rollbackLocked ends the transaction (ROLLBACK) on conn and deallocates
// the prepared statement stmt (never an error when it does not exist).
func (d *DB) rollbackLocked(ctx context.Context, conn *pgconn.PgConn, stmt string) error {
	p := conn.StartPipeline(ctx)
	p.SendQueryParams("ROLLBACK", nil, nil, nil, nil)
	p.SendPipelineSync()
	p.SendDeallocate(stmt)
	p.SendPipelineSync()
	if err := p.Flush(); err != nil {
		return err
	}
	var first error
	for {
		r, err := p.GetResults()
		if err != nil {
			var pgErr *pgconn.PgError
			if !errors.As(err, &pgErr) {
				return err
			}
			if first == nil {
				first = err
			}
			continue
		}
		if r == nil {
			break
		}
		if rr, ok := r.(*pgconn.ResultReader); ok {
			rr.Close()
		}
	}
	if err := p.Close(); err != nil {
		return err
	}
	if first != nil || conn.TxStatus() != 'I' {
		return errors.Join(first, errors.New("the transaction did not end"))
	}
	return nil
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
		err = d.runLocked(ctx, envelope{sql: res.ExecutedSQL, timeout: opts.Timeout, query: query, a: a, prefix: len(wrapPrefix),
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
		if d.HasMarks() {
			// What the statement read, for the marks (a catalog read the
			// first time, cached after).
			res.ColumnsRead = d.validation(ctx, a, nil).ColumnsRead
		}
		return nil
	})
	if err != nil {
		return nil, engine.AsError(err)
	}
	d.MarkResult(res)
	return res, nil
}

// runFailure translates an error of a guarded run.
func (d *DB) runFailure(ctx context.Context, query string, a *analysis, prefix int, timeout time.Duration, err error) error {
	if ctx.Err() != nil {
		return engine.AsError(ctx.Err())
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "57014" || errors.Is(err, context.DeadlineExceeded) {
		return engine.QueryErrorf(engine.CodeTimeout, query, -1, "the query ran past its %s timeout and was stopped", timeout).SayHint(cheaper)
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
		info = &engine.StreamInfo{Query: query, ExecutedSQL: wrap(a.sql, limit), Statement: a.sql}
		for _, t := range a.tables {
			info.TablesUsed = append(info.TablesUsed, t.String())
		}
		// The columns go to the caller before the first row: they are named
		// once the statement has passed the check, before it runs.
		var described []engine.Column
		var oids []uint32
		var out []engine.Value
		var tooBig error
		start := time.Now()
		err = d.runLocked(ctx, envelope{sql: info.ExecutedSQL, timeout: opts.Timeout, query: query, a: a, prefix: len(wrapPrefix),
			described: func(sd *pgconn.StatementDescription) error {
				described = d.columnsOf(ctx, sd.Fields)
				return nil
			},
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

// cheaper is the hint of a query stopped by its timeout.
var cheaper = words.New("hint.cheaper", words.Timeout)
