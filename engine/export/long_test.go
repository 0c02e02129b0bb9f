package export_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"querent/engine/export"
)

// salesPerCountryPerYear is issue 25's long data: sales per country per
// year of the demo database, years from strftime('%Y').
const salesPerCountryPerYear = "SELECT BillingCountry AS Country, strftime('%Y', InvoiceDate) AS Year, round(sum(Total), 2) AS Sales " +
	"FROM Invoice WHERE BillingCountry IN ('USA', 'Canada', 'France', 'Brazil', 'Germany') GROUP BY 1, 2 ORDER BY 1, 2"

// Months (strftime('%Y-%m')) and years (strftime('%Y'), an integer Year)
// are written as numeric dates with a yyyy-mm or yyyy format, not text.
func TestXLSXMonthsAndYearsAreDates(t *testing.T) {
	db := demo(t)
	out := filepath.Join(t.TempDir(), "periods.xlsx")
	q := "SELECT strftime('%Y-%m', InvoiceDate) AS month, strftime('%Y', InvoiceDate) AS Year, " +
		"CAST(strftime('%Y', InvoiceDate) AS INTEGER) AS année, sum(Total) AS total FROM Invoice GROUP BY 1 ORDER BY 1"
	if _, err := export.Export(context.Background(), db, q, out, export.Options{}); err != nil {
		t.Fatal(err)
	}
	f := openXLSX(t, out)
	for _, c := range []struct{ cell, format, raw string }{
		{"A2", "yyyy-mm", "39814"}, // 2009-01-01
		{"B2", "yyyy", "39814"},
		{"C2", "yyyy", "39814"},
		{"A61", "yyyy-mm", "41609"}, // 2013-12-01
	} {
		if got := numFmtOf(t, f, "Data", c.cell); got != c.format {
			t.Errorf("%s: format %q, want %q", c.cell, got, c.format)
		}
		typ, err := f.GetCellType("Data", c.cell)
		if err != nil {
			t.Fatal(err)
		}
		if typ == excelize.CellTypeSharedString || typ == excelize.CellTypeInlineString {
			t.Errorf("%s is text, want a numeric date", c.cell)
		}
		if got := rawRows(t, f, "Data")[rowOf(c.cell)-1][colOf(c.cell)]; got != c.raw {
			t.Errorf("%s: raw %q, want the serial %s", c.cell, got, c.raw)
		}
	}
	if shown, _ := f.GetCellValue("Data", "A2"); shown != "2009-01" {
		t.Errorf("A2 shows %q, want 2009-01", shown)
	}
}

func rowOf(cell string) int {
	_, r, _ := excelize.CellNameToCoordinates(cell)
	return r
}

func colOf(cell string) int {
	c, _, _ := excelize.CellNameToCoordinates(cell)
	return c - 1
}

// Long data's chart (auto) is one line per country over a time axis of
// years, drawn from a table on the Chart sheet whose years are dates; two
// numbers of far scales get a second axis.
func TestXLSXChartOfLongData(t *testing.T) {
	db := demo(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "long.xlsx")
	rep, err := export.Export(context.Background(), db, salesPerCountryPerYear, out, export.Options{Chart: export.ChartAuto})
	if err != nil {
		t.Fatal(err)
	}
	charts := chartXML(t, out)
	if len(charts) != 1 {
		t.Fatalf("%d charts, want 1 (warnings %q)", len(charts), rep.Warnings)
	}
	if n := strings.Count(charts[0], "<ser>"); n != 5 {
		t.Errorf("%d series, want one per country (5)", n)
	}
	for _, want := range []string{"<lineChart>", "'Chart'!$A$31:$A$35", "'Chart'!$B$30", "Sales by Year, one series per Country", `<numFmt formatCode="yyyy" sourceLinked="false">`} {
		if !strings.Contains(charts[0], want) {
			t.Errorf("the chart lacks %s", want)
		}
	}
	f := openXLSX(t, out)
	if got := numFmtOf(t, f, "Chart", "A31"); got != "yyyy" {
		t.Errorf("the chart's years: format %q, want yyyy", got)
	}
	if v, _ := f.GetCellValue("Chart", "A31"); v != "2009" {
		t.Errorf("the first year shows %q", v)
	}
	head := rawRows(t, f, "Chart")[29]
	if strings.Join(head, ",") != "Year,Brazil,Canada,France,Germany,USA" {
		t.Errorf("the chart's table header %q", head)
	}

	// Two numbers of far scales: revenue and the count of invoices per
	// year. A gap year (2011 left out) stays a row, empty.
	out2 := filepath.Join(dir, "two.xlsx")
	q := "SELECT CAST(strftime('%Y', InvoiceDate) AS INTEGER) AS Year, sum(Total) * 100 AS Revenue, count(*) AS Invoices " +
		"FROM Invoice WHERE strftime('%Y', InvoiceDate) <> '2011' GROUP BY 1 ORDER BY 1"
	if _, err := export.Export(context.Background(), db, q, out2, export.Options{Chart: export.ChartAuto}); err != nil {
		t.Fatal(err)
	}
	x := chartXML(t, out2)
	if len(x) != 1 || strings.Count(x[0], "<lineChart>") != 2 || strings.Count(x[0], "<valAx>") != 2 {
		t.Fatalf("want a line chart with a second value axis, got %d charts", len(x))
	}
	if !strings.Contains(x[0], "Invoices on the right-hand axis") {
		t.Error("the title does not say which number is on the second axis")
	}
	rows := rawRows(t, openXLSX(t, out2), "Chart")
	if len(rows) < 33 || len(rows[32]) > 1 && rows[32][1] != "" {
		t.Errorf("2011 is not a gap: %q", rows[29:])
	}

	// LibreOffice opens the long chart; the picture is left in
	// QUERENT_EXPORT_PNG when set, to be looked at.
	soffice := findSofficeOrEmpty()
	if soffice == "" {
		t.Log("LibreOffice is not on PATH: the workbook was not opened")
		return
	}
	for _, in := range []string{out, out2} {
		cmd := exec.Command(soffice, "-env:UserInstallation=file://"+filepath.ToSlash(filepath.Join(dir, "profile")),
			"--headless", "--norestore", "--convert-to", "pdf", "--outdir", dir, in)
		cmd.Env = append(os.Environ(), "HOME="+dir)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("soffice: %v\n%s", err, b)
		}
		pdf := strings.TrimSuffix(in, ".xlsx") + ".pdf"
		if st, err := os.Stat(pdf); err != nil || st.Size() == 0 {
			t.Fatalf("LibreOffice wrote no PDF: %v", err)
		}
		if keep := os.Getenv("QUERENT_EXPORT_PNG"); keep != "" {
			b, _ := os.ReadFile(pdf)
			_ = os.WriteFile(filepath.Join(keep, filepath.Base(pdf)), b, 0o644)
		}
	}
}

func findSofficeOrEmpty() string {
	for _, name := range []string{"soffice", "libreoffice"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// The provenance shows the analyst's SQL, the statement as the guard ran
// it only when the guard changed it (never the wrapper), and the
// answer's explanation.
func TestXLSXProvenanceSQLAndExplanation(t *testing.T) {
	db := demo(t)
	out := filepath.Join(t.TempDir(), "prov.xlsx")
	q := `SELECT count(*) AS n FROM Customer WHERE Country = "Brazil"`
	_, err := export.Export(context.Background(), db, q, out, export.Options{
		Provenance: export.Provenance{Question: "How many customers in Brazil?", Explanation: "Counts the customers whose country is Brazil."}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range rawRows(t, openXLSX(t, out), "Provenance") {
		if len(r) > 1 {
			got[r[0]] = r[1]
		}
	}
	if got["SQL"] != q {
		t.Errorf("SQL %q, want the analyst's %q", got["SQL"], q)
	}
	if run := got["SQL as run"]; !strings.Contains(run, "'Brazil'") || strings.Contains(run, "_querent_q") {
		t.Errorf("SQL as run %q: want the guard's form, without the wrapper", run)
	}
	if got["explanation"] != "Counts the customers whose country is Brazil." {
		t.Errorf("explanation %q", got["explanation"])
	}
}

// An imported percentage ("Primary %", 8% stored as 0.08) is written as the
// number it is, shown as a percentage.
func TestXLSXImportedPercentage(t *testing.T) {
	db := demo(t)
	out := filepath.Join(t.TempDir(), "pct.xlsx")
	q := `SELECT Name, round(GenreId / 40.0, 3) AS "Primary %" FROM Genre ORDER BY GenreId LIMIT 5`
	if _, err := export.Export(context.Background(), db, q, out, export.Options{}); err != nil {
		t.Fatal(err)
	}
	f := openXLSX(t, out)
	if got := numFmtOf(t, f, "Data", "B2"); got != "0.0%" {
		t.Errorf("Primary %%: format %q, want 0.0%%", got)
	}
	if raw := rawRows(t, f, "Data")[1][1]; raw != "0.025" {
		t.Errorf("Primary %% holds %q, want the fraction 0.025", raw)
	}
}
