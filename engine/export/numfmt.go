package export

import (
	"math"
	"strings"

	"querent/engine"
	"querent/engine/text"
)

// numFormat is how a numeric column's cells read in the workbook, chosen
// from the column's name and its first values, as a person formatting the
// sheet would: thousands separators for counts, two decimals for money and
// rounded amounts, a percentage for shares — the values stay the exact
// numbers, only their display changes.
type numFormat int

const (
	numGeneral  numFormat = iota // as Excel shows any number (ids, years, codes, unrounded measures)
	numInteger                   // #,##0
	numDecimal2                  // #,##0.00
	numPercent                   // 0.0%: fractions (0.125 → 12.5%)
	numPoints                    // 0.0"%": percentages already in points (12.5 → 12.5%)
)

// numFormatCodes are Excel's format codes of the formats.
var numFormatCodes = [...]string{
	numInteger:  "#,##0",
	numDecimal2: "#,##0.00",
	numPercent:  "0.0%",
	numPoints:   `0.0"%"`,
}

// stems of the words that name money, shares and identifiers.
var (
	moneyWords = stems("total", "amount", "price", "cost", "revenue", "sales", "spend", "spent", "spending", "income",
		"profit", "balance", "paid", "payment", "salary", "fee", "fees", "usd", "eur", "gbp", "chf", "jpy", "dollars",
		"euros", "money", "turnover", "budget", "tax", "discount", "invoiced", "billing")
	shareWords  = stems("pct", "percent", "percentage", "share", "ratio", "rate", "fraction", "proportion")
	pointsWords = stems("pct", "percent", "percentage")
	codeWords   = stems("id", "code", "zip", "zipcode", "postcode", "postal", "phone", "fax", "sku", "isbn", "ean", "year", "yr")
)

func stems(ws ...string) map[string]bool {
	m := map[string]bool{}
	for _, w := range ws {
		for _, s := range text.IdentWords(w) {
			m[s] = true
		}
	}
	return m
}

func hasWord(name string, set map[string]bool) bool {
	for _, w := range text.IdentWords(name) {
		if set[w] {
			return true
		}
	}
	return false
}

// chooseNumFormat picks column j's format from its name and the first rows.
// A column holding anything but numbers (text, dates, blobs) is not
// formatted here.
func chooseNumFormat(name string, head [][]engine.Value, j int) numFormat {
	seen, ints, rounded := 0, true, true
	maxAbs := 0.0
	for _, r := range head {
		if j >= len(r) {
			continue
		}
		switch v := r[j].(type) {
		case nil:
		case int64:
			seen++
			maxAbs = math.Max(maxAbs, math.Abs(float64(v)))
		case float64:
			if math.IsInf(v, 0) || math.IsNaN(v) {
				continue
			}
			seen++
			ints = false
			maxAbs = math.Max(maxAbs, math.Abs(v))
			if c := v * 100; math.Abs(c-math.Round(c)) > 1e-6*math.Max(1, math.Abs(c)) {
				rounded = false
			}
		default:
			return numGeneral
		}
	}
	if seen == 0 {
		return numGeneral
	}
	l := strings.ToLower(name)
	share := hasWord(name, shareWords) || strings.Contains(l, "%")
	switch {
	case share && maxAbs <= 1:
		return numPercent
	case share && (hasWord(name, pointsWords) || strings.Contains(l, "%")) && maxAbs <= 100:
		return numPoints
	case ints && (idName(name) || hasWord(name, codeWords)):
		return numGeneral // an identifier, a year, a code: no thousands separator
	case ints:
		return numInteger
	case hasWord(name, moneyWords) || rounded:
		return numDecimal2
	}
	return numGeneral
}

// formatWidth is how many characters a number shows in a format.
func formatWidth(f numFormat, v float64) int {
	a := math.Abs(v)
	digits := 1
	if a >= 1 {
		digits = int(math.Floor(math.Log10(a))) + 1
	}
	sep := (digits - 1) / 3
	sign := 0
	if v < 0 {
		sign = 1
	}
	switch f {
	case numInteger:
		return sign + digits + sep
	case numDecimal2:
		return sign + digits + sep + 3
	case numPercent:
		d := 1
		if p := a * 100; p >= 1 {
			d = int(math.Floor(math.Log10(p))) + 1
		}
		return sign + d + 3
	case numPoints:
		return sign + digits + 3
	}
	return 0
}
