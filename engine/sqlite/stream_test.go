package sqlite

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"querent/engine"
)

func TestStream(t *testing.T) {
	db := openT(t, copyChinook(t), Options{})
	ctx := context.Background()
	var cols []engine.Column
	var got [][]engine.Value
	info, err := db.Stream(ctx, "SELECT TrackId, Name, Milliseconds / 1000.0 AS secs, NULL AS missing, InvoiceDate FROM Track JOIN InvoiceLine USING (TrackId) JOIN Invoice USING (InvoiceId) ORDER BY InvoiceLineId",
		engine.StreamOptions{}, func(c []engine.Column) error { cols = c; return nil },
		func(r []engine.Value) error { got = append(got, append([]engine.Value(nil), r...)); return nil })
	if err != nil {
		t.Fatal(err)
	}
	if info.Rows != 2240 || int64(len(got)) != info.Rows || info.Truncated {
		t.Fatalf("rows %d (%d received), truncated %v", info.Rows, len(got), info.Truncated)
	}
	var types []string
	for _, c := range cols {
		types = append(types, c.Name+":"+c.Type)
	}
	if strings.Join(types, " ") != "TrackId:INTEGER Name:NVARCHAR(200) secs:REAL missing:NULL InvoiceDate:DATETIME" {
		t.Errorf("columns %v", types)
	}
	if got[0][4] != "2009-01-01 00:00:00" || got[0][0] != int64(2) {
		t.Errorf("first row %v", got[0])
	}
	if strings.Contains(info.ExecutedSQL, "LIMIT") || !strings.Contains(info.ExecutedSQL, "NOT MATERIALIZED") {
		t.Errorf("executed %s", info.ExecutedSQL)
	}
	// A row limit.
	got = nil
	info, err = db.Stream(ctx, "SELECT TrackId FROM Track", engine.StreamOptions{MaxRows: 10}, func([]engine.Column) error { return nil },
		func(r []engine.Value) error { got = append(got, append([]engine.Value(nil), r...)); return nil })
	if err != nil || info.Rows != 10 || len(got) != 10 || !info.Truncated {
		t.Errorf("limit: %v, %d rows, truncated %v", err, info.Rows, info.Truncated)
	}
	// The guard holds.
	if _, err := db.Stream(ctx, "DELETE FROM Track", engine.StreamOptions{}, func([]engine.Column) error { return nil }, func([]engine.Value) error { return nil }); engine.ErrorCode(err) != engine.CodeRefused {
		t.Errorf("delete: %v", err)
	}
	// The callback's error stops the run and comes back.
	boom := errors.New("disk full")
	if _, err := db.Stream(ctx, "SELECT * FROM Track", engine.StreamOptions{}, func([]engine.Column) error { return nil }, func([]engine.Value) error { return boom }); !errors.Is(err, boom) {
		t.Errorf("callback error: %v", err)
	}
	// An empty result still gives its columns.
	cols = nil
	info, err = db.Stream(ctx, "SELECT Name FROM Artist WHERE 0", engine.StreamOptions{}, func(c []engine.Column) error { cols = c; return nil }, func([]engine.Value) error { return nil })
	if err != nil || info.Rows != 0 || len(cols) != 1 {
		t.Errorf("empty: %v %d %v", err, info.Rows, cols)
	}
}

// TestStreamTimeoutBetweenRows: a row that takes long after the first one
// is stopped by the timeout (the driver only watches the first step, and
// database/sql only stops between rows).
func TestStreamTimeoutBetweenRows(t *testing.T) {
	db := openT(t, copyChinook(t), Options{})
	secondSlow := "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r WHERE x < 3) SELECT x, CASE WHEN x >= 2 THEN (SELECT count(*) FROM Track a, Track b, Track c) END FROM r"
	start := time.Now()
	rows := 0
	_, err := db.Stream(context.Background(), secondSlow, engine.StreamOptions{Timeout: 300 * time.Millisecond}, func([]engine.Column) error { return nil },
		func([]engine.Value) error { rows++; return nil })
	if engine.ErrorCode(err) != engine.CodeTimeout || rows > 1 {
		t.Fatalf("got %v after %d rows, want a timeout (the first row may wait in the look-ahead)", err, rows)
	}
	if over := time.Since(start) - 300*time.Millisecond; over > time.Second {
		t.Errorf("ran %s past its timeout", over)
	}
	// Many quick rows: stopped between rows.
	slow := "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT x, (SELECT count(*) FROM Track a, Genre WHERE a.Milliseconds > x) FROM r"
	start = time.Now()
	rows = 0
	_, err = db.Stream(context.Background(), slow, engine.StreamOptions{Timeout: 300 * time.Millisecond}, func([]engine.Column) error { return nil },
		func([]engine.Value) error { rows++; return nil })
	if engine.ErrorCode(err) != engine.CodeTimeout {
		t.Fatalf("got %v after %d rows, want a timeout", err, rows)
	}
	if over := time.Since(start) - 300*time.Millisecond; over > time.Second {
		t.Errorf("ran %s past its timeout", over)
	}
	if rows == 0 {
		t.Error("no row came before the timeout: the test does not test what it says")
	}
	// The connection is fine afterwards, and no late interrupt hits the next query.
	if _, err := db.Run(context.Background(), "SELECT count(*) FROM Track", engine.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	// Cancelling the context from the row callback stops it too.
	ctx, cancel := context.WithCancel(context.Background())
	rows = 0
	_, err = db.Stream(ctx, slow, engine.StreamOptions{}, func([]engine.Column) error { return nil },
		func([]engine.Value) error {
			if rows++; rows == 300 {
				cancel()
			}
			return nil
		})
	if engine.ErrorCode(err) != engine.CodeCancelled {
		t.Fatalf("got %v, want cancelled", err)
	}
}
