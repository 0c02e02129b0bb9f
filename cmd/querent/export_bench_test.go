package main

import (
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	_ "querent/engine/sqlite" // the modernc driver
)

// benchTable builds a SQLite file with rows × 12 mixed columns.
func benchTable(t *testing.T, dir string, rows int) string {
	path := filepath.Join(dir, "export-bench.db")
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path)}
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range []string{"PRAGMA journal_mode = OFF", "PRAGMA synchronous = OFF",
		`CREATE TABLE t (id INTEGER, customer TEXT, amount REAL, day DATE, qty INTEGER, created DATETIME, active INTEGER,
		  discount REAL, city TEXT, price REAL, note TEXT, score REAL)`,
		fmt.Sprintf(`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < %d)
		 INSERT INTO t SELECT n, 'customer ' || (n %% 1000), (n %% 5000) + (n %% 100) / 100.0, date('2024-01-01', '+' || (n %% 365) || ' days'),
		   n %% 50, datetime('2024-01-01', '+' || n || ' minutes'), n %% 2, (n %% 40) / 100.0, 'city ' || (n %% 30),
		   (n %% 300) + 0.5, 'note ' || (n * 7 %% 1000), (n %% 1000) / 7.0 FROM r`, rows)} {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// bareStreamWriter writes the same rows with excelize's StreamWriter alone:
// read from SQLite, SetRow, save. The floor an export is compared with.
func bareStreamWriter(t *testing.T, dbPath, out string) time.Duration {
	start := time.Now()
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(dbPath), RawQuery: "mode=ro"}
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query("SELECT * FROM t")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	f := excelize.NewFile()
	defer f.Close()
	sw, err := f.NewStreamWriter("Sheet1")
	if err != nil {
		t.Fatal(err)
	}
	cols, _ := rows.Columns()
	header := make([]any, len(cols))
	for i, c := range cols {
		header[i] = c
	}
	sw.SetRow("A1", header)
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	r := 2
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		cell, _ := excelize.CoordinatesToCellName(1, r)
		row := make([]any, len(vals))
		copy(row, vals)
		if err := sw.SetRow(cell, row); err != nil {
			t.Fatal(err)
		}
		r++
	}
	if err := sw.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.SaveAs(out); err != nil {
		t.Fatal(err)
	}
	return time.Since(start)
}

// TestExportBenchReport measures exports of 1,000,000 rows × 12 mixed
// columns to XLSX and CSV (make bench) beside a bare StreamWriter loop.
func TestExportBenchReport(t *testing.T) {
	if os.Getenv("QUERENT_BENCH") == "" {
		t.Skip("set QUERENT_BENCH=1 (make bench) to measure")
	}
	exe := build(t)
	dir := t.TempDir()
	const rows = 1_000_000
	dbPath := benchTable(t, dir, rows)
	var out strings.Builder
	line := func(format string, args ...any) {
		s := fmt.Sprintf(format, args...)
		out.WriteString(s + "\n")
		fmt.Println(s)
	}
	line("EXPORT BENCHMARKS: %d rows × 12 mixed columns", rows)
	bare := bareStreamWriter(t, dbPath, filepath.Join(dir, "bare.xlsx"))
	xTime, xRSS := timeWithRSS(t, exe, "export", "--db", dbPath, "--sql", "SELECT * FROM t", "--out", filepath.Join(dir, "q.xlsx"))
	line("XLSX: querent export %s (%.0f rows/s, peak memory %s); bare excelize StreamWriter loop %s (%.0f rows/s); querent/bare time %.2f (goals: <= 1.2, < 350 MB)",
		xTime.Round(time.Millisecond), rows/xTime.Seconds(), human(xRSS), bare.Round(time.Millisecond), rows/bare.Seconds(), ratio(xTime, bare))
	cTime, cRSS := timeWithRSS(t, exe, "export", "--db", dbPath, "--sql", "SELECT * FROM t", "--out", filepath.Join(dir, "q.csv"))
	line("CSV: querent export %s (%.0f rows/s, peak memory %s) (goal: >= 500,000 rows/s)", cTime.Round(time.Millisecond), rows/cTime.Seconds(), human(cRSS))
	if d := os.Getenv("QUERENT_REPORT_DIR"); d != "" {
		os.MkdirAll(d, 0o755)
		os.WriteFile(filepath.Join(d, "bench-export.txt"), []byte(out.String()), 0o644)
	}
}
