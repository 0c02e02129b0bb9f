package export_test

import (
	"archive/zip"
	"context"
	"database/sql"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
	_ "modernc.org/sqlite" // the "sqlite" driver, to build test databases

	"querent/engine"
	"querent/engine/sqlite"
)

// makeDB builds a database file from statements (each with its arguments)
// and opens it under the guard.
func makeDB(t testing.TB, stmts ...stmt) *sqlite.DB {
	t.Helper()
	path := filepath.Join(t.TempDir(), "test.sqlite")
	buildDB(t, path, stmts...)
	db, err := sqlite.Open(context.Background(), path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

type stmt struct {
	sql  string
	args []any
}

func buildDB(t testing.TB, path string, stmts ...stmt) {
	t.Helper()
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	tx, err := raw.Begin()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range stmts {
		if _, err := tx.Exec(s.sql, s.args...); err != nil {
			t.Fatalf("%s: %v", s.sql, err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

func demo(t testing.TB) *sqlite.DB {
	t.Helper()
	db, err := sqlite.OpenDemo(context.Background(), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// queryAll runs sql through Stream and keeps every row: the reference the
// exported files are compared with.
func queryAll(t testing.TB, db engine.Database, query string) ([]engine.Column, [][]engine.Value) {
	t.Helper()
	var cols []engine.Column
	var rows [][]engine.Value
	_, err := db.Stream(context.Background(), query, engine.StreamOptions{},
		func(c []engine.Column) error { cols = c; return nil },
		func(r []engine.Value) error {
			c := make([]engine.Value, len(r))
			for i, v := range r {
				if b, ok := v.([]byte); ok {
					v = append([]byte(nil), b...)
				}
				c[i] = v
			}
			rows = append(rows, c)
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	return cols, rows
}

// xcell is a cell as the sheet XML holds it.
type xcell struct {
	T       string // the t attribute: "" (number), inlineStr, s, str…
	S       string // the style index
	V       string // <v>
	Text    string // <is><t> (inline string)
	Formula bool   // has an <f> element
}

// sheetXML returns the XML of every worksheet by sheet name.
func sheetXML(t testing.TB, path string) map[string][]byte {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	files := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		files[f.Name] = b
	}
	var wb struct {
		Sheets []struct {
			Name string `xml:"name,attr"`
			RID  string `xml:"http://schemas.openxmlformats.org/officeDocument/2006/relationships id,attr"`
		} `xml:"sheets>sheet"`
	}
	var rels struct {
		Rels []struct {
			ID     string `xml:"Id,attr"`
			Target string `xml:"Target,attr"`
		} `xml:"Relationship"`
	}
	if err := xml.Unmarshal(files["xl/workbook.xml"], &wb); err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(files["xl/_rels/workbook.xml.rels"], &rels); err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, s := range wb.Sheets {
		for _, r := range rels.Rels {
			if r.ID == s.RID {
				target := strings.TrimPrefix(r.Target, "/")
				if !strings.HasPrefix(target, "xl/") {
					target = "xl/" + target
				}
				out[s.Name] = files[target]
			}
		}
	}
	return out
}

// parseCells reads a worksheet's cells by reference.
func parseCells(t testing.TB, data []byte) map[string]xcell {
	t.Helper()
	cells := map[string]xcell{}
	dec := xml.NewDecoder(strings.NewReader(string(data)))
	var ref string
	var cur xcell
	var in string
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			switch e.Name.Local {
			case "c":
				cur = xcell{}
				for _, a := range e.Attr {
					switch a.Name.Local {
					case "r":
						ref = a.Value
					case "t":
						cur.T = a.Value
					case "s":
						cur.S = a.Value
					}
				}
			case "f":
				cur.Formula = true
			case "v", "t":
				in = e.Name.Local
			}
		case xml.CharData:
			switch in {
			case "v":
				cur.V += string(e)
			case "t":
				cur.Text += string(e)
			}
		case xml.EndElement:
			switch e.Name.Local {
			case "c":
				cur.Text = unescapeOOXML(cur.Text)
				cells[ref] = cur
			case "v", "t":
				in = ""
			}
		}
	}
	return cells
}

// openXLSX opens an exported workbook with excelize.
func openXLSX(t testing.TB, path string) *excelize.File {
	t.Helper()
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// rawRows reads a sheet's rows with raw values (numbers as stored).
func rawRows(t testing.TB, f *excelize.File, sheet string) [][]string {
	t.Helper()
	rows, err := f.GetRows(sheet, excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// numFmtOf returns the custom number format of a cell's style.
func numFmtOf(t testing.TB, f *excelize.File, sheet, cell string) string {
	t.Helper()
	id, err := f.GetCellStyle(sheet, cell)
	if err != nil {
		t.Fatal(err)
	}
	st, err := f.GetStyle(id)
	if err != nil {
		t.Fatal(err)
	}
	if st.CustomNumFmt != nil {
		return *st.CustomNumFmt
	}
	return ""
}

// listDir names the files in dir.
func listDir(t testing.TB, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

var ooxmlEscape = regexp.MustCompile(`_x[0-9A-Fa-f]{4}_`)

// unescapeOOXML decodes the _xHHHH_ escapes of OOXML strings, as Excel
// reads them (_x005F_ is a literal underscore).
func unescapeOOXML(s string) string {
	return ooxmlEscape.ReplaceAllStringFunc(s, func(m string) string {
		r, _ := strconv.ParseUint(m[2:6], 16, 32)
		return string(rune(r))
	})
}
