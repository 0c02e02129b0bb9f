package describe

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"querent/engine"
)

// result builds columns and rows from column names and a function giving
// the value of column j in row i.
func result(n int, names []string, cell func(i, j int) engine.Value) ([]engine.Column, [][]engine.Value) {
	cols := make([]engine.Column, len(names))
	for j, name := range names {
		cols[j] = engine.Column{Name: name}
	}
	rows := make([][]engine.Value, n)
	for i := range rows {
		rows[i] = make([]engine.Value, len(names))
		for j := range names {
			rows[i][j] = cell(i, j)
		}
	}
	return cols, rows
}

// table rows given literally.
func literal(names []string, rows ...[]engine.Value) ([]engine.Column, [][]engine.Value) {
	return result(len(rows), names, func(i, j int) engine.Value { return rows[i][j] })
}

func day(i int) string { return fmt.Sprintf("2009-01-%02d", i+1) }

func TestSuggestChart(t *testing.T) {
	countries := []string{"USA", "Canada", "France", "Brazil", "Germany", "UK", "Portugal", "India"}
	genres := []string{"Rock", "Jazz", "Metal", "Latin", "Blues", "Pop", "Soul"}
	tests := []struct {
		name       string
		cols       []engine.Column
		rows       [][]engine.Value
		kind, x    string
		y          []string
		wantReason string // checked when not empty
	}{{
		name: "no rows",
		cols: []engine.Column{{Name: "a"}},
		kind: engine.ChartTable, wantReason: "the query returned no rows, so there is nothing to chart",
	}, {
		name: "single cell",
		cols: []engine.Column{{Name: "count(*)"}}, rows: [][]engine.Value{{int64(42)}},
		kind: engine.ChartTable, wantReason: "a single value (count(*)) reads best as it is",
	}, {
		name: "single row",
		cols: []engine.Column{{Name: "Country"}, {Name: "Total"}}, rows: [][]engine.Value{{"USA", 523.06}},
		kind: engine.ChartTable, wantReason: "a single row of two columns reads best as a table",
	}, {
		name: "many columns",
		cols: []engine.Column{{Name: "a"}, {Name: "b"}, {Name: "c"}, {Name: "d"}, {Name: "e"}, {Name: "f"}, {Name: "g"}},
		rows: [][]engine.Value{
			{int64(1), int64(2), int64(3), int64(4), int64(5), int64(6), int64(7)},
			{int64(1), int64(2), int64(3), int64(4), int64(5), int64(6), int64(7)},
		},
		kind: engine.ChartTable, wantReason: "seven columns are too many for one chart: a table shows them all",
	}}

	add := func(name string, cols []engine.Column, rows [][]engine.Value, kind, x string, y []string, reason string) {
		tests = append(tests, struct {
			name       string
			cols       []engine.Column
			rows       [][]engine.Value
			kind, x    string
			y          []string
			wantReason string
		}{name, cols, rows, kind, x, y, reason})
	}

	// Line: dates.
	cols, rows := result(12, []string{"InvoiceDate", "Total"}, func(i, j int) engine.Value {
		if j == 0 {
			return day(i)
		}
		return float64(i) + 0.99
	})
	add("line over dates", cols, rows, engine.ChartLine, "InvoiceDate", []string{"Total"},
		"one date-like column (InvoiceDate) and one number (Total): a line shows the trend over time")

	cols, rows = result(12, []string{"ym", "a", "b", "c", "d"}, func(i, j int) engine.Value {
		if j == 0 {
			return fmt.Sprintf("2010-%02d", i+1)
		}
		return int64(i * j)
	})
	add("line over months keeps three numbers", cols, rows, engine.ChartLine, "ym", []string{"a", "b", "c"},
		"one date-like column (ym) and four numbers (a, b, c and d): a line shows the trend over time (the first three are drawn)")

	cols, rows = literal([]string{"at", "InvoiceId", "v"},
		[]engine.Value{"2009-01-01 10:00:00", int64(1), 1.5},
		[]engine.Value{"2009-01-01T11:30", int64(2), 2.5},
		[]engine.Value{"2009-01-02 08:15:30.250", int64(3), 1.0},
		[]engine.Value{nil, int64(4), 2.0},
		[]engine.Value{"2009-01-03T00:00:00Z", int64(5), 3.0},
		[]engine.Value{"2009-01-04 00:00:00+02:00", int64(6), 3.0},
	)
	add("line over date-times, id ignored", cols, rows, engine.ChartLine, "at", []string{"v"}, "")

	cols, rows = result(5, []string{"year", "total"}, func(i, j int) engine.Value {
		if j == 0 {
			return int64(2009 + i)
		}
		return int64(100 + i*i)
	})
	add("line over integer years", cols, rows, engine.ChartLine, "year", []string{"total"}, "")

	cols, rows = result(5, []string{"strftime('%Y', InvoiceDate)", "sum(Total)"}, func(i, j int) engine.Value {
		if j == 0 {
			return fmt.Sprint(2009 + i)
		}
		return 400.5 + float64(i)
	})
	add("line over text years of strftime", cols, rows, engine.ChartLine, "strftime('%Y', InvoiceDate)", []string{"sum(Total)"}, "")

	cols, rows = result(12, []string{"month", "sales"}, func(i, j int) engine.Value {
		if j == 0 {
			return fmt.Sprintf("%02d", i+1)
		}
		return int64(10 * i)
	})
	add("line over text months", cols, rows, engine.ChartLine, "month", []string{"sales"}, "")

	cols, rows = result(5, []string{"Year", "total"}, func(i, j int) engine.Value {
		if j == 0 {
			return int64(1850 + i)
		}
		return int64(i)
	})
	add("years out of range are numbers", cols, rows, engine.ChartTable, "", nil,
		"two numbers (Year and total) but only 5 rows: a table shows them better than a scatter")

	cols, rows = result(8, []string{"Day", "n"}, func(i, j int) engine.Value {
		if j == 0 {
			return fmt.Sprintf("2009-13-%02d", i+1) // no 13th month: text, not dates
		}
		return int64(i)
	})
	add("invalid dates are categories", cols, rows, engine.ChartBar, "Day", []string{"n"}, "")

	cols, rows = result(8, []string{"InvoiceYear", "BillingCountry", "Total"}, func(i, j int) engine.Value {
		switch j {
		case 0:
			return int64(2009 + i/2)
		case 1:
			return countries[i%2]
		}
		return float64(i)
	})
	add("dates repeating per category: one line per category", cols, rows, engine.ChartLine, "InvoiceYear", []string{"Total"},
		"one date-like column (InvoiceYear), one category (BillingCountry) with two values, one row each per date, and one number (Total): one line per BillingCountry shows each trend over time")

	cols, rows = result(8, []string{"InvoiceYear", "BillingCountry", "Total"}, func(i, j int) engine.Value {
		switch j {
		case 0:
			return int64(2009 + i/4)
		case 1:
			return countries[i%2]
		}
		return float64(i)
	})
	add("a date and a category repeating together: table", cols, rows, engine.ChartTable, "", nil,
		"InvoiceYear repeats for each BillingCountry: a table shows every combination (a line needs one row per InvoiceYear)")

	// Bar and pie.
	cols, rows = result(8, []string{"BillingCountry", "Total"}, func(i, j int) engine.Value {
		if j == 0 {
			return countries[i]
		}
		return 10.5 * float64(i+1)
	})
	add("bar: eight categories", cols, rows, engine.ChartBar, "BillingCountry", []string{"Total"},
		"one category (BillingCountry) and one number (Total): a bar compares them across BillingCountry")

	pieRows := func(n int, measure func(i int) engine.Value) [][]engine.Value {
		_, rows := result(n, []string{"Genre", "Tracks"}, func(i, j int) engine.Value {
			if j == 0 {
				return genres[i]
			}
			return measure(i)
		})
		return rows
	}
	genreCols := []engine.Column{{Name: "Genre"}, {Name: "Tracks"}}
	add("pie: four categories", genreCols, pieRows(4, func(i int) engine.Value { return int64(10 * (i + 1)) }), engine.ChartPie, "Genre", []string{"Tracks"},
		"one category (Genre) with four values, one row each, and one non-negative number (Tracks): a pie shows each share of the whole")
	add("pie: two categories", genreCols, pieRows(2, func(i int) engine.Value { return int64(i + 1) }), engine.ChartPie, "Genre", []string{"Tracks"}, "")
	add("pie: six categories", genreCols, pieRows(6, func(i int) engine.Value { return int64(i + 1) }), engine.ChartPie, "Genre", []string{"Tracks"}, "")
	add("bar: seven categories", genreCols, pieRows(7, func(i int) engine.Value { return int64(i + 1) }), engine.ChartBar, "Genre", []string{"Tracks"}, "")
	add("bar: a negative value", genreCols, pieRows(4, func(i int) engine.Value { return int64(i - 1) }), engine.ChartBar, "Genre", []string{"Tracks"}, "")
	add("bar: all zero", genreCols, pieRows(4, func(i int) engine.Value { return 0.0 }), engine.ChartBar, "Genre", []string{"Tracks"}, "")
	add("pie: zero is a value", genreCols, pieRows(4, func(i int) engine.Value { return float64(i) }), engine.ChartPie, "Genre", []string{"Tracks"}, "")
	add("bar: a NULL value", genreCols, pieRows(4, func(i int) engine.Value {
		if i == 0 {
			return nil
		}
		return int64(i)
	}), engine.ChartBar, "Genre", []string{"Tracks"}, "")

	cols, rows = literal([]string{"Genre", "avg(UnitPrice)"},
		[]engine.Value{"Rock", 0.99}, []engine.Value{"Jazz", 0.99}, []engine.Value{"TV", 1.99})
	add("bar: averages make no pie", cols, rows, engine.ChartBar, "Genre", []string{"avg(UnitPrice)"}, "")

	cols, rows = literal([]string{"Genre", "Tracks"},
		[]engine.Value{"Rock", int64(3)}, []engine.Value{"Jazz", int64(1)}, []engine.Value{"Rock", int64(2)}, []engine.Value{"Jazz", int64(5)})
	add("bar: not one row per category", cols, rows, engine.ChartBar, "Genre", []string{"Tracks"}, "")

	cols, rows = literal([]string{"Genre", "Tracks"},
		[]engine.Value{"Rock", int64(3)}, []engine.Value{"Jazz", int64(1)}, []engine.Value{nil, int64(2)})
	add("pie: NULL is a category", cols, rows, engine.ChartPie, "Genre", []string{"Tracks"}, "")

	cols, rows = literal([]string{"Genre", "Tracks"},
		[]engine.Value{"Rock", int64(3)}, []engine.Value{"Rock", int64(1)})
	add("bar: one category", cols, rows, engine.ChartBar, "Genre", []string{"Tracks"}, "")

	cols, rows = literal([]string{"Genre", "Tracks", "Minutes"},
		[]engine.Value{"Rock", int64(3), 10.5}, []engine.Value{"Jazz", int64(1), 2.5}, []engine.Value{"Blues", int64(2), 7.0})
	add("bar: two numbers", cols, rows, engine.ChartBar, "Genre", []string{"Tracks", "Minutes"},
		"one category (Genre) and two numbers (Tracks and Minutes): a bar compares them across Genre")

	cols, rows = result(60, []string{"BillingCountry", "Total"}, func(i, j int) engine.Value {
		if j == 0 {
			return countries[i%len(countries)]
		}
		return float64(i)
	})
	add("too many rows for bars", cols, rows, engine.ChartTable, "", nil,
		"BillingCountry repeats across 60 rows, too many bars for one chart: a table shows them (group by BillingCountry to compare totals)")

	// Scatter.
	cols, rows = result(20, []string{"TrackId", "Milliseconds", "Bytes"}, func(i, j int) engine.Value {
		return int64((i + 1) * (j + 1) * 7 % 101)
	})
	add("scatter: two numbers, id ignored", cols, rows, engine.ChartScatter, "Milliseconds", []string{"Bytes"},
		"two numbers (Milliseconds and Bytes) over 20 rows: a scatter shows how they relate")
	add("scatter needs ten rows", cols, rows[:9], engine.ChartTable, "", nil,
		"two numbers (Milliseconds and Bytes) but only 9 rows: a table shows them better than a scatter")

	// Histogram.
	cols, rows = result(60, []string{"InvoiceId", "Name", "Total"}, func(i, j int) engine.Value {
		switch j {
		case 0:
			return int64(i + 1)
		case 1:
			return fmt.Sprintf("track %d", i)
		}
		return float64(i%13) + 0.99
	})
	add("histogram: one number beside an id and names", cols, rows, engine.ChartHistogram, "Total", nil,
		"one number (Total) over 60 rows: a histogram shows how its values are distributed")
	add("histogram needs ten rows", []engine.Column{cols[0], cols[2]}, [][]engine.Value{{int64(1), 1.0}, {int64(2), 2.0}}, engine.ChartTable, "", nil,
		"one number (Total) over only 2 rows: a table shows them better than a histogram")

	cols, rows = result(15, []string{"TrackId", "Milliseconds"}, func(i, j int) engine.Value {
		return int64((i + 1) * (j*1000 + 1))
	})
	add("an id is not a measure", cols, rows, engine.ChartHistogram, "Milliseconds", nil, "")

	cols, rows = result(15, []string{"CustomerId", "Total"}, func(i, j int) engine.Value {
		if j == 0 {
			return int64(i % 4) // a foreign key: repeats, still not a measure
		}
		return float64(i)
	})
	add("a repeating key is not a measure", cols, rows, engine.ChartHistogram, "Total", nil, "")

	cols, rows = result(15, []string{"paid", "Total"}, func(i, j int) engine.Value {
		if j == 0 {
			return int64(i % 2) // ends in "id" but repeats: a number
		}
		return float64(i * i)
	})
	add("paid is not an id", cols, rows, engine.ChartScatter, "paid", []string{"Total"}, "")

	// Numbers that identify rows are not measures: an order number, a rank,
	// a postal code.
	cols, rows = result(15, []string{"order_no", "amount"}, func(i, j int) engine.Value {
		if j == 0 {
			return int64(10000 + i)
		}
		return float64(i*7%11) + 0.5
	})
	add("an order number is not a measure", cols, rows, engine.ChartHistogram, "amount", nil, "")
	cols, rows = result(15, []string{"rank", "Total"}, func(i, j int) engine.Value {
		if j == 0 {
			return int64(i + 1)
		}
		return float64(100 - i)
	})
	add("a rank is not a measure", cols, rows, engine.ChartHistogram, "Total", nil, "")
	cols, rows = result(15, []string{"PostalCode", "customers"}, func(i, j int) engine.Value {
		if j == 0 {
			return int64(10000 + i%4)
		}
		return int64(i)
	})
	add("a postal code is not a measure", cols, rows, engine.ChartHistogram, "customers", nil, "")

	// Tables with a reason.
	cols, rows = result(60, []string{"Name", "Composer"}, func(i, j int) engine.Value {
		return fmt.Sprintf("%d-%d", i, j)
	})
	add("high-cardinality text only", cols, rows, engine.ChartTable, "", nil,
		"only text with many different values (Name and Composer): a table shows it best")

	cols, rows = literal([]string{"Country", "City"}, []engine.Value{"USA", "Boston"}, []engine.Value{"France", "Paris"})
	add("categories without numbers", cols, rows, engine.ChartTable, "", nil,
		"no number to plot among Country and City: a table shows the values best")

	cols, rows = literal([]string{"Country", "City", "Total"}, []engine.Value{"USA", "Boston", 1.0}, []engine.Value{"France", "Paris", 2.0})
	add("two categories", cols, rows, engine.ChartTable, "", nil,
		"two categories (Country and City) and one number (Total): a table shows each combination")

	cols, rows = result(20, []string{"a", "b", "c"}, func(i, j int) engine.Value { return int64(i * j) })
	add("three numbers", cols, rows, engine.ChartTable, "", nil,
		"three numbers (a, b and c) with no category or date to plot them against: a table shows them best")

	cols, rows = result(20, []string{"Total", "Cover"}, func(i, j int) engine.Value {
		if j == 0 {
			return int64(i)
		}
		return []byte{byte(i)}
	})
	add("a number beside blobs", cols, rows, engine.ChartTable, "", nil,
		"one number (Total) beside Cover, which cannot be grouped or plotted: a table shows the rows as they are")

	cols, rows = result(20, []string{"x", "y"}, func(i, j int) engine.Value { return nil })
	add("only NULLs", cols, rows, engine.ChartTable, "", nil, "no number to plot among x and y: a table shows the values best")

	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, stats := range []engine.ColumnStatsList{ComputeStats(tt.cols, tt.rows), {}} {
				got := SuggestChart(tt.cols, tt.rows, stats)
				if got.Kind != tt.kind || got.X != tt.x || !reflect.DeepEqual(got.Y, tt.y) {
					t.Errorf("got %s x=%q y=%q (%s), want %s x=%q y=%q", got.Kind, got.X, got.Y, got.Reason, tt.kind, tt.x, tt.y)
				}
				if got.Reason == "" {
					t.Errorf("empty reason for %s", got.Kind)
				}
				if tt.wantReason != "" && got.Reason != tt.wantReason {
					t.Errorf("reason:\ngot  %q\nwant %q", got.Reason, tt.wantReason)
				}
				checkReasons(t, got)
			}
		})
	}
}

func TestIsDateText(t *testing.T) {
	tests := []struct {
		s    string
		want bool
	}{
		{"2009-01", true},
		{"2009-01-31", true},
		{"2012-02-29", true},
		{"2011-02-29", false},
		{"2009-04-31", false},
		{"2009-00-01", false},
		{"2009-13", false},
		{"2009-1-01", false},
		{"2009", false},
		{"2009-01-01 10:00", true},
		{"2009-01-01 10:00:59", true},
		{"2009-01-01T23:59:60.123", true},
		{"2009-01-01 24:00", false},
		{"2009-01-01 10:60", false},
		{"2009-01-01 10:00:", false},
		{"2009-01-01 10:00:00.", false},
		{"2009-01-01 10:00:00Z", true},
		{"2009-01-01 10:00:00-05:00", true},
		{"2009-01-01 10:00:00+5", false},
		{"2009-01-01x", false},
		{"01/02/2009", false},
		{"abcd-ef", false},
	}
	for _, tt := range tests {
		if got := isDateText(tt.s); got != tt.want {
			t.Errorf("isDateText(%q): got %v, want %v", tt.s, got, tt.want)
		}
	}
}

func TestIDNames(t *testing.T) {
	for _, tt := range []struct {
		name         string
		strong, weak bool
	}{
		{"id", true, true}, {"ID", true, true}, {"TrackId", true, true}, {"customerID", true, true},
		{"track_id", true, true}, {"trackid", false, true}, {"paid", false, true},
		{"PAID", false, true}, {"Total", false, false}, {"Idle", false, false},
		{"zip_code", true, false}, {"PostalCode", true, false}, {"InvoiceNumber", false, true}, {"order_no", false, true},
		{"tracks", false, false}, {"num_tracks", false, false},
	} {
		if got := strongIDName(tt.name); got != tt.strong {
			t.Errorf("strongIDName(%q): got %v, want %v", tt.name, got, tt.strong)
		}
		if got := weakIDName(tt.name); got != tt.weak {
			t.Errorf("weakIDName(%q): got %v, want %v", tt.name, got, tt.weak)
		}
	}
}

// checkReasons checks a suggestion's reason in every language: said, with
// nothing left of its template, naming the columns the chart draws.
func checkReasons(t *testing.T, got engine.ChartSuggestion) {
	t.Helper()
	if got.Reasons["en"] != got.Reason {
		t.Errorf("the English reason %q is not Reason %q", got.Reasons["en"], got.Reason)
	}
	for _, lang := range engine.ReasonLanguages {
		r := got.Reasons[lang]
		if r == "" || strings.ContainsAny(r, "{}") || strings.Contains(r, "%!") {
			t.Errorf("%s: the reason %q is not a finished sentence", lang, r)
		}
		for _, name := range append([]string{got.X}, got.Y...) {
			if !strings.Contains(r, name) {
				t.Errorf("%s: the reason %q does not name %s", lang, r, name)
			}
		}
	}
}

// The tables of package words have every chart sentence in every
// language (words_test.go); here, two reasons said in each.
func TestChartReasonsInEveryLanguage(t *testing.T) {
	cols, rows := result(30, []string{"InvoiceDate", "Total", "Tax", "Items", "Discount"}, func(i, j int) engine.Value {
		if j == 0 {
			return day(i)
		}
		return float64(i*j) + 0.5
	})
	got := SuggestChart(cols, rows, ComputeStats(cols, rows))
	want := map[string]string{
		"en": "one date-like column (InvoiceDate) and four numbers (Total, Tax, Items and Discount): a line shows the trend over time (the first three are drawn)",
		"fr": "une colonne de dates (InvoiceDate) et quatre nombres (Total, Tax, Items et Discount) : une courbe montre l’évolution dans le temps (les trois premiers sont tracés)",
		"zh": "一个日期列（InvoiceDate）和 4 个数值（Total、Tax、Items 和 Discount）：折线图显示随时间的变化趋势（只绘制前 3 个）",
	}
	if !reflect.DeepEqual(got.Reasons, want) {
		t.Errorf("reasons:\ngot  %q\nwant %q", got.Reasons, want)
	}
	many := []string{"a", "b", "c", "d", "e", "f"}
	cols, rows = result(3, many, func(i, j int) engine.Value { return fmt.Sprintf("t%d-%d", i, j) })
	got = SuggestChart(cols, rows, ComputeStats(cols, rows))
	if got.Kind != engine.ChartTable || got.Reasons["fr"] != "" && !strings.Contains(got.Reasons["fr"], "a, b, c et 3 autres") ||
		!strings.Contains(got.Reasons["zh"], "a、b、c 等另外 3 列") {
		t.Errorf("a long list of names: %q", got.Reasons)
	}
}
