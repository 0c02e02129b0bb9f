package export_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"querent/engine"
	"querent/engine/export"
)

// TestLibreOfficeReadsXLSX opens an export in another spreadsheet program:
// LibreOffice converts the Data sheet to CSV, and every value must read as
// the query returned it (numbers as numbers, dates as the text showed
// them, hostile text as text, never evaluated). CI installs Debian's
// libreoffice-calc-nogui; without soffice the test is skipped.
func TestLibreOfficeReadsXLSX(t *testing.T) {
	soffice := findSoffice(t)
	db, query := kindsDB(t)
	cols, rows := queryAll(t, db, query)
	dir := t.TempDir()
	in := filepath.Join(dir, "kinds.xlsx")
	if _, err := export.Export(context.Background(), db, query, in, export.Options{}); err != nil {
		t.Fatal(err)
	}
	profile := filepath.Join(dir, "profile")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	start := time.Now()
	// 44: comma, 34: double quote, 76: UTF-8, 1: from the first line.
	cmd := exec.CommandContext(ctx, soffice, "-env:UserInstallation=file://"+filepath.ToSlash(profile),
		"--headless", "--norestore", "--convert-to", "csv:Text - txt - csv (StarCalc):44,34,76,1", "--outdir", dir, in)
	cmd.Env = append(os.Environ(), "HOME="+dir)
	outb, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("soffice: %v\n%s", err, outb)
	}
	t.Logf("LibreOffice converted the workbook in %s", time.Since(start).Round(time.Millisecond))
	data, err := os.ReadFile(filepath.Join(dir, "kinds.csv"))
	if err != nil {
		t.Fatalf("no CSV: %v\n%s", err, outb)
	}
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != len(rows)+1 {
		t.Fatalf("LibreOffice read %d rows, want %d", len(recs), len(rows)+1)
	}
	for j, c := range cols {
		if recs[0][j] != c.Name {
			t.Errorf("header %d: %q, want %q", j, recs[0][j], c.Name)
		}
	}
	for i, row := range rows {
		for j, v := range row {
			got := ""
			if j < len(recs[i+1]) {
				got = recs[i+1][j]
			}
			if !shownAs(t, cols[j], v, got) {
				t.Errorf("row %d %s %.40q: LibreOffice shows %.60q", i+1, cols[j].Name, short(v), got)
			}
		}
	}
}

// TestLibreOfficeReadsChart: LibreOffice reads the native chart (it
// becomes a chart object when the workbook is converted to ODS).
func TestLibreOfficeReadsChart(t *testing.T) {
	soffice := findSoffice(t)
	db := demo(t)
	dir := t.TempDir()
	for kind, query := range map[string]string{
		"bar":       "SELECT BillingCountry, sum(Total) AS total FROM Invoice GROUP BY 1 ORDER BY 2 DESC LIMIT 10",
		"line":      "SELECT substr(InvoiceDate, 1, 7) || '-01' AS month, sum(Total) AS total FROM Invoice GROUP BY 1",
		"histogram": "SELECT Milliseconds FROM Track",
	} {
		in := filepath.Join(dir, kind+".xlsx")
		if _, err := export.Export(context.Background(), db, query, in, export.Options{Chart: kind}); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(soffice, "-env:UserInstallation=file://"+filepath.ToSlash(filepath.Join(dir, "profile")),
			"--headless", "--norestore", "--convert-to", "ods", "--outdir", dir, in)
		cmd.Env = append(os.Environ(), "HOME="+dir)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("soffice: %v\n%s", err, out)
		}
		zr, err := zip.OpenReader(filepath.Join(dir, kind+".ods"))
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"bar": `chart:class="chart:bar"`, "line": `chart:class="chart:line"`, "histogram": `chart:class="chart:bar"`}[kind]
		found := false
		for _, f := range zr.File {
			if strings.HasSuffix(f.Name, "/content.xml") && strings.HasPrefix(f.Name, "Object") {
				rc, _ := f.Open()
				b, _ := io.ReadAll(rc)
				rc.Close()
				found = found || strings.Contains(string(b), want)
			}
		}
		zr.Close()
		if !found {
			t.Errorf("%s: LibreOffice found no %s chart", kind, want)
		}
	}
}

// TestLibreOfficeReadsCSV opens a CSV export in LibreOffice with the CSV
// import options most likely to run a formula: formulas evaluated, and
// "Trim spaces" ticked (which strips the spaces before " =1+1"). No
// neutralised cell may become a formula. The same cells exported with Raw
// are the control: there "=1+1" and " =1+1" do become formulas, which
// shows that the options were in force (and is the evidence for
// neutralising after leading spaces).
func TestLibreOfficeReadsCSV(t *testing.T) {
	soffice := findSoffice(t)
	db := demo(t)
	cells := append([]string{}, hostile...)
	for _, c := range formulaPrefixes {
		cells = append(cells, c.cell)
	}
	var sel []string
	for i, c := range cells {
		sel = append(sel, fmt.Sprintf("SELECT %d AS id, '%s' AS v", i, strings.ReplaceAll(c, "'", "''")))
	}
	query := strings.Join(sel, " UNION ALL ")
	dir := t.TempDir()
	formulas := map[bool]map[string]string{}
	for _, raw := range []bool{false, true} {
		name := map[bool]string{false: "neutralised", true: "raw"}[raw]
		in := filepath.Join(dir, name+".csv")
		if _, err := export.Export(context.Background(), db, query, in, export.Options{Raw: raw}); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		// 44: comma, 34: double quote, 76: UTF-8, 1: from the first line,
		// 11th token true: trim spaces, 13th true: evaluate formulas.
		cmd := exec.CommandContext(ctx, soffice, "-env:UserInstallation=file://"+filepath.ToSlash(filepath.Join(dir, "profile")),
			"--headless", "--norestore", "--infilter=Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,true,false,true",
			"--convert-to", "fods", "--outdir", dir, in)
		cmd.Env = append(os.Environ(), "HOME="+dir)
		outb, err := cmd.CombinedOutput()
		cancel()
		if err != nil {
			t.Fatalf("soffice: %v\n%s", err, outb)
		}
		formulas[raw] = fodsFormulas(t, filepath.Join(dir, name+".fods"), cells)
	}
	for cell, f := range formulas[false] {
		t.Errorf("neutralised %q: LibreOffice reads the formula %s", cell, f)
	}
	for _, c := range []string{"=1+1", " =1+1"} {
		if formulas[true][c] == "" {
			t.Errorf("raw %q: not a formula in LibreOffice: the import options did not take (formulas read: %q)", c, formulas[true])
		}
	}
	t.Logf("raw cells LibreOffice reads as formulas: %q", formulas[true])
}

// fodsFormulas returns the formulas of the second column of a flat ODS
// file by the text of the cell the row's id names.
func fodsFormulas(t *testing.T, path string, cells []string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const tableNS = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
	const officeNS = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
	dec := xml.NewDecoder(bytes.NewReader(b))
	got := map[string]string{}
	col, id, rows := 0, -1, 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok || se.Name.Space != tableNS {
			continue
		}
		switch se.Name.Local {
		case "table-row":
			col, id = 0, -1
			rows++
		case "table-cell":
			col++
			for _, a := range se.Attr {
				switch {
				case col == 1 && a.Name.Space == officeNS && a.Name.Local == "value":
					id, _ = strconv.Atoi(a.Value)
				case col == 2 && a.Name.Space == tableNS && a.Name.Local == "formula" && id >= 0 && id < len(cells):
					got[cells[id]] = a.Value
				}
			}
		}
	}
	if rows < len(cells) {
		t.Fatalf("LibreOffice read %d rows, want %d", rows, len(cells)+1)
	}
	return got
}

// findSoffice returns LibreOffice's soffice, or skips the test.
func findSoffice(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"soffice", "libreoffice"} {
		if p, err := exec.LookPath(name); err == nil {
			if testing.Short() {
				t.Skip("LibreOffice takes seconds to start (-short)")
			}
			return p
		}
	}
	t.Skip("LibreOffice (soffice or libreoffice) is not on PATH: install libreoffice-calc-nogui to run this check")
	return ""
}

// shownAs reports whether LibreOffice shows v as got.
func shownAs(t *testing.T, col engine.Column, v engine.Value, got string) bool {
	want := expectXLSX(t, col, v)
	switch x := v.(type) {
	case nil:
		return got == ""
	case int64, float64:
		if want.t == "inlineStr" { // integers beyond 2^53, ±Infinity: text
			return got == want.v
		}
		// General format: compare the number shown with the value kept.
		g, err := strconv.ParseFloat(strings.ReplaceAll(got, ",", ""), 64)
		w, _ := strconv.ParseFloat(want.v, 64)
		return err == nil && (g == w || math.Abs(g-w) <= 1e-9*math.Abs(w))
	case string:
		if want.numFmt != "" { // a date cell shows as the text was written
			return got == strings.Replace(x, "T", " ", 1)
		}
		return got == want.v
	}
	return got == want.v
}
