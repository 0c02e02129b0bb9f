package ingest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"querent/engine"
	"querent/engine/imports"
	"querent/engine/words"
)

// The hints that name a flag or a command are said in parts: the command
// line reads them as it always did, byte for byte, and the page says its
// own options instead, in every language.
func TestHintsSaidInParts(t *testing.T) {
	dir := t.TempDir()
	sqlite := writeFile(t, "sqlite.csv", append([]byte("SQLite format 3\x00"), make([]byte, 84)...))
	var late strings.Builder
	late.WriteString("a,b\n")
	for i := range 70000 {
		fmt.Fprintf(&late, "%d,text text text\n", i)
	}
	late.WriteString("x,\x00\n")
	book := workbook(t, dir, "book.xlsx", func(f *excelize.File) { f.SetCellValue("Sheet1", "A1", "n") })
	spill := writeBook(t, filepath.Join(dir, "rows.xlsx"), zipPart{write: func(w io.Writer) error {
		io.WriteString(w, sheetHead+`<row r="1"><c r="A1" t="inlineStr"><is><t>id</t></is></c><c r="B1" t="inlineStr"><is><t>text</t></is></c></row>`)
		for i := 2; i <= 20000; i++ {
			fmt.Fprintf(w, `<row r="%d"><c r="A%d"><v>%d</v></c><c r="B%d" t="inlineStr"><is><t>some text for row %d, long enough to add up</t></is></c></row>`, i, i, i, i, i)
		}
		_, err := io.WriteString(w, sheetTail)
		return err
	}})
	cases := []struct {
		path string
		opts Options
		key  string
		hint string
	}{
		{writeFile(t, "r.csv", []byte("a,b\n1,2\n")), Options{Range: "A1:B2"}, "import.csv_columns",
			"choose a CSV file's columns with --skip and its header with --header-row"},
		{writeFile(t, "short.csv", []byte("a,b,c\n1,2\n")), Options{}, "import.pad_short",
			"fix the row, or use --ragged pad to fill short rows with empty (NULL) values"},
		{writeFile(t, "long.csv", []byte("a,b\n1,2,\n")), Options{}, "import.pad_ragged",
			"fix the row, or use --ragged pad to drop empty extra fields and fill short rows with NULL"},
		{sqlite, Options{}, "import.open_directly", "open it directly: querent sql --db " + sqlite},
		{writeFile(t, "png.csv", append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 100)...)), Options{}, "import.csv_or_xlsx",
			"import a CSV, XLSX or JSON file; a UTF-16 file without a byte-order mark needs --encoding utf-16"},
		{writeFile(t, "late-nul.csv", []byte(late.String())), Options{}, "import.export_csv",
			"export the data as CSV (UTF-8) and import that; a UTF-16 file without a byte-order mark needs --encoding utf-16"},
		{book, Options{Sheets: []string{"Nope"}}, "import.name_sheet",
			"name one of its sheets with --sheet, or leave --sheet out to import every sheet"},
		{spill, Options{MaxTemp: 256 << 10}, "import.fewer_sheets",
			"split the workbook or import fewer sheets at a time (--sheet); with other files, import them one at a time"},
	}
	for _, c := range cases {
		tables, err := Read(context.Background(), c.path, c.opts)
		for _, tb := range tables {
			if err == nil {
				err = tb.Rows(context.Background(), func([]engine.Value) error { return nil })
			}
		}
		CleanupTemp()
		var e *engine.Error
		if !errors.As(err, &e) {
			t.Errorf("%s: error %v", filepath.Base(c.path), err)
			continue
		}
		checkHintWords(t, e, c.key, c.hint)
	}

	// A chosen type's bad value under the policy error.
	srcs, err := ReadSources(context.Background(), writeFile(t, "d.csv", []byte("d\n2024-01-02\nx\n")), Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = srcs[0].Apply(Choices{Columns: []imports.ColumnOverride{{Column: "d", Type: "date", OnBad: imports.OnBadError}}})
	var e *engine.Error
	if !errors.As(err, &e) {
		t.Fatalf("policy error: %v", err)
	}
	checkHintWords(t, e, "import.null_bad",
		`store such values as NULL (the policy null, --column "d:date:null-bad"), keep the column as text, or correct the file`)

	// A warning says its way on in English, as the command line did.
	tb, _ := readTable(t, writeFile(t, "w.csv", []byte("name\ncaf\xe9\n")), Options{})
	if !warningsContain(tb, "w.csv: the file is not UTF-8; it was read as Windows-1252 (use --encoding to choose another)") {
		t.Errorf("warnings %q", tb.Warnings)
	}
}

// checkHintWords checks that e's hint is said in parts, key's sentence,
// with the English of the command line, and that the page names no flag.
func checkHintWords(t *testing.T, e *engine.Error, key, hint string) {
	t.Helper()
	h := e.HintSentence()
	if e.Hint != hint || h.MainKey() != key {
		t.Errorf("hint %q (%s),\nwant %q (%s)", e.Hint, h.MainKey(), hint, key)
	}
	for lang, said := range (words.Speaker{Face: words.Page}).Every(h) {
		if said == "" || strings.Contains(said, "--") || strings.Contains(said, "querent ") {
			t.Errorf("%s: the page in %s says %q", key, lang, said)
		}
	}
}
