package export_test

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"querent/engine"
	"querent/engine/export"
	"querent/engine/sqlite"
)

// genQuery reads the generated table.
const genQuery = "SELECT * FROM g"

// genDB builds a table of n rows × 12 mixed-type columns: integers,
// floats, short and longer text, dates, date-times, NULLs.
func genDB(t testing.TB, n int) *sqlite.DB {
	t.Helper()
	return makeDB(t,
		stmt{sql: `CREATE TABLE g(id INTEGER PRIMARY KEY, qty INTEGER, price REAL, ratio REAL, name TEXT, city TEXT,
			note TEXT, day DATE, ts DATETIME, flag INTEGER, code TEXT, maybe INTEGER)`},
		stmt{sql: fmt.Sprintf(`WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r WHERE x < %d)
			INSERT INTO g SELECT x, x %% 97, round(x * 1.37 %% 1000, 2), x / 7.0, 'name ' || x,
			  CASE x %% 5 WHEN 0 THEN 'Paris' WHEN 1 THEN 'Oslo' WHEN 2 THEN 'Lyon' WHEN 3 THEN 'Kraków' ELSE 'São Paulo' END,
			  'a longer note about row ' || x || ' with some words in it',
			  date('2000-01-01', '+' || (x %% 9000) || ' days'),
			  datetime('2020-01-01 00:00:00', '+' || (x * 37) || ' seconds'),
			  x %% 2, printf('C-%%06d', x), CASE WHEN x %% 3 = 0 THEN NULL ELSE x END
			FROM r`, n)})
}

const benchRows = 100_000

func benchExport(b *testing.B, format string) {
	db := genDB(b, benchRows)
	dir := b.TempDir()
	out := filepath.Join(dir, "bench."+format)
	b.ResetTimer()
	for b.Loop() {
		rep, err := export.Export(context.Background(), db, genQuery, out, export.Options{Force: true})
		if err != nil {
			b.Fatal(err)
		}
		if rep.Rows != benchRows {
			b.Fatalf("rows %d", rep.Rows)
		}
	}
	b.ReportMetric(float64(benchRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	if st, err := os.Stat(out); err == nil {
		b.ReportMetric(float64(st.Size())/1e6, "MB")
	}
}

// BenchmarkExportXLSX: the whole export, statistics and all.
func BenchmarkExportXLSX(b *testing.B) { benchExport(b, "xlsx") }

// BenchmarkExportCSV: the whole export.
func BenchmarkExportCSV(b *testing.B) { benchExport(b, "csv") }

// BenchmarkStreamOnly is the floor of both: reading the rows.
func BenchmarkStreamOnly(b *testing.B) {
	db := genDB(b, benchRows)
	b.ResetTimer()
	for b.Loop() {
		if _, err := db.Stream(context.Background(), genQuery, engine.StreamOptions{},
			func([]engine.Column) error { return nil }, func([]engine.Value) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(benchRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkBareStreamWriter writes the same rows, already in memory, with
// excelize's StreamWriter alone: the floor of the XLSX export.
func BenchmarkBareStreamWriter(b *testing.B) {
	db := genDB(b, benchRows)
	cols, rows := queryAll(b, db, genQuery)
	out := filepath.Join(b.TempDir(), "bare.xlsx")
	b.ResetTimer()
	for b.Loop() {
		f := excelize.NewFile()
		sw, err := f.NewStreamWriter("Sheet1")
		if err != nil {
			b.Fatal(err)
		}
		hdr := make([]any, len(cols))
		for j, c := range cols {
			hdr[j] = c.Name
		}
		if err := sw.SetRow("A1", hdr); err != nil {
			b.Fatal(err)
		}
		cell := make([]any, len(cols))
		for i, r := range rows {
			copy(cell, r)
			if err := sw.SetRow("A"+strconv.Itoa(i+2), cell); err != nil {
				b.Fatal(err)
			}
		}
		if err := sw.Flush(); err != nil {
			b.Fatal(err)
		}
		if err := f.SaveAs(out); err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
	b.ReportMetric(float64(benchRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkCSVWriterOnly measures the CSV writer without the database: an
// in-memory fake that replays the rows.
func BenchmarkCSVWriterOnly(b *testing.B) {
	db := genDB(b, benchRows)
	cols, rows := queryAll(b, db, genQuery)
	fake := &replayDB{Database: db, cols: cols, rows: rows}
	out := filepath.Join(b.TempDir(), "w.csv")
	b.ResetTimer()
	for b.Loop() {
		if _, err := export.Export(context.Background(), fake, genQuery, out, export.Options{Force: true}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(benchRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// replayDB streams rows held in memory.
type replayDB struct {
	engine.Database
	cols []engine.Column
	rows [][]engine.Value
}

func (r *replayDB) Stream(ctx context.Context, sql string, opts engine.StreamOptions, columns func([]engine.Column) error, row func([]engine.Value) error) (*engine.StreamInfo, error) {
	if err := columns(r.cols); err != nil {
		return nil, err
	}
	for _, v := range r.rows {
		if err := row(v); err != nil {
			return nil, err
		}
	}
	return &engine.StreamInfo{Query: sql, ExecutedSQL: sql, Columns: r.cols, Rows: int64(len(r.rows))}, nil
}

// TestExportMillionRows checks the design's memory bound: 1,000,000 rows ×
// 12 columns to XLSX under 350 MB. It takes a minute: set
// QUERENT_EXPORT_MILLION=1 to run it (alone, so that the peak is its own).
func TestExportMillionRows(t *testing.T) {
	if os.Getenv("QUERENT_EXPORT_MILLION") == "" {
		t.Skip("set QUERENT_EXPORT_MILLION=1 to export 1,000,000 rows and measure the memory")
	}
	const n = 1_000_000
	start := time.Now()
	db := genDB(t, n)
	t.Logf("generated %d rows in %s", n, time.Since(start).Round(time.Millisecond))
	runtime.GC()
	base := peakRSS(t)
	for _, format := range []string{"csv", "xlsx"} {
		out := filepath.Join(t.TempDir(), "m."+format)
		start = time.Now()
		rep, err := export.Export(context.Background(), db, genQuery, out, export.Options{})
		if err != nil {
			t.Fatal(err)
		}
		el := time.Since(start)
		st, _ := os.Stat(out)
		peak := peakRSS(t)
		t.Logf("%s: %d rows in %s (%.0f rows/s), %.1f MB file, peak RSS %.0f MB (%.0f MB before)",
			format, rep.Rows, el.Round(time.Millisecond), float64(rep.Rows)/el.Seconds(), float64(st.Size())/1e6, peak, base)
		if peak > 350 {
			t.Errorf("%s: peak RSS %.0f MB, want under 350 MB", format, peak)
		}
		if rep.Rows != n {
			t.Errorf("rows %d", rep.Rows)
		}
	}
}

// peakRSS is the process's peak resident set size in MB (Linux), or NaN.
func peakRSS(t testing.TB) float64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return math.NaN()
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 64)
			return kb / 1024
		}
	}
	return math.NaN()
}
