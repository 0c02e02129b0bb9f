package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
)

type cliOrder struct {
	ID     int64    `parquet:"id"`
	Amount int64    `parquet:"amount,decimal(2:9)"`
	Day    int32    `parquet:"day,date"`
	At     int64    `parquet:"at,timestamp(microsecond)"`
	Paid   bool     `parquet:"paid"`
	Items  []string `parquet:"items,list"`
	Ship   *cliShip `parquet:"ship,optional"`
	Memo   *string  `parquet:"memo,optional"`
}

type cliShip struct {
	City string `parquet:"city"`
}

// issue 27: a Parquet file is one table typed from its schema; lists and
// groups are JSON text SQLite's JSON functions read; a truncated file
// writes nothing.
func TestImportParquetFile(t *testing.T) {
	dir := t.TempDir()
	pq := filepath.Join(dir, "orders.parquet")
	f, err := os.Create(pq)
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[cliOrder](f)
	day := int32(time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC).Unix() / 86400)
	at := time.Date(2025, 6, 1, 8, 0, 0, 0, time.UTC)
	for g := range 2 { // two row groups
		var recs []cliOrder
		for i := g * 20; i < g*20+20; i++ {
			memo := "m"
			r := cliOrder{ID: int64(i + 1), Amount: int64(1050 + i), Day: day + int32(i%3), At: at.Add(time.Duration(i) * time.Minute).UnixMicro(),
				Paid: i%4 == 0, Items: []string{"a", "b"}, Ship: &cliShip{City: "Lyon"}, Memo: &memo}
			if i == 7 {
				r.Ship, r.Memo = nil, nil
			}
			recs = append(recs, r)
		}
		if _, err := w.Write(recs); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	db := filepath.Join(dir, "x.sqlite")
	code, out, errs := runImport(t, "import", "--db", db, pq)
	if code != 0 || !strings.Contains(out, "orders (orders.parquet): 40 rows, created") {
		t.Fatalf("exit %d:\n%s\n%s", code, out, errs)
	}
	if code, out, _ := runImport(t, "import", "--preview", pq); code != 0 || !strings.Contains(out, "read: Parquet") {
		t.Errorf("text preview: exit %d %s", code, out)
	}
	if code, out, _ := runImport(t, "import", "--preview", "--format", "json", pq); code != 0 ||
		!strings.Contains(out, `"format": "parquet"`) && !strings.Contains(out, `"format":"parquet"`) {
		t.Errorf("JSON preview: exit %d %s", code, out)
	}
	code, out, errs = run(t, "", "sql", "--db", db, "--format", "csv",
		"SELECT count(*), sum(id), sum(amount), min(day), max(at), sum(paid), count(ship), json_extract(max(ship), '$.city'), json_array_length(min(items)) FROM orders")
	want := "40,820,427.8,2025-06-01,2025-06-01 08:39:00,10,39,Lyon,2\n"
	if code != 0 || !strings.HasSuffix(out, want) {
		t.Errorf("read back: exit %d %q (want the row %q) %s", code, out, want, errs)
	}
	code, out, errs = run(t, "", "sql", "--db", db, "--format", "csv",
		"SELECT name, type FROM pragma_table_info('orders') ORDER BY cid")
	wantTypes := "name,type\nid,INTEGER\namount,REAL\nday,DATE\nat,DATETIME\npaid,BOOLEAN\nitems,TEXT\nship,TEXT\nmemo,TEXT\n"
	if code != 0 || out != wantTypes {
		t.Errorf("declared types: exit %d %q, want %q %s", code, out, wantTypes, errs)
	}

	b, _ := os.ReadFile(pq)
	cut := filepath.Join(dir, "cut.parquet")
	os.WriteFile(cut, b[:len(b)-20], 0o644)
	db2 := filepath.Join(dir, "y.sqlite")
	code, _, errs = runImport(t, "import", "--db", db2, cut)
	if code != 1 || !strings.Contains(errs, "cut.parquet") || !strings.Contains(errs, "not a readable Parquet file") {
		t.Errorf("truncated: exit %d %s", code, errs)
	}
	if _, err := os.Stat(db2); !os.IsNotExist(err) {
		t.Errorf("a truncated Parquet file left %s", db2)
	}
}
