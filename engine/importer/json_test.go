package importer

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"querent/engine/imports"
)

// A JSON Lines file with a broken line in the middle leaves neither a
// table nor a database file; the same file fixed imports every line.
func TestImportJSONLinesAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "events.jsonl")
	lines := "{\"id\": 1, \"user\": {\"name\": \"a\"}}\n{\"id\": 2, \"user\": {\"name\": \"b\"}}\n{\"id\": 3, \"user\": {\"name\": \"c\"\n{\"id\": 4}\n"
	os.WriteFile(in, []byte(lines), 0o644)
	db := filepath.Join(dir, "out.sqlite")
	_, err := newSQLite().Import(context.Background(), imports.Request{Target: db, Inputs: []string{in}})
	if err == nil {
		t.Fatal("a broken JSON line imported")
	}
	if got := names(dir); !slices.Equal(got, []string{"events.jsonl"}) {
		t.Errorf("the failed import left %q", got)
	}
	os.WriteFile(in, []byte(lines[:len(lines)-len("\n{\"id\": 4}\n")]+"}}\n{\"id\": 4}\n"), 0o644)
	var reads int
	rep, err := newSQLite().Import(context.Background(), imports.Request{Target: db, Inputs: []string{in}, Progress: func(p imports.Progress) {
		if p.Phase == "reading" && p.BytesTotal > 0 {
			reads++
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if reads < 2 {
		t.Errorf("%d reading progress reports, want the start and the end at least", reads)
	}
	if len(rep.Tables) != 1 || rep.Tables[0].Rows != 4 || len(rep.Tables[0].Columns) != 2 || rep.Tables[0].Columns[1].Name != "user_name" {
		t.Errorf("report %+v", rep.Tables)
	}
}

// BenchmarkImportJSONLines imports 100,000 JSON Lines into a new SQLite
// file, end to end; BenchmarkImportCSV the same rows as CSV.
func BenchmarkImportJSONLines(b *testing.B) { benchImport(b, "big.jsonl") }
func BenchmarkImportCSV(b *testing.B)       { benchImport(b, "big.csv") }

func benchImport(b *testing.B, name string) {
	const rows = 100_000
	dir := b.TempDir()
	in := filepath.Join(dir, name)
	f, err := os.Create(in)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	if filepath.Ext(name) == ".csv" {
		w.WriteString("id,name,amount,day,city\n")
	}
	for i := 1; i <= rows; i++ {
		if filepath.Ext(name) == ".csv" {
			fmt.Fprintf(w, "%d,customer %d,%d.%02d,2024-%02d-%02d,c%d\n", i, i%997, i%5000, i%100, i%12+1, i%28+1, i%50)
		} else {
			fmt.Fprintf(w, `{"id":%d,"name":"customer %d","amount":%d.%02d,"day":"2024-%02d-%02d","address":{"city":"c%d"}}`+"\n",
				i, i%997, i%5000, i%100, i%12+1, i%28+1, i%50)
		}
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	b.ResetTimer()
	for n := 0; b.Loop(); n++ {
		db := filepath.Join(dir, fmt.Sprintf("out%d.sqlite", n))
		rep, err := newSQLite().Import(context.Background(), imports.Request{Target: db, Inputs: []string{in}})
		if err != nil {
			b.Fatal(err)
		}
		if rep.Tables[0].Rows != rows {
			b.Fatalf("%d rows", rep.Tables[0].Rows)
		}
	}
	b.ReportMetric(float64(rows*b.N)/b.Elapsed().Seconds(), "rows/s")
}

// A large JSON Lines file's preview is a sample with an estimate; the
// import after it reads and writes every line.
func TestImportJSONLinesSampledPreview(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 13 MB file")
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "big.jsonl")
	f, err := os.Create(in)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	const rows = 300_000
	for i := 1; i <= rows; i++ {
		fmt.Fprintf(w, "{\"id\": %d, \"v\": %d.5, \"s\": \"x%d\"}\n", i, i, i)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if st, _ := os.Stat(in); st.Size() <= PreviewSampleBytes {
		t.Fatalf("the file (%d bytes) is not larger than a sample", st.Size())
	}
	im := newSQLite()
	defer im.Close()
	req := imports.Request{Target: filepath.Join(dir, "big.sqlite"), Inputs: []string{in}}
	plan, err := im.Preview(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	pt := plan.Tables[0]
	if !pt.Sampled || pt.SampleRows >= rows || pt.Rows < rows*8/10 || pt.Rows > rows*12/10 || pt.Format != "json_lines" {
		t.Errorf("preview: sampled %v, %d rows read, %d estimated, format %q", pt.Sampled, pt.SampleRows, pt.Rows, pt.Format)
	}
	rep, err := im.Import(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Tables[0].Rows != rows {
		t.Errorf("imported %d rows, want %d", rep.Tables[0].Rows, rows)
	}
}
