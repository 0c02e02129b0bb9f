package sqlite

import (
	"context"
	"fmt"
	"strings"
	"time"

	"golang.org/x/sync/semaphore"

	"querent/engine"
	"querent/engine/imports"
	"querent/engine/sqltext"
)

// importBatchRows is the most rows one INSERT statement carries: wide
// multi-row statements with typed binds are what made modernc as fast as
// the sqlite3 shell (performance.md).
const importBatchRows = 100

// maxImportVariables is SQLite's limit on parameters in one statement.
const maxImportVariables = 32766

// importBatchBytes bounds the values of one batch too: a batch is copied
// twice more to be bound (into one Go buffer, then into C memory), and up
// to a dozen batches are in flight between the reader and the writer. By
// rows alone, 100 rows of 10 MB values were 1 GB a batch, and an XLSX of
// 90 such shared strings took 4.4 GB to import.
const importBatchBytes = 4 << 20

// importInFlight bounds the values of the batches read and not yet
// written.
const importInFlight = 16 << 20

// valuesBytes is what a row's values take to bind: their text and blobs.
func valuesBytes(row []engine.Value) int64 {
	n := int64(16 * len(row))
	for _, v := range row {
		switch x := v.(type) {
		case string:
			n += int64(len(x))
		case []byte:
			n += int64(len(x))
		}
	}
	return n
}

// insertRows streams a table's rows into the table `into` with wide
// multi-row INSERTs; reading (parsing, converting) and writing overlap on
// two goroutines.
func insertRows(ctx context.Context, c *bulkConn, abs, into string, t *imports.Table, opts ImportOptions) (int64, error) {
	ncols := len(t.Columns)
	if ncols == 0 {
		return 0, nil
	}
	stmts, err := newInsertStmts(c, into, ncols)
	if err != nil {
		return 0, importErr(abs, err)
	}
	defer stmts.close()

	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	p := &batchPipe{
		inflight: semaphore.NewWeighted(importInFlight),
		batches:  make(chan batch, 4),
		free:     make(chan []any, 6),
	}
	readErr := make(chan error, 1)
	go func() {
		defer close(p.batches)
		readErr <- p.read(rctx, t, ncols, stmts.per)
	}()
	n, werr := p.write(ctx, cancel, abs, stmts, t, opts)
	rerr := <-readErr
	switch {
	case ctx.Err() != nil:
		return 0, engine.AsError(ctx.Err())
	case werr != nil:
		return 0, werr
	case rerr != nil:
		return 0, engine.AsError(rerr)
	}
	if opts.Progress != nil {
		opts.Progress(imports.Progress{Phase: "writing", Source: t.Source, Rows: n, RowsTotal: t.RowCount})
	}
	return n, nil
}

// insertStmts are the INSERT statements of one table: the full one, of per
// rows, and those of batches cut short by their bytes, which have other
// row counts; these are kept, few as they are (a size is one per row
// count).
type insertStmts struct {
	c          *bulkConn
	into       string
	ncols, per int
	full       *bulkStmt
	short      map[int]*bulkStmt
}

func newInsertStmts(c *bulkConn, into string, ncols int) (*insertStmts, error) {
	s := &insertStmts{c: c, into: into, ncols: ncols, per: min(importBatchRows, max(1, maxImportVariables/ncols)), short: map[int]*bulkStmt{}}
	full, err := s.prepare(s.per)
	if err != nil {
		return nil, err
	}
	s.full = full
	return s, nil
}

// prepare prepares the INSERT of rows rows.
func (s *insertStmts) prepare(rows int) (*bulkStmt, error) {
	one := "(" + strings.TrimSuffix(strings.Repeat("?,", s.ncols), ",") + ")"
	return s.c.prepare(fmt.Sprintf("INSERT INTO %s VALUES %s", sqltext.QuoteIdent(s.into), strings.TrimSuffix(strings.Repeat(one+",", rows), ",")))
}

// forRows is the statement that inserts rows rows.
func (s *insertStmts) forRows(rows int) (*bulkStmt, error) {
	if rows == s.per {
		return s.full, nil
	}
	if st := s.short[rows]; st != nil {
		return st, nil
	}
	st, err := s.prepare(rows)
	if err != nil {
		return nil, err
	}
	s.short[rows] = st
	return st, nil
}

func (s *insertStmts) close() {
	for _, st := range s.short {
		st.close()
	}
	s.full.close()
}

// batch is a batch of rows' values, and the bytes it holds of the
// pipe's in-flight bound.
type batch struct {
	vals   []any
	weight int64
}

// batchPipe carries batches from the reader to the writer. The batches
// between them hold at most importInFlight bytes of values (one batch at
// least, however large its rows: a row may hold 64 MB); free hands
// written buffers back for reuse.
type batchPipe struct {
	inflight *semaphore.Weighted
	batches  chan batch
	free     chan []any
}

// read reads the table's rows into batches of per rows (fewer when their
// values reach importBatchBytes) and sends them.
func (p *batchPipe) read(ctx context.Context, t *imports.Table, ncols, per int) error {
	buf := make([]any, 0, per*ncols)
	var line, bytes int64
	send := func() error {
		w := min(max(bytes, 1), importInFlight)
		if err := p.inflight.Acquire(ctx, w); err != nil {
			return err
		}
		select {
		case p.batches <- batch{buf, w}:
		case <-ctx.Done():
			p.inflight.Release(w)
			return ctx.Err()
		}
		bytes = 0
		return nil
	}
	err := t.Rows(ctx, func(row []engine.Value) error {
		line++
		if len(row) != ncols {
			return engine.Errorf(engine.CodeInternal, "%s: row %d has %d values for %d columns", t.Source, line, len(row), ncols)
		}
		buf = append(buf, row...)
		bytes += valuesBytes(row)
		if len(buf) == per*ncols || bytes >= importBatchBytes {
			if err := send(); err != nil {
				return err
			}
			select {
			case buf = <-p.free:
				buf = buf[:0]
			default:
				buf = make([]any, 0, per*ncols)
			}
		}
		return nil
	})
	if err == nil && len(buf) > 0 {
		err = send()
	}
	return err
}

// write inserts the batches until the reader closes the pipe, and counts
// the rows written. After an error (or ctx's end) it cancels the reader
// and drains what it still sends.
func (p *batchPipe) write(ctx context.Context, cancel context.CancelFunc, abs string, stmts *insertStmts, t *imports.Table, opts ImportOptions) (int64, error) {
	var n int64
	var lastReport time.Time
	var werr error
	for bt := range p.batches {
		b := bt.vals
		if werr != nil {
			p.inflight.Release(bt.weight)
			continue // drain
		}
		if ctx.Err() != nil {
			werr = ctx.Err()
			cancel()
			p.inflight.Release(bt.weight)
			continue
		}
		rows := len(b) / stmts.ncols
		stmt, err := stmts.forRows(rows)
		if err != nil {
			werr = importErr(abs, err)
			cancel()
			p.inflight.Release(bt.weight)
			continue
		}
		err = stmt.execValues(b)
		clear(b) // a buffer kept for reuse must not keep its values alive
		p.inflight.Release(bt.weight)
		if err != nil {
			werr = importErr(abs, err)
			cancel()
			continue
		}
		n += int64(rows)
		select {
		case p.free <- b:
		default:
		}
		if opts.Progress != nil && time.Since(lastReport) > 100*time.Millisecond {
			lastReport = time.Now()
			opts.Progress(imports.Progress{Phase: "writing", Source: t.Source, Rows: n, RowsTotal: t.RowCount})
		}
	}
	return n, werr
}
