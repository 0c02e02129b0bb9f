package board

import (
	"encoding/json"
	"math/big"
	"strings"
)

// Change is what changed in a card's result between two runs.
type Change struct {
	// Unchanged is true when the columns, the row count and every kept
	// row are the same.
	Unchanged  bool  `json:"unchanged"`
	RowsBefore int64 `json:"rows_before"`
	RowsNow    int64 `json:"rows_now"`
	// Changed, Added and Removed count rows: by the first column's value
	// when it names each row once in both results (Keyed), else by whole
	// rows (a changed row is one removed and one added).
	Changed int  `json:"changed"`
	Added   int  `json:"added"`
	Removed int  `json:"removed"`
	Keyed   bool `json:"keyed"`
	// Cells are the first changed values of changed rows (at most
	// MaxCells), for the card's summary.
	Cells []CellChange `json:"cells"`
	// Totals are the sums of the numeric columns whose sum changed, over
	// the kept rows.
	Totals []TotalChange `json:"totals"`
	// Partial is true when a result has more rows than a card keeps: the
	// rows past KeepRows are counted, not compared.
	Partial bool `json:"partial"`
	// ColumnsChanged is true when the result's columns are not the same
	// (the rows are then not compared).
	ColumnsChanged bool `json:"columns_changed"`
}

// CellChange is one value that changed.
type CellChange struct {
	// Row is the row's key (its first column's value as text).
	Row    string `json:"row"`
	Column string `json:"column"`
	Before string `json:"before"`
	Now    string `json:"now"`
}

// TotalChange is a numeric column's sum before and now, as exact decimal
// text.
type TotalChange struct {
	Column string `json:"column"`
	Before string `json:"before"`
	Now    string `json:"now"`
}

// MaxCells bounds Change.Cells.
const MaxCells = 5

// Diff says what changed from before to now.
func Diff(before, now Snapshot) Change {
	c := Change{RowsBefore: before.RowCount, RowsNow: now.RowCount, Cells: []CellChange{}, Totals: []TotalChange{}}
	c.Partial = !before.Complete() || !now.Complete()
	if strings.Join(before.Columns, "\x00") != strings.Join(now.Columns, "\x00") {
		c.ColumnsChanged = true
		return c
	}
	b, n := texts(before.Rows), texts(now.Rows)
	if keysOf(b) != nil && keysOf(n) != nil {
		c.Keyed = true
		diffKeyed(&c, before.Columns, b, n)
	} else {
		diffRows(&c, b, n)
	}
	for j, col := range now.Columns {
		sb, okb := sum(before.Rows, j)
		sn, okn := sum(now.Rows, j)
		if okb && okn && sb.Cmp(sn) != 0 {
			c.Totals = append(c.Totals, TotalChange{Column: col, Before: ratText(sb), Now: ratText(sn)})
		}
	}
	c.Unchanged = c.Changed == 0 && c.Added == 0 && c.Removed == 0 && c.RowsBefore == c.RowsNow && len(c.Totals) == 0
	return c
}

// diffKeyed compares rows of the same first value.
func diffKeyed(c *Change, cols []string, before, now [][]string) {
	bk := keysOf(before)
	nk := keysOf(now)
	for i, row := range before {
		k := row[0]
		j, ok := nk[k]
		if !ok {
			c.Removed++
			continue
		}
		changed := false
		for col := range before[i] {
			if before[i][col] == now[j][col] {
				continue
			}
			changed = true
			if len(c.Cells) < MaxCells {
				c.Cells = append(c.Cells, CellChange{Row: plain(k), Column: cols[col], Before: plain(before[i][col]), Now: plain(now[j][col])})
			}
		}
		if changed {
			c.Changed++
		}
	}
	for k := range nk {
		if _, ok := bk[k]; !ok {
			c.Added++
		}
	}
}

// diffRows compares whole rows as a multiset.
func diffRows(c *Change, before, now [][]string) {
	count := map[string]int{}
	for _, r := range before {
		count[strings.Join(r, "\x00")]++
	}
	added := 0
	for _, r := range now {
		k := strings.Join(r, "\x00")
		if count[k] > 0 {
			count[k]--
			continue
		}
		added++
	}
	removed := 0
	for _, v := range count {
		removed += v
	}
	c.Changed = min(added, removed)
	c.Added, c.Removed = added-c.Changed, removed-c.Changed
}

// keysOf maps each row's first value to its index, or nil when a value
// repeats (or there are no columns).
func keysOf(rows [][]string) map[string]int {
	m := make(map[string]int, len(rows))
	for i, r := range rows {
		if len(r) == 0 {
			return nil
		}
		if _, dup := m[r[0]]; dup {
			return nil
		}
		m[r[0]] = i
	}
	return m
}

// texts is each value as its JSON text: the same for a value just read
// (int64, float64, string) and one read back from the board's file
// (json.Number, string).
func texts(rows [][]any) [][]string {
	out := make([][]string, len(rows))
	for i, r := range rows {
		out[i] = make([]string, len(r))
		for j, v := range r {
			b, err := json.Marshal(v)
			if err != nil {
				b = []byte("?")
			}
			out[i][j] = string(b)
		}
	}
	return out
}

// plain is a value's JSON text as the analyst reads it: a string without
// its quotes, null as "NULL".
func plain(s string) string {
	if s == "null" {
		return "NULL"
	}
	var str string
	if strings.HasPrefix(s, `"`) && json.Unmarshal([]byte(s), &str) == nil {
		return str
	}
	return s
}

// sum adds column j's numbers exactly (false when a value is neither a
// number nor NULL, or no value is a number).
func sum(rows [][]any, j int) (*big.Rat, bool) {
	total, seen := new(big.Rat), false
	for _, r := range rows {
		if j >= len(r) || r[j] == nil {
			continue
		}
		var x big.Rat
		switch v := r[j].(type) {
		case json.Number:
			if _, ok := x.SetString(v.String()); !ok {
				return nil, false
			}
		case int64:
			x.SetInt64(v)
		case float64:
			if x.SetFloat64(v) == nil {
				return nil, false
			}
			// The float's shortest text, as the file keeps it.
			b, _ := json.Marshal(v)
			x.SetString(string(b))
		case int:
			x.SetInt64(int64(v))
		default:
			return nil, false
		}
		total.Add(total, &x)
		seen = true
	}
	return total, seen
}

// ratText writes an exact sum as decimal text (at most 6 decimals).
func ratText(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	s := r.FloatString(6)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}
