package export_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/xuri/excelize/v2"

	"querent/engine"
	"querent/engine/describe"
	"querent/engine/export"
	"querent/engine/sqlite"
)

// hostile are cells a spreadsheet would run as formulas if they were not
// stored as text.
var hostile = []string{
	`=HYPERLINK("http://evil","click")`,
	`+cmd|' /C calc'!A0`,
	`@SUM(1,2)`,
	`-2+3`,
	"\tTab first",
	"\rCR first",
}

var longText = strings.Repeat("ab", 20000) // 40,000 characters

// kindsDB holds one of every kind of value the export must carry.
func kindsDB(t testing.TB) (*sqlite.DB, string) {
	t.Helper()
	stmts := []stmt{{sql: `CREATE TABLE t(id INTEGER PRIMARY KEY, label TEXT, n INTEGER, f REAL, d DATE, dt DATETIME, b BLOB)`}}
	labels := append(append([]string{}, hostile...),
		"plain", "😀 emoji", "שלום עולם", "漢字テキスト", longText, "", "  spaces  ", "line1\nline2", "_x0041_", "-5")
	ns := []any{int64(42), int64(9007199254740993), int64(-9007199254740993), nil, int64(1 << 53), int64(-1), int64(0),
		int64(math.MaxInt64), int64(math.MinInt64), int64(7), int64(8), nil, int64(10), int64(11), int64(12), int64(13)}
	fs := []any{0.1, 3.141592653589793, 1e300, -2.5, math.Inf(1), math.Inf(-1), 2.0 / 3, nil, 1e-300, 0.0, -0.5, 1234567.891, 5.0, 6.5, 7.25, 8.125}
	ds := []any{"2024-02-29", "1899-12-31", "not a date", nil, "2000-01-01", "1970-01-01", "2100-12-31", "2024-01-01", "2024-01-02",
		"2024-01-03", "2024-01-04", "2024-01-05", "2024-01-06", "2024-01-07", "2024-01-08", "2024-01-09"}
	dts := []any{"2024-02-29 13:45:30", "2024-02-29T13:45:30.250", "2024-02-29 13:45", nil, "2009-01-01 00:00:00", "2009-01-02 00:00:00",
		"2009-01-03 23:59:59", "2009-01-04 00:00:00", "2009-01-05 00:00:00", "2009-01-06 00:00:00", "2009-01-07 00:00:00",
		"2009-01-08 00:00:00", "2009-01-09 00:00:00", "2009-01-10 00:00:00", "2009-01-11 00:00:00", "2009-01-12 00:00:00"}
	bs := []any{[]byte{0, 0xff, 0x10}, nil, []byte("blob"), []byte{0xf8, 1}, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil}
	for i, l := range labels {
		stmts = append(stmts, stmt{sql: `INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?)`,
			args: []any{i + 1, l, ns[i], fs[i], ds[i], dts[i], bs[i]}})
	}
	stmts = append(stmts, stmt{sql: `INSERT INTO t(id) VALUES (100)`}) // a row of NULLs
	db := makeDB(t, stmts...)
	return db, "SELECT id, label, n, f, d, dt, b FROM t ORDER BY id"
}

// wantCell is what the Data sheet must hold for a value of a column.
type wantCell struct {
	t      string // the cell's t attribute; "-" for no cell at all
	v      string // <v> for numbers, the text for strings
	numFmt string
}

func expectXLSX(t *testing.T, col engine.Column, v engine.Value) wantCell {
	t.Helper()
	dateCol := col.Name == "d" || col.Name == "dt"
	switch x := v.(type) {
	case nil:
		return wantCell{t: "-"}
	case int64:
		if x > 1<<53 || x < -(1<<53) {
			return wantCell{t: "inlineStr", v: strconv.FormatInt(x, 10)}
		}
		if col.Name == "n" { // a count: thousands separators (id is an identifier: none)
			return wantCell{v: strconv.FormatInt(x, 10), numFmt: "#,##0"}
		}
		return wantCell{v: strconv.FormatInt(x, 10)}
	case float64:
		switch {
		case math.IsInf(x, 1):
			return wantCell{t: "inlineStr", v: "Infinity"}
		case math.IsInf(x, -1):
			return wantCell{t: "inlineStr", v: "-Infinity"}
		}
		r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 15, 64), 64)
		return wantCell{v: strconv.FormatFloat(r, 'f', -1, 64)}
	case string:
		if dateCol {
			if serial, fmt, ok := isoSerial(x); ok {
				r, _ := strconv.ParseFloat(strconv.FormatFloat(serial, 'g', 15, 64), 64)
				return wantCell{v: strconv.FormatFloat(r, 'f', -1, 64), numFmt: fmt}
			}
		}
		if len(x) > 32767 {
			marker := fmt.Sprintf("… [cut: %s characters]", "40,000")
			keep := 32767 - len(utf16.Encode([]rune(marker)))
			return wantCell{t: "inlineStr", v: x[:keep] + marker}
		}
		return wantCell{t: "inlineStr", v: x}
	case []byte:
		return wantCell{t: "inlineStr", v: base64.StdEncoding.EncodeToString(x)}
	}
	t.Fatalf("unexpected value %T", v)
	return wantCell{}
}

// isoSerial is an independent reading of the ISO dates the test uses.
func isoSerial(s string) (float64, string, bool) {
	layouts := []struct{ layout, fmt string }{
		{"2006-01-02", "yyyy-mm-dd"},
		{"2006-01-02 15:04", "yyyy-mm-dd hh:mm"},
		{"2006-01-02T15:04:05.000", "yyyy-mm-dd hh:mm:ss.000"}, // before the next: Go reads a fraction after :05 too
		{"2006-01-02 15:04:05", "yyyy-mm-dd hh:mm:ss"},
		{"2006-01-02T15:04:05", "yyyy-mm-dd hh:mm:ss"},
	}
	for _, l := range layouts {
		tm, err := time.Parse(l.layout, s)
		if err != nil || tm.Before(time.Date(1900, 3, 1, 0, 0, 0, 0, time.UTC)) {
			continue
		}
		return (float64(tm.Unix())+float64(tm.Nanosecond())/1e9)/86400 + 25569, l.fmt, true
	}
	return 0, "", false
}

var formulaElement = regexp.MustCompile(`<f[\s>/]`)

func TestXLSXValues(t *testing.T) {
	db, query := kindsDB(t)
	cols, rows := queryAll(t, db, query)
	out := filepath.Join(t.TempDir(), "kinds.xlsx")
	rep, err := export.Export(context.Background(), db, query, out, export.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rep.Rows, int64(len(rows)); got != want {
		t.Fatalf("rows: got %d, want %d", got, want)
	}
	if got, want := strings.Join(rep.Sheets, ","), "Data,Provenance,Statistics"; got != want {
		t.Errorf("sheets: got %s, want %s", got, want)
	}
	f := openXLSX(t, out)
	xmls := sheetXML(t, out)
	cells := parseCells(t, xmls["Data"])
	raw := rawRows(t, f, "Data")

	// The header: bold, frozen, filtered.
	for j, c := range cols {
		ref, _ := excelize.CoordinatesToCellName(j+1, 1)
		if got := cells[ref]; got.T != "inlineStr" || got.Text != c.Name {
			t.Errorf("header %s: got %+v, want the text %q", ref, got, c.Name)
		}
		st, _ := f.GetCellStyle("Data", ref)
		if s, _ := f.GetStyle(st); s.Font == nil || !s.Font.Bold {
			t.Errorf("header %s is not bold", ref)
		}
	}
	data := string(xmls["Data"])
	if !strings.Contains(data, `state="frozen"`) || !strings.Contains(data, `ySplit="1"`) {
		t.Error("the header row is not frozen")
	}
	if want := fmt.Sprintf(`<autoFilter ref="$A$1:$G$%d"`, len(rows)+1); !strings.Contains(data, want) {
		t.Errorf("no autofilter %s", want)
	}

	for i, r := range rows {
		for j, v := range r {
			ref, _ := excelize.CoordinatesToCellName(j+1, i+2)
			want := expectXLSX(t, cols[j], v)
			got, present := cells[ref]
			if got.Formula {
				t.Errorf("%s: a formula cell", ref)
			}
			if want.t == "-" {
				if present {
					t.Errorf("%s (NULL): got a cell %+v, want none", ref, got)
				}
				continue
			}
			gotV := got.V
			if got.T == "inlineStr" {
				gotV = got.Text
			}
			if got.T != want.t || gotV != want.v {
				t.Errorf("%s (%s %#v): got t=%q %.60q, want t=%q %.60q", ref, cols[j].Name, short(v), got.T, gotV, want.t, want.v)
			}
			// excelize reads back the same.
			var rawV string
			if i+1 < len(raw) && j < len(raw[i+1]) {
				rawV = raw[i+1][j]
			}
			if rawV != want.v {
				t.Errorf("%s: excelize reads %.60q, want %.60q", ref, rawV, want.v)
			}
			ct, _ := f.GetCellType("Data", ref)
			if wantT := map[string]excelize.CellType{"": excelize.CellTypeUnset, "inlineStr": excelize.CellTypeInlineString}[want.t]; ct != wantT {
				t.Errorf("%s: cell type %v, want %v", ref, ct, wantT)
			}
			if got := numFmtOf(t, f, "Data", ref); got != want.numFmt {
				t.Errorf("%s: number format %q, want %q", ref, got, want.numFmt)
			}
		}
	}
	for name, x := range xmls {
		if formulaElement.Match(x) {
			t.Errorf("sheet %s holds an <f> element", name)
		}
	}

	wantWarnings := []string{
		"column b holds binary values (blobs)",
		"4 integer(s) beyond ±2^53 were written as text",
		"first at row 2, column n (cell Data!C3)",
		"1 text value(s) were longer than Excel's limit of 32,767 characters per cell and were cut",
		"first at row 11, column label (cell Data!B12) (40,000 characters)",
		"column d holds dates, but 2 value(s) are not ISO dates from 1900-03-01 on and stay text; first at row 2, column d (cell Data!E3)",
	}
	all := strings.Join(rep.Warnings, "\n")
	for _, w := range wantWarnings {
		if !strings.Contains(all, w) {
			t.Errorf("warnings %q\nwant one containing %q", rep.Warnings, w)
		}
	}
}

func short(v engine.Value) engine.Value {
	if s, ok := v.(string); ok && len(s) > 40 {
		return s[:40] + "…"
	}
	return v
}

func TestXLSXProvenance(t *testing.T) {
	db, query := kindsDB(t)
	at := time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)
	out := filepath.Join(t.TempDir(), "p.xlsx")
	rep, err := export.Export(context.Background(), db, query, out, export.Options{MaxRows: 5,
		Provenance: export.Provenance{Question: "=what is in t?", Model: "qwen2.5-coder:7b", Time: at, Version: "1.2.3"}})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Truncated || rep.Rows != 5 {
		t.Errorf("got %d rows, truncated %v; want 5, true", rep.Rows, rep.Truncated)
	}
	f := openXLSX(t, out)
	got := map[string]string{}
	var warnings []string
	for i, r := range rawRows(t, f, "Provenance") {
		if len(r) < 2 {
			r = append(r, "", "")
		}
		if i == 0 {
			if r[0] != "field" || r[1] != "value" {
				t.Errorf("header %q", r)
			}
			continue
		}
		if r[0] == "warning" {
			warnings = append(warnings, r[1])
			continue
		}
		got[r[0]] = r[1]
	}
	sum, err := db.SHA256(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"question":        "=what is in t?",
		"SQL":             query,
		"model":           "qwen2.5-coder:7b",
		"database":        "test.sqlite",
		"database sha256": sum,
		"exported at":     at.Local().Format("2006-01-02 15:04:05 -07:00 MST"),
		"rows":            "5",
		"capped":          "yes: stopped at the limit of 5 rows (--max-rows)",
		"tables used":     "t",
		"Querent version": "1.2.3",
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: got %q, want %q", k, got[k], w)
		}
	}
	// The analyst's SQL, never Querent's wrapper: the guard changed
	// nothing, so no "SQL as run" row.
	for k, v := range got {
		if strings.Contains(v, "_querent_q") || k == "SQL as run" {
			t.Errorf("provenance %s: %q shows Querent's wrapper or an unchanged statement", k, v)
		}
	}
	if strings.Join(warnings, "\n") != strings.Join(rep.Warnings, "\n") || len(warnings) == 0 {
		t.Errorf("warnings on the sheet %q, in the report %q", warnings, rep.Warnings)
	}
	// The question starts with '=': a string cell all the same.
	for name, x := range sheetXML(t, out) {
		if formulaElement.Match(x) {
			t.Errorf("sheet %s holds an <f> element", name)
		}
	}
}

// statsRow reads the Statistics sheet into column name → field → value.
func statsSheet(t *testing.T, f *excelize.File) map[string]map[string]string {
	rows := rawRows(t, f, "Statistics")
	out := map[string]map[string]string{}
	header := rows[0]
	for _, r := range rows[1:] {
		m := map[string]string{}
		for i, h := range header {
			if i < len(r) {
				m[h] = r[i]
			}
		}
		out[r[0]] = m
	}
	return out
}

func num(s string) float64 {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return math.NaN()
	}
	return f
}

func close15(got string, want float64) bool {
	g := num(got)
	return g == want || math.Abs(g-want) <= 1e-12*math.Max(math.Abs(want), 1e-300)
}

func cellString(v engine.Value) string {
	switch x := v.(type) {
	case nil:
		return ""
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 15, 64), 64)
		return strconv.FormatFloat(r, 'f', -1, 64)
	case string:
		return x
	}
	return fmt.Sprint(v)
}

func TestXLSXStatistics(t *testing.T) {
	db := demo(t)
	query := "SELECT TrackId, Name, Composer, Milliseconds, Bytes / 1e6 AS megabytes, UnitPrice, CASE WHEN TrackId % 3 = 0 THEN 'x' ELSE TrackId END AS mixed FROM Track"
	cols, rows := queryAll(t, db, query)
	want := describe.ComputeStats(cols, rows)
	out := filepath.Join(t.TempDir(), "s.xlsx")
	if _, err := export.Export(context.Background(), db, query, out, export.Options{}); err != nil {
		t.Fatal(err)
	}
	got := statsSheet(t, openXLSX(t, out))
	for j, c := range cols {
		w, g := want.Stats[j], got[c.Name]
		if g == nil {
			t.Errorf("no statistics for %s", c.Name)
			continue
		}
		checks := []struct {
			field string
			ok    bool
			want  any
		}{
			{"kind", g["kind"] == w.Kind, w.Kind},
			{"count", g["count"] == strconv.FormatInt(w.Count, 10), w.Count},
			{"nulls", g["nulls"] == strconv.FormatInt(w.NullCount, 10), w.NullCount},
			{"distinct", g["distinct"] == strconv.FormatInt(w.Distinct, 10), w.Distinct},
			{"min", g["min"] == cellString(w.Min), w.Min},
			{"max", g["max"] == cellString(w.Max), w.Max},
		}
		for _, p := range []struct {
			field string
			p     *float64
		}{{"mean", w.Mean}, {"std", w.Std}, {"p25", w.P25}, {"p50", w.P50}, {"p75", w.P75}} {
			if p.p == nil {
				checks = append(checks, struct {
					field string
					ok    bool
					want  any
				}{p.field, g[p.field] == "", nil})
				continue
			}
			checks = append(checks, struct {
				field string
				ok    bool
				want  any
			}{p.field, close15(g[p.field], *p.p), *p.p})
		}
		if w.Kind == engine.KindText || w.Kind == engine.KindMixed {
			top := w.TopValues[0]
			checks = append(checks, struct {
				field string
				ok    bool
				want  any
			}{"top value", g["top value"] == cellString(top.Value) && g["top count"] == strconv.FormatInt(top.Count, 10), top})
		}
		for _, ch := range checks {
			if !ch.ok {
				t.Errorf("%s %s: got %q, want %v", c.Name, ch.field, g[ch.field], ch.want)
			}
		}
		if g["note"] != "" {
			t.Errorf("%s: note %q, want none (every value is in the sample)", c.Name, g["note"])
		}
	}
}

// TestXLSXStatisticsSampled: beyond the sample, mean and std stay exact,
// the quartiles come from the sample and the note says so; distinct is
// capped. The histogram then needs the second query.
func TestXLSXStatisticsSampled(t *testing.T) {
	if testing.Short() {
		t.Skip("150,000 rows")
	}
	db := demo(t)
	const n = 150_000
	query := fmt.Sprintf("WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r WHERE x < %d) SELECT x * 1.5 AS v FROM r", n)
	out := filepath.Join(t.TempDir(), "big.xlsx")
	rep, err := export.Export(context.Background(), db, query, out, export.Options{Chart: engine.ChartHistogram})
	if err != nil {
		t.Fatal(err)
	}
	f := openXLSX(t, out)
	g := statsSheet(t, f)["v"]
	mean := 1.5 * (n + 1) / 2
	std := 1.5 * math.Sqrt(float64(n)*(n+1)/12)
	if !close15(g["mean"], mean) || math.Abs(num(g["std"])-std) > 1e-9*std {
		t.Errorf("mean %s std %s; want %v %v", g["mean"], g["std"], mean, std)
	}
	if g["min"] != "1.5" || g["max"] != cellString(1.5*n) || g["count"] != "150000" {
		t.Errorf("min %s max %s count %s", g["min"], g["max"], g["count"])
	}
	if g["distinct"] != "more than 100,000" {
		t.Errorf("distinct %q, want more than 100,000", g["distinct"])
	}
	if !strings.Contains(g["note"], "p25, p50 and p75 from a sample of 100,000 of 150,000 values") {
		t.Errorf("note %q", g["note"])
	}
	for _, q := range []struct {
		field string
		p     float64
	}{{"p25", 0.25}, {"p50", 0.5}, {"p75", 0.75}} {
		want := 1.5 * (1 + q.p*(n-1))
		if got := num(g[q.field]); math.Abs(got-want) > 0.01*1.5*n {
			t.Errorf("%s: got %v, want about %v", q.field, got, want)
		}
	}
	// The histogram counted every value by a second query.
	rows := rawRows(t, f, "Chart")
	if !strings.Contains(rows[0][0], "by a second query over the result") {
		t.Errorf("chart note %q", rows[0][0])
	}
	counts := make([]int64, 20)
	width := (1.5*n - 1.5) / 20
	for x := 1; x <= n; x++ {
		b := int((1.5*float64(x) - 1.5) / width)
		counts[min(b, 19)]++
	}
	for b := range 20 {
		if got := rows[4+b][3]; got != strconv.FormatInt(counts[b], 10) {
			t.Errorf("bin %d: got %s, want %d", b, got, counts[b])
		}
	}
	if len(rep.Warnings) != 0 {
		t.Errorf("warnings %q", rep.Warnings)
	}
}

// TestXLSXManySheets: past 1,048,575 data rows the export continues on
// Data 2, with the header.
func TestXLSXManySheets(t *testing.T) {
	if testing.Short() {
		t.Skip("1,048,580 rows")
	}
	db := demo(t)
	const n = 1_048_580
	query := fmt.Sprintf("WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r WHERE x < %d) SELECT x FROM r", n)
	out := filepath.Join(t.TempDir(), "many.xlsx")
	start := time.Now()
	rep, err := export.Export(context.Background(), db, query, out, export.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d rows in %s (%.0f rows/s)", rep.Rows, time.Since(start).Round(time.Millisecond), float64(rep.Rows)/time.Since(start).Seconds())
	if got, want := strings.Join(rep.Sheets, ","), "Data,Data 2,Provenance,Statistics"; got != want {
		t.Fatalf("sheets %s, want %s", got, want)
	}
	xmls := sheetXML(t, out)
	first := string(xmls["Data"])
	if !regexp.MustCompile(`<row r="1048576"><c r="A1048576"( s="\d+")?><v>1048575</v>`).MatchString(first) || strings.Contains(first, `<row r="1048577"`) {
		t.Error("Data does not end with result row 1,048,575 on sheet row 1,048,576")
	}
	if !strings.Contains(first, `<autoFilter ref="$A$1:$A$1048576"`) {
		t.Error("Data: no autofilter over its rows")
	}
	f := openXLSX(t, out)
	rows := rawRows(t, f, "Data 2")
	want := [][]string{{"x"}, {"1048576"}, {"1048577"}, {"1048578"}, {"1048579"}, {"1048580"}}
	if fmt.Sprint(rows) != fmt.Sprint(want) {
		t.Errorf("Data 2: got %v, want %v", rows, want)
	}
	second := string(xmls["Data 2"])
	if !strings.Contains(second, `state="frozen"`) || !strings.Contains(second, `<autoFilter ref="$A$1:$A$6"`) {
		t.Error("Data 2: the header is not frozen and filtered")
	}
	if !strings.Contains(strings.Join(rep.Warnings, "\n"), "continues on Data 2") {
		t.Errorf("warnings %q", rep.Warnings)
	}
}
