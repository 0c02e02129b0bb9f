package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// issue 27: an array of 50 objects is one table of 50 rows with the
// objects' keys as columns; a broken JSON line writes nothing; a PNG is
// refused, never imported as one garbage row.
func TestImportJSONFiles(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("[")
	for i := 1; i <= 50; i++ {
		if i > 1 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "\n {\"id\": %d, \"name\": \"c%d\", \"address\": {\"city\": \"City %d\"}, \"tags\": [%d, %d]}", i, i, i%5, i, i+1)
	}
	b.WriteString("\n]\n")
	js := filepath.Join(dir, "customers.json")
	os.WriteFile(js, []byte(b.String()), 0o644)
	db := filepath.Join(dir, "x.sqlite")
	code, out, errs := runImport(t, "import", "--db", db, js)
	if code != 0 || !strings.Contains(out, "customers (customers.json): 50 rows, created") {
		t.Fatalf("exit %d:\n%s\n%s", code, out, errs)
	}
	if code, out, _ := runImport(t, "import", "--preview", "--format", "json", lines0(t, dir)); code != 0 ||
		!strings.Contains(out, `"format": "json_lines"`) && !strings.Contains(out, `"format":"json_lines"`) {
		t.Errorf("preview of JSON Lines: exit %d %s", code, out)
	}
	if code, out, _ := runImport(t, "import", "--preview", js); code != 0 || !strings.Contains(out, "read: JSON, an array of objects") {
		t.Errorf("text preview: exit %d %s", code, out)
	}
	code, out, errs = run(t, "", "sql", "--db", db, "--format", "csv",
		"SELECT count(*), sum(id), max(address_city), json_extract(max(tags), '$[1]') FROM customers")
	if code != 0 || out != "count(*),sum(id),max(address_city),\"json_extract(max(tags), '$[1]')\"\n50,1275,City 4,10\n" {
		t.Errorf("read back: exit %d %q %s", code, out, errs)
	}

	lines := filepath.Join(dir, "events.jsonl")
	os.WriteFile(lines, []byte("{\"a\": 1}\n{\"a\": 2}\n{\"a\": \n"), 0o644)
	db2 := filepath.Join(dir, "y.sqlite")
	code, _, errs = runImport(t, "import", "--db", db2, lines)
	if code != 1 || !strings.Contains(errs, "line 3") {
		t.Errorf("broken line: exit %d %s", code, errs)
	}
	if _, err := os.Stat(db2); !os.IsNotExist(err) {
		t.Errorf("a broken JSON line left %s", db2)
	}

	png := filepath.Join(dir, "logo.png")
	os.WriteFile(png, append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 200)...), 0o644)
	code, _, errs = runImport(t, "import", "--db", db2, png)
	if code != 1 || !strings.Contains(errs, "logo.png") || !strings.Contains(errs, "image") {
		t.Errorf("png: exit %d %s", code, errs)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 5 { // customers.json, x.sqlite, events.jsonl, logo.png, sub
		t.Errorf("files in the folder: %v", entries)
	}
}

// lines0 writes a small JSON Lines file in dir.
func lines0(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "sub", "few.ndjson")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("{\"a\": 1, \"b\": \"x\"}\n{\"a\": 2}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
