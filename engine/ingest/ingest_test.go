package ingest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"querent/engine"
	"querent/engine/imports"
)

// writeFile writes data to name in a new temporary folder.
func writeFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// readTable reads path and all its rows; it fails the test on any error.
func readTable(t *testing.T, path string, opts Options) (*imports.Table, [][]engine.Value) {
	t.Helper()
	tables, err := Read(context.Background(), path, opts)
	if err != nil {
		t.Fatalf("Read(%s): %v", filepath.Base(path), err)
	}
	if len(tables) != 1 {
		t.Fatalf("got %d tables, want 1", len(tables))
	}
	tb := tables[0]
	var rows [][]engine.Value
	err = tb.Rows(context.Background(), func(row []engine.Value) error {
		if len(row) != len(tb.Columns) {
			t.Fatalf("row %d has %d values for %d columns", len(rows)+1, len(row), len(tb.Columns))
		}
		rows = append(rows, row)
		return nil
	})
	if err != nil {
		t.Fatalf("Rows(%s): %v", filepath.Base(path), err)
	}
	if got, want := int64(len(rows)), tb.RowCount; got != want {
		t.Fatalf("Rows gave %d rows, RowCount is %d", got, want)
	}
	return tb, rows
}

// readError reads path and returns the error Read gives (failing when it
// gives none).
func readError(t *testing.T, path string, opts Options) *engine.Error {
	t.Helper()
	_, err := Read(context.Background(), path, opts)
	if err == nil {
		t.Fatalf("Read(%s): no error", filepath.Base(path))
	}
	var e *engine.Error
	if !errors.As(err, &e) {
		t.Fatalf("Read(%s): error %T %v is not an *engine.Error", filepath.Base(path), err, err)
	}
	return e
}

// wantImportError checks the error's code and that its message and hint
// hold every substring.
func wantImportError(t *testing.T, e *engine.Error, subs ...string) {
	t.Helper()
	if e.Code != engine.CodeImport {
		t.Errorf("code %q, want %q (%v)", e.Code, engine.CodeImport, e)
	}
	full := e.Message + " | " + e.Hint
	for _, s := range subs {
		if !strings.Contains(full, s) {
			t.Errorf("error %q lacks %q", full, s)
		}
	}
	if e.Hint == "" {
		t.Errorf("error %q has no hint", e.Message)
	}
}

func column(t *testing.T, tb *imports.Table, name string) (int, imports.Column) {
	t.Helper()
	for j, c := range tb.Columns {
		if c.Name == name {
			return j, c
		}
	}
	t.Fatalf("no column %q in %v", name, columnNames(tb))
	return 0, imports.Column{}
}

func columnNames(tb *imports.Table) []string {
	var out []string
	for _, c := range tb.Columns {
		out = append(out, c.Name)
	}
	return out
}

func columnTypes(tb *imports.Table) []string {
	var out []string
	for _, c := range tb.Columns {
		out = append(out, c.Type)
	}
	return out
}

func warningsContain(tb *imports.Table, sub string) bool {
	for _, w := range tb.Warnings {
		if strings.Contains(w, sub) {
			return true
		}
	}
	return false
}

const messyDir = "../../../shared/data/messy/csv"

func messyFile(t *testing.T, name string) string {
	t.Helper()
	path := filepath.Join(messyDir, name)
	if _, err := os.Stat(path); err != nil {
		t.Skipf("shared data not available: %v", err)
	}
	return path
}

// logTable prints the chosen types for a reviewer.
func logTable(t *testing.T, tb *imports.Table) {
	t.Helper()
	t.Logf("%s: table %s, %d rows, sha256 %s…, warnings %q", tb.Source, tb.Name, tb.RowCount, tb.SourceSHA256[:12], tb.Warnings)
	for _, c := range tb.Columns {
		t.Logf("  %-24s %-9s converted %-6d text %-6d %s", c.Name, c.Type, c.Converted, c.KeptAsText, c.Reason)
	}
}

// The row counts below come from Python's csv module (rows after the
// header), computed once.
func TestMessyCabinetTurnover(t *testing.T) {
	tb, rows := readTable(t, messyFile(t, "538_cabinet-turnover.csv"), Options{})
	logTable(t, tb)
	if got, want := tb.RowCount, int64(379); got != want {
		t.Errorf("rows %d, want %d", got, want)
	}
	// The two empty unnamed trailing columns are left out, as in XLSX.
	wantNames := []string{"president", "position", "appointee", "start_date", "end_date", "length", "departure_day", "gender"}
	if got := columnNames(tb); !reflect.DeepEqual(got, wantNames) {
		t.Errorf("names %q, want %q", got, wantNames)
	}
	// The byte-order mark is not part of the first header.
	if got := tb.Columns[0].OriginalName; got != "president" {
		t.Errorf("first header %q, want %q", got, "president")
	}
	if len(tb.Skipped) != 2 || tb.Skipped[0].Name != "column_9" || tb.Skipped[1].Position != 10 ||
		!strings.Contains(tb.Skipped[0].Reason, "CSV and XLSX alike") || tb.Skipped[0].ByAnalyst {
		t.Errorf("skipped %+v, want column_9 and column_10, by the empty-column rule", tb.Skipped)
	}
	if !hasWarning(tb, "2 empty columns with neither a header nor values were left out: column_9, column_10") {
		t.Errorf("no warning about the empty columns: %q", tb.Warnings)
	}
	// start_date mixes m/d/yy dates with notes ("Reagan admin"): every value
	// must convert, so it stays text, saying why.
	_, sd := column(t, tb, "start_date")
	if sd.Type != imports.TypeText || !strings.Contains(sd.Reason, `line 58 holds "Aug. 1981", which is not a date`) {
		t.Errorf("start_date: %s %q", sd.Type, sd.Reason)
	}
	j, dd := column(t, tb, "departure_day")
	if dd.Type != imports.TypeInteger || dd.Converted != 347 {
		t.Errorf("departure_day: %+v", dd)
	}
	if got := rows[0][j]; got != int64(247) {
		t.Errorf("departure_day of row 1: %#v, want 247", got)
	}
	// Quoted commas and the CRLF line ends.
	if got, want := rows[2][1], "Secretary of Health, Education & Welfare"; got != want {
		t.Errorf("row 3 position %q, want %q", got, want)
	}
	// The m/d/yy values themselves: fed to an Inferrer alone, they are dates
	// of the right century (1977 … 2023).
	var dates []string
	for _, r := range rows {
		if s, ok := r[3].(string); ok && strings.Count(s, "/") == 2 {
			dates = append(dates, s)
		}
	}
	c := infer(dates...)
	typ, reason := c.Result()
	if typ != imports.TypeDate || !strings.Contains(reason, "m/d/yy") {
		t.Fatalf("the m/d/yy start dates alone: %s %q", typ, reason)
	}
	conv := c.Converter()
	for raw, want := range map[string]string{"1/21/77": "1977-01-21", "1/20/17": "2017-01-20", "2/8/23": "2023-02-08", "1/20/89": "1989-01-20"} {
		if got := conv(raw); got != want {
			t.Errorf("convert(%q) = %v, want %s", raw, got, want)
		}
	}
}

func TestMessyPrimaryProject(t *testing.T) {
	tb, rows := readTable(t, messyFile(t, "538_primary-project-2022_rep_candidates.csv"), Options{})
	logTable(t, tb)
	if got, want := tb.RowCount, int64(1599); got != want {
		t.Errorf("rows %d, want %d", got, want)
	}
	if got := len(tb.Columns); got != 27 {
		t.Errorf("%d columns, want 27", got)
	}
	want := map[string]string{
		"primary_votes": imports.TypeInteger, "primary_pct": imports.TypeReal, "runoff_votes": imports.TypeInteger,
		"runoff_pct": imports.TypeReal, "primary_date": imports.TypeDate, "trump_date": imports.TypeDate,
		"incumbent": imports.TypeBoolean, "candidate": imports.TypeText, "district": imports.TypeText,
		"c_2020_election_stance": imports.TypeText,
	}
	for name, typ := range want {
		if _, c := column(t, tb, name); c.Type != typ {
			t.Errorf("%s: %s (%s), want %s", name, c.Type, c.Reason, typ)
		}
	}
	jv, _ := column(t, tb, "primary_votes")
	jp, pc := column(t, tb, "primary_pct")
	jd, _ := column(t, tb, "primary_date")
	jr, rv := column(t, tb, "runoff_votes")
	if pc.OriginalName != "Primary %" {
		t.Errorf("original name %q", pc.OriginalName)
	}
	// Row 1: "Aditya ""A.D."" Atholi",…,3/1/22,…,"6,186",8%,…,N/A
	if got := rows[0][0]; got != `Aditya "A.D." Atholi` {
		t.Errorf("doubled quotes: %q", got)
	}
	if got := rows[0][jv]; got != int64(6186) {
		t.Errorf(`"6,186" → %#v, want 6186`, got)
	}
	if got := rows[0][jp]; got != 0.08 {
		t.Errorf(`"8%%" → %#v, want 0.08`, got)
	}
	if got := rows[0][jd]; got != "2022-03-01" {
		t.Errorf(`"3/1/22" → %#v, want 2022-03-01`, got)
	}
	if got := rows[0][jr]; got != nil {
		t.Errorf(`"N/A" → %#v, want nil`, got)
	}
	if rv.Converted != 39 || rv.KeptAsText != 0 {
		t.Errorf("runoff_votes counts %d/%d, want 39/0", rv.Converted, rv.KeptAsText)
	}
	// N/A stays text in text columns.
	jt, _ := column(t, tb, "trump")
	if got := rows[0][jt]; got != "N/A" {
		t.Errorf("trump of row 1: %#v, want N/A kept as text", got)
	}
}

func TestMessyTweets(t *testing.T) {
	path := messyFile(t, "538_mayweather-mcgregor_tweets.csv")
	tb, rows := readTable(t, path, Options{})
	logTable(t, tb)
	if got, want := tb.RowCount, int64(12118); got != want {
		t.Errorf("rows %d, want %d", got, want)
	}
	if got, want := columnTypes(tb), []string{"DATETIME", "BOOLEAN", "INTEGER", "TEXT", "BOOLEAN", "TEXT", "TEXT"}; !reflect.DeepEqual(got, want) {
		t.Errorf("types %v, want %v", got, want)
	}
	newlines, crs := 0, 0
	byID := map[int64]string{}
	for _, r := range rows {
		s := r[6].(string)
		if strings.Contains(s, "\n") {
			newlines++
		}
		if strings.Contains(s, "\r") {
			crs++
		}
		byID[r[2].(int64)] = s
	}
	if newlines != 1774 || crs != 6 {
		t.Errorf("%d values with a line feed and %d with a carriage return, want 1774 and 6", newlines, crs)
	}
	spot := map[int64]string{
		901656933542842368: "Hora cero !!! #ConorMcGregor 👊👊\n#MayweathervMcgregor",
		901657484422762498: "#MayweatherVsMcGregor \r#TeamMcGregor 💪",
		901660300641841153: "I am a:\n\n⚪️ Man\n⚪️ Woman\n🔘 Non-Boxing Fan\n\nLooking for a:\n\n⚪️ Man\n⚪ Woman\n🔘 Bandwagon to hop on to for one day only-- ah sweet #MayMac thx",
		901656917105369088: "🇮🇪🇮🇪🇮🇪 💪💪#MayweathervMcgregor",
	}
	for id, want := range spot {
		if got := byID[id]; got != want {
			t.Errorf("tweet %d: %q, want %q", id, got, want)
		}
	}
	if got := rows[0][0]; got != "2017-08-27 00:05:34" {
		t.Errorf("created_at %v", got)
	}
}

func TestMessyBankMarketing(t *testing.T) {
	tb, rows := readTable(t, messyFile(t, "bank-marketing_semicolon.csv"), Options{})
	logTable(t, tb)
	if got, want := tb.RowCount, int64(11435); got != want {
		t.Errorf("rows %d, want %d", got, want)
	}
	if got := len(tb.Columns); got != 17 {
		t.Fatalf("%d columns, want 17 (the ; delimiter)", got)
	}
	want := []engine.Value{int64(59), "admin.", "married", "secondary", int64(0), int64(2343), int64(1), int64(0), "unknown",
		int64(5), "may", int64(1042), int64(1), int64(-1), int64(0), "unknown", int64(1)}
	if !reflect.DeepEqual(rows[0], want) {
		t.Errorf("row 1 %v, want %v", rows[0], want)
	}
	// Forcing the delimiter gives the same table.
	tb2, _ := readTable(t, messyFile(t, "bank-marketing_semicolon.csv"), Options{Delimiter: ";"})
	if !reflect.DeepEqual(tb.Columns, tb2.Columns) {
		t.Error("forced ; differs from the sniffed one")
	}
}

// --- generated edge cases ---

func utf16Bytes(s string, bigEndian, bom bool) []byte {
	var out []byte
	put := func(u uint16) {
		if bigEndian {
			out = append(out, byte(u>>8), byte(u))
		} else {
			out = append(out, byte(u), byte(u>>8))
		}
	}
	if bom {
		put(0xFEFF)
	}
	for _, r := range s {
		if r >= 0x10000 {
			r -= 0x10000
			put(uint16(0xD800 + r>>10))
			put(uint16(0xDC00 + r&0x3FF))
			continue
		}
		put(uint16(r))
	}
	return out
}

func TestEncodings(t *testing.T) {
	text := "name,city\nJosé,Zürich\nZoë,São Paulo 😀\n"
	want := [][]engine.Value{{"José", "Zürich"}, {"Zoë", "São Paulo 😀"}}
	tests := []struct {
		name    string
		data    []byte
		opts    Options
		warning string
	}{
		{"utf-8", []byte(text), Options{}, ""},
		{"utf-8 bom", append([]byte("\xEF\xBB\xBF"), text...), Options{}, ""},
		{"utf-16le bom", utf16Bytes(text, false, true), Options{}, ""},
		{"utf-16be bom", utf16Bytes(text, true, true), Options{}, ""},
		{"utf-16le no bom", utf16Bytes(text, false, false), Options{}, "no byte-order mark"},
		{"utf-16 forced", utf16Bytes(text, true, false), Options{Encoding: "utf-16"}, ""},
		{"utf-8 forced with bom", append([]byte("\xEF\xBB\xBF"), text...), Options{Encoding: "UTF-8"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb, rows := readTable(t, writeFile(t, "e.csv", tt.data), tt.opts)
			if !reflect.DeepEqual(rows, want) {
				t.Errorf("rows %q, want %q", rows, want)
			}
			if got := columnNames(tb); !reflect.DeepEqual(got, []string{"name", "city"}) {
				t.Errorf("names %q", got)
			}
			if tt.warning == "" && len(tb.Warnings) > 0 || tt.warning != "" && !warningsContain(tb, tt.warning) {
				t.Errorf("warnings %q, want %q", tb.Warnings, tt.warning)
			}
		})
	}
}

func TestWindows1252(t *testing.T) {
	data := []byte("name,price\ncaf\xe9,\x803 each\nna\xefve \x93quoted\x94,4\n")
	tb, rows := readTable(t, writeFile(t, "w.csv", data), Options{})
	want := [][]engine.Value{{"café", "€3 each"}, {"naïve “quoted”", "4"}}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("rows %q, want %q", rows, want)
	}
	if !warningsContain(tb, "w.csv: the file is not UTF-8; it was read as Windows-1252") {
		t.Errorf("warnings %q", tb.Warnings)
	}
	// Forced.
	_, rows = readTable(t, writeFile(t, "w.csv", data), Options{Encoding: "windows-1252"})
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("forced: rows %q, want %q", rows, want)
	}
	// Forced UTF-8: the bytes are replaced and counted, never dropped.
	tb, rows = readTable(t, writeFile(t, "w.csv", data), Options{Encoding: "utf-8"})
	if got := rows[0][0]; got != "caf\uFFFD" {
		t.Errorf("forced utf-8: %q", got)
	}
	if !warningsContain(tb, "5 bytes not valid UTF-8 replaced with U+FFFD (first on line 2)") {
		t.Errorf("warnings %q", tb.Warnings)
	}
}

func TestInvalidUTF8(t *testing.T) {
	// A UTF-8 file (many valid accents) with stray bytes: counted, replaced,
	// the first line named.
	var b strings.Builder
	b.WriteString("name,n\n")
	for i := range 20 {
		fmt.Fprintf(&b, "José Müller %d,%d\n", i, i)
	}
	b.WriteString("bad \xff byte,1\nand \xc3 cut,2\n")
	tb, rows := readTable(t, writeFile(t, "u.csv", []byte(b.String())), Options{})
	if !warningsContain(tb, "u.csv: 2 bytes not valid UTF-8 replaced with U+FFFD (first on line 22)") {
		t.Errorf("warnings %q", tb.Warnings)
	}
	if got := rows[20][0]; got != "bad \uFFFD byte" {
		t.Errorf("row 21: %q", got)
	}
	if got := rows[21][0]; got != "and \uFFFD cut" {
		t.Errorf("row 22: %q", got)
	}
	// Past the first megabyte (the encoding is chosen from the start).
	b.Reset()
	b.WriteString("id,text\n")
	for i := range 40000 {
		fmt.Fprintf(&b, "%d,plain ascii text here\n", i)
	}
	b.WriteString("40000,caf\xe9\n")
	tb, _ = readTable(t, writeFile(t, "late.csv", []byte(b.String())), Options{})
	if !warningsContain(tb, "1 byte not valid UTF-8 replaced with U+FFFD (first on line 40002); if the file is in Windows-1252, import it with --encoding windows-1252") {
		t.Errorf("warnings %q", tb.Warnings)
	}
}

func TestDelimiters(t *testing.T) {
	for _, d := range []string{",", ";", "\t", "|"} {
		data := "id" + d + "name" + d + "amount\n1" + d + `"Smith, J; ""Jr"" | x	y"` + d + "2.5\n2" + d + "Doe" + d + "3\n"
		for _, opt := range []string{"", d} {
			if opt == "\t" {
				opt = "tab"
			}
			tb, rows := readTable(t, writeFile(t, "d.csv", []byte(data)), Options{Delimiter: opt})
			if got := columnNames(tb); !reflect.DeepEqual(got, []string{"id", "name", "amount"}) {
				t.Errorf("delimiter %q (option %q): names %q", d, opt, got)
				continue
			}
			if got, want := rows[0][1], `Smith, J; "Jr" | x	y`; got != want {
				t.Errorf("delimiter %q: %q, want %q", d, got, want)
			}
			if got := rows[1][2]; got != 3.0 {
				t.Errorf("delimiter %q: amount %#v", d, got)
			}
		}
	}
}

// The first quoted field (with a delimiter and a line break) comes on line
// 50,001, far past the sniffer's sample.
func TestLateQuotedField(t *testing.T) {
	var b strings.Builder
	b.WriteString("id,note,score\n")
	for i := 1; i < 50000; i++ {
		fmt.Fprintf(&b, "%d,plain,%d\n", i, i%7)
	}
	b.WriteString("50000,\"late, with\na break\",3\n50001,after,4\n")
	tb, rows := readTable(t, writeFile(t, "late.csv", []byte(b.String())), Options{})
	if tb.RowCount != 50001 {
		t.Errorf("rows %d, want 50001", tb.RowCount)
	}
	if got := rows[49999][1]; got != "late, with\na break" {
		t.Errorf("late value %q", got)
	}
	if got := rows[50000]; !reflect.DeepEqual(got, []engine.Value{int64(50001), "after", int64(4)}) {
		t.Errorf("last row %v", got)
	}
	// A value on the line after the break is on line 50,003: reasons say so.
	data := b.String() + "50002,x,oops\n"
	tb, _ = readTable(t, writeFile(t, "late2.csv", []byte(data)), Options{})
	if _, c := column(t, tb, "score"); !strings.Contains(c.Reason, `line 50004 holds "oops"`) {
		t.Errorf("score reason %q", c.Reason)
	}
}

func TestLineEnds(t *testing.T) {
	for name, nl := range map[string]string{"LF": "\n", "CRLF": "\r\n", "CR": "\r"} {
		data := "a,b" + nl + "1,\"x" + "\r\n" + "y\"" + nl + "2,z" + nl
		tb, rows := readTable(t, writeFile(t, "l.csv", []byte(data)), Options{})
		if tb.RowCount != 2 {
			t.Errorf("%s: %d rows", name, tb.RowCount)
			continue
		}
		// The CRLF inside the quoted field is kept byte for byte.
		if got := rows[0][1]; got != "x\r\ny" {
			t.Errorf("%s: quoted value %q, want %q", name, got, "x\r\ny")
		}
		// Line numbers count every kind of line end, the quoted one
		// included: the ragged row is line 5.
		e := readError(t, writeFile(t, "l.csv", []byte(data+"3"+nl)), Options{})
		wantImportError(t, e, "l.csv: line 5 has 1 fields, but the header has 2", "--ragged pad")
	}
}

func TestStrayQuote(t *testing.T) {
	_, rows := readTable(t, writeFile(t, "q.csv", []byte("size,name\n5\" pipe,a\"b\n")), Options{})
	if want := []engine.Value{`5" pipe`, `a"b`}; !reflect.DeepEqual(rows[0], want) {
		t.Errorf("row %q, want %q", rows[0], want)
	}
}

func TestUnterminatedQuote(t *testing.T) {
	e := readError(t, writeFile(t, "u.csv", []byte("a,b\n1,2\n3,\"never closed\n4,5\n")), Options{})
	wantImportError(t, e, "u.csv: line 3: a quoted field starts here and never ends", `("")`)
}

func TestSmallFiles(t *testing.T) {
	// One column.
	tb, rows := readTable(t, writeFile(t, "one.csv", []byte("name\nAlice\nBob, Jr\n")), Options{})
	if got := columnNames(tb); !reflect.DeepEqual(got, []string{"name"}) || len(rows) != 2 || rows[1][0] != "Bob, Jr" {
		t.Errorf("one column: names %q rows %q", got, rows)
	}
	// Header only.
	tb, rows = readTable(t, writeFile(t, "head.csv", []byte("id;name;when\r\n")), Options{})
	if got := columnNames(tb); !reflect.DeepEqual(got, []string{"id", "name", "c_when"}) || len(rows) != 0 {
		t.Errorf("header only: names %q rows %d", got, len(rows))
	}
	if !warningsContain(tb, "head.csv: the file has a header row but no data rows") {
		t.Errorf("header only: warnings %q", tb.Warnings)
	}
	// Empty.
	wantImportError(t, readError(t, writeFile(t, "empty.csv", nil), Options{}), "empty.csv is empty: no data at all")
	// White space only, BOM only.
	wantImportError(t, readError(t, writeFile(t, "ws.csv", []byte(" \n\t\r\n  \n")), Options{}), "ws.csv holds only blank lines or white space")
	wantImportError(t, readError(t, writeFile(t, "bom.csv", []byte("\xEF\xBB\xBF")), Options{}), "bom.csv holds only blank lines")
	// A single data row without a header.
	tb, rows = readTable(t, writeFile(t, "nums.csv", []byte("1,2,3\n")), Options{})
	if got := columnNames(tb); !reflect.DeepEqual(got, []string{"column_1", "column_2", "column_3"}) || len(rows) != 1 {
		t.Errorf("one numeric row: names %q rows %v", got, rows)
	}
}

func TestNoHeader(t *testing.T) {
	tb, rows := readTable(t, writeFile(t, "n.csv", []byte("1,2021-01-05,alpha\n2,2021-01-06,beta\n3,2021-01-07,gamma\n")), Options{})
	if got := columnNames(tb); !reflect.DeepEqual(got, []string{"column_1", "column_2", "column_3"}) {
		t.Errorf("names %q", got)
	}
	if len(rows) != 3 || rows[0][0] != int64(1) || rows[0][1] != "2021-01-05" {
		t.Errorf("rows %v", rows)
	}
	if !warningsContain(tb, "n.csv: no header row: columns are named column_1…column_3") {
		t.Errorf("warnings %q", tb.Warnings)
	}
	// A header whose cells are text over typed columns is a header.
	tb, _ = readTable(t, writeFile(t, "h.csv", []byte("id,when,name\n1,2021-01-05,alpha\n")), Options{})
	if got := columnNames(tb); !reflect.DeepEqual(got, []string{"id", "c_when", "name"}) {
		t.Errorf("names %q", got)
	}
	// An all-text file: a header when the first row is unique and non-empty.
	tb, rows = readTable(t, writeFile(t, "t.csv", []byte("first,last\nAda,Lovelace\n")), Options{})
	if got := columnNames(tb); !reflect.DeepEqual(got, []string{"first", "last"}) || len(rows) != 1 {
		t.Errorf("all text: names %q", got)
	}
	tb, rows = readTable(t, writeFile(t, "t2.csv", []byte("Ada,Ada\nBob,Lee\n")), Options{})
	if got := columnNames(tb); !reflect.DeepEqual(got, []string{"column_1", "column_2"}) || len(rows) != 2 {
		t.Errorf("repeated first row: names %q rows %d", got, len(rows))
	}
	// A text cell over a column of numbers makes the first row a header.
	tb, _ = readTable(t, writeFile(t, "t3.csv", []byte("x1,1\n2,2\n3,3\n")), Options{})
	if got := columnNames(tb); !reflect.DeepEqual(got, []string{"x1", "c_1"}) {
		t.Errorf("names %q", got)
	}
	// A first row that fits the typed columns is data, and a reason quotes
	// it when it is the first value that does not fit.
	tb, _ = readTable(t, writeFile(t, "t4.csv", []byte("a1,1\n2,2\n3,3\nx,4\n")), Options{})
	if _, c := column(t, tb, "column_1"); c.Type != imports.TypeText || !strings.Contains(c.Reason, `line 1 holds "a1"`) {
		t.Errorf("column_1: %+v", c)
	}
}

func TestTooManyColumns(t *testing.T) {
	var b strings.Builder
	// The case: 10,000 columns, a header and a row.
	for row := 0; row < 2; row++ {
		for i := range 10000 {
			if i > 0 {
				b.WriteByte(',')
			}
			if row == 0 {
				fmt.Fprintf(&b, "c%d", i)
			} else {
				fmt.Fprintf(&b, "%d", i)
			}
		}
		b.WriteString("\n")
	}
	e := readError(t, writeFile(t, "wide.csv", []byte(b.String())), Options{})
	wantImportError(t, e, "wide.csv has 10000 columns; an SQLite table holds at most 2000", "split the file or keep fewer columns")
}

func TestHugeField(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.csv")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	w.WriteString("id,text\n1,short\n2,\"")
	chunk := strings.Repeat("0123456789abcdef", 4096)
	for range (50 << 20) / len(chunk) { // the case: a 50 MB field
		w.WriteString(chunk)
	}
	w.WriteString("\"\n3,short\n")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	e := readError(t, path, Options{})
	runtime.ReadMemStats(&after)
	wantImportError(t, e, `big.csv: line 3, column 2 ("text"): a quoted value runs past 10 MB`, "10 MB")
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 100<<20 {
		t.Errorf("reading allocated %d MB, want well under 100 MB", alloc>>20)
	}
	t.Logf("allocated %d MB while refusing a 50 MB value", (after.TotalAlloc-before.TotalAlloc)>>20)
	// Unquoted too.
	data := "id,text\n1," + strings.Repeat("x", 11<<20) + "\n"
	e = readError(t, writeFile(t, "big2.csv", []byte(data)), Options{})
	wantImportError(t, e, `big2.csv: line 2, column 2 ("text"): a value longer than 10 MB`)
}

func TestBinaryFiles(t *testing.T) {
	tests := map[string][]byte{
		"png.csv":    append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 100)...),
		"nul.csv":    []byte("a,b\n1,\x00\x00\x01\x02\x03\n"),
		"gz.csv":     {0x1f, 0x8b, 8, 0, 0, 0, 0, 0},
		"sqlite.csv": append([]byte("SQLite format 3\x00"), make([]byte, 84)...),
		"xls.csv":    {0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1, 0, 0},
	}
	for name, data := range tests {
		e := readError(t, writeFile(t, name, data), Options{})
		wantImportError(t, e, name+" is not a text file")
	}
	// A NUL byte far into a text file.
	var b strings.Builder
	b.WriteString("a,b\n")
	for i := range 60000 {
		fmt.Fprintf(&b, "%d,text text text\n", i)
	}
	b.WriteString("x,\x00\n")
	e := readError(t, writeFile(t, "late-nul.csv", []byte(b.String())), Options{})
	wantImportError(t, e, "late-nul.csv: line 60002 holds a NUL byte")
}

func TestRagged(t *testing.T) {
	data := "a,b,c\n1,2,3\n4,5\n6,7,8,,\n9\n"
	e := readError(t, writeFile(t, "r.csv", []byte(data)), Options{})
	wantImportError(t, e, "r.csv: line 3 has 2 fields, but the header has 3", "--ragged pad")

	tb, rows := readTable(t, writeFile(t, "r.csv", []byte(data)), Options{Ragged: "pad"})
	want := [][]engine.Value{{int64(1), int64(2), int64(3)}, {int64(4), int64(5), nil}, {int64(6), int64(7), int64(8)}, {int64(9), nil, nil}}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("padded rows %v, want %v", rows, want)
	}
	if !warningsContain(tb, "r.csv: 2 short rows padded with NULL (first on line 3)") ||
		!warningsContain(tb, "r.csv: 1 row had empty fields past the last column, dropped (first on line 4)") {
		t.Errorf("warnings %q", tb.Warnings)
	}
	// Empty extra fields without pad: an error that suggests pad.
	e = readError(t, writeFile(t, "r2.csv", []byte("a,b\n1,2,\n")), Options{})
	wantImportError(t, e, "r2.csv: line 2 has 3 fields, but the header has 2 (the extra fields are empty)", "--ragged pad")
	// Extra values are never dropped, even with pad.
	e = readError(t, writeFile(t, "r3.csv", []byte("a,b\n1,2,lost?\n")), Options{Ragged: "pad"})
	wantImportError(t, e, `r3.csv: line 2 has 3 fields, but the header has 2, and field 3 is not empty ("lost?")`)
}

func TestBlankLines(t *testing.T) {
	tb, rows := readTable(t, writeFile(t, "b.csv", []byte("\n\na,b\n1,2\n\n3,4\n   \n5,6\n\n\n")), Options{})
	if len(rows) != 3 {
		t.Errorf("%d rows, want 3", len(rows))
	}
	if !warningsContain(tb, "b.csv: 2 blank lines skipped (first on line 5)") || len(tb.Warnings) != 1 {
		t.Errorf("warnings %q", tb.Warnings)
	}
	// Trailing blank lines say nothing.
	tb, _ = readTable(t, writeFile(t, "b2.csv", []byte("a,b\n1,2\n\n\n")), Options{})
	if len(tb.Warnings) != 0 {
		t.Errorf("warnings %q", tb.Warnings)
	}
}

func TestHeaders(t *testing.T) {
	data := "Name,name,,  ,Prix (€),2019,Name\n1,2,3,4,5,6,7\n"
	tb, _ := readTable(t, writeFile(t, "h.csv", []byte(data)), Options{})
	want := []string{"name", "name_2", "column_3", "column_4", "prix", "c_2019", "name_3"}
	if got := columnNames(tb); !reflect.DeepEqual(got, want) {
		t.Errorf("names %q, want %q", got, want)
	}
	var orig []string
	for _, c := range tb.Columns {
		orig = append(orig, c.OriginalName)
	}
	if wantOrig := []string{"Name", "name", "", "  ", "Prix (€)", "2019", "Name"}; !reflect.DeepEqual(orig, wantOrig) {
		t.Errorf("original names %q, want %q", orig, wantOrig)
	}
	if !warningsContain(tb, `3 headers give the name name ("Name", "name", "Name"): the columns are named name, name_2, name_3`) {
		t.Errorf("warnings %q", tb.Warnings)
	}
}

func TestTypedFiles(t *testing.T) {
	data := "zip,code,when,eu,amount,flag,ratio\n" +
		"02134,007,01/02/2021,\"12,5\",($5.00),yes,12%\n" +
		"10001,42,03/04/2021,\"1.234,56\",$1,234.50,no,7.5%\n" +
		"94105,9,05/06/2021,7,$0.99,Y,N/A\n"
	// $1,234.50 holds the delimiter unquoted: quote it.
	data = strings.Replace(data, "$1,234.50", "\"$1,234.50\"", 1)
	tb, rows := readTable(t, writeFile(t, "typed.csv", []byte(data)), Options{})
	logTable(t, tb)
	wantTypes := []string{"TEXT", "TEXT", "TEXT", "REAL", "REAL", "BOOLEAN", "REAL"}
	if got := columnTypes(tb); !reflect.DeepEqual(got, wantTypes) {
		t.Errorf("types %v, want %v", got, wantTypes)
	}
	want := []engine.Value{"02134", "007", "01/02/2021", 12.5, -5.0, int64(1), 0.12}
	if !reflect.DeepEqual(rows[0], want) {
		t.Errorf("row 1 %v, want %v", rows[0], want)
	}
	if got := rows[1][3]; got != 1234.56 {
		t.Errorf("European 1.234,56 → %v", got)
	}
	if got := rows[1][4]; got != 1234.5 {
		t.Errorf("$1,234.50 → %v", got)
	}
	if _, c := column(t, tb, "c_when"); !strings.Contains(c.Reason, "could be month/day or day/month") {
		t.Errorf("when: %q", c.Reason)
	}
	if _, c := column(t, tb, "zip"); !strings.Contains(c.Reason, "leading zero") {
		t.Errorf("zip: %q", c.Reason)
	}
	if _, c := column(t, tb, "ratio"); c.Converted != 2 || c.KeptAsText != 0 {
		t.Errorf("ratio counts: %+v", c)
	}
}

func TestChangedBetweenPasses(t *testing.T) {
	data := []byte("a,b\n1,2\n3,4\n")
	t.Run("size", func(t *testing.T) {
		path := writeFile(t, "c.csv", data)
		tables, err := Read(context.Background(), path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, append(data, "5,6\n"...), 0o644); err != nil {
			t.Fatal(err)
		}
		err = tables[0].Rows(context.Background(), func([]engine.Value) error { return nil })
		var e *engine.Error
		if !errors.As(err, &e) {
			t.Fatalf("got %v, want an import error", err)
		}
		wantImportError(t, e, "c.csv changed while it was being imported")
	})
	t.Run("same size and time", func(t *testing.T) {
		path := writeFile(t, "c.csv", data)
		fi, _ := os.Stat(path)
		tables, err := Read(context.Background(), path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("a,b\n1,2\n3,x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
			t.Fatal(err)
		}
		var got int
		err = tables[0].Rows(context.Background(), func([]engine.Value) error { got++; return nil })
		var e *engine.Error
		if !errors.As(err, &e) {
			t.Fatalf("got %v, want an import error", err)
		}
		wantImportError(t, e, "c.csv changed while it was being imported", `"x"`)
	})
	t.Run("same size, time and types", func(t *testing.T) {
		path := writeFile(t, "c.csv", data)
		fi, _ := os.Stat(path)
		tables, err := Read(context.Background(), path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("a,b\n1,2\n3,5\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(path, fi.ModTime(), fi.ModTime())
		err = tables[0].Rows(context.Background(), func([]engine.Value) error { return nil })
		var e *engine.Error
		if !errors.As(err, &e) {
			t.Fatalf("got %v, want an import error", err)
		}
		wantImportError(t, e, "c.csv changed while it was being imported: its contents differ (sha256)")
	})
}

func TestCancel(t *testing.T) {
	var b strings.Builder
	b.WriteString("a,b\n")
	for i := range 100000 {
		fmt.Fprintf(&b, "%d,%d\n", i, i)
	}
	path := writeFile(t, "big.csv", []byte(b.String()))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Read(ctx, path, Options{}); engine.ErrorCode(err) != engine.CodeCancelled {
		t.Errorf("cancelled before: got %v", err)
	}
	// Cancelled from the progress callback during the first pass.
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	var calls []imports.Progress
	_, err := Read(ctx, path, Options{Progress: func(p imports.Progress) {
		calls = append(calls, p)
		cancel()
	}})
	if engine.ErrorCode(err) != engine.CodeCancelled {
		t.Errorf("cancelled during: got %v", err)
	}
	if len(calls) == 0 || calls[0].Phase != "reading" || calls[0].Source != "big.csv" || calls[0].BytesTotal != int64(b.Len()) {
		t.Errorf("progress %+v", calls)
	}
	// Cancelled during the second pass.
	tables, err := Read(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	n := 0
	err = tables[0].Rows(ctx, func([]engine.Value) error {
		n++
		if n == 10 {
			cancel()
		}
		return nil
	})
	if engine.ErrorCode(err) != engine.CodeCancelled || n > 10+checkEvery {
		t.Errorf("second pass: %v after %d rows", err, n)
	}
	// An error from yield stops the rows.
	stop := errors.New("stop")
	n = 0
	err = tables[0].Rows(context.Background(), func([]engine.Value) error { n++; return stop })
	if err != stop || n != 1 {
		t.Errorf("yield error: %v after %d rows", err, n)
	}
}

func TestProgress(t *testing.T) {
	var b strings.Builder
	b.WriteString("a,b\n")
	for i := range 20000 {
		fmt.Fprintf(&b, "%d,%d\n", i, i)
	}
	var calls []imports.Progress
	start := time.Now()
	tables, err := Read(context.Background(), writeFile(t, "p.csv", []byte(b.String())), Options{
		Progress: func(p imports.Progress) { calls = append(calls, p) },
	})
	if err != nil {
		t.Fatal(err)
	}
	elapsed := time.Since(start)
	if len(calls) < 2 || len(calls) > 2+int(elapsed/(100*time.Millisecond)) {
		t.Errorf("%d progress calls in %v", len(calls), elapsed)
	}
	last := calls[len(calls)-1]
	if last.BytesDone != last.BytesTotal || last.Rows != tables[0].RowCount || last.Phase != "reading" {
		t.Errorf("last progress %+v", last)
	}
}

func TestOptionsErrors(t *testing.T) {
	path := writeFile(t, "o.csv", []byte("a\n1\n"))
	for _, o := range []Options{{Encoding: "latin-9"}, {Delimiter: ":"}, {Ragged: "skip"}} {
		_, err := Read(context.Background(), path, o)
		if engine.ErrorCode(err) != engine.CodeUsage {
			t.Errorf("%+v: got %v, want a usage error", o, err)
		}
	}
	e := readError(t, filepath.Join(t.TempDir(), "missing.csv"), Options{})
	wantImportError(t, e, "missing.csv does not exist")
	e = readError(t, t.TempDir(), Options{})
	wantImportError(t, e, "is a folder")
}

func TestXLSXDispatch(t *testing.T) {
	saved := readXLSX
	defer func() { readXLSX = saved }()
	var got []string
	readXLSX = func(ctx context.Context, path string, opts Options) ([]*Source, error) {
		got = append(got, filepath.Base(path))
		return nil, nil
	}
	for _, name := range []string{"a.xlsx", "b.XLSM"} {
		Read(context.Background(), writeFile(t, name, []byte("whatever")), Options{})
	}
	Read(context.Background(), writeFile(t, "zip.csv", []byte("PK\x03\x04rest")), Options{})
	Read(context.Background(), writeFile(t, "plain.csv", []byte("a\n1\n")), Options{})
	if want := []string{"a.xlsx", "b.XLSM", "zip.csv"}; !reflect.DeepEqual(got, want) {
		t.Errorf("XLSX reader called for %q, want %q", got, want)
	}
}

func TestTableFields(t *testing.T) {
	path := writeFile(t, "Ventes été 2024.csv", []byte("a\n1\n"))
	tb, _ := readTable(t, path, Options{})
	if tb.Name != "ventes_ete_2024" || tb.Source != "Ventes été 2024.csv" || tb.SourcePath != path || tb.Sheet != "" {
		t.Errorf("table %+v", tb)
	}
	// sha256 of "a\n1\n" (sha256sum).
	if want := "309b0e45a73d3fc5325e2b6ed0a01ef8b9cde6b05a5633c1f893f970d52bfddc"; tb.SourceSHA256 != want {
		t.Errorf("sha %q, want %q", tb.SourceSHA256, want)
	}
}

// --- benchmarks ---

var (
	benchOnce sync.Once
	benchDir  string
	benchPath string
	benchErr  error
)

// benchFile writes a 1,000,000-row × 5-column CSV (about 35 MB) once per
// test binary: an id, a name, an amount, a date and a yes/no flag.
func benchFile(b *testing.B) string {
	b.Helper()
	benchOnce.Do(func() {
		benchDir, benchErr = os.MkdirTemp("", "querent-ingest-bench-")
		if benchErr != nil {
			return
		}
		benchPath = filepath.Join(benchDir, "bench.csv")
		f, err := os.Create(benchPath)
		if err != nil {
			benchErr = err
			return
		}
		w := bufio.NewWriterSize(f, 1<<20)
		fmt.Fprintln(w, "id,name,amount,day,active")
		flags := []string{"yes", "no"}
		for i := range 1_000_000 {
			fmt.Fprintf(w, "%d,name %d,%d.%02d,2021-%02d-%02d,%s\n", 100000+i, i%5000, i%100000, i%100, 1+i%12, 1+i%28, flags[i%2])
		}
		if err := w.Flush(); err != nil {
			benchErr = err
		}
		if err := f.Close(); err != nil && benchErr == nil {
			benchErr = err
		}
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchPath
}

func TestMain(m *testing.M) {
	code := m.Run()
	if benchDir != "" {
		os.RemoveAll(benchDir)
	}
	os.Exit(code)
}

// BenchmarkParseCSV measures the parser alone (with UTF-8 validation): the
// file read, split into records and fields.
func BenchmarkParseCSV(b *testing.B) {
	path := benchFile(b)
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(fi.Size())
	b.ResetTimer()
	for b.Loop() {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		p := newCSVParser(newTextReader(f, encUTF8), ',')
		records, fields := 0, 0
		for {
			rec, err := p.next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			records++
			fields += len(rec)
		}
		f.Close()
		if records != 1_000_001 || fields != 5_000_005 {
			b.Fatalf("got %d records, %d fields", records, fields)
		}
	}
}

// BenchmarkReadCSV measures a whole read: the first pass (encoding,
// delimiter, inference, sha256) and the second (every row converted).
func BenchmarkReadCSV(b *testing.B) {
	path := benchFile(b)
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(fi.Size())
	b.ResetTimer()
	for b.Loop() {
		tables, err := Read(context.Background(), path, Options{})
		if err != nil {
			b.Fatal(err)
		}
		t := tables[0]
		n := 0
		if err := t.Rows(context.Background(), func(row []engine.Value) error {
			n++
			return nil
		}); err != nil {
			b.Fatal(err)
		}
		if n != 1_000_000 {
			b.Fatalf("got %d rows", n)
		}
	}
}

// BenchmarkFirstPass measures Read alone (the first pass).
func BenchmarkFirstPass(b *testing.B) {
	path := benchFile(b)
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(fi.Size())
	b.ResetTimer()
	for b.Loop() {
		if _, err := Read(context.Background(), path, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSecondPass measures Rows alone: the file parsed again and every
// value converted.
func BenchmarkSecondPass(b *testing.B) {
	path := benchFile(b)
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	tables, err := Read(context.Background(), path, Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(fi.Size())
	b.ResetTimer()
	for b.Loop() {
		if err := tables[0].Rows(context.Background(), func([]engine.Value) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
}
