package ingest

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

type parsed struct {
	line   int64
	fields []string
}

// parseAll parses text with delimiter d through a reader that returns a
// few bytes at a time (so every refill path runs), skipping blank lines.
func parseAll(t *testing.T, text string, d byte, small bool) ([]parsed, error) {
	t.Helper()
	var r io.Reader = strings.NewReader(text)
	if small {
		r = iotest.HalfReader(iotest.OneByteReader(r))
	}
	p := newCSVParser(r, d)
	if small {
		p.buf = make([]byte, 16) // grows as records need
	}
	var out []parsed
	for {
		fields, err := p.next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		if p.recBlank {
			continue
		}
		rec := parsed{line: p.recLine}
		for _, f := range fields {
			rec.fields = append(rec.fields, string(f))
		}
		out = append(out, rec)
	}
}

func TestParser(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []parsed
	}{
		{"simple LF", "a,b\n1,2\n", []parsed{{1, []string{"a", "b"}}, {2, []string{"1", "2"}}}},
		{"no final newline", "a,b\n1,2", []parsed{{1, []string{"a", "b"}}, {2, []string{"1", "2"}}}},
		{"CRLF", "a,b\r\n1,2\r\n", []parsed{{1, []string{"a", "b"}}, {2, []string{"1", "2"}}}},
		{"CR only", "a,b\r1,2\r3,4", []parsed{{1, []string{"a", "b"}}, {2, []string{"1", "2"}}, {3, []string{"3", "4"}}}},
		{"empty fields", ",\n,,x\n", []parsed{{1, []string{"", ""}}, {2, []string{"", "", "x"}}}},
		{"trailing delimiter at EOF", "a,", []parsed{{1, []string{"a", ""}}}},
		{"quoted delimiter", `"a,b",c` + "\n", []parsed{{1, []string{"a,b", "c"}}}},
		{"escaped quotes", `"say ""hi""",x` + "\n", []parsed{{1, []string{`say "hi"`, "x"}}}},
		{"quoted empty", `"",x` + "\n", []parsed{{1, []string{"", "x"}}}},
		{"quoted LF", "h\n\"a\nb\",c\nnext,1\n", []parsed{{1, []string{"h"}}, {2, []string{"a\nb", "c"}}, {4, []string{"next", "1"}}}},
		{"quoted CRLF kept", "h\r\n\"a\r\nb\",c\r\nnext,1\r\n", []parsed{{1, []string{"h"}}, {2, []string{"a\r\nb", "c"}}, {4, []string{"next", "1"}}}},
		{"quoted lone CR kept", "\"a\rb\",c\nn,1\n", []parsed{{1, []string{"a\rb", "c"}}, {3, []string{"n", "1"}}}},
		{"stray quote in unquoted field", "a,b\"c,d\n", []parsed{{1, []string{"a", `b"c`, "d"}}}},
		{"text after closing quote", `"ab"cd,e` + "\n", []parsed{{1, []string{"abcd", "e"}}}},
		{"quote at EOF closes", `x,"ab"`, []parsed{{1, []string{"x", "ab"}}}},
		{"blank lines skipped", "a\n\n\nb\n", []parsed{{1, []string{"a"}}, {4, []string{"b"}}}},
		{"quoted newline then blank", "\"a\n\nb\"\nc\n", []parsed{{1, []string{"a\n\nb"}}, {4, []string{"c"}}}},
		{"emoji and scripts", "\"😀, ü\",日本\n", []parsed{{1, []string{"😀, ü", "日本"}}}},
		{"many quoted fields", `"1","2","3"` + "\r\n" + `"4","5","6"`, []parsed{{1, []string{"1", "2", "3"}}, {2, []string{"4", "5", "6"}}}},
	}
	for _, tt := range tests {
		for _, small := range []bool{false, true} {
			got, err := parseAll(t, tt.in, ',', small)
			if err != nil {
				t.Errorf("%s (small %v): %v", tt.name, small, err)
				continue
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("%s (small %v):\n got %+v\nwant %+v", tt.name, small, got, tt.want)
			}
		}
	}
}

func TestParserDelimiters(t *testing.T) {
	for _, d := range []byte{',', ';', '\t', '|'} {
		D := string(d)
		in := "a" + D + "b" + D + "c\n1" + D + `"x` + D + `y"` + D + "3\n"
		got, err := parseAll(t, in, d, false)
		if err != nil {
			t.Fatal(err)
		}
		want := []parsed{{1, []string{"a", "b", "c"}}, {2, []string{"1", "x" + D + "y", "3"}}}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("delimiter %q: got %+v, want %+v", d, got, want)
		}
	}
}

func TestParserUnterminatedQuote(t *testing.T) {
	for _, small := range []bool{false, true} {
		_, err := parseAll(t, "a,b\n1,2\n3,\"open\n4,5\n6,7\n", ',', small)
		var pe *parseError
		if !errors.As(err, &pe) || pe.kind != "unterminated" {
			t.Fatalf("small %v: got %v, want an unterminated-quote error", small, err)
		}
		if got, want := pe.line, int64(3); got != want {
			t.Errorf("small %v: line %d, want %d", small, got, want)
		}
	}
}

func TestParserFieldLimit(t *testing.T) {
	big := strings.Repeat("x", maxFieldBytes+10)
	for _, in := range []string{
		"a,b\n1,\"" + big + "\"\n",
		"a,b\n1," + big + "\n",
		"a,b\n1," + big,
	} {
		_, err := parseAll(t, in, ',', false)
		var pe *parseError
		if !errors.As(err, &pe) || pe.kind != "field" {
			t.Fatalf("got %v, want a field-too-long error", err)
		}
		if pe.line != 2 || pe.column != 2 {
			t.Errorf("line %d column %d, want line 2 column 2", pe.line, pe.column)
		}
	}
	// Exactly at the limit is fine.
	ok := strings.Repeat("y", maxFieldBytes)
	got, err := parseAll(t, "a\n\""+ok+"\"\n", ',', false)
	if err != nil || len(got) != 2 || len(got[1].fields[0]) != maxFieldBytes {
		t.Errorf("a value of exactly 10 MB: err %v", err)
	}
}

func TestParserFieldLines(t *testing.T) {
	p := newCSVParser(strings.NewReader("h1,h2,h3\n\"a\nb\",\"c\r\n\r\nd\",e\nz,y,x\n"), ',')
	if _, err := p.next(); err != nil {
		t.Fatal(err)
	}
	if _, err := p.next(); err != nil {
		t.Fatal(err)
	}
	var got []int64
	for j := range 3 {
		got = append(got, p.lineOf(j))
	}
	if want := []int64{2, 3, 5}; !reflect.DeepEqual(got, want) {
		t.Errorf("field lines %v, want %v", got, want)
	}
	if _, err := p.next(); err != nil || p.recLine != 6 {
		t.Errorf("next record at line %d (err %v), want 6", p.recLine, err)
	}
}

func TestCountBreaks(t *testing.T) {
	for in, want := range map[string]int{"": 0, "a": 0, "\n": 1, "\r\n": 1, "\r": 1, "\n\r": 2, "a\r\nb\rc\nd": 3, "\r\r\n": 2} {
		if got := countBreaks([]byte(in)); got != want {
			t.Errorf("countBreaks(%q) = %d, want %d", in, got, want)
		}
	}
}

func TestSniffDelimiter(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want byte
	}{
		{"comma", "a,b,c\n1,2,3\n4,5,6\n", ','},
		{"semicolon with decimal commas", "a;b;c\n1,5;2,25;3\n4;5,5;6\n", ';'},
		{"tab", "a\tb\n1\t2\n", '\t'},
		{"pipe", "a|b|c\n1|2|3\n", '|'},
		{"quoted commas in a semicolon file", "name;note\n\"Smith, J\";\"a, b, c\"\n\"Doe, K\";x\n", ';'},
		{"quoted semicolons in a comma file", "a,b\n\"x;y;z\",1\n\"p;q\",2\n", ','},
		{"header only", "a;b;c", ';'},
		{"one column", "name\nAlice\nBob\n", ','},
		{"quoted newline", "a,b\n\"x\ny;z\",1\n2,3\n", ','},
	}
	for _, tt := range tests {
		if got := sniffDelimiter([]byte(tt.in), true); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
	// A sample cut inside a quoted field still sniffs.
	cut := "a;b\n1;2\n3;\"long" + strings.Repeat(",", 50)
	if got := sniffDelimiter([]byte(cut), false); got != ';' {
		t.Errorf("cut sample: got %q, want ';'", got)
	}
}

func TestSplitQuotedInPlace(t *testing.T) {
	// A record whose quoted fields shrink keeps the fields after them intact.
	got, err := parseAll(t, `"a""b","c""""d",e,"f"`+"\n", ',', false)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`a"b`, `c""d`, "e", "f"}
	if !reflect.DeepEqual(got[0].fields, want) {
		t.Errorf("got %q, want %q", got[0].fields, want)
	}
	if !bytes.Equal([]byte(want[1]), []byte(`c""d`)) {
		t.Fatal("unreachable")
	}
}

// FuzzParser checks that reading in tiny pieces (every refill path) gives
// the same records, lines and errors as reading at once, and that nothing
// panics.
func FuzzParser(f *testing.F) {
	for _, s := range []string{"a,b\n1,2\n", "\"a\r\nb\",c\rd\n", "x\"y,\"z\"\"w\"q\n\n", "\"open\n", "a;b|c\td\r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		whole, errWhole := parseAll(t, in, ',', false)
		small, errSmall := parseAll(t, in, ',', true)
		if (errWhole == nil) != (errSmall == nil) {
			t.Fatalf("errors differ: %v vs %v", errWhole, errSmall)
		}
		if !reflect.DeepEqual(whole, small) {
			t.Fatalf("records differ:\n%+v\n%+v", whole, small)
		}
	})
}
