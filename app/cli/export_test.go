package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"querent/engine/ollama/ollamatest"
)

func TestExportCommand(t *testing.T) {
	fake := ollamatest.New(t, ollamatest.Answer("SELECT BillingCountry, sum(Total) AS total FROM Invoice GROUP BY 1 ORDER BY 2 DESC", "Sales per country."))
	c := askCLI(t, fake)
	dir := t.TempDir()
	xlsx := filepath.Join(dir, "sales.xlsx")
	code, out, errs := runWith(t, c, "", "export", "--question", "sales per country", "--chart", "auto", "--out", xlsx)
	if code != 0 || !strings.Contains(out, "Exported 24 rows to") || !strings.Contains(out, "Chart") || !strings.Contains(errs, "SQL by qwen2.5-coder:7b") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	// The history records the rows exported (24), not the 20 the model's
	// SQL was checked on.
	hc, hout, herrs := runWith(t, c, "", "history", "--format", "json")
	if hc != 0 || !strings.Contains(hout, `"question": "sales per country"`) || !strings.Contains(hout, `"row_count": 24`) {
		t.Errorf("history after the export: exit %d\n%s\n%s", hc, hout, herrs)
	}
	f, err := excelize.OpenFile(xlsx)
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := f.GetRows("Provenance")
	f.Close()
	prov := map[string]string{}
	for _, r := range rows {
		if len(r) >= 2 {
			prov[strings.ToLower(r[0])] = r[1]
		}
	}
	joined := strings.ToLower(strings.Join(func() []string {
		var v []string
		for k, x := range prov {
			v = append(v, k+"="+x)
		}
		return v
	}(), "\n"))
	for _, want := range []string{"sales per country", "qwen2.5-coder:7b", "select billingcountry", "chinook demo"} {
		if !strings.Contains(joined, want) {
			t.Errorf("provenance lacks %q:\n%s", want, joined)
		}
	}
	// CSV with --sql; the existing file needs --force.
	csv := filepath.Join(dir, "a.csv")
	if code, _, errs := runWith(t, c, "", "export", "--sql", "SELECT '=1+2' AS f, Name FROM Artist ORDER BY ArtistId LIMIT 2", "--out", csv); code != 0 {
		t.Fatal(errs)
	}
	b, _ := os.ReadFile(csv)
	if !strings.Contains(string(b), "'=1+2,AC/DC") {
		t.Errorf("csv %q", b)
	}
	code, _, errs = runWith(t, c, "", "export", "--sql", "SELECT 1", "--out", csv)
	if code != 1 || !strings.Contains(errs, "--force") {
		t.Errorf("existing file: exit %d %s", code, errs)
	}
	if code, _, errs = runWith(t, c, "", "export", "--raw", "--delimiter", ";", "--force", "--sql", "SELECT '=1' AS a, 2 AS b", "--out", csv); code != 0 {
		t.Fatal(errs)
	}
	if b, _ = os.ReadFile(csv); string(b) != "a;b\r\n=1;2\r\n" {
		t.Errorf("raw csv %q", b)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"export", "--sql", "SELECT 1"}, "--out is required"},
		{[]string{"export", "--out", filepath.Join(dir, "x.csv")}, "either --sql or --question"},
		{[]string{"export", "--sql", "SELECT 1", "--out", filepath.Join(dir, "x.txt")}, "must end in .xlsx or .csv"},
		{[]string{"export", "--sql", "SELECT 1", "--chart", "bar", "--out", filepath.Join(dir, "x.csv")}, "--chart needs an XLSX file"},
		{[]string{"export", "--sql", "SELECT 1", "--bom", "--out", filepath.Join(dir, "x.xlsx")}, "are for CSV files"},
		{[]string{"export", "--sql", "DELETE FROM Track", "--out", filepath.Join(dir, "x.xlsx")}, "refused"},
	} {
		code, _, errs := runWith(t, c, "", tt.args...)
		if code == 0 || !strings.Contains(errs, tt.want) {
			t.Errorf("%v: exit %d %s", tt.args, code, errs)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x.xlsx")); !os.IsNotExist(err) {
		t.Error("a refused export left a file")
	}
}
