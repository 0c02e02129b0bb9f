package export_test

import (
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"querent/engine"
	"querent/engine/export"
	"querent/engine/sensitive"
)

// TestExportMasksSensitive: a column marked sensitive, and one computed
// from it, are written masked — to CSV, to XLSX (its Statistics sheet too)
// and in an exported view — unless the export includes them.
func TestExportMasksSensitive(t *testing.T) {
	db := demo(t)
	db.SetSensitive(sensitive.New("Customer.Email"))
	const q = "SELECT FirstName, Email, lower(Email) AS m FROM Customer ORDER BY CustomerId LIMIT 3"
	dir := t.TempDir()
	read := func(p string) [][]string {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		rows, err := csv.NewReader(f).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		return rows
	}
	out := filepath.Join(dir, "masked.csv")
	rep, err := export.Run(context.Background(), db, export.Request{SQL: q, Out: out})
	if err != nil {
		t.Fatal(err)
	}
	if got := read(out); got[1][1] != engine.MaskText || got[1][2] != engine.MaskText || got[1][0] != "Luís" {
		t.Errorf("masked CSV %v", got)
	}
	if !reflect.DeepEqual(rep.MaskedColumns, []string{"Email", "m"}) || len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], "--include-sensitive") {
		t.Errorf("report %+v", rep)
	}
	view := filepath.Join(dir, "view.csv")
	if _, err := export.Run(context.Background(), db, export.Request{SQL: q, Out: view, Rows: []int64{2, 0}}); err != nil {
		t.Fatal(err)
	}
	if got := read(view); len(got) != 3 || got[1][0] != "François" || got[1][1] != engine.MaskText {
		t.Errorf("masked view %v", got)
	}
	xout := filepath.Join(dir, "masked.xlsx")
	if _, err := export.Run(context.Background(), db, export.Request{SQL: q, Out: xout}); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenFile(xout)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, sh := range f.GetSheetList() {
		rows, _ := f.GetRows(sh)
		for _, r := range rows {
			if strings.Contains(strings.Join(r, " "), "@") {
				t.Errorf("sheet %s holds an email: %v", sh, r)
			}
		}
	}
	full := filepath.Join(dir, "full.csv")
	rep, err = export.Run(context.Background(), db, export.Request{SQL: q, Out: full, IncludeSensitive: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := read(full); got[1][1] != "luisg@embraer.com.br" || len(rep.MaskedColumns) != 0 {
		t.Errorf("with the values: %v %+v", got, rep)
	}
}
