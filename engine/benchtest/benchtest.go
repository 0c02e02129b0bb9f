// Package benchtest holds what the benchmark reports share: the bare
// modernc driver as the reference, and timing helpers. It imports no
// package of Querent's, so any package's tests may use it.
package benchtest

import (
	"database/sql"
	"net/url"
	"path/filepath"
	"sort"
	"testing"
	"time"

	_ "modernc.org/sqlite" // the bare driver
)

// BareDB opens path read-only on a plain modernc connection: no guard.
func BareDB(t testing.TB, path string) *sql.DB {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path), RawQuery: "mode=ro"}
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	return db
}

// BareRun runs a query on a plain connection and reads every row.
func BareRun(t testing.TB, db *sql.DB, q string) int {
	rows, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	n := 0
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		n++
	}
	return n
}

// TimeIt returns the median wall time of f over n runs.
func TimeIt(n int, f func()) time.Duration {
	ds := make([]time.Duration, n)
	for i := range ds {
		start := time.Now()
		f()
		ds[i] = time.Since(start)
	}
	return Median(ds)
}

// Median is the middle of ds (the upper one of an even count).
func Median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

// Ratio is a / b, 0 when b is 0.
func Ratio(a, b time.Duration) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}
