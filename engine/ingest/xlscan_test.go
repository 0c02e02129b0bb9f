package ingest

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"testing"

	"querent/engine"
)

func testScan(mode int) *partScan {
	return newXLScan(mode, func(format string, args ...any) *engine.Error { return workbookError(format, args...) })
}

// feedChunks feeds doc to a new scan in pieces of n bytes.
func feedChunks(mode int, doc string, n int) (*partScan, error) {
	s := testScan(mode)
	for i := 0; i < len(doc); i += n {
		if err := s.feed([]byte(doc[i:min(i+n, len(doc))])); err != nil {
			return s, err
		}
	}
	return s, nil
}

// xmlElements counts the start elements encoding/xml sees.
func xmlElements(t *testing.T, doc string) int64 {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(doc))
	var n int64
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return n
		}
		if err != nil {
			t.Fatalf("%q: %v", doc, err)
		}
		if _, ok := tok.(xml.StartElement); ok {
			n++
		}
	}
}

// The tokenizer finds the same elements as encoding/xml, however the
// bytes are cut: quotes holding '>', comments, CDATA, instructions, a
// declaration, self-closing tags, prefixes.
func TestXLScanTokens(t *testing.T) {
	docs := []string{
		`<?xml version="1.0" encoding="UTF-8"?><a><b x="1>2" y='>'/><c>text &amp; more</c></a>`,
		`<a><!-- a comment with <tags> and - dashes --><b/><![CDATA[<not a tag>]]><c/></a>`,
		`<!DOCTYPE a><a><?pi some > stuff ?><x:b xmlns:x="u"><x:c/></x:b></a>`,
		`<worksheet><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1"><f>SUM(A1)</f><v>3</v></c></row>` +
			`<row r="3"><c r="A3" t="inlineStr"><is><r><t>rich</t></r><t xml:space="preserve"> text</t></is></c></row></sheetData></worksheet>`,
		`<sst count="2"><si><t>one</t></si><si><r><rPr><b/></rPr><t>two</t></r><rPh><t>phon</t></rPh></si></sst>`,
		`<a b="&quot;"><!----><![CDATA[]]><b /></a>`,
	}
	for _, doc := range docs {
		want := xmlElements(t, doc)
		for n := 1; n <= len(doc); n++ {
			for _, mode := range []int{scanOther, scanSheet, scanSharedStrings} {
				s, err := feedChunks(mode, doc, n)
				if err != nil {
					t.Fatalf("%q in %d-byte pieces: %v", doc, n, err)
				}
				if s.elements != want || s.depth != 0 || s.state != xsText {
					t.Fatalf("%q in %d-byte pieces (mode %d): %d elements, depth %d, state %d; want %d, 0, text",
						doc, n, mode, s.elements, s.depth, s.state, want)
				}
			}
		}
	}
	s, _ := feedChunks(scanSheet, docs[3], 7)
	if s.rows != 2 || s.row != 3 {
		t.Errorf("rows %d, last row %d; want 2, 3", s.rows, s.row)
	}
	s, _ = feedChunks(scanSharedStrings, docs[4], 5)
	if s.items != 2 || s.itemN != int64(len("two")) {
		t.Errorf("shared strings %d, the last %d bytes; want 2, 3 (phonetic runs aside)", s.items, s.itemN)
	}
}

// The value cap is CSV's: 10 MB passes, a byte more does not; the text is
// measured, never kept.
func TestXLScanValueCap(t *testing.T) {
	body := bytes.Repeat([]byte("x"), maxFieldBytes)
	for _, tt := range []struct {
		name, head, tail string
		mode             int
		want             string
	}{
		{"inline", `<sheetData><row r="2"><c r="C2" t="inlineStr"><is><t>`, `</t></is></c></row></sheetData>`, scanSheet, "cell C2"},
		{"value", `<sheetData><row r="2"><c t="str"><v>`, `</v></c></row></sheetData>`, scanSheet, "number 1 of row 2"},
		{"shared", `<sst><si><t>a</t></si><si><t>`, `</t></si></sst>`, scanSharedStrings, "shared string 2"},
	} {
		for _, extra := range []int{0, 1} {
			s := testScan(tt.mode)
			err := s.feed([]byte(tt.head))
			for i := 0; err == nil && i < len(body); i += 1 << 20 {
				err = s.feed(body[i : i+1<<20])
			}
			if err == nil && extra > 0 {
				err = s.feed([]byte("y"))
			}
			if err == nil {
				err = s.feed([]byte(tt.tail))
			}
			switch {
			case extra == 0 && err != nil:
				t.Errorf("%s of exactly 10 MB: %v", tt.name, err)
			case extra == 1 && (err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "10 MB")):
				t.Errorf("%s of 10 MB and a byte: %v, want an error naming %q", tt.name, err, tt.want)
			}
		}
	}
}

// Rows past Excel's last, out of order, or with too many cells; text
// outside values, tags and nesting beyond the bounds.
func TestXLScanBounds(t *testing.T) {
	tests := []struct {
		name, doc string
		mode      int
		want      string
	}{
		{"row number", `<sheetData><row r="1048577"/></sheetData>`, scanSheet, "past Excel's last row"},
		{"out of order", `<sheetData><row r="5"/><row r="3"/></sheetData>`, scanSheet, "row 3 comes after row 5"},
		{"bad number", `<sheetData><row r="x"/></sheetData>`, scanSheet, "numbered"},
		{"cells", `<sheetData><row>` + strings.Repeat(`<c/>`, maxCol+1) + `</row></sheetData>`, scanSheet, "16,384"},
		{"row text", `<sheetData><row r="7">` + strings.Repeat(`<c><v>`+strings.Repeat("1", 8<<20)+`</v></c>`, 9) + `</row></sheetData>`, scanSheet, "row 7 holds more than 64 MB"},
		{"run", `<a>` + strings.Repeat(" ", maxFieldBytes+1) + `</a>`, scanOther, "run of text"},
		{"tag", `<a b="` + strings.Repeat("x", maxFieldBytes) + `"/>`, scanOther, "tag longer"},
		{"comment", `<a><!--` + strings.Repeat("x", maxFieldBytes) + `--></a>`, scanOther, "comment"},
		{"depth", strings.Repeat(`<a>`, maxDepth+1), scanOther, "nested more than 256"},
	}
	for _, tt := range tests {
		_, err := feedChunks(tt.mode, tt.doc, 64<<10)
		var e *engine.Error
		if !errors.As(err, &e) || !strings.Contains(e.Message, tt.want) || e.Hint == "" {
			t.Errorf("%s: %v, want an error with %q and a hint", tt.name, err, tt.want)
		}
	}
	// A million rows in order, with and without numbers, are fine.
	var b strings.Builder
	b.WriteString(`<sheetData><row r="1"/>`)
	for range maxRow - 2 {
		b.WriteString(`<row/>`)
	}
	b.WriteString(`<row r="1048576"/></sheetData>`)
	if s, err := feedChunks(scanSheet, b.String(), 1<<20); err != nil || s.rows != maxRow {
		t.Errorf("Excel's rows: %v, %d rows", err, s.rows)
	}
}

// FuzzXLScan: the tokenizer never panics, and where encoding/xml reads
// the input as well-formed, both see the same elements.
func FuzzXLScan(f *testing.F) {
	for _, s := range []string{`<a b="1>2"><![CDATA[x]]><!-- c --><?p?><b/></a>`, `<row r="1"><c r="A1"><v>1</v></c></row>`, `<si><t>x</t></si>`} {
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, doc string, n int) {
		if n < 1 || n > len(doc)+1 {
			n = len(doc) + 1
		}
		for _, mode := range []int{scanOther, scanSheet, scanSharedStrings} {
			s, err := feedChunks(mode, doc, n)
			if err != nil || mode != scanOther {
				continue
			}
			d := xml.NewDecoder(strings.NewReader(doc))
			d.Strict = true
			var want int64
			ok := true
			for {
				tok, err := d.Token()
				if err == io.EOF {
					break
				}
				if err != nil {
					ok = false
					break
				}
				switch tok.(type) {
				case xml.StartElement:
					want++
				case xml.Directive:
					ok = false // DOCTYPE with an internal subset: read loosely
				}
			}
			if ok && s.elements != want {
				t.Fatalf("%q in %d-byte pieces: %d elements, encoding/xml sees %d", doc, n, s.elements, want)
			}
		}
	})
}

// BenchmarkXLScanSheet is the scan of the benchmark workbook's sheet (it
// runs beside excelize's reading); BenchmarkXLInflate is its floor, the
// inflating alone.
func BenchmarkXLScanSheet(b *testing.B) {
	p := benchBook(b)
	zr, err := zip.OpenReader(p)
	mustXLSX(b, err)
	defer zr.Close()
	var f *zip.File
	for _, e := range zr.File {
		if e.Name == "xl/worksheets/sheet1.xml" {
			f = e
		}
	}
	b.SetBytes(int64(f.UncompressedSize64))
	for range b.N {
		s := newXLScan(scanSheet, func(format string, args ...any) *engine.Error { return workbookError(format, args...) })
		s.gate = newXLGate()
		mustXLSX(b, scanPart(context.Background(), f, s, func(err error) *engine.Error { return workbookError("%v", err) }))
	}
}

func BenchmarkXLInflate(b *testing.B) {
	p := benchBook(b)
	zr, _ := zip.OpenReader(p)
	defer zr.Close()
	f := zr.File[0]
	b.SetBytes(int64(f.UncompressedSize64))
	buf := make([]byte, 128<<10)
	for range b.N {
		rc, _ := f.Open()
		for {
			_, err := rc.Read(buf)
			if err != nil {
				break
			}
		}
		rc.Close()
	}
}
