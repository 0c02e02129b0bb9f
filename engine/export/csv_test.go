package export_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"querent/engine"
	"querent/engine/export"
)

// expectCSV is the field a value must become.
func expectCSV(v engine.Value, raw bool) string {
	var s string
	switch x := v.(type) {
	case nil:
		return ""
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		switch {
		case math.IsInf(x, 1):
			return "Infinity"
		case math.IsInf(x, -1):
			return "-Infinity"
		}
		return engine.FormatFloat(x)
	case string:
		s = x
	case []byte:
		s = base64.StdEncoding.EncodeToString(x)
	}
	if raw {
		return s
	}
	// What a spreadsheet sees once it strips blanks (tab, CR and LF are
	// triggers of their own, so they are not stripped here).
	rest := strings.TrimLeftFunc(s, func(r rune) bool {
		return r != '\t' && r != '\r' && r != '\n' && (unicode.IsSpace(r) || strings.ContainsRune("\ufeff\u200b\u200c\u200d\u2060", r))
	})
	if rest == "" {
		return s
	}
	switch r, _ := utf8.DecodeRuneInString(rest); r {
	case '=', '@', '\t', '\r', '\n', '＝', '＋', '－', '＠':
		return "'" + s
	case '+', '-':
		if _, err := strconv.ParseFloat(rest, 64); err != nil {
			return "'" + s
		}
	}
	return s
}

func TestCSV(t *testing.T) {
	db, query := kindsDB(t)
	cols, rows := queryAll(t, db, query)
	tests := []struct {
		name  string
		delim rune
		bom   bool
		raw   bool
	}{
		{"comma", ',', false, false},
		{"semicolon with BOM", ';', true, false},
		{"tab", '\t', false, false},
		{"pipe, raw", '|', false, true},
		{"default delimiter, raw, BOM", 0, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "k.csv")
			rep, err := export.Export(context.Background(), db, query, out,
				export.Options{Delimiter: tt.delim, BOM: tt.bom, Raw: tt.raw})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Rows != int64(len(rows)) || rep.Format != "csv" || len(rep.Sheets) != 0 {
				t.Errorf("report %+v", rep)
			}
			data, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			bom := []byte("\uFEFF")
			if got := bytes.HasPrefix(data, bom); got != tt.bom {
				t.Errorf("BOM: got %v, want %v", got, tt.bom)
			}
			data = bytes.TrimPrefix(data, bom)
			r := csv.NewReader(bytes.NewReader(data))
			r.Comma = tt.delim
			if r.Comma == 0 {
				r.Comma = ','
			}
			recs, err := r.ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) != len(rows)+1 {
				t.Fatalf("records: got %d, want %d", len(recs), len(rows)+1)
			}
			for j, c := range cols {
				if recs[0][j] != c.Name {
					t.Errorf("header %d: got %q, want %q", j, recs[0][j], c.Name)
				}
			}
			for i, row := range rows {
				for j, v := range row {
					want := expectCSV(v, tt.raw)
					// encoding/csv reads a quoted CRLF as LF; the file has none.
					if got := recs[i+1][j]; got != want {
						t.Errorf("row %d %s: got %.50q, want %.50q", i+1, cols[j].Name, got, want)
					}
				}
			}
			// NULL is an empty field, empty text a quoted one; lines end in CRLF.
			text := string(data)
			d := string(r.Comma)
			if !strings.HasSuffix(text, "100"+strings.Repeat(d, 6)+"\r\n") {
				t.Errorf("the all-NULL row does not end the file as empty fields: %q", text[len(text)-20:])
			}
			if !strings.Contains(text, d+`""`+d) {
				t.Error(`empty text is not written as ""`)
			}
		})
	}
}

// TestCSVHostile spells out what each hostile cell becomes.
func TestCSVHostile(t *testing.T) {
	db := demo(t)
	cells := append(append([]string{}, hostile...), "-5", "+3.25", "plain", `say "hi"`, "a,b", "x\r\ny")
	var sel []string
	for _, c := range cells {
		sel = append(sel, "SELECT '"+strings.ReplaceAll(c, "'", "''")+"' AS v")
	}
	query := strings.Join(sel, " UNION ALL ")
	want := map[bool][]string{
		false: {`"'=HYPERLINK(""http://evil"",""click"")"`, `'+cmd|' /C calc'!A0`, `"'@SUM(1,2)"`, `'-2+3`, "'\tTab first", "\"'\rCR first\"",
			"-5", "+3.25", "plain", `"say ""hi"""`, `"a,b"`, "\"x\r\ny\""},
		true: {`"=HYPERLINK(""http://evil"",""click"")"`, `+cmd|' /C calc'!A0`, `"@SUM(1,2)"`, `-2+3`, "\tTab first", "\"\rCR first\"",
			"-5", "+3.25", "plain", `"say ""hi"""`, `"a,b"`, "\"x\r\ny\""},
	}
	for _, raw := range []bool{false, true} {
		out := filepath.Join(t.TempDir(), "h.csv")
		if _, err := export.Export(context.Background(), db, query, out, export.Options{Raw: raw}); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(out)
		got := strings.Split(strings.TrimSuffix(string(data), "\r\n"), "\r\n")
		// The last cell holds a CRLF of its own: join it back.
		got = append(got[:len(got)-2], got[len(got)-2]+"\r\n"+got[len(got)-1])
		if got[0] != "v" {
			t.Errorf("header %q", got[0])
		}
		for i, w := range want[raw] {
			if got[i+1] != w {
				t.Errorf("raw=%v %q: got %q, want %q", raw, cells[i], got[i+1], w)
			}
		}
	}
}

// TestCSVHeaderNeutralised: a column name is text like any other.
func TestCSVHeaderNeutralised(t *testing.T) {
	db := demo(t)
	out := filepath.Join(t.TempDir(), "n.csv")
	if _, err := export.Export(context.Background(), db, `SELECT 1 AS "=1+1", 2 AS "ok"`, out, export.Options{}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(out)
	if got, want := string(data), "'=1+1,ok\r\n1,2\r\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// formulaPrefixes are cells that a spreadsheet could read as a formula
// once it strips what it strips (issue 11 §6 of the red team), with the
// field each must become.
var formulaPrefixes = []struct{ cell, field string }{
	{"\n=1+1", "\"'\n=1+1\""},
	{" =1+1", "' =1+1"},
	{"  =1+1", "'  =1+1"},
	{"\u00a0=1+1", "'\u00a0=1+1"},
	{"\u3000=1+1", "'\u3000=1+1"},
	{"\ufeff=1+1", "'\ufeff=1+1"},
	{"\u200b=1+1", "'\u200b=1+1"},
	{"＝1+1", "'＝1+1"},
	{"＋1+1", "'＋1+1"},
	{"－1+1", "'－1+1"},
	{"＠SUM(1;1)", "'＠SUM(1;1)"},
	{" +1+1", "' +1+1"},
	{" -1+1", "' -1+1"},
	{" @SUM(1;1)", "' @SUM(1;1)"},
	{" \t=1+1", "' \t=1+1"},
	{"=1+1", "'=1+1"},
	{"-5", "-5"},   // plain numbers stay as they are
	{" -5", " -5"}, // with spaces too
	{"plain = text", "plain = text"},
}

// TestCSVFormulaPrefixes: every prefix gets the leading ', table-driven
// through a real export.
func TestCSVFormulaPrefixes(t *testing.T) {
	db := demo(t)
	var sel []string
	for _, c := range formulaPrefixes {
		sel = append(sel, "SELECT '"+strings.ReplaceAll(c.cell, "'", "''")+"' AS v")
	}
	out := filepath.Join(t.TempDir(), "p.csv")
	if _, err := export.Export(context.Background(), db, strings.Join(sel, " UNION ALL "), out, export.Options{}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(out)
	got := strings.Split(strings.TrimSuffix(strings.TrimPrefix(string(data), "v\r\n"), "\r\n"), "\r\n")
	if len(got) != len(formulaPrefixes) {
		t.Fatalf("%d fields, want %d: %q", len(got), len(formulaPrefixes), got)
	}
	for i, c := range formulaPrefixes {
		if got[i] != c.field {
			t.Errorf("%q: written %q, want %q", c.cell, got[i], c.field)
		}
	}
}
