package sqlite

import (
	"context"
	"errors"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"querent/engine"
)

func typedFixture(t *testing.T) string {
	return makeDB(t, t.TempDir(), "typed.db",
		"CREATE TABLE v(i INTEGER, r REAL, t TEXT, b BLOB, d DATE, dt DATETIME, ts TIMESTAMP, n NUMERIC, any_)",
		`INSERT INTO v VALUES (9007199254740993, 0.1, 'naïve ☃ 日本', x'00ff10', '2024-02-30', '2009-01-01 00:00:00', '2024-05-06T07:08:09.123+02:00', 12.50, NULL)`,
		`INSERT INTO v VALUES (-1, -0.0, '', x'', 1700000000, 'not a date', '', '007', 'text')`,
		`INSERT INTO v VALUES (NULL, 1e308, 'NULL', NULL, NULL, NULL, NULL, NULL, 3.5)`)
}

func TestRunTypedValues(t *testing.T) {
	db := openT(t, typedFixture(t), Options{})
	res, err := db.Run(context.Background(), "SELECT * FROM v ORDER BY rowid", engine.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]engine.Value{
		{int64(9007199254740993), 0.1, "naïve ☃ 日本", []byte{0, 0xff, 0x10}, "2024-02-30", "2009-01-01 00:00:00", "2024-05-06T07:08:09.123+02:00", 12.5, nil},
		{int64(-1), 0.0, "", []byte{}, int64(1700000000), "not a date", "", int64(7), "text"},
		{nil, 1e308, "NULL", nil, nil, nil, nil, nil, 3.5},
	}
	if !reflect.DeepEqual(res.Rows, want) {
		t.Errorf("rows\n%#v\nwant\n%#v", res.Rows, want)
	}
	var types []string
	for _, c := range res.Columns {
		types = append(types, c.Type)
	}
	if wantT := []string{"INTEGER", "REAL", "TEXT", "BLOB", "DATE", "DATETIME", "TIMESTAMP", "NUMERIC", "TEXT"}; !reflect.DeepEqual(types, wantT) {
		t.Errorf("types %v, want %v (declared, else the first value's storage class)", types, wantT)
	}
	js, err := engine.RowsJSON(res.Columns, res.Rows[:1])
	if err != nil {
		t.Fatal(err)
	}
	wantJS := `[{"i":9007199254740993,"r":0.1,"t":"naïve ☃ 日本","b":"AP8Q","d":"2024-02-30","dt":"2009-01-01 00:00:00","ts":"2024-05-06T07:08:09.123+02:00","n":12.5,"any_":null}]`
	if string(js) != wantJS {
		t.Errorf("JSON\n%s\nwant\n%s", js, wantJS)
	}
}

func TestRunRowCapAndOrder(t *testing.T) {
	db := openT(t, copyChinook(t), Options{})
	ctx := context.Background()
	for _, tt := range []struct {
		cap       int
		rows      int
		truncated bool
	}{{10, 10, true}, {3502, 3502, true}, {3503, 3503, false}, {5000, 3503, false}} {
		res, err := db.Run(ctx, "SELECT TrackId FROM Track ORDER BY TrackId DESC", engine.RunOptions{MaxRows: tt.cap})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Rows) != tt.rows || res.Truncated != tt.truncated {
			t.Errorf("cap %d: %d rows, truncated %v; want %d, %v", tt.cap, len(res.Rows), res.Truncated, tt.rows, tt.truncated)
		}
		for i, r := range res.Rows {
			if r[0] != int64(3503-i) {
				t.Fatalf("cap %d: row %d is %v: the wrapper lost the ORDER BY", tt.cap, i, r[0])
			}
		}
		if !strings.Contains(res.ExecutedSQL, "MATERIALIZED") || !strings.Contains(res.ExecutedSQL, "LIMIT "+itoa(tt.cap+1)) {
			t.Errorf("executed SQL lacks the wrapper or its limit: %s", res.ExecutedSQL)
		}
		if res.Query != "SELECT TrackId FROM Track ORDER BY TrackId DESC" {
			t.Errorf("query %q", res.Query)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestRunTimeoutAndCancel(t *testing.T) {
	db := openT(t, copyChinook(t), Options{})
	endless := "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT count(*) FROM r"
	start := time.Now()
	_, err := db.Run(context.Background(), endless, engine.RunOptions{Timeout: 200 * time.Millisecond})
	e := engine.AsError(err)
	if e == nil || e.Code != engine.CodeTimeout || !strings.Contains(e.Message, "200ms timeout") || !strings.Contains(e.Hint, "--timeout") {
		t.Fatalf("got %v, want a timeout error naming the limit", err)
	}
	if over := time.Since(start) - 200*time.Millisecond; over > time.Second {
		t.Errorf("ran %s past the timeout", over)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start = time.Now()
	_, err = db.Run(ctx, endless, engine.RunOptions{Timeout: time.Minute})
	if engine.ErrorCode(err) != engine.CodeCancelled || !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want cancelled", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("cancel took %s", d)
	}
	// A call waiting for the connection stops when its context ends.
	done := make(chan error, 1)
	go func() {
		_, err := db.Run(context.Background(), endless, engine.RunOptions{Timeout: 2 * time.Second})
		done <- err
	}()
	time.Sleep(50 * time.Millisecond)
	wctx, wcancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer wcancel()
	if _, err := db.Run(wctx, "SELECT 1", engine.RunOptions{}); err == nil {
		t.Error("a waiting call did not stop at its deadline")
	}
	<-done
	// The connection is usable after all that.
	if _, err := db.Run(context.Background(), "SELECT 1", engine.RunOptions{}); err != nil {
		t.Fatal(err)
	}
}

func TestRunResultTooBig(t *testing.T) {
	db := openT(t, copyChinook(t), Options{MaxResultBytes: 1 << 20})
	_, err := db.Run(context.Background(), "SELECT randomblob(100000) FROM Track", engine.RunOptions{})
	e := engine.AsError(err)
	if e == nil || e.Code != engine.CodeTooBig || !strings.Contains(e.Hint, "substr") {
		t.Fatalf("got %v, want too_big", err)
	}
}

func TestRunConcurrent(t *testing.T) {
	db := openT(t, copyChinook(t), Options{})
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			_, err := db.Run(context.Background(), "SELECT count(*) FROM Track WHERE AlbumId > ?1", engine.RunOptions{})
			if err == nil {
				errs <- errors.New("a parameter was accepted")
				return
			}
			res, err := db.Run(context.Background(), "SELECT count(*) FROM Track", engine.RunOptions{})
			if err != nil || res.Rows[0][0] != int64(3503) {
				errs <- err
			}
			if _, err := db.Schema(context.Background()); err != nil {
				errs <- err
			}
			if _, err := db.Explain(context.Background(), "SELECT * FROM Track"); err != nil {
				errs <- err
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestRunRowCapCeiling: a cap past engine.MaxRowsInMemory (math.MaxInt
// included, whose cap+1 would overflow into a negative LIMIT, that is, no
// limit) is lowered to the ceiling.
func TestRunRowCapCeiling(t *testing.T) {
	db := openT(t, copyChinook(t), Options{})
	for _, cap := range []int{engine.MaxRowsInMemory + 1, math.MaxInt} {
		res, err := db.Run(context.Background(), "SELECT TrackId FROM Track", engine.RunOptions{MaxRows: cap})
		if err != nil {
			t.Fatal(err)
		}
		if want := "LIMIT " + itoa(engine.MaxRowsInMemory+1); !strings.Contains(res.ExecutedSQL, want) || len(res.Rows) != 3503 {
			t.Errorf("cap %d: %d rows, executed %s; want %q", cap, len(res.Rows), res.ExecutedSQL, want)
		}
	}
}
