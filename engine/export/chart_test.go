package export_test

import (
	"archive/zip"
	"context"
	"html"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"querent/engine"
	"querent/engine/export"
)

// chartXML returns the workbook's chart parts.
func chartXML(t *testing.T, path string) []string {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var out []string
	for _, f := range zr.File {
		if strings.HasPrefix(f.Name, "xl/charts/chart") {
			rc, _ := f.Open()
			b, _ := io.ReadAll(rc)
			rc.Close()
			out = append(out, html.UnescapeString(string(b)))
		}
	}
	return out
}

func TestCharts(t *testing.T) {
	db := demo(t)
	tests := []struct {
		name     string
		query    string
		chart    string
		element  string   // the chart's plot element (chart XML, unescaped); "" for no chart
		contains []string // in the chart XML
		warning  string   // in a warning
		note     string   // in the Chart sheet's first cell
		x        string   // Options.ChartX
		y        []string // Options.ChartY
	}{
		{name: "auto bar", chart: "auto",
			query:    "SELECT BillingCountry, sum(Total) AS total FROM Invoice GROUP BY 1 ORDER BY 2 DESC LIMIT 10",
			element:  "<barChart>",
			contains: []string{`<barDir val="col">`, "'Data'!$A$2:$A$11", "'Data'!$B$2:$B$11", "'Data'!$B$1", "total by BillingCountry"},
			note:     "Bar (column) chart of total by BillingCountry, from Data rows 2–11."},
		{name: "auto pie", chart: "auto",
			query:    "SELECT MediaTypeId || '' AS media, count(*) AS tracks FROM Track GROUP BY 1",
			element:  "<pieChart>",
			contains: []string{"'Data'!$A$2:$A$6", "'Data'!$B$2:$B$6"}},
		{name: "auto line over dates", chart: "auto",
			query:    "SELECT substr(InvoiceDate, 1, 10) AS day, sum(Total) AS total FROM Invoice GROUP BY 1 ORDER BY 1",
			element:  "<lineChart>",
			contains: []string{"'Data'!$A$2:$A$355", "'Data'!$B$2:$B$355"}},
		{name: "auto table", chart: "auto",
			query:   "SELECT * FROM Invoice",
			warning: "no chart suits this result: nine columns are too many for one chart"},
		{name: "scatter of every row", chart: "scatter",
			query:    "SELECT Milliseconds, Bytes FROM Track",
			element:  "<scatterChart>",
			contains: []string{"'Data'!$A$2:$A$3504", "'Data'!$B$2:$B$3504", "Bytes against Milliseconds"}},
		{name: "line capped at Excel's 32,000 points", chart: "line",
			query:    "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r WHERE x < 40000) SELECT date('2000-01-01', '+' || x || ' days') AS day, x % 97 AS v FROM r",
			element:  "<lineChart>",
			contains: []string{"'Data'!$A$2:$A$32001", "v by day (first 32,000 of 40,000 rows)"},
			warning:  "the line chart plots the first 32,000 of 40,000 rows"},
		{name: "the page's chart: kind and columns as on screen", chart: "line", x: "InvoiceDate", y: []string{"Total"},
			query:    "SELECT InvoiceId, InvoiceDate, BillingCountry, Total FROM Invoice ORDER BY InvoiceDate",
			element:  "<lineChart>",
			contains: []string{"'Data'!$B$2:$B$413", "'Data'!$D$2:$D$413", "Total by InvoiceDate"},
			note:     "Line chart of Total by InvoiceDate, from Data rows 2–413."},
		{name: "the page's histogram column", chart: "histogram", y: []string{"Total"},
			query:    "SELECT InvoiceId, Total FROM Invoice",
			element:  "<barChart>",
			contains: []string{"Distribution of Total"}},
		{name: "the page's columns are not in the result", chart: "bar", x: "nope", y: []string{"Total"},
			query:   "SELECT BillingCountry, sum(Total) AS Total FROM Invoice GROUP BY 1",
			element: "<barChart>",
			warning: "the chart's columns (Total by nope) are not in the result"},
		{name: "bar asked for", chart: "bar",
			query:   "SELECT Name, Milliseconds, Bytes FROM Track LIMIT 20",
			element: "<barChart>",
			// Bytes are far larger than Milliseconds: a second axis, so the
			// chart is drawn from its own table on the Chart sheet.
			contains: []string{"'Chart'!$A$31:$A$50", "'Chart'!$B$31:$B$50", "'Chart'!$C$31:$C$50", "<valAx>", "Milliseconds by Name (Bytes on the right-hand axis)"}},
		{name: "line asked for, no number", chart: "line",
			query:   "SELECT Name FROM Artist",
			warning: "a line chart needs a numeric column to plot"},
		{name: "histogram of a text column", chart: "histogram",
			query:   "SELECT Name FROM Artist",
			warning: "a histogram needs a numeric column"},
		{name: "histogram of small integers: one bin each", chart: "histogram",
			query:    "SELECT MediaTypeId FROM Track",
			element:  "<barChart>",
			contains: []string{"'Chart'!$C$5:$C$9", "'Chart'!$D$5:$D$9", "Distribution of MediaTypeId"},
			note:     "Histogram of MediaTypeId: one bin per value from 1 to 5; counts of all 3,503 values."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "c.xlsx")
			rep, err := export.Export(context.Background(), db, tt.query, out, export.Options{Chart: tt.chart, ChartX: tt.x, ChartY: tt.y})
			if err != nil {
				t.Fatal(err)
			}
			charts := chartXML(t, out)
			hasSheet := strings.Contains(strings.Join(rep.Sheets, ","), "Chart")
			if tt.element == "" {
				if len(charts) != 0 || hasSheet {
					t.Errorf("got a chart (sheets %v), want none", rep.Sheets)
				}
			} else {
				if len(charts) != 1 || !hasSheet || rep.Sheets[len(rep.Sheets)-1] != "Chart" {
					t.Fatalf("got %d charts, sheets %v; want one chart on the last sheet, Chart", len(charts), rep.Sheets)
				}
				for _, want := range append([]string{tt.element}, tt.contains...) {
					if !strings.Contains(charts[0], want) {
						t.Errorf("the chart lacks %q", want)
					}
				}
			}
			all := strings.Join(rep.Warnings, "\n")
			if tt.warning != "" && !strings.Contains(all, tt.warning) {
				t.Errorf("warnings %q, want %q", rep.Warnings, tt.warning)
			}
			if tt.warning == "" && len(rep.Warnings) != 0 {
				t.Errorf("warnings %q, want none", rep.Warnings)
			}
			if tt.note != "" {
				f := openXLSX(t, out)
				if got, _ := f.GetCellValue("Chart", "A1"); got != tt.note {
					t.Errorf("note %q, want %q", got, tt.note)
				}
			}
			if tt.chart == "auto" && tt.element != "" {
				f := openXLSX(t, out)
				if got, _ := f.GetCellValue("Chart", "A2"); !strings.HasPrefix(got, "Chosen automatically: ") {
					t.Errorf("reason %q", got)
				}
			}
		})
	}
}

// TestHistogramBins: 20 equal bins from the exact min and max, counted
// from every value, match a count made here.
func TestHistogramBins(t *testing.T) {
	db := demo(t)
	query := "SELECT Milliseconds / 1000.0 AS seconds FROM Track"
	_, rows := queryAll(t, db, query)
	out := filepath.Join(t.TempDir(), "h.xlsx")
	rep, err := export.Export(context.Background(), db, query, out, export.Options{Chart: "auto"})
	if err != nil {
		t.Fatal(err)
	}
	if len(chartXML(t, out)) != 1 {
		t.Fatalf("no chart; warnings %q", rep.Warnings)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, r := range rows {
		v := r[0].(float64)
		lo, hi = min(lo, v), max(hi, v)
	}
	width := (hi - lo) / 20
	want := make([]int64, 20)
	for _, r := range rows {
		want[min(int((r[0].(float64)-lo)/width), 19)]++
	}
	f := openXLSX(t, out)
	got := rawRows(t, f, "Chart")
	if h := strings.Join(got[3], ","); h != "from,to,bin,count" {
		t.Fatalf("bin table header %q", h)
	}
	var total int64
	for b := range 20 {
		r := got[4+b]
		n, _ := strconv.ParseInt(r[3], 10, 64)
		total += n
		if n != want[b] {
			t.Errorf("bin %d %s: got %d, want %d", b, r[2], n, want[b])
		}
	}
	if total != int64(len(rows)) {
		t.Errorf("total %d, want %d", total, len(rows))
	}
	if first, last := got[4][0], got[23][1]; num(first) != lo || math.Abs(num(last)-hi) > 1e-9 {
		t.Errorf("bins from %s to %s, want %v to %v", first, last, lo, hi)
	}
	if !strings.Contains(got[0][0], "20 equal bins") || !strings.Contains(got[0][0], "counts of all 3,503 values") {
		t.Errorf("note %q", got[0][0])
	}
	_ = engine.ChartHistogram
}
