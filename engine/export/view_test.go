package export_test

import (
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"querent/engine"
	"querent/engine/export"
)

// A view (the page's grid filtered and sorted) exports exactly its rows in
// its order, to CSV and to XLSX.
func TestExportView(t *testing.T) {
	db := demo(t)
	const q = "SELECT GenreId, Name FROM Genre ORDER BY GenreId"
	view := []int64{23, 0, 9, 4}
	want := [][]string{{"GenreId", "Name"}, {"24", "Classical"}, {"1", "Rock"}, {"10", "Soundtrack"}, {"5", "Rock And Roll"}}
	dir := t.TempDir()
	out := filepath.Join(dir, "view.csv")
	rep, err := export.Run(context.Background(), db, export.Request{SQL: q, Out: out, Rows: view})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Rows != 4 || rep.Truncated {
		t.Errorf("report: %d rows, truncated %v", rep.Rows, rep.Truncated)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("CSV %v, want %v", got, want)
	}

	xout := filepath.Join(dir, "view.xlsx")
	if _, err := export.Run(context.Background(), db, export.Request{SQL: q, Out: xout, Rows: view}); err != nil {
		t.Fatal(err)
	}
	x := openXLSX(t, xout)
	rows := rawRows(t, x, x.GetSheetName(0))
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("XLSX %v, want %v", rows, want)
	}
	// The Provenance sheet says the rows are a view.
	var said bool
	for _, r := range rawRows(t, x, "Provenance") {
		said = said || (len(r) == 2 && r[0] == "view" && strings.Contains(r[1], "filtered and sorted"))
	}
	if !said {
		t.Errorf("the Provenance sheet does not say the rows are a view: %v", rawRows(t, x, "Provenance"))
	}

	// An empty view is a header alone; the whole result is still there
	// without a view.
	empty := filepath.Join(dir, "empty.csv")
	if rep, err := export.Run(context.Background(), db, export.Request{SQL: q, Out: empty, Rows: []int64{}}); err != nil || rep.Rows != 0 {
		t.Fatalf("an empty view: %v %+v", err, rep)
	}
	if b, _ := os.ReadFile(empty); strings.TrimSpace(string(b)) != "GenreId,Name" {
		t.Errorf("an empty view wrote %q", b)
	}
}

// A view past the result (the database changed since it was shown), or
// with a repeated row, writes nothing.
func TestExportViewRefused(t *testing.T) {
	db := demo(t)
	dir := t.TempDir()
	for _, view := range [][]int64{{0, 25}, {1, 1}, {-1}} {
		out := filepath.Join(dir, "v.csv")
		_, err := export.Run(context.Background(), db, export.Request{SQL: "SELECT Name FROM Genre", Out: out, Rows: view})
		if err == nil {
			t.Errorf("view %v exported", view)
		}
		if c := engine.ErrorCode(err); c != engine.CodeExport && c != engine.CodeUsage {
			t.Errorf("view %v: code %s", view, c)
		}
		if names := listDir(t, dir); len(names) != 0 {
			t.Fatalf("view %v left %v", view, names)
		}
	}
}
