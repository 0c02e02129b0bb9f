package postgres

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"querent/engine"
)

func TestRunCapAndColumns(t *testing.T) {
	db := openReader(t)
	ctx := context.Background()
	res, err := db.Run(ctx, "SELECT * FROM track ORDER BY track_id", engine.RunOptions{MaxRows: 5, Timeout: time.Second})
	if err != nil || len(res.Rows) != 5 || !res.Truncated || res.Rows[4][0] != int64(5) {
		t.Fatalf("cap: %v %+v", err, res)
	}
	if !strings.HasSuffix(res.ExecutedSQL, ") AS _querent_q LIMIT 6") || !strings.Contains(res.ExecutedSQL, "\nSELECT * FROM track ORDER BY track_id\n") {
		t.Errorf("ExecutedSQL = %q", res.ExecutedSQL)
	}
	if strings.Join(res.TablesUsed, ",") != "track" {
		t.Errorf("TablesUsed %v", res.TablesUsed)
	}
	res, err = db.Run(ctx, "SELECT * FROM genre", engine.RunOptions{MaxRows: 25})
	if err != nil || len(res.Rows) != 25 || res.Truncated {
		t.Fatalf("exactly the cap: %v %d %v", err, len(res.Rows), res.Truncated)
	}
	// Repeated names get a suffix; types are PostgreSQL's; a column straight
	// from a table has its declared type. A trailing comment cannot swallow
	// the wrapper's parenthesis.
	res = mustRun(t, db, "SELECT a.name, g.name, 1 AS name_2, a.name || '' AS x, t.unit_price FROM artist a, genre g, track t LIMIT 1 -- a comment")
	var names, types []string
	for _, c := range res.Columns {
		names = append(names, c.Name)
		types = append(types, c.Type+"/"+c.DeclType)
	}
	if got := strings.Join(names, ","); got != "name,name_3,name_2,x,unit_price" {
		t.Errorf("names %s", got)
	}
	if got := strings.Join(types, ","); got != "character varying(120)/character varying(120),character varying(120)/character varying(120),integer/,text/,numeric(10,2)/numeric(10,2)" {
		t.Errorf("types %s", got)
	}
}

func TestValues(t *testing.T) {
	db := openReader(t)
	res := mustRun(t, db, `SELECT 1::int2, 2::int4, 3::int8, 1.5::float4, 2.5::float8, 1.25::numeric, 42::numeric, 12345678901234567890::numeric,
		'NaN'::numeric, 'Infinity'::float8, true, false, NULL, '\xdead'::bytea, ''::bytea, '2024-01-02'::date, '2024-01-02 03:04:05'::timestamp,
		interval '1 day 2 hours', '{"a": 1}'::jsonb, ARRAY[1, 2], 'x'::text, '123e4567-e89b-12d3-a456-426614174000'::uuid, 'é'::varchar`)
	want := []engine.Value{int64(1), int64(2), int64(3), 1.5, 2.5, 1.25, int64(42), "12345678901234567890",
		"NaN", math.Inf(1), "true", "false", nil, []byte{0xde, 0xad}, []byte{}, "2024-01-02", "2024-01-02 03:04:05",
		"1 day 02:00:00", `{"a": 1}`, "{1,2}", "x", "123e4567-e89b-12d3-a456-426614174000", "é"}
	got := res.Rows[0]
	if len(got) != len(want) {
		t.Fatalf("%d values, want %d", len(got), len(want))
	}
	for i := range want {
		if fmt.Sprintf("%T %v", got[i], got[i]) != fmt.Sprintf("%T %v", want[i], want[i]) {
			t.Errorf("column %d (%s): %T %v, want %T %v", i+1, res.Columns[i].Type, got[i], got[i], want[i], want[i])
		}
	}
	b, err := engine.RowsJSON(res.Columns, res.Rows)
	if err != nil || !strings.Contains(string(b), `"bool":"true"`) && !strings.Contains(string(b), `"true"`) {
		t.Errorf("JSON: %s %v", b, err)
	}
}

func TestTimeout(t *testing.T) {
	db := openReader(t)
	for _, q := range []string{
		"SELECT count(*) FROM track a, track b, invoice_line c",
		"WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r",
	} {
		start := time.Now()
		_, err := db.Run(context.Background(), q, engine.RunOptions{Timeout: 300 * time.Millisecond})
		elapsed := time.Since(start)
		if e := engine.AsError(err); e == nil || e.Code != engine.CodeTimeout || !strings.Contains(e.Message, "ran past its 300ms timeout") {
			t.Errorf("%s: %v", q, err)
		}
		if elapsed > 2*time.Second {
			t.Errorf("%s: stopped after %s", q, elapsed)
		}
	}
	// The connection is still good (a server-side timeout leaves it clean).
	mustRun(t, db, "SELECT 1")
}

func TestCancel(t *testing.T) {
	db := openReader(t)
	chk := newChecker(t)
	mustRun(t, db, "SELECT 1")
	ctx, cancel := context.WithCancel(context.Background())
	var cancelledAt time.Time
	go func() {
		time.Sleep(300 * time.Millisecond)
		cancelledAt = time.Now()
		cancel()
	}()
	_, err := db.Run(ctx, "SELECT count(*) FROM track a, track b, invoice_line c", engine.RunOptions{Timeout: time.Minute})
	returned := time.Since(cancelledAt)
	if engine.ErrorCode(err) != engine.CodeCancelled {
		t.Fatalf("cancelled run: %v", err)
	}
	// A generous bound: the point is that the call returns instead of
	// waiting for its one-minute statement (measured: a few milliseconds).
	if returned > 2*time.Second {
		t.Errorf("the cancelled run returned %s after the cancel", returned)
	}
	t.Logf("returned %s after the cancel", returned)
	// The server stopped the statement: no session is still running it.
	for start := time.Now(); time.Since(start) < 3*time.Second && len(chk.sessions()) > 0; {
		time.Sleep(20 * time.Millisecond)
	}
	if s := chk.sessions(); len(s) > 0 {
		t.Errorf("still running after the cancel: %v", s)
	}
	// A new connection serves the next call.
	mustRun(t, db, "SELECT 1")
	// A context already done never reaches the server.
	_, err = db.Run(ctx, "SELECT 1", engine.RunOptions{})
	if engine.ErrorCode(err) != engine.CodeCancelled {
		t.Errorf("done context: %v", err)
	}
}

func TestMemoryCaps(t *testing.T) {
	s := server(t)
	db, err := Open(context.Background(), readerURL(s), Options{MaxRowBytes: 1 << 20, MaxResultBytes: 4 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		"SELECT repeat('x', 3000000)",
		"SELECT repeat('x', 600000), repeat('y', 600000)",
		"SELECT repeat('x', 100000) FROM generate_series(1, 100)",
		"SELECT repeat('x', 900000) || g FROM generate_series(1, 9) g",
	} {
		_, err := db.Run(context.Background(), q, engine.RunOptions{MaxRows: 1000})
		if e := engine.AsError(err); e == nil || e.Code != engine.CodeTooBig || !strings.Contains(e.Message, "larger than") && !strings.Contains(e.Message, "more than") {
			t.Errorf("%s: %v, want too_big", q, err)
		}
		// The next call works (on a new connection when the row was
		// refused while it was read).
		mustRun(t, db, "SELECT 1")
	}
}

func TestLockTimeout(t *testing.T) {
	s := server(t)
	db, err := Open(context.Background(), readerURL(s), Options{LockTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// Another session holds a lock that blocks readers.
	holder, err := pgconn.Connect(context.Background(), s.SocketURL("chinook"))
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close(context.Background())
	if _, err := holder.Exec(context.Background(), "BEGIN; LOCK TABLE genre IN ACCESS EXCLUSIVE MODE").ReadAll(); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = db.Run(context.Background(), "SELECT count(*) FROM genre", engine.RunOptions{Timeout: 10 * time.Second})
	if e := engine.AsError(err); e == nil || e.Code != engine.CodeTimeout || !strings.Contains(e.Message, "waited too long for a lock") {
		t.Errorf("blocked by a lock: %v", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("waited %s for the lock", d)
	}
	holder.Exec(context.Background(), "ROLLBACK").ReadAll()
	mustRun(t, db, "SELECT count(*) FROM genre")
}

func TestStream(t *testing.T) {
	db := openReader(t)
	ctx := context.Background()
	var cols []engine.Column
	var n int64
	var sum int64
	info, err := db.Stream(ctx, "SELECT id, channel, at FROM big_events ORDER BY id", engine.StreamOptions{},
		func(c []engine.Column) error { cols = c; return nil },
		func(r []engine.Value) error { n++; sum += r[0].(int64); return nil })
	if err != nil || n != 200000 || info.Rows != 200000 || info.Truncated || sum != 200000*200001/2 {
		t.Fatalf("stream: %v rows %d info %+v", err, n, info)
	}
	if len(cols) != 3 || cols[2].Type != "timestamp without time zone" {
		t.Errorf("columns %+v", cols)
	}
	// MaxRows stops early and says so.
	n = 0
	info, err = db.Stream(ctx, "SELECT * FROM big_events", engine.StreamOptions{MaxRows: 10},
		func([]engine.Column) error { return nil }, func([]engine.Value) error { n++; return nil })
	if err != nil || n != 10 || !info.Truncated {
		t.Fatalf("MaxRows: %v %d %+v", err, n, info)
	}
	// The caller's own error ends the stream and comes back as it is.
	boom := errors.New("disk full")
	n = 0
	_, err = db.Stream(ctx, "SELECT * FROM big_events", engine.StreamOptions{},
		func([]engine.Column) error { return nil }, func([]engine.Value) error {
			n++
			if n == 1000 {
				return boom
			}
			return nil
		})
	if !errors.Is(err, boom) {
		t.Fatalf("callback error: %v", err)
	}
	// The timeout covers the whole run.
	_, err = db.Stream(ctx, "SELECT a.track_id FROM track a, track b", engine.StreamOptions{Timeout: 300 * time.Millisecond},
		func([]engine.Column) error { return nil }, func([]engine.Value) error { time.Sleep(time.Millisecond); return nil })
	if engine.ErrorCode(err) != engine.CodeTimeout {
		t.Fatalf("stream timeout: %v", err)
	}
	// A refused statement never starts.
	_, err = db.Stream(ctx, "DELETE FROM album", engine.StreamOptions{}, nil, nil)
	if engine.ErrorCode(err) != engine.CodeRefused {
		t.Fatalf("stream of a DELETE: %v", err)
	}
	mustRun(t, db, "SELECT 1")
}

func TestRunConcurrent(t *testing.T) {
	db := openReader(t)
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for j := 0; j < 5; j++ {
				res, err := db.Run(context.Background(), fmt.Sprintf("SELECT %d + %d AS s", i, j), engine.RunOptions{})
				if err != nil {
					errs <- err
					return
				}
				if res.Rows[0][0] != int64(i+j) {
					errs <- fmt.Errorf("%d+%d = %v", i, j, res.Rows[0][0])
				}
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestValidate(t *testing.T) {
	db := openReader(t)
	ctx := context.Background()
	v, err := db.Validate(ctx, "  WITH top AS (SELECT customer_id, sum(total) AS spent FROM invoice GROUP BY 1) SELECT c.last_name, t.spent, lower(c.email) FROM top t JOIN customer c USING (customer_id) ; ")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(v.SQL, "WITH top") || strings.HasSuffix(v.SQL, ";") {
		t.Errorf("SQL %q", v.SQL)
	}
	if strings.Join(v.Tables, ",") != "invoice,customer" || strings.Join(v.Functions, ",") != "sum,lower" {
		t.Errorf("tables %v functions %v", v.Tables, v.Functions)
	}
	if strings.Join(v.ColumnsRead, ",") != "invoice.total,customer.last_name,customer.email" {
		t.Errorf("columns read %v", v.ColumnsRead)
	}
	if len(v.Columns) != 3 || v.Columns[1].Type != "numeric" {
		t.Errorf("columns %+v", v.Columns)
	}
	cases := []struct{ sql, code, msg, hint string }{
		{"SELECT * FROM albums", engine.CodeUnknownTable, "no such table: albums", "did you mean album?"},
		{"SELECT * FROM region", engine.CodeUnknownTable, "no such table: region", "did you mean sales.region?"},
		{"SELECT InvoiceDate FROM invoice", engine.CodeUnknownColumn, "no such column: invoicedate", "did you mean invoice_date?"},
		{"SELECT i.totl FROM invoice i JOIN customer c USING (customer_id)", engine.CodeUnknownColumn, "no such column: i.totl", "did you mean total?"},
		{"SELECT milliseconds FROM album", engine.CodeUnknownColumn, "no such column: milliseconds", "track.milliseconds is in a table this query does not read yet; join it."},
		{"SELECT round(avg(milliseconds)::float8, 1) FROM track", engine.CodeSyntax, "no form of round() takes (double precision, integer)", "round(x::numeric, 2)"},
		{"SELECT strftime('%Y', invoice_date) FROM invoice", engine.CodeSyntax, "no such function: strftime()", "to_char"},
		{"SELECT querent_evil()", engine.CodeRefused, "the function querent_evil() is not allowed", "built-in functions"},
		{"SELECT name FROM artist JOIN genre USING (name)", "", "", ""},
		{"SELECT name, count(*) FROM genre", engine.CodeSyntax, "must appear in the GROUP BY clause", "add genre.name to GROUP BY"},
		{"SELECT * FROM track WHERE name = \"Balls to the Wall\"", engine.CodeUnknownColumn, `no such column: Balls to the Wall`, "text goes in single quotes"},
		{"SELECT 'a'::int", engine.CodeSyntax, "invalid input syntax for type integer", ""},
	}
	for _, c := range cases {
		_, err := db.Validate(ctx, c.sql)
		if c.code == "" {
			if err != nil {
				t.Errorf("%s: %v", c.sql, err)
			}
			continue
		}
		e := engine.AsError(err)
		if e == nil || e.Code != c.code || !strings.Contains(e.Message, c.msg) || !strings.Contains(e.Hint, c.hint) {
			t.Errorf("%s: %v, want %s %q (hint %q)", c.sql, err, c.code, c.msg, c.hint)
			continue
		}
		if e.Position < 0 && c.code != engine.CodeRefused {
			t.Errorf("%s: no position", c.sql)
		}
	}
	// Privileges are checked when a statement runs, not when it is parsed.
	_, err = db.Run(ctx, "SELECT * FROM payroll", engine.RunOptions{})
	if e := engine.AsError(err); e == nil || e.Code != engine.CodeRefused || !strings.Contains(e.Message, "permission denied for table payroll") {
		t.Errorf("payroll: %v", err)
	}
	// A position points into the query as written, after the wrapper is
	// taken away (Run) and with multibyte text before it.
	_, err = db.Run(ctx, "SELECT 'é', totl FROM invoice", engine.RunOptions{})
	if e := engine.AsError(err); e == nil || e.Position < 0 || !strings.HasPrefix("SELECT 'é', totl FROM invoice"[e.Position:], "totl") {
		t.Errorf("position after the wrapper: %v", err)
	}
}
