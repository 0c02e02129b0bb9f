package importer

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"querent/engine"
	"querent/engine/imports"
	"querent/engine/sqlite"
)

// newSQLite is an Importer that writes SQLite files, as the faces' is.
func newSQLite() *Importer { return New(sqlite.ImportWriter{}, Options{}) }

const messy = "../../../shared/data/messy/"

// copyMessy copies a shared messy file into dir.
func copyMessy(t *testing.T, dir, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(messy, rel))
	if err != nil {
		t.Skipf("shared data not available: %v", err)
	}
	p := filepath.Join(dir, filepath.Base(rel))
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func names(dir string) []string {
	entries, _ := os.ReadDir(dir)
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// The page's way: previews as the choices change read the file once, the
// import after them reads it once more (its second pass), and nothing is
// written before the import.
func TestImporterReusesThePreview(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	ctx := context.Background()
	dir := t.TempDir()
	src := copyMessy(t, dir, "csv/538_cabinet-turnover.csv")
	db := filepath.Join(dir, "cabinet.sqlite")
	var reads atomic.Int64
	req := imports.Request{Target: db, Inputs: []string{src}, Progress: func(p imports.Progress) {
		if p.Phase == "reading" {
			reads.Add(1)
		}
	}}
	im := newSQLite()
	defer im.Close()
	plan, err := im.Preview(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if reads.Load() == 0 || plan.Tables[0].Action != "create" || plan.Tables[0].Sampled {
		t.Fatalf("first preview: %d reads, %+v", reads.Load(), plan.Tables[0])
	}
	reads.Store(0)
	req.Overrides = []imports.TableOverride{{Source: src, Table: "cabinet", Columns: []imports.ColumnOverride{{Column: "#4", Type: "date", OnBad: "null"}}}}
	plan, err = im.Preview(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if reads.Load() != 0 || plan.Tables[0].Name != "cabinet" || plan.Tables[0].Columns[3].Type != imports.TypeDate || plan.Tables[0].Columns[3].BadValues != 8 {
		t.Errorf("preview with choices: %d reads (want 0), %s %+v", reads.Load(), plan.Tables[0].Name, plan.Tables[0].Columns[3])
	}
	if got := names(dir); !slices.Equal(got, []string{filepath.Base(src)}) {
		t.Errorf("the previews wrote %q", got)
	}
	rep, err := im.Import(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if reads.Load() != 0 || rep.Tables[0].Name != "cabinet" || rep.Tables[0].BadValues != 8 || rep.Tables[0].Rows != 379 {
		t.Errorf("import after the preview: %d first-pass reads (want 0), %+v", reads.Load(), rep.Tables[0])
	}
	// The first pass was used once: the next import reads again (and
	// finds the table there).
	if _, err := im.Import(ctx, req); err == nil || !strings.Contains(err.Error(), "already has a table named cabinet") || reads.Load() == 0 {
		t.Errorf("second import: %v, %d reads", err, reads.Load())
	}
	// A file changed since the preview is read again.
	reads.Store(0)
	if _, err := im.Preview(ctx, req); err != nil {
		t.Fatal(err)
	}
	f, _ := os.OpenFile(src, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("\r\nBiden,Chief of Staff,Ron Klain,1/20/21,,,,Male,,\r\n")
	f.Close()
	reads.Store(0)
	req.Overrides[0].Table = "cabinet2"
	rep, err = im.Import(ctx, req)
	if err != nil || reads.Load() == 0 || rep.Tables[0].Rows != 380 {
		t.Errorf("import of a changed file: %v, %d reads, %+v", err, reads.Load(), rep)
	}
}

// writeBig writes a CSV larger than a preview's sample.
func writeBig(t *testing.T, path string, rows int) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString("id,name,amount,day\n")
	for i := 1; i <= rows; i++ {
		fmt.Fprintf(w, "%d,customer %d,%d.%02d,2024-%02d-%02d\n", i, i%997, i%5000, i%100, i%12+1, i%28+1)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

// A large file's preview is a sample; the import after it reads the whole
// file (its first pass) before writing.
func TestImporterSampledPreview(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 10 MB file")
	}
	ctx := context.Background()
	dir := t.TempDir()
	src := filepath.Join(dir, "big.csv")
	writeBig(t, src, 320_000)
	if st, _ := os.Stat(src); st.Size() <= PreviewSampleBytes {
		t.Fatalf("the file (%d bytes) is not larger than a sample", st.Size())
	}
	im := newSQLite()
	defer im.Close()
	var reads atomic.Int64
	req := imports.Request{Target: filepath.Join(dir, "big.sqlite"), Inputs: []string{src}, Progress: func(p imports.Progress) {
		if p.Phase == "reading" {
			reads.Add(1)
		}
	}}
	plan, err := im.Preview(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	pt := plan.Tables[0]
	if !pt.Sampled || pt.SampleRows >= 320_000 || pt.Rows < 250_000 || pt.Rows > 400_000 || len(pt.PreviewRows) != imports.PreviewRows {
		t.Errorf("preview: sampled %v, %d rows read, %d estimated", pt.Sampled, pt.SampleRows, pt.Rows)
	}
	reads.Store(0)
	rep, err := im.Import(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if reads.Load() == 0 || rep.Tables[0].Rows != 320_000 {
		t.Errorf("import: %d reads, %d rows", reads.Load(), rep.Tables[0].Rows)
	}
}

// A cancelled import leaves nothing behind: no database, no temporary
// file beside it, no spill file of a workbook's rows.
func TestImportCancelledLeavesNothing(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dir := t.TempDir()
	csv := filepath.Join(dir, "big.csv")
	writeBig(t, csv, 200_000)
	book := copyMessy(t, dir, "xlsx/538_pollster-stats-full_2019.xlsx")
	for _, in := range []string{csv, book} {
		ctx, cancel := context.WithCancel(context.Background())
		db := filepath.Join(dir, "out.sqlite")
		req := imports.Request{Target: db, Inputs: []string{in}, Progress: func(p imports.Progress) {
			if p.Phase == "writing" {
				cancel()
			}
		}}
		_, err := newSQLite().Import(ctx, req)
		cancel()
		if e := engine.AsError(err); e == nil || e.Code != engine.CodeCancelled && !errors.Is(err, context.Canceled) {
			t.Errorf("%s: cancelled import: %v", filepath.Base(in), err)
		}
		if got := names(dir); !slices.Equal(got, []string{"538_pollster-stats-full_2019.xlsx", "big.csv"}) {
			t.Errorf("%s: the cancelled import left %q", filepath.Base(in), got)
		}
		if got := names(tmp); len(got) != 0 {
			t.Errorf("%s: temporary files left: %q", filepath.Base(in), got)
		}
	}
	// A preview closed without an import keeps nothing either.
	im := newSQLite()
	if _, err := im.Preview(context.Background(), imports.Request{Inputs: []string{book}}); err != nil {
		t.Fatal(err)
	}
	if len(names(tmp)) == 0 {
		t.Logf("the preview keeps no spill file on disk")
	}
	im.Close()
	if got := names(tmp); len(got) != 0 {
		t.Errorf("after the preview was forgotten: %q", got)
	}
}

// A sheet left out is described in the plan, not written; a sheet's own
// choices (its range) apply to it alone.
func TestImportSheetChoices(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	book := copyMessy(t, dir, "xlsx/538_pollster-stats-full_2019.xlsx")
	db := filepath.Join(dir, "polls.sqlite")
	req := imports.Request{Target: db, Inputs: []string{book}, Overrides: []imports.TableOverride{
		{Source: filepath.Base(book), Sheet: "Description of Columns", Skip: true},
		{Source: book, Sheet: "Results", Range: "B2:D20", Table: "pollsters"},
	}}
	plan, err := newSQLite().Preview(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Tables) != 2 || plan.Tables[0].Name != "pollsters" || plan.Tables[0].Rows != 18 || plan.Tables[0].Action != "create" ||
		!plan.Tables[1].Skip || plan.Tables[1].Action != "" {
		t.Errorf("plan: %+v / %+v", plan.Tables[0], plan.Tables[1])
	}
	rep, err := newSQLite().Import(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Tables) != 1 || rep.Tables[0].Name != "pollsters" || rep.Tables[0].Range != "B2:D20" || len(rep.Tables[0].Columns) != 3 {
		t.Errorf("report: %+v", rep.Tables)
	}
	req.Overrides = append(req.Overrides, imports.TableOverride{Source: book, Sheet: "Results", Skip: true})
	if _, err := newSQLite().Preview(ctx, req); engine.ErrorCode(err) != engine.CodeUsage {
		t.Errorf("every table left out: %v", err)
	}
	req.Overrides = []imports.TableOverride{{Source: "other.xlsx", Table: "x"}}
	if _, err := newSQLite().Preview(ctx, req); err == nil || !strings.Contains(err.Error(), "match no table") {
		t.Errorf("choices for another file: %v", err)
	}
}
