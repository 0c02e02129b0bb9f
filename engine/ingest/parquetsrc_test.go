package ingest

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"querent/engine"
)

// pqAddress is a nested struct: kept as JSON text.
type pqAddress struct {
	City string `parquet:"city"`
	Zip  *int32 `parquet:"zip,optional"`
}

// pqRecord has a field of every type a Parquet import reads. The date is
// an INT32 of days, as writers store it (parquet-go v0.32.0 writes a
// time.Time tagged date wrongly, as a truncated count of nanoseconds).
type pqRecord struct {
	ID      int64      `parquet:"id"`
	Small   int32      `parquet:"small"`
	Count   uint32     `parquet:"count"`
	Score   float64    `parquet:"score"`
	Ratio   float32    `parquet:"ratio"`
	Price   int64      `parquet:"price,decimal(2:18)"`
	Name    *string    `parquet:"name,optional"`
	Raw     []byte     `parquet:"raw"`
	Active  bool       `parquet:"active"`
	Day     int32      `parquet:"day,date"`
	At      int64      `parquet:"at,timestamp(millisecond)"`
	AtMicro int64      `parquet:"at_micro,timestamp(microsecond)"`
	Tags    []string   `parquet:"tags,list"`
	Address *pqAddress `parquet:"address,optional"`
	Note    *string    `parquet:"note,optional"`
}

// writeParquet writes recs into dir/name in row groups of perGroup rows.
func writeParquet[T any](t testing.TB, dir, name string, recs []T, perGroup int) string {
	t.Helper()
	p := filepath.Join(dir, name)
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[T](f)
	for i := 0; i < len(recs); i += perGroup {
		if _, err := w.Write(recs[i:min(i+perGroup, len(recs))]); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil { // ends the row group
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}

func pqRecords(n int) []pqRecord {
	day := int32(time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC).Unix() / 86400)
	at := time.Date(2024, 3, 1, 9, 30, 15, 0, time.UTC)
	out := make([]pqRecord, n)
	for i := range out {
		name := "Customer " + string(rune('A'+i%26))
		zip := int32(75000 + i)
		r := pqRecord{ID: int64(i + 1), Small: int32(-i), Count: uint32(4_000_000_000 + i), Score: float64(i) + 0.5, Ratio: 0.25,
			Price: int64(1999 + i), Name: &name, Raw: []byte{0xff, 0x00, byte(i)}, Active: i%2 == 0,
			Day: day + int32(i), At: at.Add(time.Duration(i) * time.Hour).UnixMilli(), AtMicro: at.UnixMicro() + 7,
			Tags: []string{"t", name}, Address: &pqAddress{City: "Paris", Zip: &zip}}
		if i%5 == 4 {
			r.Name, r.Address, r.Tags = nil, nil, nil
		}
		out[i] = r
	}
	return out
}

func TestParquetEveryType(t *testing.T) {
	dir := t.TempDir()
	path := writeParquet(t, dir, "customers.parquet", pqRecords(30), 20) // two row groups
	tb, rows := readTable(t, path, Options{})
	if tb.Name != "customers" || len(rows) != 30 {
		t.Fatalf("table %q with %d rows, want customers with 30", tb.Name, len(rows))
	}
	var names []string
	for _, c := range tb.Columns {
		names = append(names, c.Name+":"+c.Type)
	}
	want := "id:INTEGER small:INTEGER count:INTEGER score:REAL ratio:REAL price:REAL name:TEXT raw:TEXT active:BOOLEAN day:DATE at:DATETIME at_micro:TEXT tags:TEXT address:TEXT"
	if got := strings.Join(names, " "); got != want { // note, null everywhere, is left out as every empty column
		t.Fatalf("columns\n %s\nwant\n %s", got, want)
	}
	get := func(row int, col string) any {
		j, _ := column(t, tb, col)
		return rows[row][j]
	}
	checks := []struct {
		row  int
		col  string
		want any
	}{
		{2, "id", int64(3)}, {2, "small", int64(-2)}, {2, "count", int64(4_000_000_002)},
		{2, "score", 2.5}, {2, "ratio", 0.25}, {2, "price", 20.01},
		{2, "name", "Customer C"}, {2, "raw", "ff0002"}, {2, "active", int64(1)}, {3, "active", int64(0)},
		{2, "day", "2024-03-03"}, {2, "at", "2024-03-01 11:30:15"}, {25, "at_micro", "2024-03-01 09:30:15.000007"},
		{2, "tags", `["t","Customer C"]`}, {2, "address", `{"city":"Paris","zip":75002}`},
		{4, "name", nil}, {4, "address", nil}, {24, "id", int64(25)}, {24, "tags", "[]"}, // a required list: the writer stores nil as empty
		{29, "id", int64(30)}, {29, "day", "2024-03-30"},
	}
	for _, c := range checks {
		if got := get(c.row, c.col); got != c.want {
			t.Errorf("row %d %s = %#v, want %#v", c.row+1, c.col, got, c.want)
		}
	}
}

func TestParquetTruncatedRefused(t *testing.T) {
	dir := t.TempDir()
	path := writeParquet(t, dir, "cut.parquet", pqRecords(30), 20)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b[:len(b)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	e := readError(t, path, Options{})
	wantImportError(t, e, "cut.parquet", "not a readable Parquet file", "nothing was imported")
}

// BenchmarkReadParquet reads a Parquet file of 100,000 rows: both passes,
// every row converted.
func BenchmarkReadParquet(b *testing.B) {
	path := writeParquet(b, b.TempDir(), "big.parquet", pqRecords(100_000), 25_000)
	b.ResetTimer()
	for b.Loop() {
		tables, err := Read(b.Context(), path, Options{})
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		if err := tables[0].Rows(b.Context(), func([]engine.Value) error { n++; return nil }); err != nil {
			b.Fatal(err)
		}
		if n != 100_000 {
			b.Fatalf("%d rows", n)
		}
	}
	b.ReportMetric(float64(100_000*b.N)/b.Elapsed().Seconds(), "rows/s")
}

// pqFlat has twelve plain columns, no list or group.
type pqFlat struct {
	ID     int64   `parquet:"id"`
	Name   string  `parquet:"name"`
	Amount float64 `parquet:"amount"`
	Price  int64   `parquet:"price,decimal(2:18)"`
	Day    int32   `parquet:"day,date"`
	At     int64   `parquet:"at,timestamp(millisecond)"`
	OK     bool    `parquet:"ok"`
	City   string  `parquet:"city"`
	Qty    int32   `parquet:"qty"`
	Code   *string `parquet:"code,optional"`
	Ratio  float32 `parquet:"ratio"`
	Region string  `parquet:"region"`
}

// BenchmarkReadParquetFlat reads 100,000 rows of twelve plain columns.
func BenchmarkReadParquetFlat(b *testing.B) {
	recs := make([]pqFlat, 100_000)
	for i := range recs {
		code := "c" + strconv.Itoa(i%97)
		recs[i] = pqFlat{ID: int64(i), Name: "n" + strconv.Itoa(i), Amount: float64(i%1000) + 0.5, Price: int64(i % 5000),
			Day: int32(19000 + i%365), At: int64(i) * 1000, OK: i%3 == 0, City: "c" + strconv.Itoa(i%50), Qty: int32(i % 9),
			Code: &code, Ratio: 0.5, Region: "r" + strconv.Itoa(i%4)}
		if i%10 == 0 {
			recs[i].Code = nil
		}
	}
	path := writeParquet(b, b.TempDir(), "flat.parquet", recs, 25_000)
	b.ResetTimer()
	for b.Loop() {
		tables, err := Read(b.Context(), path, Options{})
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		if err := tables[0].Rows(b.Context(), func([]engine.Value) error { n++; return nil }); err != nil {
			b.Fatal(err)
		}
		if n != 100_000 {
			b.Fatalf("%d rows", n)
		}
	}
	b.ReportMetric(float64(100_000*b.N)/b.Elapsed().Seconds(), "rows/s")
}

// A preview of a large file reads its start; the footer's count of rows is
// exact.
func TestParquetSampledPreview(t *testing.T) {
	path := writeParquet(t, t.TempDir(), "many.parquet", pqRecords(500), 100)
	srcs, err := ReadSources(t.Context(), path, Options{SampleBytes: 1})
	if err != nil {
		t.Fatal(err)
	}
	s := srcs[0]
	if !s.Sampled || s.Rows != 500 || s.SampleRows != 50 || s.SHA256 != "" {
		t.Errorf("sampled %v, rows %d, sample rows %d, sha %q; want a sample of 50 of 500 rows", s.Sampled, s.Rows, s.SampleRows, s.SHA256)
	}
	srcs, err = ReadSources(t.Context(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s := srcs[0]; s.Sampled || s.Rows != 500 || len(s.SHA256) != 64 {
		t.Errorf("whole read: sampled %v, rows %d, sha %q", s.Sampled, s.Rows, s.SHA256)
	}
}
