package ingest

import (
	"context"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"querent/engine"
	"querent/engine/imports"
)

// source reads the one source of path.
func source(t *testing.T, path string, opts Options) *Source {
	t.Helper()
	srcs, err := ReadSources(context.Background(), path, opts)
	if err != nil {
		t.Fatalf("ReadSources(%s): %v", filepath.Base(path), err)
	}
	t.Cleanup(func() {
		for _, s := range srcs {
			s.Close()
		}
	})
	if len(srcs) != 1 {
		t.Fatalf("%d sources, want 1", len(srcs))
	}
	return srcs[0]
}

// applied applies ch and streams every row.
func applied(t *testing.T, s *Source, ch Choices) (*imports.Table, [][]engine.Value) {
	t.Helper()
	tb, _, err := s.Apply(ch)
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	var rows [][]engine.Value
	if err := tb.Rows(context.Background(), func(row []engine.Value) error {
		if len(row) != len(tb.Columns) {
			t.Fatalf("row of %d values for %d columns", len(row), len(tb.Columns))
		}
		rows = append(rows, slices.Clone(row))
		return nil
	}); err != nil {
		t.Fatalf("Rows: %v", err)
	}
	return tb, rows
}

func previewColumn(t *testing.T, tb *imports.Table, name string) (int, imports.PlanColumn) {
	t.Helper()
	for i, c := range tb.PreviewColumns {
		if c.Name == name {
			return i, c
		}
	}
	t.Fatalf("no column %q in the preview", name)
	return 0, imports.PlanColumn{}
}

// start_date of the cabinet file holds m/d/yy dates and a few notes
// ("Aug. 1981"): chosen as a date, its bad values become NULL, counted and
// listed, in the preview and in the rows.
func TestChooseTypeNullBad(t *testing.T) {
	s := source(t, messyFile(t, "538_cabinet-turnover.csv"), Options{})
	_, pc := previewColumn(t, mustApply(t, s, Choices{}), "start_date")
	if pc.Type != imports.TypeText || pc.Suggested != imports.TypeDate ||
		!strings.Contains(pc.Reason, "371 of 379 values are dates written m/d/yy, 8 are not (first on lines 58, 95, 97, 100, 101)") {
		t.Errorf("detected start_date: %s (suggested %q) %q", pc.Type, pc.Suggested, pc.Reason)
	}

	tb, rows := applied(t, s, Choices{Columns: []imports.ColumnOverride{{Column: "start_date", Type: "date", OnBad: "null-bad"}}})
	j, c := column(t, tb, "start_date")
	if c.Type != imports.TypeDate || c.DetectedType != imports.TypeText || c.OnBad != imports.OnBadNull {
		t.Fatalf("start_date: %+v", c)
	}
	if c.BadValues != 8 || len(c.BadAt) != 5 || c.BadAt[0] != (imports.BadValue{Line: 58, Value: "Aug. 1981"}) || c.BadAtLeast {
		t.Errorf("bad values %d %+v (at least %v), want 8 from line 58 \"Aug. 1981\"", c.BadValues, c.BadAt, c.BadAtLeast)
	}
	if c.Converted != 371 || !slices.Equal(c.Overridden, []string{"type", "on_bad"}) {
		t.Errorf("converted %d, overridden %q", c.Converted, c.Overridden)
	}
	if !strings.Contains(c.Reason, `8 values that are not, stored as NULL: line 58 "Aug. 1981"`) {
		t.Errorf("reason %q", c.Reason)
	}
	nulls := 0
	for _, r := range rows {
		switch v := r[j].(type) {
		case nil:
			nulls++
		case string:
			if len(v) != 10 || v[4] != '-' {
				t.Errorf("start_date %q is not YYYY-MM-DD", v)
			}
		default:
			t.Errorf("start_date %#v", v)
		}
	}
	if nulls != 8 || rows[0][j] != "1977-01-21" || rows[56][j] != nil {
		t.Errorf("%d NULLs, first %v, line 58 %v; want 8, 1977-01-21, NULL", nulls, rows[0][j], rows[56][j])
	}
	// The preview's rows are stored the same way.
	pi, _ := previewColumn(t, tb, "start_date")
	if len(tb.Preview) != imports.PreviewRows || tb.Preview[0][pi] != "1977-01-21" {
		t.Errorf("preview: %d rows, first %v", len(tb.Preview), tb.Preview[0][pi])
	}
}

func mustApply(t *testing.T, s *Source, ch Choices) *imports.Table {
	t.Helper()
	tb, _, err := s.Apply(ch)
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	return tb
}

// The policies text (the default) and error.
func TestChooseTypePolicies(t *testing.T) {
	s := source(t, messyFile(t, "538_cabinet-turnover.csv"), Options{})
	tb := mustApply(t, s, Choices{Columns: []imports.ColumnOverride{{Column: "start_date", Type: "DATE"}}})
	_, pc := previewColumn(t, tb, "start_date")
	if pc.Type != imports.TypeText || pc.ChosenType != imports.TypeDate || pc.BadValues != 8 ||
		!strings.Contains(pc.Reason, `kept as text: DATE was chosen, but 8 values are not a date (line 58 "Aug. 1981"`) {
		t.Errorf("policy text: %+v", pc)
	}
	tb, _, err := s.Apply(Choices{Columns: []imports.ColumnOverride{{Column: "start_date", Type: "date", OnBad: "error"}}})
	e := engine.AsError(err)
	if e == nil || e.Code != engine.CodeImport || !strings.Contains(e.Message, `column start_date: line 58 holds "Aug. 1981", which is not a date (8 values in all, on lines 58, 95, 97, 100, 101, …)`) ||
		!strings.Contains(e.Hint, "null-bad") {
		t.Fatalf("policy error: %v", err)
	}
	if tb == nil || len(tb.PreviewColumns) == 0 {
		t.Errorf("the table is still described with the policy error")
	}
	// A type every value fits needs no policy.
	tb, rows := applied(t, s, Choices{Columns: []imports.ColumnOverride{{Column: "departure_day", Type: "real", OnBad: "error"}}})
	j, c := column(t, tb, "departure_day")
	if c.Type != imports.TypeReal || c.BadValues != 0 || rows[0][j] != 247.0 {
		t.Errorf("departure_day as REAL: %+v, %#v", c, rows[0][j])
	}
	// An INTEGER chosen for decimals keeps the detected REAL (policy text).
	p := source(t, messyFile(t, "538_primary-project-2022_rep_candidates.csv"), Options{})
	tb = mustApply(t, p, Choices{Columns: []imports.ColumnOverride{{Column: "Primary %", Type: "integer"}}})
	_, pc = previewColumn(t, tb, "primary_pct")
	if pc.Type != imports.TypeReal || !strings.Contains(pc.Reason, "so the detected type is kept") {
		t.Errorf("INTEGER over percentages: %+v", pc)
	}
}

// Names, skipping, keeping an empty column, the table's name.
func TestChooseNamesAndSkips(t *testing.T) {
	s := source(t, messyFile(t, "538_primary-project-2022_rep_candidates.csv"), Options{})
	tb, rows := applied(t, s, Choices{Table: "candidates", Columns: []imports.ColumnOverride{
		{Column: "Primary %", Name: "primary_share"},
		{Column: "#3", Skip: true},
		{Column: "race_2", Skip: true},
	}})
	if tb.Name != "candidates" || !slices.Contains(tb.Overridden, "name") {
		t.Errorf("table %s, overridden %q", tb.Name, tb.Overridden)
	}
	j, c := column(t, tb, "primary_share")
	if c.OriginalName != "Primary %" || !slices.Equal(c.Overridden, []string{"name"}) || c.Type != imports.TypeReal || rows[0][j] != 0.08 {
		t.Errorf("primary_share: %+v %v", c, rows[0][j])
	}
	if got := columnNames(tb); slices.Contains(got, "race_1") || slices.Contains(got, "race_2") || len(got) != 25 {
		t.Errorf("columns %q", got)
	}
	if len(tb.Skipped) != 2 || !tb.Skipped[0].ByAnalyst || tb.Skipped[0].Position != 3 || tb.Skipped[1].Name != "race_2" {
		t.Errorf("skipped %+v", tb.Skipped)
	}
	if len(rows[0]) != 25 {
		t.Errorf("row of %d values", len(rows[0]))
	}

	for _, tt := range []struct {
		ch   Choices
		want string
	}{
		{Choices{Columns: []imports.ColumnOverride{{Column: "nope"}}}, `has no column "nope"`},
		{Choices{Columns: []imports.ColumnOverride{{Column: "gender", Name: "2x"}}}, `"2x" cannot name a column`},
		{Choices{Columns: []imports.ColumnOverride{{Column: "gender", Name: "select"}}}, "SQL keyword"},
		{Choices{Columns: []imports.ColumnOverride{{Column: "gender", Name: "state"}}}, "two columns would be named state"},
		{Choices{Columns: []imports.ColumnOverride{{Column: "gender", Type: "money"}}}, `unknown type "money"`},
		{Choices{Columns: []imports.ColumnOverride{{Column: "gender", OnBad: "ignore"}}}, `unknown bad-value policy "ignore"`},
		{Choices{Table: "my table"}, `"my table" cannot name a table`},
	} {
		_, _, err := s.Apply(tt.ch)
		if e := engine.AsError(err); e == nil || e.Code != engine.CodeUsage || !strings.Contains(e.Message, tt.want) || e.Hint == "" {
			t.Errorf("%+v: error %v, want usage %q", tt.ch, err, tt.want)
		}
	}
	// Shared choices apply where they match.
	_, matched, err := s.Apply(Choices{Shared: []imports.ColumnOverride{{Column: "gender", Skip: true}, {Column: "elsewhere", Skip: true}}})
	if err != nil || !slices.Equal(matched, []bool{true, false}) {
		t.Errorf("shared: matched %v, %v", matched, err)
	}

	// The empty column the rule leaves out can be kept.
	c2 := source(t, messyFile(t, "538_cabinet-turnover.csv"), Options{})
	tb, rows = applied(t, c2, Choices{Columns: []imports.ColumnOverride{{Column: "#9", Keep: true}}})
	if j, c := column(t, tb, "column_9"); c.Type != imports.TypeText || rows[0][j] != nil || len(tb.Skipped) != 1 {
		t.Errorf("kept column_9: %+v, skipped %+v", c, tb.Skipped)
	}
}

// The header row, the encoding and the delimiter can be chosen.
func TestChooseLayout(t *testing.T) {
	path := writeFile(t, "report.csv", []byte("Quarterly report\nmade 2024-04-01\nid,name,amount\n1,a,5\n2,b,7\n"))
	if e := readError(t, path, Options{}); !strings.Contains(e.Message, "line 3 has 3 fields") {
		t.Errorf("without a header row: %v", e)
	}
	s := source(t, path, Options{HeaderRow: 3})
	tb, rows := applied(t, s, Choices{})
	if got := columnNames(tb); !slices.Equal(got, []string{"id", "name", "amount"}) || len(rows) != 2 || tb.Layout.HeaderRow != 3 {
		t.Errorf("header row 3: %q, %d rows, layout %+v", got, len(rows), tb.Layout)
	}
	if !slices.Contains(tb.Overridden, "header_row") || !warningsContain(tb, "2 lines above the header row (line 3) skipped") {
		t.Errorf("overridden %q, warnings %q", tb.Overridden, tb.Warnings)
	}
	// No header: the first line is data.
	s = source(t, messyFile(t, "538_cabinet-turnover.csv"), Options{HeaderRow: -1})
	tb, rows = applied(t, s, Choices{})
	if tb.RowCount != 380 || tb.Layout.HeaderRow != 0 || tb.Columns[0].Name != "column_1" || rows[0][0] != "president" {
		t.Errorf("no header: %d rows, layout %+v, %q, %v", tb.RowCount, tb.Layout, tb.Columns[0].Name, rows[0][0])
	}
	// The delimiter and encoding chosen, and the detected ones named.
	b := source(t, messyFile(t, "bank-marketing_semicolon.csv"), Options{})
	if b.Layout.Delimiter != ";" || b.Layout.Encoding != "utf-8" || b.Layout.HeaderRow != 1 || len(b.Chosen) != 0 {
		t.Errorf("bank detected: %+v %q", b.Layout, b.Chosen)
	}
	b = source(t, messyFile(t, "bank-marketing_semicolon.csv"), Options{Delimiter: "|", Encoding: "windows-1252"})
	if len(b.cols) != 1 || b.Layout.Encoding != "windows-1252" || !slices.Equal(b.Chosen, []string{"encoding", "delimiter"}) {
		t.Errorf("bank as |: %d columns, %+v %q", len(b.cols), b.Layout, b.Chosen)
	}
	if c := source(t, messyFile(t, "538_cabinet-turnover.csv"), Options{}); c.Layout.Encoding != "utf-8-bom" {
		t.Errorf("cabinet encoding %q", c.Layout.Encoding)
	}
	if _, err := ReadSources(context.Background(), path, Options{Range: "A1:B2"}); engine.ErrorCode(err) != engine.CodeUsage {
		t.Errorf("a range on a CSV file: %v", err)
	}
}

// A sample reads the start of a large file: rows estimated, types from it,
// and no import from it.
func TestSample(t *testing.T) {
	path := messyFile(t, "538_mayweather-mcgregor_tweets.csv")
	s := source(t, path, Options{SampleBytes: 256 << 10})
	if !s.Sampled || s.SHA256 != "" || s.SampleRows >= 12118 || s.Rows < 8000 || s.Rows > 16000 {
		t.Errorf("sample: sampled %v, %d rows read, %d estimated (12,118 in the file), sha %q", s.Sampled, s.SampleRows, s.Rows, s.SHA256)
	}
	tb := mustApply(t, s, Choices{})
	if !tb.Sampled || len(tb.Preview) != imports.PreviewRows {
		t.Errorf("table: sampled %v, %d preview rows", tb.Sampled, len(tb.Preview))
	}
	if err := tb.Rows(context.Background(), func([]engine.Value) error { return nil }); err == nil {
		t.Errorf("a sample's rows were streamed")
	}
	// A small file is read whole, even in a preview.
	if s := source(t, messyFile(t, "538_cabinet-turnover.csv"), Options{SampleBytes: 1 << 20}); s.Sampled || s.SHA256 == "" {
		t.Errorf("small file sampled")
	}
}

// XLSX: the header row and the cell range.
func TestChooseXLSXLayout(t *testing.T) {
	path := filepath.Join(messyXLSX, "538_pollster-stats-full_2019.xlsx")
	srcs, err := ReadSources(context.Background(), path, Options{Layouts: map[string]Layout{"Results": {Range: "B2:D12"}}})
	if err != nil {
		t.Skipf("shared data: %v", err)
	}
	defer func() {
		for _, s := range srcs {
			s.Close()
		}
	}()
	tb, rows := applied(t, srcs[0], Choices{})
	if got := columnNames(tb); !slices.Equal(got, []string{"pollster", "pollster_rating_id", "num_of_polls"}) {
		t.Errorf("range B2:D12: columns %q", got)
	}
	if len(rows) != 10 || tb.Layout.Range != "B2:D12" || tb.Layout.HeaderRow != 2 || tb.Columns[0].Position != 2 ||
		!slices.Equal(tb.Overridden, []string{"range"}) {
		t.Errorf("range B2:D12: %d rows, layout %+v, position %d, overridden %q", len(rows), tb.Layout, tb.Columns[0].Position, tb.Overridden)
	}
	if rows[0][0] != "Monmouth University" || rows[0][1] != int64(215) || rows[0][2] != int64(100) {
		t.Errorf("first row %v", rows[0])
	}
	// The other sheet keeps its detected layout; a header row chosen for it.
	if srcs[1].Layout.HeaderRow != 1 || len(srcs[1].Chosen) != 0 {
		t.Errorf("second sheet: %+v %q", srcs[1].Layout, srcs[1].Chosen)
	}
	srcs2, err := ReadSources(context.Background(), path, Options{Sheets: []string{"Description of Columns"}, HeaderRow: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer srcs2[0].Close()
	tb, _ = applied(t, srcs2[0], Choices{})
	if tb.Layout.HeaderRow != 3 || tb.RowCount != 23 || tb.Columns[0].OriginalName != "Pollster Rating ID" {
		t.Errorf("header row 3: layout %+v, %d rows, first header %q", tb.Layout, tb.RowCount, tb.Columns[0].OriginalName)
	}
	for _, bad := range []string{"B2", "D2:B1", "B2:12", "ZZZZ1:A2"} {
		if _, err := parseRange(bad); engine.ErrorCode(err) != engine.CodeUsage {
			t.Errorf("range %q: %v", bad, err)
		}
	}
	for in, want := range map[string]cellRange{"B3:H": {c0: 2, c1: 8, r0: 3, text: "B3:H"}, "b:h": {c0: 2, c1: 8, text: "B:H"},
		"$A$1:$C$9": {c0: 1, c1: 3, r0: 1, r1: 9, text: "A1:C9"}, "3:10": {r0: 3, r1: 10, text: "3:10"}} {
		if got, err := parseRange(in); err != nil || got != want {
			t.Errorf("parseRange(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
}

// XLSX bad values stored as NULL name their rows.
func TestChooseXLSXNullBad(t *testing.T) {
	path := filepath.Join(messyXLSX, "538_pollster-stats-full_2019.xlsx")
	srcs, err := ReadSources(context.Background(), path, Options{Sheets: []string{"Results"}})
	if err != nil {
		t.Skipf("shared data: %v", err)
	}
	defer srcs[0].Close()
	tb, rows := applied(t, srcs[0], Choices{Columns: []imports.ColumnOverride{{Column: "live_caller_with_cellphones", Type: "boolean", OnBad: "null"}}})
	j, c := column(t, tb, "live_caller_with_cellphones")
	if c.Type != imports.TypeBoolean || c.BadValues != 162 || c.BadAt[0] != (imports.BadValue{Line: 17, Value: "partial"}) {
		t.Errorf("live caller: %+v", c)
	}
	nulls := 0
	for _, r := range rows {
		if r[j] == nil {
			nulls++
		}
	}
	if nulls != 162 {
		t.Errorf("%d NULLs, want 162", nulls)
	}
}

// How values fit a type an analyst chose.
func TestInferrerChoose(t *testing.T) {
	tests := []struct {
		values []string
		typ    string
		bad    int64
		first  int64 // the first bad value's line
	}{
		{[]string{"1", "2.5", "3", "x"}, imports.TypeInteger, 2, 3},
		{[]string{"1", "2.5", "3", "x"}, imports.TypeReal, 1, 5},
		{[]string{"2021-01-01", "2021-01-02 10:00", "2021-01-03 00:00"}, imports.TypeDate, 1, 3},
		{[]string{"2021-01-01", "2021-01-02 10:00"}, imports.TypeDateTime, 0, 0},
		{[]string{"yes", "no", "maybe", ""}, imports.TypeBoolean, 1, 4},
		{[]string{"$5", "€6", "$7"}, imports.TypeInteger, 1, 3},
		{[]string{"12%", "15%", "n/a", "0.5"}, imports.TypeReal, 1, 5},
		{[]string{"a", "b"}, imports.TypeText, 0, 0},
	}
	for _, tt := range tests {
		c := infer(tt.values...)
		ch := c.choose(tt.typ)
		if ch.bad.n != tt.bad || tt.bad > 0 && ch.bad.at[0].line != tt.first {
			t.Errorf("%q as %s: %d bad (first line %d), want %d (line %d)", tt.values, tt.typ, ch.bad.n, ch.bad.at[0].line, tt.bad, tt.first)
		}
		// The converter refuses exactly the bad values.
		refused := 0
		for _, v := range tt.values {
			if _, ok := ch.cv.convert(v); !ok {
				refused++
			}
		}
		if int64(refused) != tt.bad {
			t.Errorf("%q as %s: the converter refuses %d values, want %d", tt.values, tt.typ, refused, tt.bad)
		}
	}
	// Counting stops for an interpretation most values do not fit.
	vals := make([]string, 3000)
	for i := range vals {
		vals[i] = "name"
	}
	if ch := infer(vals...).choose(imports.TypeDate); !ch.atLeast || ch.bad.n <= trackLimit || ch.bad.n >= 3000 {
		t.Errorf("text as dates: %d bad, at least %v", ch.bad.n, ch.atLeast)
	}
}

// The preview's rows stay small whatever the file holds: long values are
// cut (with …), and the rows kept stop at a few megabytes.
func TestPreviewRowsBounded(t *testing.T) {
	big := strings.Repeat("é", 600_000) // 1.2 MB a value
	var b strings.Builder
	b.WriteString("id,text\n")
	for i := range 40 {
		b.WriteString(strconv.Itoa(i) + "," + big + "\n")
	}
	s := source(t, writeFile(t, "long.csv", []byte(b.String())), Options{})
	tb := mustApply(t, s, Choices{})
	if len(tb.Preview) == 0 || len(tb.Preview) > 40 {
		t.Fatalf("%d preview rows", len(tb.Preview))
	}
	total := 0
	for _, r := range tb.Preview {
		v := r[1].(string)
		if len(v) > previewCellMax+len("…") || !strings.HasSuffix(v, "…") || !utf8.ValidString(v) {
			t.Fatalf("a preview value of %d bytes (valid UTF-8 %v)", len(v), utf8.ValidString(v))
		}
		total += len(v)
	}
	if total > previewBytesMax+previewCellMax {
		t.Errorf("the preview keeps %d bytes", total)
	}
	// The rows themselves are whole.
	if tb.RowCount != 40 {
		t.Errorf("%d rows", tb.RowCount)
	}
}
