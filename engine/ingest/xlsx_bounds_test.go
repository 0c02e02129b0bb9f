package ingest

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"fmt"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"querent/engine"
)

// Hostile workbooks, written part by part with archive/zip at test time:
// nothing big is committed, and nothing big is held in the test's memory.

const (
	nS            = `xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"`
	relationships = `http://schemas.openxmlformats.org/officeDocument/2006/relationships`
)

// zipPart is one entry of a hand-written workbook: a small body, a streamed
// body (compressed as it is written), or pre-compressed raw data with its
// declared sizes.
type zipPart struct {
	name  string
	body  string
	write func(w io.Writer) error
	raw   *rawPart
}

// rawPart is deflated data with the sizes and CRC the archive declares.
type rawPart struct {
	comp []byte
	size uint64 // the declared uncompressed size
	crc  uint32
}

// repeatedCells deflates prefix, then chunk n times, then suffix, without
// ever holding the whole text: each piece is compressed on its own (a
// sync-flushed deflate block sequence does not refer back before its
// start), so chunk's compressed form can simply be repeated. It is how a
// gigabyte of text becomes a file of a megabyte, as in a zip bomb.
func repeatedCells(t testing.TB, prefix, chunk string, n int, suffix string) *rawPart {
	t.Helper()
	piece := func(s string, final bool) []byte {
		var b bytes.Buffer
		w, err := flate.NewWriter(&b, flate.BestCompression)
		mustXLSX(t, err)
		_, err = w.Write([]byte(s))
		mustXLSX(t, err)
		if final {
			mustXLSX(t, w.Close())
		} else {
			mustXLSX(t, w.Flush())
		}
		return b.Bytes()
	}
	head, mid, tail := piece(prefix, false), piece(chunk, false), piece(suffix, true)
	comp := make([]byte, 0, len(head)+n*len(mid)+len(tail))
	comp = append(comp, head...)
	for range n {
		comp = append(comp, mid...)
	}
	comp = append(comp, tail...)
	crc := crc32.Update(0, crc32.IEEETable, []byte(prefix))
	c := []byte(chunk)
	for range n {
		crc = crc32.Update(crc, crc32.IEEETable, c)
	}
	crc = crc32.Update(crc, crc32.IEEETable, []byte(suffix))
	return &rawPart{comp: comp, size: uint64(len(prefix) + n*len(chunk) + len(suffix)), crc: crc}
}

// sheetXML wraps rows in a worksheet.
func sheetXML(rows string) string {
	return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n" +
		`<worksheet ` + nS + `><sheetData>` + rows + `</sheetData></worksheet>`
}

const (
	sheetHead = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n" + `<worksheet ` + nS + `><sheetData>`
	sheetTail = `</sheetData></worksheet>`
	sSTHead   = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n" + `<sst ` + nS + `>`
)

// writeBook writes a workbook of one sheet ("Sheet1") from its parts:
// sheet is xl/worksheets/sheet1.xml; the other parts (a shared-string
// table, say) are added as they are.
func writeBook(t testing.TB, path string, sheet zipPart, more ...zipPart) string {
	t.Helper()
	sheet.name = "xl/worksheets/sheet1.xml"
	parts := []zipPart{
		{name: "[Content_Types].xml", body: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n" +
			`<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
			`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
			`<Default Extension="xml" ContentType="application/xml"/>` +
			`<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>` +
			`<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>` +
			`<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>` +
			`</Types>`},
		{name: "_rels/.rels", body: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n" +
			`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rId1" Type="` + relationships + `/officeDocument" Target="xl/workbook.xml"/></Relationships>`},
		{name: "xl/workbook.xml", body: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n" +
			`<workbook ` + nS + ` xmlns:r="` + relationships + `"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`},
		{name: "xl/_rels/workbook.xml.rels", body: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n" +
			`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rId1" Type="` + relationships + `/worksheet" Target="worksheets/sheet1.xml"/>` +
			`<Relationship Id="rId2" Type="` + relationships + `/sharedStrings" Target="sharedStrings.xml"/></Relationships>`},
		sheet,
	}
	parts = append(parts, more...)
	fh, err := os.Create(path)
	mustXLSX(t, err)
	defer fh.Close()
	zw := zip.NewWriter(fh)
	for _, p := range parts {
		switch {
		case p.raw != nil:
			w, err := zw.CreateRaw(&zip.FileHeader{Name: p.name, Method: zip.Deflate, CRC32: p.raw.crc,
				CompressedSize64: uint64(len(p.raw.comp)), UncompressedSize64: p.raw.size})
			mustXLSX(t, err)
			_, err = w.Write(p.raw.comp)
			mustXLSX(t, err)
		case p.write != nil:
			w, err := zw.Create(p.name)
			mustXLSX(t, err)
			mustXLSX(t, p.write(w))
		default:
			w, err := zw.Create(p.name)
			mustXLSX(t, err)
			_, err = io.WriteString(w, p.body)
			mustXLSX(t, err)
		}
	}
	mustXLSX(t, zw.Close())
	mustXLSX(t, fh.Close())
	return path
}

// columnLetters writes n pseudo-random letters: text that does not compress
// much, so that the file is about as large as its contents.
func columnLetters(w io.Writer, n int, seed uint64) error {
	r := rand.New(rand.NewPCG(seed, 1))
	buf := make([]byte, 64<<10)
	for n > 0 {
		k := min(n, len(buf))
		for i := range buf[:k] {
			buf[i] = 'a' + byte(r.IntN(26))
		}
		if _, err := w.Write(buf[:k]); err != nil {
			return err
		}
		n -= k
	}
	return nil
}

// boundsRun reads path with TMPDIR pointed at a fresh folder and returns
// the bytes the read allocated, the largest heap seen, how long it took
// and the error; it checks that no temporary file is left behind.
func boundsRun(t *testing.T, path string, opts Options) (alloc, peak uint64, took time.Duration, err error) {
	t.Helper()
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	stop := make(chan struct{})
	peaked := make(chan uint64)
	go func() { // the heap is sampled: MemStats alone would only show the end
		var top uint64
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			top = max(top, m.HeapAlloc)
			select {
			case <-stop:
				peaked <- top
				return
			case <-tick.C:
			}
		}
	}()
	start := time.Now()
	tables, err := Read(context.Background(), path, opts)
	if err == nil {
		for _, tb := range tables {
			if rerr := tb.Rows(context.Background(), func([]engine.Value) error { return nil }); rerr != nil {
				err = rerr
				break
			}
		}
	}
	took = time.Since(start)
	close(stop)
	peak = <-peaked
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	alloc = after.TotalAlloc - before.TotalAlloc
	CleanupTemp()
	left, _ := os.ReadDir(tmp)
	for _, e := range left {
		t.Errorf("left in the temporary folder: %s", e.Name())
	}
	t.Logf("%s: %v in %v, allocated %d MB, heap peak %d MB", filepath.Base(path), err, took.Round(time.Millisecond),
		alloc>>20, peak>>20)
	return alloc, peak, took, err
}

// wantBounded checks that a refusal cost little memory.
func wantBounded(t *testing.T, alloc, peak uint64, limitMB uint64) {
	t.Helper()
	if raceEnabled {
		return
	}
	if alloc > limitMB<<20 {
		t.Errorf("the read allocated %d MB, want under %d MB", alloc>>20, limitMB)
	}
	if peak > limitMB<<20 {
		t.Errorf("the heap reached %d MB, want under %d MB", peak>>20, limitMB)
	}
}

// A 1.2 MB workbook whose shared-string table holds one string of 1.2 GB
// (the red team's file): refused before the string is ever built.
func TestXLSXGiantSharedString(t *testing.T) {
	dir := t.TempDir()
	const chunk = 1 << 20
	sst := repeatedCells(t, sSTHead+`<si><t>`, strings.Repeat("a", chunk), 1200, `</t></si></sst>`)
	p := writeBook(t, filepath.Join(dir, "giant-string.xlsx"),
		zipPart{body: sheetXML(`<row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="2"><c r="A2" t="s"><v>0</v></c></row>`)},
		zipPart{name: "xl/sharedStrings.xml", raw: sst})
	fi, _ := os.Stat(p)
	t.Logf("%s: %d bytes on disk, %d declared", filepath.Base(p), fi.Size(), sst.size)
	alloc, peak, _, err := boundsRun(t, p, Options{})
	checkImportError(t, err, "giant-string.xlsx", "xl/sharedStrings.xml")
	wantBounded(t, alloc, peak, 64)
}

// A shared string of 12 MB that does not compress (so no ratio check
// catches it): refused by the value cap while the table is scanned, before
// excelize reads it.
func TestXLSXLongSharedString(t *testing.T) {
	dir := t.TempDir()
	p := writeBook(t, filepath.Join(dir, "long-string.xlsx"),
		zipPart{body: sheetXML(`<row r="1"><c r="A1" t="s"><v>1</v></c></row><row r="2"><c r="A2" t="s"><v>0</v></c></row>`)},
		zipPart{name: "xl/sharedStrings.xml", write: func(w io.Writer) error {
			io.WriteString(w, sSTHead+`<si><t>id</t></si><si><t>`)
			if err := columnLetters(w, 12<<20, 1); err != nil {
				return err
			}
			_, err := io.WriteString(w, `</t></si></sst>`)
			return err
		}})
	alloc, peak, _, err := boundsRun(t, p, Options{})
	checkImportError(t, err, "long-string.xlsx", "shared string 2", "10 MB")
	wantBounded(t, alloc, peak, 48)
}

// An inline cell of 11 MB: the same 10 MB cap as CSV, naming the cell.
func TestXLSXLongCell(t *testing.T) {
	dir := t.TempDir()
	p := writeBook(t, filepath.Join(dir, "long-cell.xlsx"), zipPart{write: func(w io.Writer) error {
		io.WriteString(w, sheetHead+`<row r="1"><c r="A1" t="inlineStr"><is><t>id</t></is></c><c r="B1" t="inlineStr"><is><t>text</t></is></c></row>`+
			`<row r="2"><c r="A2"><v>1</v></c><c r="B2" t="inlineStr"><is><t>`)
		if err := columnLetters(w, 11<<20, 2); err != nil {
			return err
		}
		_, err := io.WriteString(w, `</t></is></c></row>`+sheetTail)
		return err
	}})
	alloc, peak, _, err := boundsRun(t, p, Options{})
	checkImportError(t, err, "long-cell.xlsx", `sheet "Sheet1"`, "B2", "10 MB")
	wantBounded(t, alloc, peak, 48)
}

// A zip bomb: a sheet of 20 million identical rows compressed into a
// few megabytes; refused from the archive's directory, at once.
func TestXLSXZipBombRows(t *testing.T) {
	dir := t.TempDir()
	row := `<row><c t="inlineStr"><is><t>x</t></is></c><c><v>1</v></c></row>`
	chunk := strings.Repeat(row, 1<<14)
	sheet := repeatedCells(t, sheetHead+`<row><c t="inlineStr"><is><t>a</t></is></c><c t="inlineStr"><is><t>b</t></is></c></row>`,
		chunk, 20_000_000/(1<<14), sheetTail)
	p := writeBook(t, filepath.Join(dir, "bomb.xlsx"), zipPart{raw: sheet})
	fi, _ := os.Stat(p)
	t.Logf("%s: %d bytes on disk, %d declared", filepath.Base(p), fi.Size(), sheet.size)
	alloc, peak, _, err := boundsRun(t, p, Options{})
	checkImportError(t, err, "bomb.xlsx", "xl/worksheets/sheet1.xml", "save the sheet as CSV")
	wantBounded(t, alloc, peak, 32)
}

// A sheet whose declared size lies: the archive says 1 KB, the data
// inflates to 64 MB. Reading stops at the declared size and the file is
// refused as damaged, not read as a truncated sheet.
func TestXLSXDeclaredSizeLie(t *testing.T) {
	dir := t.TempDir()
	row := `<row><c><v>1</v></c></row>`
	sheet := repeatedCells(t, sheetHead+`<row><c t="inlineStr"><is><t>n</t></is></c></row>`, strings.Repeat(row, 4096), 64<<20/(4096*len(row)), sheetTail)
	sheet.size = 1024
	p := writeBook(t, filepath.Join(dir, "liar.xlsx"), zipPart{raw: sheet})
	alloc, peak, _, err := boundsRun(t, p, Options{})
	checkImportError(t, err, "liar.xlsx", "damaged")
	wantBounded(t, alloc, peak, 32)
}

// Millions of empty rows: more row elements than Excel's 1,048,576 rows
// are refused while the sheet is scanned; up to that many are skipped
// quickly (a million empty rows before the data).
func TestXLSXEmptyRowBomb(t *testing.T) {
	dir := t.TempDir()
	header := `<row><c t="inlineStr"><is><t>n</t></is></c></row>`
	// 2,097,152 rows in 12 MB: under the ratio check's floor, so the
	// scan's count of rows is what refuses it.
	many := repeatedCells(t, sheetHead+header, strings.Repeat(`<row/>`, 1<<12), 2<<20/(1<<12),
		`<row><c><v>1</v></c></row>`+sheetTail)
	p := writeBook(t, filepath.Join(dir, "empty-rows.xlsx"), zipPart{raw: many})
	alloc, peak, _, err := boundsRun(t, p, Options{})
	checkImportError(t, err, "empty-rows.xlsx", "1,048,576")
	wantBounded(t, alloc, peak, 64) // the sheet (12 MB) is read into memory, and excelize's garbage per row

	if testing.Short() {
		return
	}
	// Within Excel's rows: a header, a million empty rows, one data row.
	fill := repeatedCells(t, sheetHead+`<row r="1"><c r="A1" t="inlineStr"><is><t>n</t></is></c></row>`,
		strings.Repeat(`<row/>`, 1<<10), 1000, `<row r="1048576"><c r="A1048576"><v>1</v></c></row>`+sheetTail)
	p = writeBook(t, filepath.Join(dir, "sparse.xlsx"), zipPart{raw: fill})
	tables, err := Read(context.Background(), p, Options{})
	mustXLSX(t, err)
	if got := tables[0].RowCount; got != 1 {
		t.Errorf("RowCount %d, want 1", got)
	}
	CleanupTemp()
}

// The rows waiting in the spill file are bounded by MaxTemp; the file is
// removed when the ceiling is reached.
func TestXLSXTempCeiling(t *testing.T) {
	dir := t.TempDir()
	p := writeBook(t, filepath.Join(dir, "rows.xlsx"), zipPart{write: func(w io.Writer) error {
		io.WriteString(w, sheetHead+`<row r="1"><c r="A1" t="inlineStr"><is><t>id</t></is></c><c r="B1" t="inlineStr"><is><t>text</t></is></c></row>`)
		for i := 2; i <= 20000; i++ {
			fmt.Fprintf(w, `<row r="%d"><c r="A%d"><v>%d</v></c><c r="B%d" t="inlineStr"><is><t>some text for row %d, long enough to add up</t></is></c></row>`, i, i, i, i, i)
		}
		_, err := io.WriteString(w, sheetTail)
		return err
	}})
	_, _, _, err := boundsRun(t, p, Options{MaxTemp: 256 << 10})
	checkImportError(t, err, "rows.xlsx", `sheet "Sheet1"`, "temporary", "256 KB")
	// The same file reads under the default ceiling.
	_, _, _, err = boundsRun(t, p, Options{})
	mustXLSX(t, err)
}

// The memory ceiling is an option: a small one refuses a workbook whose
// parts excelize would hold in memory beyond it.
func TestXLSXMemoryCeiling(t *testing.T) {
	dir := t.TempDir()
	p := writeBook(t, filepath.Join(dir, "styled.xlsx"),
		zipPart{body: sheetXML(`<row r="1"><c r="A1" t="inlineStr"><is><t>n</t></is></c></row><row r="2"><c r="A2"><v>1</v></c></row>`)},
		zipPart{name: "xl/styles.xml", write: func(w io.Writer) error {
			io.WriteString(w, `<styleSheet `+nS+`><cellXfs count="400000">`)
			for range 400000 {
				io.WriteString(w, `<xf/>`)
			}
			_, err := io.WriteString(w, `</cellXfs></styleSheet>`)
			return err
		}})
	_, _, _, err := boundsRun(t, p, Options{MaxMemory: 64 << 20})
	checkImportError(t, err, "styled.xlsx", "xl/styles.xml", "64 MB")
	_, _, _, err = boundsRun(t, p, Options{})
	mustXLSX(t, err)
}
