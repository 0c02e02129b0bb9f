package export_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/csv"
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
