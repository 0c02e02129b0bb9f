package page_test

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "modernc.org/sqlite"

	"querent/app/page"
	"querent/engine"
	"querent/internal/wiring"
)

// servicesIn are a window's services with their data folder in dir.
func servicesIn(t *testing.T, dir string) *page.Services {
	t.Setenv("QUERENT_DATA_DIR", dir)
	svc := page.New(wiring.PageDeps("test"), nil, nil)
	t.Cleanup(svc.Close)
	return svc
}

// The board's services on a copy of Chinook: pin an answer, note it, have
// another program add an invoice to the file, re-run all (the open
// window's connection would not see the new row: the board reads the file
// as it is now), see what changed, compare a card's answer, unpin. The
// board is in the data folder: new services (a reload, another window)
// find it.
func TestServicesBoard(t *testing.T) {
	dataDir := t.TempDir()
	svc := servicesIn(t, dataDir)
	if _, err := svc.Board.List(); engine.ErrorCode(err) != engine.CodeUsage {
		t.Errorf("no database open: %v", err)
	}
	b, err := os.ReadFile("../../engine/sqlite/demo/Chinook_Sqlite.sqlite")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "chinook.db")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Datasets.Open(path); err != nil {
		t.Fatal(err)
	}
	const q = "SELECT BillingCountry AS country, sum(Total) AS total FROM Invoice GROUP BY 1 ORDER BY 1"
	p, err := svc.Board.Pin(page.PinRequest{Question: "Sales by country", SQL: q, Chart: "bar"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Board.Pin(page.PinRequest{SQL: "DELETE FROM Invoice"}); err == nil {
		t.Error("a write was pinned")
	}
	if _, err := svc.Board.SetNote(p.ID, "for the Monday meeting"); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dataDir, "boards", "*.json"))
	if len(files) != 1 {
		t.Fatalf("the boards folder holds %v", files)
	}

	w, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Exec("INSERT INTO Invoice(InvoiceId, CustomerId, InvoiceDate, BillingCountry, Total) VALUES (1000, 1, '2026-01-01', 'USA', 100)"); err != nil {
		t.Fatal(err)
	}
	w.Close()

	// A new window on the same file finds the board and re-runs it.
	again := servicesIn(t, dataDir)
	if _, err := again.Datasets.Open(path); err != nil {
		t.Fatal(err)
	}
	v, err := again.Board.RerunAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Pins) != 1 || v.Pins[0].Note != "for the Monday meeting" || v.Pins[0].Question != "Sales by country" {
		t.Fatalf("the board: %+v", v.Pins)
	}
	c := v.Pins[0].Change
	if c == nil || c.Unchanged || c.Changed != 1 || c.RowsNow != 24 || len(c.Totals) != 1 || c.Totals[0].Before != "2328.6" || c.Totals[0].Now != "2428.6" {
		t.Fatalf("what changed: %+v", c)
	}
	// The first window's connection is older than the new row; the board still reads it.
	v, err = svc.Board.RerunAll()
	if err != nil || v.Pins[0].Change == nil || v.Pins[0].Change.Changed != 1 {
		t.Fatalf("the first window's re-run: %v %+v", err, v.Pins[0].Change)
	}
	ans, err := svc.Board.Answer(p.ID)
	if err != nil || ans.RowCount != 24 || ans.Question == nil || *ans.Question != "Sales by country" || !strings.Contains(ans.Query, "BillingCountry") {
		t.Fatalf("the card's answer: %v %+v", err, ans)
	}
	if err := svc.Board.Unpin(p.ID); err != nil {
		t.Fatal(err)
	}
	if v, err := again.Board.List(); err != nil || len(v.Pins) != 0 {
		t.Fatalf("after unpinning: %v %+v", err, v)
	}
}
