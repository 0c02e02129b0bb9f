package ingest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"querent/engine"
	"querent/engine/imports"
)

// customersJSON is an array of n customers, nested as a web service
// returns them.
func customersJSON(n int) []byte {
	var b bytes.Buffer
	b.WriteString("[\n")
	for i := 1; i <= n; i++ {
		if i > 1 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `  {"id": %d, "name": "Customer %d", "active": %t, "balance": %d.%02d, "since": "2024-%02d-%02d",`+
			` "address": {"city": "City %d", "geo": {"lat": %d.5, "extra": {"x": %d}}}, "tags": ["a", "t%d"], "note": null}`,
			i, i, i%2 == 0, i*10, i%100, i%12+1, i%28+1, i%7, i, i, i)
	}
	b.WriteString("\n]\n")
	return b.Bytes()
}

func TestJSONArrayOfObjects(t *testing.T) {
	path := writeFile(t, "customers.json", customersJSON(50))
	tb, rows := readTable(t, path, Options{})
	if tb.Name != "customers" || len(rows) != 50 {
		t.Fatalf("table %q with %d rows, want customers with 50", tb.Name, len(rows))
	}
	var names []string
	for _, c := range tb.Columns {
		names = append(names, c.Name+":"+c.Type)
	}
	want := "id:INTEGER name:TEXT active:BOOLEAN balance:REAL since:DATE address_city:TEXT address_geo_lat:REAL address_geo_extra:TEXT tags:TEXT" // note, null everywhere, is left out as every empty column
	if got := strings.Join(names, " "); got != want {
		t.Fatalf("columns\n %s\nwant\n %s", got, want)
	}
	r := rows[2] // id 3
	j, _ := column(t, tb, "address_geo_extra")
	if r[j] != `{"x":3}` {
		t.Errorf("address_geo_extra = %#v, want the object 3 keys deep as JSON text", r[j])
	}
	j, _ = column(t, tb, "tags")
	if r[j] != `["a","t3"]` {
		t.Errorf("tags = %#v, want the array as JSON text", r[j])
	}
	j, _ = column(t, tb, "id")
	if r[j] != int64(3) {
		t.Errorf("id = %#v, want 3", r[j])
	}
}

func TestJSONLinesKeysThatComeLate(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 30; i++ {
		if i < 20 {
			fmt.Fprintf(&b, "{\"n\": %d, \"city\": \"c%d\"}\n", i, i)
		} else {
			fmt.Fprintf(&b, "{\"city\": \"c%d\", \"n\": %d, \"score\": %d.25}\n\n", i, i, i)
		}
	}
	// A .txt name: found by its content.
	tb, rows := readTable(t, writeFile(t, "events.txt", []byte(b.String())), Options{})
	if len(rows) != 30 || len(tb.Columns) != 3 {
		t.Fatalf("%d rows × %d columns, want 30 × 3", len(rows), len(tb.Columns))
	}
	js, sc := column(t, tb, "score")
	if sc.Type != imports.TypeReal {
		t.Errorf("score is %s, want REAL", sc.Type)
	}
	if rows[0][js] != nil || rows[29][js] != 30.25 {
		t.Errorf("score: first %#v (want NULL), last %#v (want 30.25)", rows[0][js], rows[29][js])
	}
	jn, _ := column(t, tb, "n")
	if rows[29][jn] != int64(30) {
		t.Errorf("n of the last line = %#v, want 30 (keys in another order)", rows[29][jn])
	}
}

func TestJSONBrokenLine(t *testing.T) {
	lines := "{\"a\": 1}\n{\"a\": 2}\n{\"a\": 3\n{\"a\": 4}\n"
	e := readError(t, writeFile(t, "broken.jsonl", []byte(lines)), Options{})
	wantImportError(t, e, "broken.jsonl", "line 3", "nothing was imported")
	e = readError(t, writeFile(t, "scalar.jsonl", []byte("{\"a\": 1}\n42\n")), Options{})
	wantImportError(t, e, "line 2")
	arr := "[\n {\"a\": 1},\n {\"a\": 2},\n {\"a\": 3,,}\n]\n"
	e = readError(t, writeFile(t, "broken.json", []byte(arr)), Options{})
	wantImportError(t, e, "broken.json", "line 4")
}

func TestNotADataFileRefused(t *testing.T) {
	for name, data := range map[string][]byte{
		"photo.png":  append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 100)...),
		"report.pdf": []byte("%PDF-1.7\n%\xE2\xE3\xCF\xD3\n1 0 obj\n<<>>\nendobj\n"),
	} {
		e := readError(t, writeFile(t, name, data), Options{})
		wantImportError(t, e, name, "looks like")
	}
}

func TestBracketHeaderStaysCSV(t *testing.T) {
	tb, rows := readTable(t, writeFile(t, "units.csv", []byte("[unit],value\nkg,1\ng,2\n")), Options{})
	if len(rows) != 2 || len(tb.Columns) != 2 || tb.Columns[1].Type != imports.TypeInteger {
		t.Fatalf("a CSV whose header starts with [ read as %d rows × %d columns", len(rows), len(tb.Columns))
	}
}

// BenchmarkReadJSONLines reads a JSON Lines file of 100,000 lines: both
// passes, every row converted.
func BenchmarkReadJSONLines(b *testing.B) {
	path := filepath.Join(b.TempDir(), "big.jsonl")
	var buf bytes.Buffer
	for i := range 100_000 {
		fmt.Fprintf(&buf, `{"id":%d,"name":"n%d","amount":%d.5,"day":"2024-01-%02d","ok":%t,"address":{"city":"c%d","zip":"%05d"}}`+"\n",
			i, i, i%1000, i%28+1, i%3 == 0, i%50, i)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		tables, err := Read(b.Context(), path, Options{})
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		if err := tables[0].Rows(b.Context(), func([]engine.Value) error { n++; return nil }); err != nil {
			b.Fatal(err)
		}
		if n != 100_000 {
			b.Fatalf("%d rows", n)
		}
	}
	b.ReportMetric(float64(100_000*b.N)/b.Elapsed().Seconds(), "rows/s")
}

func TestFlattenObject(t *testing.T) {
	in := `{"s": "a \"q\" \u00e9\n", "k": {}, "d": 1.5e3, "a": {"b": {"c": {"x": [1, {"y": "]"}]}}, "n": -2},` +
		` "arr": [ {"z" : "}"} , 2 ], "k": "again", "e": ""}`
	rec, err := flattenObject([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range rec {
		got = append(got, p.k+"="+p.v)
	}
	want := []string{"s=a \"q\" é\n", "d=1.5e3", `a.b.c={"x":[1,{"y":"]"}]}`, "a.n=-2", `arr=[{"z":"}"},2]`, "k=again", "e="}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("flattened\n %q\nwant\n %q", got, want)
	}
	for _, bad := range []string{`[1]`, `"x"`, `{"a":1}{`, `{"a":}`, `{"a":1,}`} {
		if _, err := flattenObject([]byte(bad)); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}
