package describe

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"querent/engine"
)

// visualizationShapes are the results of issue 25 §3, each built as the
// query would return it: long data (sales per country per year, 101
// rows), wide data, months over time with a gap, a distribution of 1,592
// values, shares of a whole, French and Chinese year names, two measures
// of very different scales, long data without time, and a single value.
func visualizationShapes() []struct {
	name string
	cols []engine.Column
	rows [][]engine.Value
} {
	type shape = struct {
		name string
		cols []engine.Column
		rows [][]engine.Value
	}
	var out []shape
	add := func(name string, cols []engine.Column, rows [][]engine.Value) {
		out = append(out, shape{name, cols, rows})
	}

	// Long: 21 countries × 5 years from strftime('%Y'), less 4 missing
	// (country, year) pairs: 101 rows, sorted by country then year.
	var long [][]engine.Value
	for c := range 21 {
		for y := range 5 {
			if c < 4 && y == c+1 {
				continue // a country without sales that year
			}
			long = append(long, []engine.Value{fmt.Sprintf("Country %02d", c), fmt.Sprint(2009 + y), float64(c*10+y) + 0.5})
		}
	}
	add("long: sales per country per year", cols("Country", "Year", "Sales"), long)

	// Wide: one column per country, one row per year.
	add("wide: a column per country", cols("Year", "USA", "Canada", "France"), rowsOf(5, 4, func(i, j int) engine.Value {
		if j == 0 {
			return int64(2009 + i)
		}
		return float64(100*j + i)
	}))

	// Time: 60 months from strftime('%Y-%m'), one missing.
	var months [][]engine.Value
	for i := range 61 {
		if i == 30 {
			continue
		}
		months = append(months, []engine.Value{fmt.Sprintf("%d-%02d", 2009+i/12, i%12+1), float64(i)})
	}
	add("time: revenue per month", cols("strftime('%Y-%m', InvoiceDate)", "Revenue"), months)

	// Distribution: 1,592 values.
	add("distribution: every track's length", cols("Name", "Milliseconds"), rowsOf(1592, 2, func(i, j int) engine.Value {
		if j == 0 {
			return fmt.Sprintf("Track %d", i)
		}
		return int64(100000 + (i*7919)%400000)
	}))

	// Share: five parts of a whole.
	add("share: tracks per media type", cols("MediaType", "Tracks"), rowsOf(5, 2, func(i, j int) engine.Value {
		if j == 0 {
			return fmt.Sprintf("Type %d", i)
		}
		return int64(10 * (i + 1))
	}))

	// Years named in French and Chinese: a time axis, never a pie.
	for _, name := range []string{"Année", "年份"} {
		add("years named "+name, cols(name, "Chiffre d'affaires"), rowsOf(5, 2, func(i, j int) engine.Value {
			if j == 0 {
				return fmt.Sprint(2009 + i)
			}
			return float64(400 + i)
		}))
	}

	// Two scales: revenue in thousands, orders in units.
	add("two scales: revenue and orders per year", cols("Year", "Revenue", "Orders"), rowsOf(6, 3, func(i, j int) engine.Value {
		switch j {
		case 0:
			return int64(2009 + i)
		case 1:
			return float64(250000 + 1000*i)
		}
		return int64(80 + i)
	}))

	// Long without time: tracks per genre per media type.
	add("long: tracks per genre per media type", cols("Genre", "MediaType", "Tracks"), rowsOf(12, 3, func(i, j int) engine.Value {
		switch j {
		case 0:
			return fmt.Sprintf("Genre %d", i/3)
		case 1:
			return fmt.Sprintf("Media %d", i%3)
		}
		return int64(i + 1)
	}))

	add("a single value", cols("count(*)"), [][]engine.Value{{int64(3503)}})
	return out
}

func cols(names ...string) []engine.Column {
	out := make([]engine.Column, len(names))
	for i, n := range names {
		out[i] = engine.Column{Name: n}
	}
	return out
}

func rowsOf(n int, width int, cell func(i, j int) engine.Value) [][]engine.Value {
	out := make([][]engine.Value, n)
	for i := range out {
		out[i] = make([]engine.Value, width)
		for j := range out[i] {
			out[i][j] = cell(i, j)
		}
	}
	return out
}

// Each shape's visualization is the one of testdata/visualizations.golden
// (-update rewrites it), and obeys the rules of §3 whatever the file says.
func TestVisualizationGolden(t *testing.T) {
	var lines []string
	for _, s := range visualizationShapes() {
		a := engine.NewAnswer("")
		SetResult(a, &engine.Result{Columns: s.cols, Rows: s.rows})
		v := a.Visualization
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, fmt.Sprintf("%s (%d rows): %s", s.name, len(s.rows), b))
		if v.Type != a.VisualizationSuggestion {
			t.Errorf("%s: visualization %s, suggestion %s", s.name, v.Type, a.VisualizationSuggestion)
		}
		switch {
		case strings.HasPrefix(s.name, "long: sales"):
			if v.Type != engine.ChartLine || v.Series != "Country" || v.X != "Year" || v.XAxis != engine.AxisTime || v.TimeUnit != engine.TimeYear {
				t.Errorf("%s: %s, want a line of Sales by Year, one per Country, on a time axis of years", s.name, b)
			}
		case strings.HasPrefix(s.name, "years named"):
			if v.Type == engine.ChartPie || v.XAxis != engine.AxisTime {
				t.Errorf("%s: %s, want years on a time axis", s.name, b)
			}
		case strings.HasPrefix(s.name, "two scales"):
			if len(v.Y) != 1 || len(v.Y2) != 1 || v.Y2[0] != "Orders" {
				t.Errorf("%s: %s, want Orders on a second axis", s.name, b)
			}
		case strings.HasPrefix(s.name, "distribution"):
			if v.Type != engine.ChartHistogram || v.X != "Milliseconds" {
				t.Errorf("%s: %s, want a histogram of Milliseconds", s.name, b)
			}
		case strings.HasPrefix(s.name, "a single value"):
			if v.Type != engine.ChartTable {
				t.Errorf("%s: %s, want no chart", s.name, b)
			}
		}
	}
	text := strings.Join(lines, "\n") + "\n"
	path := filepath.Join("testdata", "visualizations.golden")
	if *updateGolden {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -run %s -update writes it)", err, t.Name())
	}
	if text != string(want) {
		t.Errorf("the visualizations changed:\n%s\nwant\n%s", text, want)
	}
}
