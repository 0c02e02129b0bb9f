package export

import (
	"archive/zip"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"querent/engine"
)

func TestParseDate(t *testing.T) {
	// serial computes the expected Excel serial number independently, with
	// package time.
	serial := func(s string) float64 {
		tm, err := time.Parse("2006-01-02 15:04:05.999999999", s)
		if err != nil {
			t.Fatal(err)
		}
		return (float64(tm.Unix())+float64(tm.Nanosecond())/1e9)/86400 + 25569
	}
	tests := []struct {
		in   string
		want float64
		form dateForm
		ok   bool
	}{
		{"2024-02-29", serial("2024-02-29 00:00:00"), formDate, true},
		{"1900-03-01", 61, formDate, true},
		{"1970-01-01", 25569, formDate, true},
		{"9999-12-31", serial("9999-12-31 00:00:00"), formDate, true},
		{"2009-01-01 00:00:00", serial("2009-01-01 00:00:00"), formSecond, true},
		{"2024-02-29 13:45", serial("2024-02-29 13:45:00"), formMinute, true},
		{"2024-02-29T13:45:30", serial("2024-02-29 13:45:30"), formSecond, true},
		{"2024-02-29T13:45:30.250", serial("2024-02-29 13:45:30.25"), formMilli, true},
		{"2024-02-29 23:59:59.999999", serial("2024-02-29 23:59:59.999999"), formMilli, true},
		{"1900-02-28", 0, formNone, false}, // before Excel's serials are right
		{"1899-12-31", 0, formNone, false},
		{"2023-02-29", 0, formNone, false},
		{"2024-13-01", 0, formNone, false},
		{"2024-01-01 24:00:00", 0, formNone, false},
		{"2024-01-01 12:60", 0, formNone, false},
		{"2024-01-01 12:00:60", 0, formNone, false}, // a leap second has no Excel serial
		{"2024-01-01Z", 0, formNone, false},
		{"2024-01-01 12:00:00Z", 0, formNone, false}, // a zone: not a plain local date
		{"2024-01-01 12:00:00+02:00", 0, formNone, false},
		{"2024-01-01 12:00:00.", 0, formNone, false},
		{"2024-1-01", 0, formNone, false},
		{"20240101", 0, formNone, false},
		{"2024-01", 0, formNone, false},
		{"not a date", 0, formNone, false},
		{"", 0, formNone, false},
	}
	for _, tt := range tests {
		got, form, ok := parseDate(tt.in)
		if ok != tt.ok || form != tt.form || math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("parseDate(%q) = %v, %v, %v; want %v, %v, %v", tt.in, got, form, ok, tt.want, tt.form, tt.ok)
		}
	}
}

func TestNeutralise(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{`=HYPERLINK("http://evil","click")`, true},
		{`+cmd|' /C calc'!A0`, true},
		{`@SUM(1,2)`, true},
		{`-2+3`, true},
		{"\tTab first", true},
		{"\rCR first", true},
		{"=", true},
		{"-", true},
		{"+", true},
		{"-.", true},
		{"-1e", true},
		{"-1e+", true},
		{"- 5", true},
		{"-5", false},
		{"+3.25", false},
		{"-1e-3", false},
		{"-.5", false},
		{"-5.", false},
		{"plain", false},
		{"", false},
		// A spreadsheet that trims spaces runs " =1" (LibreOffice does,
		// with its "Trim spaces" import option; TestLibreOfficeReadsCSV).
		{" =1", true},
		{"   =1+1", true},
		{"\u00a0=1", true},   // no-break space
		{"\u3000=1", true},   // ideographic space
		{"\ufeff=1+1", true}, // byte-order mark
		{"\u200b=1+1", true}, // zero-width space
		{"\u2060@SUM(1)", true},
		{"\ufeff \u200b+cmd", true},
		{"\n=1+1", true},
		{"\r\n=1+1", true},
		{" \t5", true},
		{"＝1+1", true}, // fullwidth = + - @
		{"＋1+1", true},
		{"－1+1", true},
		{"＠SUM(1)", true},
		{"－5", true},
		{" ＝1", true},
		{" -2+3", true},
		{" @x", true},
		{" -5", false}, // still one plain number
		{"\u00a0+3.25", false},
		{" ", false},
		{"\ufeff", false},
		{"\ufeffplain", false},
		{" plain =1", false},
		{"a=1", false},
		{"5-3", false},
		{"é=1", false},
		{"\u2212" + "1", false}, // the minus sign U+2212 is no operator
		{"\xff=1", false},       // invalid UTF-8 is not blank
	}
	for _, tt := range tests {
		if got := neutralise(tt.in); got != tt.want {
			t.Errorf("neutralise(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestRound15(t *testing.T) {
	tests := []struct{ in, want float64 }{
		{0.1, 0.1},
		{2.0 / 3, 0.666666666666667},
		{0.1 + 0.2, 0.3},
		{3.141592653589793, 3.14159265358979},
		{1e300, 1e300},
		{-2.5, -2.5},
		{123456789012345678, 123456789012346000},
		{42, 42},
	}
	for _, tt := range tests {
		if got := round15(tt.in); got != tt.want {
			t.Errorf("round15(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestCutText(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		cut   bool
		chars int
	}{
		{"short", "hello", false, 0},
		{"at the limit", strings.Repeat("a", maxCellChars), false, 0},
		{"one over", strings.Repeat("a", maxCellChars+1), true, maxCellChars + 1},
		{"40,000", strings.Repeat("ab", 20000), true, 40000},
		// 20,000 emoji are 40,000 UTF-16 units: Excel's limit counts units.
		{"emoji", strings.Repeat("😀", 20000), true, 20000},
		// 3-byte characters under the limit in units, over it in bytes.
		{"CJK under", strings.Repeat("漢", 30000), false, 0},
	}
	for _, tt := range tests {
		got, cut, chars := cutText(tt.in)
		if cut != tt.cut || chars != tt.chars {
			t.Errorf("%s: cut %v, chars %d; want %v, %d", tt.name, cut, chars, tt.cut, tt.chars)
			continue
		}
		if !cut {
			if got != tt.in {
				t.Errorf("%s: changed", tt.name)
			}
			continue
		}
		if n := utf16Len(got); n > maxCellChars {
			t.Errorf("%s: %d UTF-16 units, want at most %d", tt.name, n, maxCellChars)
		}
		wantEnd := "… [cut: " + engine.GroupThousands(int64(tt.chars)) + " characters]"
		if !strings.HasSuffix(got, wantEnd) || !strings.HasPrefix(tt.in, strings.TrimSuffix(got, wantEnd)) {
			t.Errorf("%s: got …%q, want a prefix of the text ending %q", tt.name, got[max(0, len(got)-40):], wantEnd)
		}
	}
}

func TestBadXML(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"plain", false},
		{"tab\tlf\ncr\r", false},
		{"émoji 😀 漢字", false},
		{"nul\x00", true},
		{"bell\x07", true},
		{"bad utf8 \xff", true},
		{"é then \x01", true},
		{"\uFFFE", true},
		{"\uFFFD is fine", false},
	}
	for _, tt := range tests {
		if got := badXML(tt.in); got != tt.want {
			t.Errorf("badXML(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestAppendFloat(t *testing.T) {
	for _, x := range []float64{0, 1, -2.5, 0.1, 1e300, 1e-300, 2.0 / 3, 123456789012345678, math.MaxFloat64, math.SmallestNonzeroFloat64} {
		if got, want := string(appendFloat(nil, x)), engine.FormatFloat(x); got != want {
			t.Errorf("appendFloat(%v) = %s, want %s", x, got, want)
		}
	}
	if got := string(appendFloat(nil, math.Inf(-1))); got != "-Infinity" {
		t.Errorf("-Inf: got %s, want -Infinity", got)
	}
}

func TestGroup(t *testing.T) {
	for in, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 40000: "40,000", 1048575: "1,048,575", -1234567: "-1,234,567"} {
		if got := engine.GroupThousands(in); got != want {
			t.Errorf("engine.GroupThousands(%d) = %s, want %s", in, got, want)
		}
	}
}

// TestFixZip64Headers: with a limit of 0 every entry counts as large, and
// its local header gets version 4.5; the zip still reads.
func TestFixZip64Headers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.zip")
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zw := zip.NewWriter(f)
	for _, name := range []string{"xl/worksheets/sheet1.xml", "b"} {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(strings.Repeat("<row/>", 1000)))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := fixZip64Headers(f, 0); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	for _, e := range zr.File {
		off, _ := e.DataOffset()
		var h [30]byte
		f.ReadAt(h[:], off-30-int64(len(e.Name)))
		if got := binary.LittleEndian.Uint16(h[4:6]); got != 45 {
			t.Errorf("%s: version %d, want 45", e.Name, got)
		}
		rc, err := e.Open()
		if err != nil {
			t.Fatal(err)
		}
		rc.Close()
	}
}

// TestStreamStatsBounded: the distinct table and the sample stop at their
// bounds however many values come.
func TestStreamStatsBounded(t *testing.T) {
	s := newStreamStats(1)
	s.cols[0].distinctCap, s.cols[0].sampleCap = 100, 50
	for i := range int64(10000) {
		s.add([]engine.Value{i})
	}
	c := &s.cols[0]
	if len(c.counts) != 100 || len(c.sample) != 50 || !c.capped {
		t.Errorf("distinct %d (capped %v), sample %d; want 100 (capped), 50", len(c.counts), c.capped, len(c.sample))
	}
	sum := s.summarize(0)
	if sum.Count != 10000 || !sum.Sampled || sum.SampleSize != 50 || sum.Min != int64(0) || sum.Max != int64(9999) {
		t.Errorf("summary %+v", sum)
	}
	if sum.Mean == nil || *sum.Mean != 4999.5 {
		t.Errorf("mean %v, want 4999.5", sum.Mean)
	}
	if got, want := perColumn(12), 100_000; got != want {
		t.Errorf("perColumn(12) = %d, want %d", got, want)
	}
	if got, want := perColumn(2000), 1000; got != want {
		t.Errorf("perColumn(2000) = %d, want %d", got, want)
	}
}
