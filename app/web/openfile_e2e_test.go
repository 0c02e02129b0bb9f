package web_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"querent/engine/ollama/ollamatest"
)

// TestOpenFileEndToEnd drives issue 27 in the real browser
// (frontend/e2e/openfile.e2e.mjs), in English, French and Chinese: a
// Parquet file opened directly from the start screen (its table named
// after the file, the first look over it, the file never changed), then a
// JSON file and a CSV imported together — the preview flattens the JSON's
// nested object — and, the new database opened, the first look shows the
// join read from the values.
func TestOpenFileEndToEnd(t *testing.T) {
	needsBrowser(t, "")
	out := reportDir(t)
	fake := ollamatest.New(t)
	files := t.TempDir()
	pq := filepath.Join(files, "sales.parquet")
	f, err := os.Create(pq)
	if err != nil {
		t.Fatal(err)
	}
	type sale struct {
		ID     int64   `parquet:"id"`
		Region string  `parquet:"region"`
		Amount float64 `parquet:"amount"`
		Day    string  `parquet:"day"`
	}
	w := parquet.NewGenericWriter[sale](f)
	var rows []sale
	for i := range 40 {
		rows = append(rows, sale{int64(i + 1), []string{"North", "South", "East"}[i%3], float64(10 + i), fmt.Sprintf("2024-%02d-01", i%12+1)})
	}
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var cust strings.Builder
	cust.WriteString("[")
	for i := 1; i <= 20; i++ {
		if i > 1 {
			cust.WriteString(",")
		}
		fmt.Fprintf(&cust, `{"id": %d, "name": "Customer %d", "address": {"city": "City %d", "zip": "%05d"}}`, i, i, i%5, i*7)
	}
	cust.WriteString("]")
	os.WriteFile(filepath.Join(files, "customers.json"), []byte(cust.String()), 0o644)
	var orders strings.Builder
	orders.WriteString("order_id,customer_id,total\n")
	for i := 1; i <= 60; i++ {
		fmt.Fprintf(&orders, "%d,%d,%d.50\n", i, i%20+1, i)
	}
	os.WriteFile(filepath.Join(files, "orders.csv"), []byte(orders.String()), 0o644)
	before, _ := os.ReadFile(pq)
	args := []string{out, files}
	for _, lang := range []string{"en", "fr", "zh"} {
		args = append(args, lang+"="+serveLang(t, fake.URL, "", t.TempDir(), lang))
	}
	runScript(t, "openfile.e2e.mjs", 4*time.Minute, args)
	after, _ := os.ReadFile(pq)
	if string(after) != string(before) {
		t.Error("the Parquet file changed")
	}
	if ents, _ := os.ReadDir(files); len(ents) != 3+3 {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("the files' folder holds %v (the three files and the three languages' databases)", names)
	}
}
