package describe

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"querent/engine"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden files of testdata/")

// chartKeys are every sentence of a chart's reason.
var chartKeys = []string{
	"no_columns", "no_rows", "single_value", "single_row", "too_many_columns", "repeats_per_date", "line",
	"too_many_bars", "pie", "bar", "few_for_scatter", "scatter", "few_for_histogram", "histogram",
	"only_text", "no_number", "categories", "numbers_only", "unplottable", "no_simple_chart",
	"line_series", "bar_series",
}

// chartReasonsDump says every chart sentence with every shape of parts
// (no names to more than the reason lists, counts said as words and past
// them) in every language, one line each.
func chartReasonsDump() []string {
	names := func(prefix string, n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("%s%d", prefix, i+1)
		}
		return out
	}
	var lines []string
	for _, key := range chartKeys {
		for _, nn := range []int{0, 1, 2, 3, 4, 5, 7} {
			for _, nm := range []int{0, 1, 2, 3, 4, 5} {
				for _, no := range []int{0, 1, 2, 5} {
					for _, c := range []int{0, 1, 2, 10, 11, 12345} {
						w := chartWhy{key: key, names: names("n", nn), numbers: names("m", nm), others: names("o", no), count: c}
						r := w.reasons()
						for _, lang := range engine.ReasonLanguages {
							lines = append(lines, fmt.Sprintf("%s %d %d %d %d %s: %s", key, nn, nm, no, c, lang, r[lang]))
						}
					}
				}
			}
		}
	}
	return lines
}

// checkGolden compares lines with the count and SHA-256 in testdata/name
// (-update rewrites it); on a difference it writes the lines beside the
// test's temporary files, for a diff with those of the previous build.
func checkGolden(t *testing.T, name string, lines []string) {
	t.Helper()
	text := strings.Join(lines, "\n") + "\n"
	got := fmt.Sprintf("%d lines, sha256 %x\n", len(lines), sha256.Sum256([]byte(text)))
	path := filepath.Join("testdata", name)
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
		dump := filepath.Join(os.TempDir(), name+".txt")
		_ = os.WriteFile(dump, []byte(text), 0o644)
		t.Errorf("the reasons changed: %s, want %s (every line is in %s)", strings.TrimSpace(got), strings.TrimSpace(string(want)), dump)
	}
}

// Every chart reason, in every language, is said byte for byte as before.
func TestChartReasonsGolden(t *testing.T) {
	checkGolden(t, "chart_reasons.golden", chartReasonsDump())
}
