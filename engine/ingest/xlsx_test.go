package ingest

import (
	"archive/zip"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/xuri/excelize/v2"

	"querent/engine"
	"querent/engine/imports"
)

const messyXLSX = "../../../shared/data/messy/xlsx/"

// fixture returns the path of a shared XLSX fixture, skipping the test when
// it is absent.
func fixture(t testing.TB, name string) string {
	t.Helper()
	p := filepath.Join(messyXLSX, name)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("fixture %s absent: %v", p, err)
	}
	return p
}

// readAll reads path and drains every table's rows.
func readAll(t testing.TB, path string, opts Options) ([]*imports.Table, [][][]engine.Value) {
	t.Helper()
	tables, err := Read(context.Background(), path, opts)
	if err != nil {
		t.Fatalf("Read(%s): %v", filepath.Base(path), err)
	}
	rows := make([][][]engine.Value, len(tables))
	for i, tb := range tables {
		rows[i] = drain(t, tb)
	}
	return tables, rows
}

func drain(t testing.TB, tb *imports.Table) [][]engine.Value {
	t.Helper()
	var out [][]engine.Value
	err := tb.Rows(context.Background(), func(row []engine.Value) error {
		if len(row) != len(tb.Columns) {
			t.Fatalf("%s: a row of %d values for %d columns", tb.Name, len(row), len(tb.Columns))
		}
		out = append(out, slices.Clone(row))
		return nil
	})
	if err != nil {
		t.Fatalf("%s: Rows: %v", tb.Name, err)
	}
	if int64(len(out)) != tb.RowCount {
		t.Fatalf("%s: Rows gave %d rows, RowCount is %d", tb.Name, len(out), tb.RowCount)
	}
	return out
}

func tableNames(tables []*imports.Table) []string {
	var out []string
	for _, tb := range tables {
		out = append(out, tb.Name)
	}
	return out
}

func sheetColumn(t testing.TB, tb *imports.Table, name string) (int, imports.Column) {
	t.Helper()
	for i, c := range tb.Columns {
		if c.Name == name {
			return i, c
		}
	}
	t.Fatalf("%s: no sheetColumn %q in %v", tb.Name, name, sheetColumnNames(tb))
	return -1, imports.Column{}
}

func sheetColumnNames(tb *imports.Table) []string {
	var out []string
	for _, c := range tb.Columns {
		out = append(out, c.Name)
	}
	return out
}

func hasWarning(tb *imports.Table, parts ...string) bool {
	for _, w := range tb.Warnings {
		ok := true
		for _, p := range parts {
			ok = ok && strings.Contains(w, p)
		}
		if ok {
			return true
		}
	}
	return false
}

func spillFilesLeft(t testing.TB) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(os.TempDir(), "querent-spill-*.bin"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// newSpills returns the spill files in os.TempDir that are not in before.
func newSpills(t testing.TB, before []string) []string {
	t.Helper()
	var out []string
	for _, p := range spillFilesLeft(t) {
		if !slices.Contains(before, p) {
			out = append(out, p)
		}
	}
	return out
}

func fileSHA(t testing.TB, path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

var validName = regexp.MustCompile(`^[\p{L}\p{M}\p{N}_]+$`)

func TestXLSXCsvkitSheets(t *testing.T) {
	path := fixture(t, "csvkit_sheets.xlsx")
	tables, rows := readAll(t, path, Options{})
	if got, want := tableNames(tables), []string{"data", "ʤ"}; !slices.Equal(got, want) {
		t.Fatalf("tables %q, want %q", got, want)
	}
	data, dataRows := tables[0], rows[0]
	if !hasWarning(data, "csvkit_sheets.xlsx, sheet not this one: ", "empty") {
		t.Errorf("no warning about the empty sheet \"not this one\": %q", data.Warnings)
	}
	if got, want := data.Source, "csvkit_sheets.xlsx"; got != want {
		t.Errorf("Source %q, want %q", got, want)
	}
	if got, want := data.Sheet, "data"; got != want {
		t.Errorf("Sheet %q, want %q", got, want)
	}
	if got, want := data.SourceSHA256, fileSHA(t, path); got != want {
		t.Errorf("SourceSHA256 %s, want %s", got, want)
	}
	if got, want := data.RowCount, int64(5); got != want {
		t.Errorf("RowCount %d, want %d", got, want)
	}
	tests := []struct {
		name, typ string
		want      []engine.Value // the sheetColumn's values, row by row
	}{
		{"text", imports.TypeText, []engine.Value{"Chicago Reader", "Chicago Sun-Times", "Chicago Tribune", "This row has blanks", "Unicode! Σ"}},
		// The workbook uses the 1904 date system; Excel shows "1/1/1948"
		// and "01/01/48" (two-digit years); the serials decide the century.
		{"date", imports.TypeDate, []engine.Value{"1971-01-01", "1948-01-01", "1920-01-01", nil, nil}},
		{"integer", imports.TypeInteger, []engine.Value{int64(40), int64(63), int64(164), nil, nil}},
		{"boolean", imports.TypeBoolean, []engine.Value{int64(1), int64(1), int64(0), nil, nil}},
		// Stored 41800000.009999998, shown 41800000.01: the same double.
		{"float", imports.TypeReal, []engine.Value{1.0, 1.27, 41800000.01, nil, nil}},
		{"datetime", imports.TypeDateTime, []engine.Value{"1971-01-01 04:14:00", "1948-01-01 14:57:13", "1920-01-01 00:00:00", nil, nil}},
		{"empty_column", imports.TypeText, []engine.Value{nil, nil, nil, nil, nil}},
		{"column_8", imports.TypeText, []engine.Value{nil, "Extra data beyond headers will be trimmed", nil, nil, nil}},
	}
	if got, want := len(data.Columns), len(tests); got != want {
		t.Fatalf("%d columns %v, want %d", got, sheetColumnNames(data), want)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			i, c := sheetColumn(t, data, tt.name)
			if c.Type != tt.typ {
				t.Errorf("type %s (%s), want %s", c.Type, c.Reason, tt.typ)
			}
			var got []engine.Value
			for _, r := range dataRows {
				got = append(got, r[i])
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("values %#v, want %#v", got, tt.want)
			}
		})
	}
	if _, c := sheetColumn(t, data, "date"); !strings.Contains(c.Reason, "Excel date cells") {
		t.Errorf("date reason %q does not say the dates came from Excel date cells", c.Reason)
	}
	if _, c := sheetColumn(t, data, "empty_column"); c.Reason != "every value is empty" {
		t.Errorf("empty_column reason %q", c.Reason)
	}
	if !hasWarning(data, "row 3", "column_8") {
		t.Errorf("no warning naming row 3 and column_8: %q", data.Warnings)
	}

	dezh := tables[1]
	if !validName.MatchString(dezh.Name) || dezh.Sheet != "ʤ" {
		t.Errorf("table %q from sheet %q: not a valid name", dezh.Name, dezh.Sheet)
	}
	if got, want := rows[1], [][]engine.Value{{int64(1), int64(2), int64(3)}}; !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("ʤ rows %v, want %v", got, want)
	}
}

func TestXLSXPollsterStats(t *testing.T) {
	path := fixture(t, "538_pollster-stats-full_2019.xlsx")
	tables, rows := readAll(t, path, Options{})
	if got, want := tableNames(tables), []string{"results", "description_of_columns"}; !slices.Equal(got, want) {
		t.Fatalf("tables %q, want %q", got, want)
	}
	res, resRows := tables[0], rows[0]
	if got, want := res.RowCount, int64(430); got != want {
		t.Errorf("Results: %d rows, want %d", got, want)
	}
	// 31 columns, less the 5 empty spacers I, N, T, X and AC.
	if got, want := len(res.Columns), 26; got != want {
		t.Errorf("Results: %d columns %v, want %d", got, sheetColumnNames(res), want)
	}
	if !hasWarning(res, "I, N, T, X, AC") {
		t.Errorf("no warning about the dropped spacer columns: %q", res.Warnings)
	}
	seen := map[string]bool{}
	for _, c := range res.Columns {
		if seen[c.Name] || !validName.MatchString(c.Name) {
			t.Errorf("sheetColumn name %q repeated or invalid", c.Name)
		}
		seen[c.Name] = true
	}
	tests := []struct {
		name, original, typ string
		first, second       engine.Value
	}{
		{"column_1", "", imports.TypeInteger, int64(1), int64(2)},
		{"pollster", "Pollster", imports.TypeText, "Monmouth University", "Selzer & Co."},
		{"num_of_polls", "Pollster Characteristics (as of Aug. 2014) / # of Polls", imports.TypeInteger, int64(100), int64(44)},
		{"c_538_grade", "Key Ratings / 538 Grade", imports.TypeText, "A+", "A+"},
		// Shown "D +1.3" and "D +0.1" by a custom format: the raw numbers.
		{"key_ratings_mean_reverted_bias", "Key Ratings / Mean-Reverted Bias", imports.TypeReal, 1.3245738, 0.07698389},
		{"bias_analysis_mean_reverted_bias", "Bias Analysis / Mean-Reverted Bias", imports.TypeReal, 1.3245738, 0.07698389},
		{"key_ratings_predictive_plus_minus", "Key Ratings / Predictive    Plus-Minus", imports.TypeReal, -1.5117485, -1.4063561},
		{"advanced_stats_predictive_plus_minus", "Advanced Stats / Predictive Plus-Minus", imports.TypeReal, -1.5117485, -1.4063561},
		// Shown "80%": the fraction.
		{"races_called_correctly", "Basic Stats / Races Called Correctly", imports.TypeReal, 0.8, 0.84090909},
		{"herding_penalty", "Herding Penalty", imports.TypeReal, 0.20100174, 0.0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			i, c := sheetColumn(t, res, tt.name)
			if c.OriginalName != tt.original || c.Type != tt.typ {
				t.Errorf("original %q type %s, want %q %s", c.OriginalName, c.Type, tt.original, tt.typ)
			}
			if got := []engine.Value{resRows[0][i], resRows[1][i]}; got[0] != tt.first || got[1] != tt.second {
				t.Errorf("values %#v, want %#v, %#v", got, tt.first, tt.second)
			}
		})
	}
	desc := tables[1]
	if got, want := desc.RowCount, int64(25); got != want {
		t.Errorf("Description of Columns: %d rows, want %d", got, want)
	}
	if got, want := sheetColumnNames(desc), []string{"column_name", "description"}; !slices.Equal(got, want) {
		t.Errorf("Description of Columns: columns %q, want %q", got, want)
	}
}

// workbook writes a workbook built by build into dir.
func workbook(t testing.TB, dir, name string, build func(f *excelize.File)) string {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	build(f)
	p := filepath.Join(dir, name)
	if err := f.SaveAs(p); err != nil {
		t.Fatal(err)
	}
	return p
}

func mustXLSX(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func setRows(t testing.TB, f *excelize.File, sheet string, first int, rows ...[]any) {
	t.Helper()
	for i, r := range rows {
		if r == nil {
			continue
		}
		cell, _ := excelize.CoordinatesToCellName(1, first+i)
		mustXLSX(t, f.SetSheetRow(sheet, cell, &r))
	}
}

func styledCells(t testing.TB, f *excelize.File, sheet, from, to string, numFmt int) {
	t.Helper()
	id, err := f.NewStyle(&excelize.Style{NumFmt: numFmt})
	mustXLSX(t, err)
	mustXLSX(t, f.SetCellStyle(sheet, from, to, id))
}

func TestXLSXGenerated(t *testing.T) {
	dir := t.TempDir()
	t.Run("title rows, blank rows, a formula", func(t *testing.T) {
		p := workbook(t, dir, "report.xlsx", func(f *excelize.File) {
			mustXLSX(t, f.SetSheetName("Sheet1", "Sales"))
			setRows(t, f, "Sales", 1,
				[]any{"Quarterly sales"},
				[]any{"Prepared by finance"},
				nil,
				[]any{"region", "amount", "double"},
				[]any{"North", 10, 20},
				nil, nil,
				[]any{"South", 21, 42},
			)
			// A formula whose cached value is 42; the value is what counts.
			mustXLSX(t, f.SetCellFormula("Sales", "C8", "=B8*2"))
		})
		tables, rows := readAll(t, p, Options{})
		tb := tables[0]
		if got, want := tb.Name, "sales"; got != want {
			t.Errorf("name %q, want %q", got, want)
		}
		if got, want := sheetColumnNames(tb), []string{"region", "amount", "double"}; !slices.Equal(got, want) {
			t.Errorf("columns %q, want %q", got, want)
		}
		want := [][]engine.Value{{"North", int64(10), int64(20)}, {"South", int64(21), int64(42)}}
		if !slices.EqualFunc(rows[0], want, slices.Equal) {
			t.Errorf("rows %v, want %v", rows[0], want)
		}
		if !hasWarning(tb, "report.xlsx, sheet Sales: ", "row 1", "Quarterly sales", "row 2", "title") {
			t.Errorf("no warning about the title rows: %q", tb.Warnings)
		}
	})

	t.Run("dates, 1900 system", func(t *testing.T) {
		p := workbook(t, dir, "dates1900.xlsx", func(f *excelize.File) {
			setRows(t, f, "Sheet1", 1,
				[]any{"day", "when", "clock", "flag", "amount"},
				[]any{45292, 45292.75, 0.5, true, 0.125},
				[]any{61, 45293.000005, 0.25, false, 1.5},
				[]any{1, 45294, 86399.0 / 86400, true, 2},
			)
			styledCells(t, f, "Sheet1", "A2", "A4", 14) // m/d/yyyy
			styledCells(t, f, "Sheet1", "B2", "B4", 22) // m/d/yy h:mm
			styledCells(t, f, "Sheet1", "C2", "C4", 21) // h:mm:ss
			styledCells(t, f, "Sheet1", "E2", "E4", 10) // 0.00%
		})
		tables, rows := readAll(t, p, Options{})
		tb := tables[0]
		// A lone default-named sheet is named after the file.
		if got, want := tb.Name, "dates1900"; got != want {
			t.Errorf("name %q, want %q", got, want)
		}
		wantTypes := []string{imports.TypeDate, imports.TypeDateTime, imports.TypeText, imports.TypeBoolean, imports.TypeReal}
		for i, c := range tb.Columns {
			if c.Type != wantTypes[i] {
				t.Errorf("%s: type %s (%s), want %s", c.Name, c.Type, c.Reason, wantTypes[i])
			}
		}
		want := [][]engine.Value{
			{"2024-01-01", "2024-01-01 18:00:00", "12:00:00", int64(1), 0.125},
			{"1900-03-01", "2024-01-02 00:00:00", "06:00:00", int64(0), 1.5},
			{"1900-01-01", "2024-01-03 00:00:00", "23:59:59", int64(1), int64(2)},
		}
		// amount is REAL: 2 converts to 2.0.
		want[2][4] = 2.0
		if !slices.EqualFunc(rows[0], want, slices.Equal) {
			t.Errorf("rows\n%v, want\n%v", rows[0], want)
		}
	})

	t.Run("dates, 1904 system", func(t *testing.T) {
		p := workbook(t, dir, "dates1904.xlsx", func(f *excelize.File) {
			yes := true
			mustXLSX(t, f.SetWorkbookProps(&excelize.WorkbookPropsOptions{Date1904: &yes}))
			mustXLSX(t, f.SetSheetName("Sheet1", "Log"))
			setRows(t, f, "Log", 1,
				[]any{"day", "at"},
				[]any{0, 24472.176388888889},
				[]any{24472, 5844},
			)
			styledCells(t, f, "Log", "A2", "A3", 14)
			styledCells(t, f, "Log", "B2", "B3", 22)
		})
		_, rows := readAll(t, p, Options{})
		want := [][]engine.Value{{"1904-01-01", "1971-01-01 04:14:00"}, {"1971-01-01", "1920-01-01 00:00:00"}}
		if !slices.EqualFunc(rows[0], want, slices.Equal) {
			t.Errorf("rows %v, want %v", rows[0], want)
		}
	})

	t.Run("sheets: empty, header only, chosen", func(t *testing.T) {
		p := workbook(t, dir, "three.xlsx", func(f *excelize.File) {
			mustXLSX(t, f.SetSheetName("Sheet1", "Empty"))
			_, err := f.NewSheet("Header only")
			mustXLSX(t, err)
			_, err = f.NewSheet("Data")
			mustXLSX(t, err)
			setRows(t, f, "Header only", 1, []any{"a", "b"})
			setRows(t, f, "Data", 1, []any{"x"}, []any{1}, []any{2})
		})
		tables, rows := readAll(t, p, Options{})
		if got, want := tableNames(tables), []string{"header_only", "data"}; !slices.Equal(got, want) {
			t.Fatalf("tables %q, want %q", got, want)
		}
		if !hasWarning(tables[0], "sheet Empty: ", "empty") || !hasWarning(tables[0], "sheet Header only: ", "no data rows") {
			t.Errorf("warnings %q", tables[0].Warnings)
		}
		if got := len(rows[0]); got != 0 || tables[0].RowCount != 0 || len(tables[0].Columns) != 2 {
			t.Errorf("header-only table: %d rows, %d columns", got, len(tables[0].Columns))
		}

		tables, _ = readAll(t, p, Options{Sheets: []string{"data", "Header only"}})
		if got, want := tableNames(tables), []string{"data", "header_only"}; !slices.Equal(got, want) {
			t.Errorf("chosen tables %q, want %q", got, want)
		}

		_, err := Read(context.Background(), p, Options{Sheets: []string{"Nope"}})
		checkImportError(t, err, `"Nope"`, `"Empty", "Header only", "Data"`)

		_, err = Read(context.Background(), p, Options{Sheets: []string{"Empty"}})
		checkImportError(t, err, "no data")
	})

	t.Run("default sheet names", func(t *testing.T) {
		p := workbook(t, dir, "Q1 Budget.xlsx", func(f *excelize.File) {
			_, err := f.NewSheet("Sheet2")
			mustXLSX(t, err)
			setRows(t, f, "Sheet1", 1, []any{"a"}, []any{1})
			setRows(t, f, "Sheet2", 1, []any{"b"}, []any{2})
		})
		tables, _ := readAll(t, p, Options{})
		if got, want := tableNames(tables), []string{"q1_budget_sheet1", "q1_budget_sheet2"}; !slices.Equal(got, want) {
			t.Errorf("tables %q, want %q", got, want)
		}
	})

	t.Run("merged group titles", func(t *testing.T) {
		p := workbook(t, dir, "groups.xlsx", func(f *excelize.File) {
			setRows(t, f, "Sheet1", 1,
				[]any{"", "Home", "", "", "Away"},
				[]any{"team", "goals", "shots", "", "goals", "shots"},
				[]any{"A", 1, 5, "", 2, 9},
			)
			mustXLSX(t, f.MergeCell("Sheet1", "B1", "C1"))
			mustXLSX(t, f.MergeCell("Sheet1", "E1", "F1"))
		})
		tables, rows := readAll(t, p, Options{})
		tb := tables[0]
		want := []string{"team", "home_goals", "home_shots", "away_goals", "away_shots"}
		if got := sheetColumnNames(tb); !slices.Equal(got, want) {
			t.Errorf("columns %q, want %q", got, want)
		}
		if _, c := sheetColumn(t, tb, "away_shots"); c.OriginalName != "Away / shots" {
			t.Errorf("original name %q", c.OriginalName)
		}
		if got, want := rows[0][0], []engine.Value{"A", int64(1), int64(5), int64(2), int64(9)}; !slices.Equal(got, want) {
			t.Errorf("row %v, want %v", got, want)
		}
		if !hasWarning(tb, "sheetColumn D") && !hasWarning(tb, ": D") {
			t.Errorf("no warning about the empty sheetColumn D: %q", tb.Warnings)
		}
	})

	t.Run("a short header over text rows is not a group row", func(t *testing.T) {
		p := workbook(t, dir, "notes.xlsx", func(f *excelize.File) {
			setRows(t, f, "Sheet1", 1,
				[]any{"name", "notes"},
				[]any{"ann", "x", "y", "z"},
				[]any{"bob", "w"},
			)
		})
		tables, rows := readAll(t, p, Options{})
		tb := tables[0]
		if got, want := sheetColumnNames(tb), []string{"name", "notes", "column_3", "column_4"}; !slices.Equal(got, want) {
			t.Errorf("columns %q, want %q", got, want)
		}
		if got := len(rows[0]); got != 2 {
			t.Errorf("%d rows, want 2", got)
		}
		if !hasWarning(tb, "row 2", "column_3, column_4") {
			t.Errorf("no warning about the widened row: %q", tb.Warnings)
		}
	})

	t.Run("no header", func(t *testing.T) {
		p := workbook(t, dir, "numbers.xlsx", func(f *excelize.File) {
			setRows(t, f, "Sheet1", 1, []any{1, 2.5}, []any{3, 4})
		})
		tables, rows := readAll(t, p, Options{})
		if got, want := sheetColumnNames(tables[0]), []string{"column_1", "column_2"}; !slices.Equal(got, want) {
			t.Errorf("columns %q, want %q", got, want)
		}
		if got := len(rows[0]); got != 2 {
			t.Errorf("%d rows, want 2", got)
		}
	})

	t.Run("too many columns", func(t *testing.T) {
		p := workbook(t, dir, "wide.xlsx", func(f *excelize.File) {
			row := make([]any, MaxColumns+1)
			for i := range row {
				row[i] = fmt.Sprintf("c%d", i)
			}
			setRows(t, f, "Sheet1", 1, row)
		})
		_, err := Read(context.Background(), p, Options{})
		checkImportError(t, err, "wide.xlsx", "row 1", "2001 columns")
	})
}

func checkImportError(t *testing.T, err error, parts ...string) *engine.Error {
	t.Helper()
	var e *engine.Error
	if !errors.As(err, &e) || e.Code != engine.CodeImport {
		t.Fatalf("error %v (%T), want an import error", err, err)
	}
	t.Logf("%v", e)
	for _, p := range parts {
		if !strings.Contains(e.Message+" "+e.Hint, p) {
			t.Errorf("error %q does not mention %q", e.Error(), p)
		}
	}
	return e
}

// oleFile writes a minimal OLE compound file whose directory holds the
// given stream names.
func oleFile(t *testing.T, path string, names ...string) {
	t.Helper()
	b := make([]byte, 512*3)
	copy(b, []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1})
	binary.LittleEndian.PutUint16(b[0x1A:], 3)      // major version
	binary.LittleEndian.PutUint16(b[0x1C:], 0xFFFE) // byte order
	binary.LittleEndian.PutUint16(b[0x1E:], 9)      // 512-byte sectors
	binary.LittleEndian.PutUint32(b[0x2C:], 1)      // one FAT sector
	binary.LittleEndian.PutUint32(b[0x30:], 0)      // directory at sector 0
	for i := 0; i < 109; i++ {
		binary.LittleEndian.PutUint32(b[0x4C+4*i:], 0xFFFFFFFF)
	}
	binary.LittleEndian.PutUint32(b[0x4C:], 1) // the FAT is sector 1
	dir := b[512:1024]
	for i, n := range append([]string{"Root Entry"}, names...) {
		if i >= 4 {
			break
		}
		e := dir[i*128:]
		u := utf16.Encode([]rune(n))
		for k, c := range u {
			binary.LittleEndian.PutUint16(e[2*k:], c)
		}
		binary.LittleEndian.PutUint16(e[0x40:], uint16(2*len(u)+2))
	}
	fat := b[1024:]
	binary.LittleEndian.PutUint32(fat[0:], 0xFFFFFFFE) // sector 0: end of chain
	binary.LittleEndian.PutUint32(fat[4:], 0xFFFFFFFD) // sector 1: FAT
	for i := 2; i < 128; i++ {
		binary.LittleEndian.PutUint32(fat[4*i:], 0xFFFFFFFF)
	}
	mustXLSX(t, os.WriteFile(path, b, 0o644))
}

func TestXLSXBadFiles(t *testing.T) {
	dir := t.TempDir()
	good := workbook(t, dir, "good.xlsx", func(f *excelize.File) {
		for i := 1; i <= 200; i++ {
			setRows(t, f, "Sheet1", i, []any{fmt.Sprintf("row %d", i), i})
		}
	})
	whole, err := os.ReadFile(good)
	mustXLSX(t, err)

	encrypted := filepath.Join(dir, "locked.xlsx")
	func() {
		f, err := excelize.OpenFile(good)
		mustXLSX(t, err)
		defer f.Close()
		mustXLSX(t, f.SaveAs(encrypted, excelize.Options{Password: "secret"}))
	}()
	fakeLocked := filepath.Join(dir, "fake-locked.xlsx")
	oleFile(t, fakeLocked, "EncryptionInfo", "EncryptedPackage")
	oldXLS := filepath.Join(dir, "old.xlsx") // an .xls renamed
	oleFile(t, oldXLS, "Workbook")
	truncated := filepath.Join(dir, "truncated.xlsx")
	mustXLSX(t, os.WriteFile(truncated, whole[:len(whole)/2], 0o644))
	notBook := filepath.Join(dir, "archive.xlsx") // a ZIP, but not a workbook
	func() {
		fh, err := os.Create(notBook)
		mustXLSX(t, err)
		zw := zip.NewWriter(fh)
		w, err := zw.Create("readme.txt")
		mustXLSX(t, err)
		_, err = w.Write([]byte("hello"))
		mustXLSX(t, err)
		mustXLSX(t, zw.Close())
		mustXLSX(t, fh.Close())
	}()
	garbage := filepath.Join(dir, "garbage.xlsx")
	mustXLSX(t, os.WriteFile(garbage, []byte("this is not a workbook at all"), 0o644))

	tests := []struct {
		name, path string
		parts      []string
	}{
		{"encrypted by excelize", encrypted, []string{"locked.xlsx", "password-protected", "File > Info > Protect Workbook"}},
		{"fake encrypted", fakeLocked, []string{"fake-locked.xlsx", "password-protected", "remove the password"}},
		{"old xls", oldXLS, []string{"old.xlsx", ".xls", "save it as .xlsx"}},
		{"truncated", truncated, []string{"truncated.xlsx", "damaged or truncated"}},
		{"a ZIP but not a workbook", notBook, []string{"archive.xlsx", "not an Excel workbook"}},
		{"not a zip", garbage, []string{"garbage.xlsx", "not a valid .xlsx"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Read(context.Background(), tt.path, Options{})
			checkImportError(t, err, tt.parts...)
		})
	}
}

func TestXLSXSerials(t *testing.T) {
	tests := []struct {
		serial             float64
		date1904, showTime bool
		want               string
	}{
		{1, false, false, "1900-01-01"},
		{59, false, false, "1900-02-28"},
		{60, false, false, "1900-02-28"}, // Excel's 1900-02-29 does not exist
		{61, false, false, "1900-03-01"},
		{45292, false, false, "2024-01-01"},
		{45292, false, true, "2024-01-01 00:00:00"},
		{45292.5, false, false, "2024-01-01 12:00:00"},
		{45292.999999, false, false, "2024-01-02"}, // rounded to the second
		{45292.999999, false, true, "2024-01-02 00:00:00"},
		{24472.176388888889, true, true, "1971-01-01 04:14:00"},
		{0, true, false, "1904-01-01"},
		{1462, true, false, "1908-01-02"},
		{2958465, false, false, "9999-12-31"},
	}
	for _, tt := range tests {
		got, ok := serialText(tt.serial, tt.date1904, tt.showTime, true)
		if !ok || got != tt.want {
			t.Errorf("serial %v (1904 %v): %q %v, want %q", tt.serial, tt.date1904, got, ok, tt.want)
		}
	}
	for _, bad := range []float64{-1, 2958466, math.NaN()} {
		if got, ok := serialText(bad, false, false, true); ok {
			t.Errorf("serial %v: %q, want none", bad, got)
		}
	}
	// Agreement with excelize's own conversion, to the second.
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20000; i++ {
		s := float64(r.IntN(80000)+61) + math.Round(r.Float64()*86400)/86400
		for _, d1904 := range []bool{false, true} {
			tm, err := excelize.ExcelDateToTime(s, d1904)
			mustXLSX(t, err)
			want := tm.Round(time.Second).Format("2006-01-02 15:04:05")
			got, _ := serialText(s, d1904, true, true)
			if got != want {
				t.Fatalf("serial %v (1904 %v): %q, excelize %q", s, d1904, got, want)
			}
		}
	}
}

func TestXLSXRowsNotLines(t *testing.T) {
	tests := []struct {
		in   part
		want string
	}{
		{say("kept_text", lineAt(57), quoted("approx. 5"), say("not_number")), `kept as text: row 57 holds "approx. 5", which is not a number`},
		{say("text_values", lineAt(2), quoted("see line 4")), `the values are text (row 2 holds "see line 4")`},
		{say("all_numbers"), `every value is a number`},
		{say("ambiguous_dates", quoted("1/2/03"), lineAt(9)), `kept as text: dates such as "1/2/03" (row 9) could be month/day or day/month, and no value decides (none has a first or second part over 12)`},
	}
	for _, tt := range tests {
		if got := english(tt.in, true); got != tt.want {
			t.Errorf("in a sheet: %q, want %q", got, tt.want)
		}
	}
}

func TestXLSXLooksLikeDate(t *testing.T) {
	tests := []struct {
		serial          float64
		shown           string
		date1904        bool
		ok, date, clock bool
	}{
		{24472, "1/1/1971", true, true, true, false},
		{24472.176388888889, "01/01/71 04:14 AM", true, true, true, true},
		{5844, "01/01/20 12:00 AM", true, true, true, true},
		{45292, "2024-01-01", false, true, true, false},
		{45292, "Jan-24", false, true, true, false},
		{45292, "1-Jan", false, true, true, false},
		{45292, "Monday, January 1, 2024", false, true, true, false},
		{45292.75, "1/1/24 18:00", false, true, true, true},
		{0.5, "12:00:00", false, true, false, true},
		{0.5, "12:00 PM", false, true, false, true},
		{45292, "1/2/2024", false, false, false, false}, // another day
		{45292.75, "1/1/24 6:00 AM", false, false, false, false},
		{1.3245738, "D +1.3", false, false, false, false},
		{0.8, "80%", false, false, false, false},
		{1, "1", false, false, false, false},
		{1.5, "36:00:00", false, false, false, false}, // a duration
		{44927, "$44,927.00", false, false, false, false},
		{2023.05, "2,023.05", false, false, false, false},
	}
	for _, tt := range tests {
		ok, date, clock := looksLikeDate(tt.serial, tt.shown, tt.date1904)
		if ok != tt.ok || date != tt.date || clock != tt.clock {
			t.Errorf("%v shown %q: %v %v %v, want %v %v %v", tt.serial, tt.shown, ok, date, clock, tt.ok, tt.date, tt.clock)
		}
	}
}

// bigBook writes rows × 6 columns with the stream writer.
func bigBook(t testing.TB, path string, rows, cols int) {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	sw, err := f.NewStreamWriter("Sheet1")
	mustXLSX(t, err)
	dateStyle, err := f.NewStyle(&excelize.Style{NumFmt: 14})
	mustXLSX(t, err)
	header := make([]any, cols)
	for c := range header {
		header[c] = fmt.Sprintf("col %d", c+1)
	}
	mustXLSX(t, sw.SetRow("A1", header))
	row := make([]any, cols)
	for i := 0; i < rows; i++ {
		for c := range row {
			switch c % 6 {
			case 0:
				row[c] = i
			case 1:
				row[c] = float64(i) / 7
			case 2:
				row[c] = fmt.Sprintf("name %d", i%977)
			case 3:
				row[c] = excelize.Cell{StyleID: dateStyle, Value: 40000 + i%3000}
			case 4:
				row[c] = i%2 == 0
			case 5:
				row[c] = fmt.Sprintf("code-%05d", i)
			}
		}
		cell, _ := excelize.CoordinatesToCellName(1, i+2)
		mustXLSX(t, sw.SetRow(cell, row))
	}
	mustXLSX(t, sw.Flush())
	mustXLSX(t, f.SaveAs(path))
}

func heapMB() float64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return float64(m.HeapAlloc) / (1 << 20)
}

func TestXLSXLargeSheet(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	p := filepath.Join(t.TempDir(), "big.xlsx")
	bigBook(t, p, 20000, 6)
	before := spillFilesLeft(t)
	runtime.GC()
	peak := 0.0
	var reports []imports.Progress
	tables, err := Read(context.Background(), p, Options{Progress: func(pr imports.Progress) {
		reports = append(reports, pr)
		peak = max(peak, heapMB())
	}})
	mustXLSX(t, err)
	tb := tables[0]
	if got, want := tb.RowCount, int64(20000); got != want {
		t.Fatalf("RowCount %d, want %d", got, want)
	}
	wantTypes := []string{imports.TypeInteger, imports.TypeReal, imports.TypeText, imports.TypeDate, imports.TypeBoolean, imports.TypeText}
	for i, c := range tb.Columns {
		if c.Type != wantTypes[i] {
			t.Errorf("%s: %s (%s), want %s", c.Name, c.Type, c.Reason, wantTypes[i])
		}
	}
	if len(reports) < 2 || reports[0].Phase != "reading" || reports[0].Source != "big.xlsx: Sheet1" ||
		reports[len(reports)-1].Rows != 20000 {
		t.Errorf("progress reports %+v", reports)
	}
	spilled := newSpills(t, before)
	if len(spilled) != 1 {
		t.Errorf("spill files before Rows: %q, want 1", spilled)
	}
	n := 0
	err = tb.Rows(context.Background(), func(row []engine.Value) error {
		n++
		if n%2000 == 0 {
			peak = max(peak, heapMB())
		}
		if n == 20000 {
			want := []engine.Value{int64(19999), 19999.0 / 7, "name 459", "2014-12-26", int64(0), "code-19999"}
			if !slices.Equal(row, want) {
				t.Errorf("last row %#v, want %#v", row, want)
			}
		}
		return nil
	})
	mustXLSX(t, err)
	if n != 20000 {
		t.Errorf("%d rows, want 20000", n)
	}
	if peak > 100 {
		t.Errorf("heap peaked at %.0f MB, want well under 100 MB", peak)
	}
	t.Logf("heap peak %.1f MB", peak)
	if got := newSpills(t, before); len(got) != 0 {
		t.Errorf("spill files left after Rows: %q", got)
	}
	if err := tb.Rows(context.Background(), func([]engine.Value) error { return nil }); err == nil {
		t.Errorf("a second Rows succeeded")
	}
}

func TestXLSXCleanupAndCancel(t *testing.T) {
	dir := t.TempDir()
	p := workbook(t, dir, "two.xlsx", func(f *excelize.File) {
		_, err := f.NewSheet("More")
		mustXLSX(t, err)
		for i := 1; i <= 1000; i++ {
			setRows(t, f, "Sheet1", i, []any{i, "x"})
			setRows(t, f, "More", i, []any{i, "y"})
		}
	})
	before := spillFilesLeft(t)

	// Rows never called: CleanupTemp removes the files.
	tables, err := Read(context.Background(), p, Options{})
	mustXLSX(t, err)
	if got := newSpills(t, before); len(got) != 2 {
		t.Errorf("spill files %q, want 2", got)
	}
	CleanupTemp()
	if got := newSpills(t, before); len(got) != 0 {
		t.Errorf("spill files after CleanupTemp: %q", got)
	}
	if err := tables[0].Rows(context.Background(), func([]engine.Value) error { return nil }); err == nil {
		t.Errorf("Rows after CleanupTemp succeeded")
	}

	// Rows stopped by yield, and by a cancelled context: files removed.
	tables, err = Read(context.Background(), p, Options{})
	mustXLSX(t, err)
	stop := errors.New("stop")
	if err := tables[0].Rows(context.Background(), func([]engine.Value) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("Rows: %v, want the yield's error", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := tables[1].Rows(ctx, func([]engine.Value) error { return nil }); engine.ErrorCode(err) != engine.CodeCancelled {
		t.Errorf("Rows with a cancelled context: %v", err)
	}
	if got := newSpills(t, before); len(got) != 0 {
		t.Errorf("spill files left: %q", got)
	}

	// Read cancelled: no table, no file.
	if _, err := Read(ctx, p, Options{}); engine.ErrorCode(err) != engine.CodeCancelled {
		t.Errorf("Read with a cancelled context: %v", err)
	}
	if got := newSpills(t, before); len(got) != 0 {
		t.Errorf("spill files left: %q", got)
	}
}

// The benchmark workbook: 100,000 rows × 12 columns, written once and kept
// in the temporary folder between runs (it takes seconds to write).
var (
	benchBookOnce sync.Once
	benchBookPath string
	benchBare     float64 // rows/s of BenchmarkXLSXBare
	benchBareRaw  float64 // rows/s of BenchmarkXLSXBareRaw
)

const benchRows = 100000

func benchBook(b *testing.B) string {
	benchBookOnce.Do(func() {
		benchBookPath = filepath.Join(os.TempDir(), fmt.Sprintf("querent-bench-%dx12.xlsx", benchRows))
		if _, err := os.Stat(benchBookPath); err == nil {
			return
		}
		tmp := benchBookPath + ".tmp.xlsx"
		bigBook(b, tmp, benchRows, 12)
		mustXLSX(b, os.Rename(tmp, benchBookPath))
	})
	return benchBookPath
}

// BenchmarkXLSXBare is the floor: excelize's streaming iterator alone.
func BenchmarkXLSXBare(b *testing.B) {
	p := benchBook(b)
	b.ResetTimer()
	start := time.Now()
	for range b.N {
		f, err := excelize.OpenFile(p)
		mustXLSX(b, err)
		rows, err := f.Rows("Sheet1")
		mustXLSX(b, err)
		n := 0
		for rows.Next() {
			if _, err := rows.Columns(); err != nil {
				b.Fatal(err)
			}
			n++
		}
		mustXLSX(b, rows.Close())
		mustXLSX(b, f.Close())
		if n != benchRows+1 {
			b.Fatalf("%d rows", n)
		}
	}
	rate := float64(benchRows*b.N) / time.Since(start).Seconds()
	b.ReportMetric(rate, "rows/s")
	benchBare = rate
}

// BenchmarkXLSXBareRaw is the same loop reading the stored values
// (RawCellValue), as Read does: no number formatting.
func BenchmarkXLSXBareRaw(b *testing.B) {
	p := benchBook(b)
	b.ResetTimer()
	start := time.Now()
	for range b.N {
		f, err := excelize.OpenFile(p)
		mustXLSX(b, err)
		rows, err := f.Rows("Sheet1")
		mustXLSX(b, err)
		n := 0
		for rows.Next() {
			if _, err := rows.Columns(excelize.Options{RawCellValue: true}); err != nil {
				b.Fatal(err)
			}
			n++
		}
		mustXLSX(b, rows.Close())
		mustXLSX(b, f.Close())
		if n != benchRows+1 {
			b.Fatalf("%d rows", n)
		}
	}
	rate := float64(benchRows*b.N) / time.Since(start).Seconds()
	b.ReportMetric(rate, "rows/s")
	benchBareRaw = rate
}

// BenchmarkXLSXRead is Read and draining Rows: both passes.
func BenchmarkXLSXRead(b *testing.B) {
	p := benchBook(b)
	b.ResetTimer()
	start := time.Now()
	for range b.N {
		tables, err := Read(context.Background(), p, Options{})
		mustXLSX(b, err)
		n := 0
		mustXLSX(b, tables[0].Rows(context.Background(), func([]engine.Value) error { n++; return nil }))
		if n != benchRows {
			b.Fatalf("%d rows", n)
		}
	}
	rate := float64(benchRows*b.N) / time.Since(start).Seconds()
	b.ReportMetric(rate, "rows/s")
	if benchBare > 0 {
		b.ReportMetric(rate/benchBare, "x-bare")
		b.Logf("Read+Rows %.0f rows/s = %.2f × the bare Columns() loop (%.0f rows/s); goal ≥ 0.8", rate, rate/benchBare, benchBare)
	}
	if benchBareRaw > 0 {
		b.ReportMetric(rate/benchBareRaw, "x-bare-raw")
		b.Logf("Read+Rows %.0f rows/s = %.2f × the bare raw loop (%.0f rows/s)", rate, rate/benchBareRaw, benchBareRaw)
	}
}
