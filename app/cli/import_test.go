package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"querent/engine/imports"
	"querent/internal/wiring"
)

func runImport(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb strings.Builder
	c := &CLI{Open: open, Importer: wiring.NewImporter(), Version: "test"}
	code := c.Run(context.Background(), args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestImportCommand(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "Sales 2024.csv")
	os.WriteFile(csv, []byte("Order ID,Région,Amount ($),Day,Paid?\n1,North,\"1,234.50\",2024-01-05,yes\n2,South,99,2024-02-06,no\n3,,12.25,,yes\n"), 0o644)
	db := filepath.Join(dir, "out.sqlite")
	code, out, errs := runImport(t, "import", "--db", db, csv)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"Imported 1 table into", "sales_2024 (Sales 2024.csv): 3 rows, created", "order_id", "INTEGER", `(was "Région")`} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The imported data reads back through the guarded path with types.
	code, out, errs = run(t, "", "sql", "--db", db, "--format", "csv", "SELECT order_id, region, amount, day, paid FROM sales_2024 ORDER BY 1")
	if code != 0 || out != "order_id,region,amount,day,paid\n1,North,1234.5,2024-01-05,1\n2,South,99.0,2024-02-06,0\n3,,12.25,,1\n" {
		t.Errorf("read back: exit %d %q %s", code, out, errs)
	}
	// Again: the table exists.
	code, _, errs = runImport(t, "import", "--db", db, csv)
	if code != 1 || !strings.Contains(errs, "--replace") {
		t.Errorf("second import: exit %d %s", code, errs)
	}
	// JSON, with --append.
	code, out, _ = runImport(t, "import", "--db", db, "--append", "--format", "json", csv)
	var rep imports.Report
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil || len(rep.Tables) != 1 || rep.Tables[0].Action != "appended" || rep.Tables[0].Rows != 3 {
		t.Errorf("json append: exit %d %s", code, out)
	}
	if rep.Errors == nil || rep.Warnings == nil || rep.Tables[0].Sheet != nil {
		t.Errorf("json document %+v", rep)
	}
	var doc map[string]any
	json.Unmarshal([]byte(out), &doc)
	col := doc["tables"].([]any)[0].(map[string]any)["columns"].([]any)[0].(map[string]any)
	for _, k := range []string{"name", "original_name", "type", "converted", "kept_as_text", "reason"} {
		if _, ok := col[k]; !ok {
			t.Errorf("column document lacks %q", k)
		}
	}
}

func TestImportCommandErrors(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.csv")
	os.WriteFile(good, []byte("a,b\n1,2\n"), 0o644)
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("a,b\n1,2\n3,4,5\n"), 0o644)
	db := filepath.Join(dir, "x.sqlite")
	tests := []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"import", good}, 2, "--db is required"},
		{[]string{"import", "--db", db}, 2, "no input files"},
		{[]string{"import", "--db", db, "--replace", "--append", good}, 2, "cannot be used together"},
		{[]string{"import", "--db", db, filepath.Join(dir, "missing.csv")}, 1, "missing.csv"},
		{[]string{"import", "--db", db, good, bad}, 1, "line 3"},
		{[]string{"import", "--db", db, "--delimiter", "x", good}, 2, "use one of"},
	}
	for _, tt := range tests {
		code, _, errs := runImport(t, tt.args...)
		if code != tt.code || !strings.Contains(errs, tt.stderr) {
			t.Errorf("%v: exit %d, %q; want %d with %q", tt.args, code, errs, tt.code, tt.stderr)
		}
	}
	// The failed multi-file import left nothing behind.
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Errorf("a failed import left %s", db)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("files in the folder: %v", entries)
	}
	// --ragged pad turns the error into a warning.
	code, _, errs := runImport(t, "import", "--db", db, "--ragged", "pad", bad)
	if code != 1 && code != 0 {
		t.Errorf("pad: exit %d %s", code, errs)
	}
}
