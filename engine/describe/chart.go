package describe

import (
	"strings"
	"unicode"

	"querent/engine"
)

// Bounds of the chart rules.
const (
	maxChartColumns     = 6  // more columns than this read best as a table
	maxCategories       = 50 // a text column with at most this many values is a category
	maxBars             = 50 // a bar chart draws one bar per row, at most this many
	minPieSlices        = 2
	maxPieSlices        = 6
	minScatterRows      = 10
	minHistogramRows    = 10
	maxSeries           = 3 // a line or bar chart draws at most this many numbers
	minYear, maxYear    = 1900, 2100
	minMonth, maxMonth  = 1, 12
	minYYYYMMDD         = minYear*10000 + 101
	maxYYYYMMDD         = maxYear*10000 + 1231
	chartReasonMaxNames = 4  // a reason lists at most this many column names
	maxSeriesValues     = 30 // a category with at most this many values splits the rows into one series each
	secondAxisRatio     = 20 // a number this many times larger (or smaller) than the first goes on a second axis
)

// Roles a column can play in a chart.
type chartRole int

const (
	roleOther    chartRole = iota // blob, mixed, or repeated text with many values: not chartable
	roleMeasure                   // a number to plot
	roleDate                      // a date, time, year or month: the x-axis of a line
	roleCategory                  // text with few distinct values: bars or slices
	roleKey                       // an integer id: identifies rows, measures nothing
	roleLabel                     // text, every value different (names): labels rows
	roleEmpty                     // only NULLs
)

type chartColumn struct {
	name  string
	role  chartRole
	stats *engine.ColumnStats
}

// SuggestChart chooses a chart for a result and explains why. stats are the
// result's statistics (ComputeStats); when they do not match cols they are
// computed again. The rules, first match wins:
//
//   - no rows, a single value or a single row, or more than 6 columns: table;
//   - a date-like column (text that all reads as YYYY-MM, YYYY-MM-DD or
//     YYYY-MM-DD HH:MM[:SS], or a column named like a year or month holding
//     years 1900–2100 or months 1–12) and at least one number: line;
//   - one category (text with at most 50 distinct values) and at least one
//     number, at most 50 rows: pie when there is one number, all ≥ 0 and not
//     an average, rate or price, and one row per category for 2–6
//     categories; else bar;
//   - two numbers and no category, at least 10 rows: scatter;
//   - one number, beside nothing but ids and names, at least 10 rows:
//     histogram;
//   - anything else: table, with the reason.
//
// Integer columns named like an id (id, TrackId, track_id…) are never
// numbers to plot.
func SuggestChart(cols []engine.Column, rows [][]engine.Value, stats engine.ColumnStatsList) engine.ChartSuggestion {
	n := len(rows)
	switch {
	case len(cols) == 0:
		return table(chartWhy{key: "no_columns"})
	case n == 0:
		return table(chartWhy{key: "no_rows"})
	case n == 1 && len(cols) == 1:
		return table(chartWhy{key: "single_value", names: []string{cols[0].Name}})
	case n == 1:
		return table(chartWhy{key: "single_row", count: len(cols)})
	case len(cols) > maxChartColumns:
		return table(chartWhy{key: "too_many_columns", count: len(cols)})
	}
	if !statsMatch(cols, stats) {
		stats = ComputeStats(cols, rows)
	}

	var dates, measures, cats, others []chartColumn
	for j, c := range cols {
		cc := chartColumn{name: c.Name, stats: stats.Stats[j]}
		cc.role = classify(c.Name, rows, j, cc.stats)
		switch cc.role {
		case roleDate:
			dates = append(dates, cc)
		case roleMeasure:
			measures = append(measures, cc)
		case roleCategory:
			cats = append(cats, cc)
		case roleOther:
			others = append(others, cc)
		default: // ids, names and all-NULL columns take no part
		}
	}

	// Line: a trend over time.
	if len(dates) > 0 && len(measures) > 0 {
		d := dates[0]
		if len(cats) > 0 && d.stats.Distinct < d.stats.Count {
			// Long data: one line per category, when each (date, category)
			// pair is one row.
			c := cats[0]
			if len(cats) == 1 && c.stats.Distinct <= maxSeriesValues && pairsUnique(rows, cols, d.name, c.name) {
				m := measures[0]
				s := suggest(engine.ChartLine, d.name, []string{m.name},
					chartWhy{key: "line_series", names: []string{d.name}, numbers: []string{m.name}, others: []string{c.name}, count: int(c.stats.Distinct)})
				s.Series = c.name
				return timeAxis(s, d, rows, cols)
			}
			return table(chartWhy{key: "repeats_per_date", names: []string{d.name}, others: []string{c.name}})
		}
		y, y2 := scaled(measures)
		s := suggest(engine.ChartLine, d.name, y,
			chartWhy{key: "line", names: []string{d.name}, numbers: allNames(measures), others: y2})
		s.Y2 = y2
		return timeAxis(s, d, rows, cols)
	}

	// Bars per category, one set per value of a second category (long
	// data without time).
	if len(cats) == 2 && len(measures) > 0 && len(dates) == 0 {
		c, by := cats[0], cats[1]
		if by.stats.Distinct > c.stats.Distinct {
			c, by = by, c
		}
		crossed := int64(n) > c.stats.Distinct && int64(n) >= 2*by.stats.Distinct // not a city within its country
		if crossed && c.stats.Distinct <= maxBars && by.stats.Distinct <= maxSeriesValues && pairsUnique(rows, cols, c.name, by.name) {
			m := measures[0]
			s := suggest(engine.ChartBar, c.name, []string{m.name},
				chartWhy{key: "bar_series", names: []string{c.name}, numbers: []string{m.name}, others: []string{by.name}, count: int(by.stats.Distinct)})
			s.Series, s.XAxis = by.name, engine.AxisCategory
			return s
		}
	}

	// Bar or pie: numbers compared across categories.
	if len(cats) == 1 && len(measures) > 0 {
		c := cats[0]
		if n > maxBars {
			return table(chartWhy{key: "too_many_bars", names: []string{c.name}, count: n})
		}
		if pie(c, measures, n) {
			m := measures[0]
			s := suggest(engine.ChartPie, c.name, []string{m.name},
				chartWhy{key: "pie", names: []string{c.name}, numbers: []string{m.name}, count: int(c.stats.Distinct)})
			s.XAxis = engine.AxisCategory
			return s
		}
		y, y2 := scaled(measures)
		s := suggest(engine.ChartBar, c.name, y,
			chartWhy{key: "bar", names: []string{c.name}, numbers: allNames(measures), others: y2})
		s.Y2, s.XAxis = y2, engine.AxisCategory
		return s
	}

	if len(cats) == 0 && len(dates) == 0 {
		// Scatter: how two numbers relate.
		if len(measures) == 2 {
			x, y := measures[0].name, measures[1].name
			why := chartWhy{key: "scatter", numbers: []string{x, y}, count: n}
			if n < minScatterRows {
				why.key = "few_for_scatter"
				return table(why)
			}
			s := suggest(engine.ChartScatter, x, []string{y}, why)
			s.XAxis = engine.AxisNumber
			return s
		}
		// Histogram: how one number is distributed.
		if len(measures) == 1 && len(others) == 0 {
			m := measures[0].name
			why := chartWhy{key: "histogram", numbers: []string{m}, count: n}
			if n < minHistogramRows {
				why.key = "few_for_histogram"
				return table(why)
			}
			s := suggest(engine.ChartHistogram, m, nil, why)
			s.XAxis = engine.AxisNumber
			return s
		}
	}

	// Table, saying why.
	every := make([]string, len(cols))
	for i, c := range cols {
		every[i] = c.Name
	}
	switch {
	case len(measures) == 0 && len(cats) == 0 && len(dates) == 0 && allText(cols, stats):
		return table(chartWhy{key: "only_text", names: every})
	case len(measures) == 0:
		return table(chartWhy{key: "no_number", names: every})
	case len(cats) > 1:
		return table(chartWhy{key: "categories", names: allNames(cats), numbers: allNames(measures)})
	case len(dates) == 0 && len(cats) == 0 && len(measures) > 2:
		return table(chartWhy{key: "numbers_only", numbers: allNames(measures)})
	case len(others) > 0:
		return table(chartWhy{key: "unplottable", numbers: allNames(measures), others: allNames(others)})
	}
	return table(chartWhy{key: "no_simple_chart", names: every})
}

// suggest is a chart of kind, with its reason in every language.
func suggest(kind, x string, y []string, why chartWhy) engine.ChartSuggestion {
	r := why.reasons()
	return engine.ChartSuggestion{Kind: kind, X: x, Y: y, Reason: r["en"], Reasons: r}
}

func table(why chartWhy) engine.ChartSuggestion {
	return suggest(engine.ChartTable, "", nil, why)
}

// statsMatch reports whether stats were computed for cols.
func statsMatch(cols []engine.Column, stats engine.ColumnStatsList) bool {
	if len(stats.Columns) != len(cols) || len(stats.Stats) != len(cols) {
		return false
	}
	for i, c := range cols {
		if stats.Columns[i] != c.Name || stats.Stats[i] == nil {
			return false
		}
	}
	return true
}

// classify gives column j its chart role.
func classify(name string, rows [][]engine.Value, j int, st *engine.ColumnStats) chartRole {
	switch st.Kind {
	case engine.KindEmpty:
		return roleEmpty
	case engine.KindNumeric:
		ints := allInts(rows, j)
		if ints && dateLikeInts(name, rows, j) {
			return roleDate
		}
		if ints && (strongIDName(name) || (weakIDName(name) && st.Distinct == st.Count)) {
			return roleKey
		}
		return roleMeasure
	case engine.KindText:
		if dateLikeText(name, rows, j) {
			return roleDate
		}
		if st.Distinct <= maxCategories {
			return roleCategory
		}
		if st.Distinct == st.Count {
			return roleLabel
		}
	}
	return roleOther
}

func cell(row []engine.Value, j int) engine.Value {
	if j < len(row) {
		return row[j]
	}
	return nil
}

func allInts(rows [][]engine.Value, j int) bool {
	for _, r := range rows {
		switch v := cell(r, j).(type) {
		case nil:
		default:
			if n, ok := toNumber(v); !ok || !n.IsInt {
				return false
			}
		}
	}
	return true
}

// allText reports whether every column holds text (or only NULLs), and
// one at least holds text.
func allText(cols []engine.Column, stats engine.ColumnStatsList) bool {
	text := false
	for i := range cols {
		switch stats.Stats[i].Kind {
		case engine.KindText:
			text = true
		case engine.KindEmpty:
		default:
			return false
		}
	}
	return text
}

// strongIDName reports names that say "identifier" whatever the values:
// id, rowid, track_id, TrackId, customerID.
func strongIDName(name string) bool {
	l := strings.ToLower(name)
	switch l {
	case "id", "rowid", "oid", "_rowid_":
		return true
	}
	if strings.HasSuffix(l, "_id") || strings.HasSuffix(l, "-id") || strings.HasSuffix(l, " id") {
		return true
	}
	// Codes that are numbers but measure nothing: zip_code, PostalCode, phone.
	if ws := nameWords(name); len(ws) > 0 {
		switch ws[len(ws)-1] {
		case "code", "zip", "zipcode", "postcode", "phone", "sku", "isbn", "ean", "uuid", "guid":
			return true
		}
	}
	if len(name) > 2 && (strings.HasSuffix(name, "Id") || strings.HasSuffix(name, "ID")) {
		prev := rune(name[len(name)-3])
		return unicode.IsLower(prev) || unicode.IsDigit(prev)
	}
	return false
}

// weakIDName reports names that may mean "identifier" (trackid, order_no,
// InvoiceNumber, rank) but may also be a word or a count (paid, valid): they
// count only with all-distinct values.
func weakIDName(name string) bool {
	if strings.HasSuffix(strings.ToLower(name), "id") {
		return true
	}
	if ws := nameWords(name); len(ws) > 0 {
		switch ws[len(ws)-1] {
		case "no", "nr", "num", "number", "rank", "rownum", "seq", "index":
			return true
		}
	}
	return false
}

// yearName reports a name that says "year" in the languages of the page
// and a few more (year, yr, année, an, jahr, año, 年, strftime('%Y', …)).
func yearName(name string) bool {
	l := strings.ToLower(name)
	if strings.Contains(l, "year") || strings.Contains(l, "%y") || strings.Contains(l, "年") ||
		strings.Contains(l, "année") || strings.Contains(l, "annee") {
		return true
	}
	for _, w := range nameWords(name) {
		switch w {
		case "yr", "an", "ans", "jahr", "año", "anno", "ano":
			return true
		}
	}
	return false
}

// monthName reports a name that says "month" (month, mois, monat, mes, 月,
// strftime('%m', …) or '%Y-%m').
func monthName(name string) bool {
	l := strings.ToLower(name)
	if strings.Contains(l, "month") || strings.Contains(l, "%m") || strings.Contains(l, "月") {
		return true
	}
	for _, w := range nameWords(name) {
		switch w {
		case "mois", "monat", "mes", "mese":
			return true
		}
	}
	return false
}

func dateName(name string) bool {
	return strings.Contains(strings.ToLower(name), "date")
}

// dateLikeInts reports an integer column named like a year (1900–2100), a
// month (1–12) or a date (YYYYMMDD).
func dateLikeInts(name string, rows [][]engine.Value, j int) bool {
	var check func(int64) bool
	switch {
	case yearName(name):
		check = func(x int64) bool { return minYear <= x && x <= maxYear }
	case monthName(name):
		check = func(x int64) bool { return minMonth <= x && x <= maxMonth }
	case dateName(name):
		check = func(x int64) bool {
			return minYYYYMMDD <= x && x <= maxYYYYMMDD && engine.ValidDate(int(x/10000), int(x/100%100), int(x%100))
		}
	default:
		return false
	}
	for _, r := range rows {
		if v := cell(r, j); v != nil {
			if n, _ := toNumber(v); !check(n.I) {
				return false
			}
		}
	}
	return true
}

// dateLikeText reports a text column whose values all read as dates or
// date-times, or, named like a year or a month, as years or months.
func dateLikeText(name string, rows [][]engine.Value, j int) bool {
	check := isDateText
	switch {
	case yearName(name):
		check = func(s string) bool {
			y, ok := atoi(s)
			return len(s) == 4 && ok && minYear <= y && y <= maxYear || isDateText(s)
		}
	case monthName(name):
		check = func(s string) bool {
			m, ok := atoi(s)
			return len(s) <= 2 && ok && minMonth <= m && m <= maxMonth || isDateText(s)
		}
	}
	for _, r := range rows {
		if v := cell(r, j); v != nil {
			if s, ok := v.(string); !ok || !check(s) {
				return false
			}
		}
	}
	return true
}

// isDateText reports whether s is YYYY-MM, YYYY-MM-DD, or YYYY-MM-DD
// followed by a space or T, HH:MM, optionally :SS, a fraction of a second
// and a zone (Z or ±HH:MM): the ISO 8601 forms SQLite's date functions
// read and write.
func isDateText(s string) bool {
	if len(s) < 7 || s[4] != '-' {
		return false
	}
	y, ok1 := atoi(s[:4])
	m, ok2 := atoi(s[5:7])
	if !ok1 || !ok2 || m < 1 || m > 12 {
		return false
	}
	if len(s) == 7 {
		return true
	}
	if len(s) < 10 || s[7] != '-' {
		return false
	}
	d, ok := atoi(s[8:10])
	if !ok || !engine.ValidDate(y, m, d) {
		return false
	}
	rest := s[10:]
	if rest == "" {
		return true
	}
	if rest[0] != ' ' && rest[0] != 'T' {
		return false
	}
	rest = rest[1:]
	if !clock(rest, 23) {
		return false
	}
	rest = rest[5:]
	if len(rest) >= 3 && rest[0] == ':' {
		if !twoDigits(rest[1:3], 60) { // 60: a leap second
			return false
		}
		rest = rest[3:]
		if len(rest) > 1 && rest[0] == '.' {
			i := 1
			for i < len(rest) && '0' <= rest[i] && rest[i] <= '9' {
				i++
			}
			if i == 1 {
				return false
			}
			rest = rest[i:]
		}
	}
	switch {
	case rest == "" || rest == "Z":
		return true
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-'):
		return clock(rest[1:], 14)
	}
	return false
}

// clock reports whether s starts with HH:MM, hours at most maxHour.
func clock(s string, maxHour int) bool {
	return len(s) >= 5 && twoDigits(s[:2], maxHour) && s[2] == ':' && twoDigits(s[3:5], 59)
}

func twoDigits(s string, maxValue int) bool {
	v, ok := atoi(s)
	return len(s) == 2 && ok && v <= maxValue
}

// atoi parses a short run of ASCII digits (no sign, no spaces).
func atoi(s string) (int, bool) {
	if s == "" || len(s) > 9 {
		return 0, false
	}
	v := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		v = v*10 + int(s[i]-'0')
	}
	return v, true
}

// pie reports whether one number split across 2–6 categories, one row
// each, makes the parts of a whole.
func pie(c chartColumn, measures []chartColumn, rows int) bool {
	if len(measures) != 1 {
		return false
	}
	cs, ms := c.stats, measures[0].stats
	groups := cs.Distinct
	if cs.NullCount > 0 {
		groups++ // NULL is a group of its own
	}
	if cs.Distinct < minPieSlices || cs.Distinct > maxPieSlices || int64(rows) != groups || ms.NullCount > 0 {
		return false
	}
	lo, ok1 := toNumber(ms.Min)
	hi, ok2 := toNumber(ms.Max)
	if !ok1 || !ok2 || lo.Float() < 0 || hi.Float() <= 0 {
		return false
	}
	return !notAdditive(measures[0].name)
}

// notAdditive reports a name that says its values do not add up to a
// whole (averages, rates, prices), so they make no pie.
func notAdditive(name string) bool {
	for _, w := range nameWords(name) {
		switch w {
		case "avg", "average", "mean", "median", "min", "max", "minimum", "maximum",
			"rate", "ratio", "pct", "percent", "percentage", "price":
			return true
		}
	}
	return false
}

// nameWords splits a column name into lower-case words at non-letters and at
// camel-case humps: "avg(UnitPrice)" → avg, unit, price.
func nameWords(name string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	prevLower := false
	for _, r := range name {
		switch {
		case unicode.IsLetter(r):
			if unicode.IsUpper(r) && prevLower {
				flush()
			}
			cur = append(cur, r)
			prevLower = unicode.IsLower(r)
		default:
			flush()
			prevLower = false
		}
	}
	flush()
	return out
}

func firstNames(cs []chartColumn, k int) []string {
	out := make([]string, 0, min(len(cs), k))
	for _, c := range cs[:min(len(cs), k)] {
		out = append(out, c.name)
	}
	return out
}

func allNames(cs []chartColumn) []string {
	return firstNames(cs, len(cs))
}

// pairsUnique reports whether no two rows share the values of columns a
// and b: long data, one row per (a, b).
func pairsUnique(rows [][]engine.Value, cols []engine.Column, a, b string) bool {
	ia, ib := -1, -1
	for j, c := range cols {
		switch c.Name {
		case a:
			ia = j
		case b:
			ib = j
		}
	}
	if ia < 0 || ib < 0 {
		return false
	}
	type pair struct{ a, b engine.Value }
	seen := make(map[pair]bool, len(rows))
	for _, r := range rows {
		p := pair{key(cell(r, ia)), key(cell(r, ib))}
		if seen[p] {
			return false
		}
		seen[p] = true
	}
	return true
}

// key is a value usable as a map key (a blob as its text).
func key(v engine.Value) engine.Value {
	if b, ok := v.([]byte); ok {
		return string(b)
	}
	return v
}

// scaled splits the numbers of a line or bar chart into those drawn
// against the first axis (the first number and those of its scale, at
// most maxSeries in all) and those drawn against a second axis: the
// numbers whose largest value is secondAxisRatio times larger or smaller
// than the first's.
func scaled(measures []chartColumn) (y, y2 []string) {
	first := magnitude(measures[0].stats)
	for _, m := range measures {
		if len(y)+len(y2) == maxSeries {
			break
		}
		g := magnitude(m.stats)
		if first > 0 && g > 0 && (g/first >= secondAxisRatio || first/g >= secondAxisRatio) {
			y2 = append(y2, m.name)
			continue
		}
		y = append(y, m.name)
	}
	return y, y2
}

// magnitude is a number column's largest absolute value.
func magnitude(st *engine.ColumnStats) float64 {
	lo, ok1 := toNumber(st.Min)
	hi, ok2 := toNumber(st.Max)
	if !ok1 || !ok2 {
		return 0
	}
	return max(abs(lo.Float()), abs(hi.Float()))
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

// timeAxis marks a line's x-axis as time, with its step: a year, a month,
// or a day (or finer).
func timeAxis(s engine.ChartSuggestion, d chartColumn, rows [][]engine.Value, cols []engine.Column) engine.ChartSuggestion {
	s.XAxis = engine.AxisTime
	s.TimeUnit = timeUnit(d.name, rows, indexOf(cols, d.name))
	return s
}

func indexOf(cols []engine.Column, name string) int {
	for j, c := range cols {
		if c.Name == name {
			return j
		}
	}
	return -1
}

// timeUnit is the step of a date-like column: a year (integers or
// four-digit text), a month (YYYY-MM text or integers 1–12), else a day.
func timeUnit(name string, rows [][]engine.Value, j int) string {
	unit := ""
	for _, r := range rows {
		var u string
		switch v := cell(r, j).(type) {
		case nil:
			continue
		case string:
			switch {
			case len(v) == 4:
				u = engine.TimeYear
			case len(v) == 7 && isDateText(v):
				u = engine.TimeMonth
			case len(v) <= 2 && monthName(name):
				u = engine.TimeMonth
			default:
				u = engine.TimeDay
			}
		default:
			switch {
			case yearName(name):
				u = engine.TimeYear
			case monthName(name):
				u = engine.TimeMonth
			default:
				u = engine.TimeDay
			}
		}
		if unit != "" && u != unit {
			return engine.TimeDay
		}
		unit = u
	}
	if unit == "" {
		return engine.TimeDay
	}
	return unit
}

// PeriodColumn reports a column of years or months, which a chart draws on
// a time axis and a workbook writes as dates: engine.TimeMonth for text
// that all reads YYYY-MM (strftime('%Y-%m')), engine.TimeYear for years
// 1900–2100 — integers, or four-digit text (strftime('%Y')) — in a column
// named like a year (year, année, 年…); "" for anything else, and for a
// column of NULLs.
func PeriodColumn(name string, rows [][]engine.Value, j int) string {
	unit := ""
	for _, r := range rows {
		var u string
		switch v := cell(r, j).(type) {
		case nil:
			continue
		case string:
			y, ok := atoi(v)
			switch {
			case len(v) == 7 && isDateText(v):
				u = engine.TimeMonth
			case len(v) == 4 && ok && minYear <= y && y <= maxYear && yearName(name):
				u = engine.TimeYear
			}
		case int64:
			if minYear <= v && v <= maxYear && yearName(name) {
				u = engine.TimeYear
			}
		}
		if u == "" || unit != "" && u != unit {
			return ""
		}
		unit = u
	}
	return unit
}
