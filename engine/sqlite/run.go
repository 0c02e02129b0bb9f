package sqlite

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"modernc.org/sqlite"
	lib "modernc.org/sqlite/lib"

	"querent/engine"
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
// limit < 0 means no LIMIT.
func wrap(sql string, ncols int, limit int64) string {
	var names, outs strings.Builder
	for i := 1; i <= ncols; i++ {
		if i > 1 {
			names.WriteString(", ")
			outs.WriteString(", ")
		}
		fmt.Fprintf(&names, "c%d", i)
		fmt.Fprintf(&outs, "+c%d", i)
	}
	lim := ""
	if limit >= 0 {
		lim = fmt.Sprintf(" LIMIT %d", limit)
	}
	return fmt.Sprintf("WITH %s(%s) AS MATERIALIZED (SELECT * FROM (\n%s\n)%s)\nSELECT %s FROM %s",
		wrapperName, names.String(), sql, lim, outs.String(), wrapperName)
}

// Run validates query and runs it under the guard: the wrapper, a timeout
// (opts.Timeout, default 30 s) and a row cap (opts.MaxRows, default 1000;
// one more row sets Truncated). Cancelling ctx stops it at once.
func (d *DB) Run(ctx context.Context, query string, opts engine.RunOptions) (*engine.Result, error) {
	if opts.MaxRows <= 0 {
		opts.MaxRows = engine.DefaultMaxRows
	}
	if opts.Timeout <= 0 {
		opts.Timeout = engine.DefaultTimeout
	}
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
	return res, nil
}

func (d *DB) runLocked(ctx context.Context, query string, v *engine.Validation, opts engine.RunOptions) (*engine.Result, error) {
	res := &engine.Result{
		Query:       query,
		ExecutedSQL: wrap(v.SQL, len(v.Columns), int64(opts.MaxRows)+1),
		Columns:     append([]engine.Column(nil), v.Columns...),
		TablesUsed:  v.Tables,
	}
	tctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	d.auth.reset(policyQuery)
	start := time.Now()
	rows, err := d.conn.QueryContext(tctx, res.ExecutedSQL)
	if err != nil {
		return nil, d.runError(ctx, tctx, query, v.SQL, opts.Timeout, err)
	}
	defer rows.Close()
	n := len(v.Columns)
	vals := make([]any, n)
	ptrs := make([]any, n)
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var size int64
	for rows.Next() {
		if len(res.Rows) == opts.MaxRows {
			res.Truncated = true
			break
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, d.runError(ctx, tctx, query, v.SQL, opts.Timeout, err)
		}
		row := make([]engine.Value, n)
		for i, x := range vals {
			row[i] = normalize(x)
			size += valueSize(row[i])
		}
		size += 24
		if size > d.opts.MaxResultBytes {
			return nil, queryError(engine.CodeTooBig, query, -1,
				"the result is larger than %s after %d rows", humanBytes(d.opts.MaxResultBytes), len(res.Rows)).WithHint(
				"select fewer or shorter columns (substr(col, 1, 200), length(col)) or fewer rows (LIMIT, WHERE)")
		}
		res.Rows = append(res.Rows, row)
	}
	if err := rows.Err(); err != nil {
		return nil, d.runError(ctx, tctx, query, v.SQL, opts.Timeout, err)
	}
	res.Elapsed = time.Since(start)
	fillTypes(res)
	return res, nil
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

func valueSize(v engine.Value) int64 {
	switch x := v.(type) {
	case string:
		return int64(len(x)) + 16
	case []byte:
		return int64(len(x)) + 24
	}
	return 16
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
		return queryError(engine.CodeTimeout, query, -1, "the query ran past its %s timeout and was stopped", timeout).WithHint(
			"make it cheaper (filter with WHERE, join on key columns, aggregate before joining, add LIMIT) or allow more time with --timeout")
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case lib.SQLITE_TOOBIG:
			return queryError(engine.CodeTooBig, query, -1, "a value in the result is larger than the %s limit", humanBytes(maxValueBytes)).WithHint(
				"select length(col) or substr(col, 1, 1000) instead of the whole value")
		case lib.SQLITE_NOMEM:
			return queryError(engine.CodeTooBig, query, -1, "SQLite ran out of memory running the query").WithHint(
				"ask for less: fewer rows, fewer columns, or aggregate first")
		}
	}
	// A denial while running comes from a statement SQLite prepares inside
	// the query (a pragma function's PRAGMA).
	base := strings.Index(query, text)
	return d.compileError(ctx, query, text, max(base, 0), -1, d.auth.denied, err)
}

func isInterrupt(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == lib.SQLITE_INTERRUPT
}
