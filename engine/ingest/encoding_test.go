package ingest

import (
	"bytes"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"
)

// validUTF8 is the reference: every invalid byte becomes one U+FFFD.
func validUTF8(b []byte) (string, int) {
	var out strings.Builder
	bad := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 {
			out.WriteString("\uFFFD")
			bad++
		} else {
			out.Write(b[:size])
		}
		b = b[size:]
	}
	return out.String(), bad
}

func TestTextReaderUTF8(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"a", "é", "😀", "日", "\xff", "\xc3", "\xe6\x97", "\xf0\x9f\x98", "\n", "\x80", "\uFFFD"}
	for i := range 300 {
		var b bytes.Buffer
		for range rng.IntN(200) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		want, bad := validUTF8(b.Bytes())
		var r io.Reader = bytes.NewReader(b.Bytes())
		if i%2 == 0 {
			r = iotest.OneByteReader(r)
		}
		tr := newTextReader(r, encUTF8)
		var got []byte
		buf := make([]byte, 1+i%7)
		for {
			n, err := tr.Read(buf)
			got = append(got, buf[:n]...)
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		if string(got) != want {
			t.Fatalf("input %q:\n got %q\nwant %q", b.Bytes(), got, want)
		}
		if st := tr.stats(); st.invalid != int64(bad) {
			t.Fatalf("input %q: %d invalid, want %d", b.Bytes(), st.invalid, bad)
		}
		if bad > 0 {
			first := int64(strings.Index(want, "\uFFFD"))
			// A valid U+FFFD in the input may come first: then the first
			// replacement is later.
			if st := tr.stats(); st.firstInvalid < first {
				t.Fatalf("input %q: first invalid at %d, want ≥ %d", b.Bytes(), st.firstInvalid, first)
			}
		}
	}
}

func TestTextReader1252(t *testing.T) {
	in := []byte("caf\xe9 \x80 \x81 \x9f ok")
	got, err := io.ReadAll(iotest.OneByteReader(newTextReader(bytes.NewReader(in), encWindows1252)))
	if err != nil {
		t.Fatal(err)
	}
	if want := "café € \uFFFD Ÿ ok"; string(got) != want {
		t.Errorf("got %q, want %q", got, want)
	}
	// Read with a one-byte buffer: a character of three bytes still comes
	// out whole.
	tr := newTextReader(bytes.NewReader(in), encWindows1252)
	var out []byte
	one := make([]byte, 1)
	for {
		n, err := tr.Read(one)
		out = append(out, one[:n]...)
		if err != nil {
			break
		}
	}
	if want := "café € \uFFFD Ÿ ok"; string(out) != want {
		t.Errorf("one byte at a time: got %q, want %q", out, want)
	}
}

func TestDetectEncoding(t *testing.T) {
	tests := []struct {
		name   string
		in     []byte
		forced string
		want   textEncoding
		skip   int
		binary bool
		note   bool
	}{
		{"ascii", []byte("a,b\n"), "auto", encUTF8, 0, false, false},
		{"utf-8 bom", []byte("\xEF\xBB\xBFa"), "auto", encUTF8, 3, false, false},
		{"utf-16le bom", []byte("\xFF\xFEa\x00"), "auto", encUTF16LE, 2, false, false},
		{"utf-16be bom", []byte("\xFE\xFF\x00a"), "auto", encUTF16BE, 2, false, false},
		{"utf-16le guessed", utf16Bytes("name,value\n1,2\n", false, false), "auto", encUTF16LE, 0, false, true},
		{"utf-16be guessed", utf16Bytes("name,value\n1,2\n", true, false), "auto", encUTF16BE, 0, false, true},
		{"windows-1252", []byte("caf\xe9,na\xefve\n"), "auto", encWindows1252, 0, false, true},
		{"utf-8 with one stray byte", []byte("José,Zoë,Müller,\xff\n"), "auto", encUTF8, 0, false, false},
		{"undefined 1252 byte", []byte("a\x81b\n"), "auto", encUTF8, 0, false, false},
		{"nul bytes", []byte("a,b\n\x00\x00\x00\x01\x02\x03"), "auto", 0, 0, true, false},
		{"control bytes", bytes.Repeat([]byte{1, 2, 3, 'a'}, 50), "auto", 0, 0, true, false},
		{"forced 1252", []byte("\xEF\xBB\xBFa"), "windows-1252", encWindows1252, 0, false, false},
		{"forced utf-16 no bom", utf16Bytes("ab", true, false), "utf-16", encUTF16BE, 0, false, false},
	}
	for _, tt := range tests {
		ch, what := detectEncoding(tt.in, true, tt.forced)
		if tt.binary != (what != "") {
			t.Errorf("%s: binary %q", tt.name, what)
			continue
		}
		if tt.binary {
			continue
		}
		if ch.enc != tt.want || ch.skip != tt.skip || (ch.note != "") != tt.note {
			t.Errorf("%s: got %v skip %d note %q, want %v skip %d note %v", tt.name, ch.enc, ch.skip, ch.note, tt.want, tt.skip, tt.note)
		}
	}
	// A sample cut inside a character is still valid UTF-8.
	s := []byte(strings.Repeat("é", 10))
	if ch, _ := detectEncoding(s[:len(s)-1], false, "auto"); ch.enc != encUTF8 {
		t.Errorf("cut sample: %v", ch.enc)
	}
}

func TestTextReaderUTF16(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	pieces := []string{"a", "é", "😀", "日", "\n", "\r\n", ",", "\"", "ß"}
	for i := range 200 {
		var b strings.Builder
		for range rng.IntN(100) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		want := b.String()
		for _, be := range []bool{false, true} {
			var r io.Reader = bytes.NewReader(utf16Bytes(want, be, false))
			if i%2 == 0 {
				r = iotest.OneByteReader(r)
			}
			enc := encUTF16LE
			if be {
				enc = encUTF16BE
			}
			tr := newTextReader(r, enc)
			var got []byte
			buf := make([]byte, 1+i%9)
			for {
				n, err := tr.Read(buf)
				got = append(got, buf[:n]...)
				if err != nil {
					break
				}
			}
			if string(got) != want || tr.stats().invalid != 0 {
				t.Fatalf("big-endian %v: got %q, want %q (%d invalid)", be, got, want, tr.stats().invalid)
			}
		}
	}
	// An unpaired surrogate and an odd last byte.
	in := []byte{'a', 0, 0x00, 0xD8, 'b', 0, 0x00, 0xDC, 'c'}
	tr := newTextReader(bytes.NewReader(in), encUTF16LE)
	got, _ := io.ReadAll(tr)
	if want := "a\uFFFDb\uFFFD\uFFFD"; string(got) != want || tr.stats().invalid != 3 || tr.stats().firstInvalid != 1 {
		t.Errorf("got %q (%d invalid, first at %d), want %q", got, tr.stats().invalid, tr.stats().firstInvalid, want)
	}
}
