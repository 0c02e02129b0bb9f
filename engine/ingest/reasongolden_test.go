package ingest

import (
	"context"
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"querent/engine"
	"querent/engine/imports"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden files of testdata/")

// synthetic is a CSV file whose columns take most of the Inferrer's paths:
// amounts, percentages, European numbers, day-first and month-first dates,
// ambiguous dates, date-times, yes/no values, codes with a leading zero,
// whole numbers too large, missing-value markers, an empty column, a
// column of markers only.
const synthetic = `id,amount,share,euro,dmy,mdy,ambiguous,when,flag,code,big,mixed,markers,,onlyna,money2,pct_mix,dotk
1,"$1,234.50",12%,"1.234,5",13/01/2024,01/13/2024,01/02/2024,2024-01-02 10:00:00,yes,007,12345678901234567890,1,N/A,,N/A,€1.00,12%,1.234
2,$12.00,5%,"2,5",14/02/2024,02/14/2024,03/04/2024,2024-01-03 11:30:00,no,008,1,2,,,NA,(£3.00),0.5,2.345
3,,7.5%,"3.000,25",01/03/24,03/01/24,05/06/2024,2024-01-04,yes,010,2,x3,-,,N/A,$4.00,3,10.000
4,$(5.00),,"4,0",02/04/24,04/02/24,07/08/2024,bad,maybe,011,3,4.5,,,,€5.00,4%,1.000.000
5,$6.00,1%,"5",03/05/2024,05/03/2024,09/10/2024,2024-01-06 25:00:00,no,012,4,true,n/a,,,6,5%,12
`

// importReasonsDump says every reason of the messy files and the synthetic
// one, detected and chosen (each type, each policy, skipped), in every
// language, one line each, sorted.
func importReasonsDump(t *testing.T) []string {
	files, _ := filepath.Glob(filepath.Join(messyDir, "..", "*", "*"))
	if len(files) == 0 {
		t.Skip("shared data not available")
	}
	files = append(files, writeFile(t, "synthetic.csv", []byte(synthetic)))
	var lines []string
	add := func(where, what, reason string, reasons map[string]string) {
		if reason == "" && len(reasons) == 0 {
			return
		}
		lines = append(lines, fmt.Sprintf("%s | %s | Reason: %s", where, what, reason))
		for _, lang := range engine.ReasonLanguages {
			lines = append(lines, fmt.Sprintf("%s | %s | %s: %s", where, what, lang, reasons[lang]))
		}
	}
	table := func(where string, tb *imports.Table, err error) {
		if err != nil {
			lines = append(lines, fmt.Sprintf("%s | error: %v", where, err))
			return
		}
		for _, c := range tb.PreviewColumns {
			add(where, "preview "+c.Name, c.Reason, c.Reasons)
			add(where, "preview skip "+c.Name, c.SkipReason, c.SkipReasons)
		}
		for _, c := range tb.Columns {
			add(where, "column "+c.Name, c.Reason, c.Reasons)
		}
		for _, c := range tb.Skipped {
			add(where, "skipped "+c.Name, c.Reason, c.Reasons)
		}
	}
	for _, f := range files {
		srcs, err := ReadSources(context.Background(), f, Options{})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, s := range srcs {
			where := filepath.Base(f) + " " + s.Name
			tb, _, err := s.Apply(Choices{})
			table(where, tb, err)
			if err != nil {
				continue
			}
			for _, c := range tb.PreviewColumns {
				for _, typ := range []string{"integer", "real", "date", "datetime", "boolean", "text"} {
					for _, ob := range []string{imports.OnBadText, imports.OnBadNull, imports.OnBadError} {
						tc, _, err := s.Apply(Choices{Columns: []imports.ColumnOverride{{Column: c.Name, Type: typ, OnBad: ob}}})
						table(where+" "+c.Name+" "+typ+"/"+ob, tc, err)
					}
				}
				ts, _, err := s.Apply(Choices{Columns: []imports.ColumnOverride{{Column: c.Name, Skip: true}}})
				table(where+" "+c.Name+" skipped", ts, err)
			}
			s.Close()
		}
	}
	sort.Strings(lines)
	return lines
}

// Every reason of an import, in every language, and every error of a
// chosen type, is said byte for byte as before.
func TestImportReasonsGolden(t *testing.T) {
	lines := importReasonsDump(t)
	text := strings.Join(lines, "\n") + "\n"
	got := fmt.Sprintf("%d lines, sha256 %x\n", len(lines), sha256.Sum256([]byte(text)))
	path := filepath.Join("testdata", "import_reasons.golden")
	if *updateGolden {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -run %s -update writes it)", err, t.Name())
	}
	if got != string(want) {
		dump := filepath.Join(os.TempDir(), "import_reasons.golden.txt")
		_ = os.WriteFile(dump, []byte(text), 0o644)
		t.Errorf("the reasons changed: %s, want %s (every line is in %s)", strings.TrimSpace(got), strings.TrimSpace(string(want)), dump)
	}
}
