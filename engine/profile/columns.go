package profile

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"querent/engine"
)

// newColumn is column c's profile from its statistics and values.
func newColumn(c *engine.TableColumn, s *engine.ColumnStats, vals []engine.Value, bins int) *Column {
	col := &Column{Name: c.Name, Type: c.Type, Nulls: s.NullCount, Distinct: s.Distinct,
		Min: Cell{s.Min}, Max: Cell{s.Max}, Top: s.TopValues, Histogram: []Bin{}, stats: s}
	if col.Top == nil {
		col.Top = []engine.TopValue{}
	}
	switch s.Kind {
	case engine.KindNumeric:
		col.Observed = "real"
		if allInts(vals) {
			col.Observed = "integer"
		}
		col.Histogram = numberHistogram(vals, bins)
	case engine.KindText:
		col.Observed = "text"
		lo, hi := textLengths(vals)
		col.MinLength, col.MaxLength = &lo, &hi
		if allDates(vals) {
			col.Observed = "date"
			col.Histogram = yearHistogram(vals)
		}
	case engine.KindBlob:
		col.Observed = "blob"
		col.Distinct = 0 // blobs' bytes are not read
	case engine.KindMixed:
		col.Observed = "mixed"
	default:
		col.Observed = "empty"
	}
	return col
}

func allInts(vals []engine.Value) bool {
	for _, v := range vals {
		if _, ok := v.(float64); ok {
			return false
		}
	}
	return true
}

func textLengths(vals []engine.Value) (lo, hi int) {
	lo = -1
	for _, v := range vals {
		s, ok := v.(string)
		if !ok {
			continue
		}
		n := utf8.RuneCountInString(s)
		if lo < 0 || n < lo {
			lo = n
		}
		hi = max(hi, n)
	}
	return max(lo, 0), hi
}

// isDate reports whether s starts as an ISO date does: YYYY-MM-DD,
// optionally followed by a time.
func isDate(s string) bool {
	if len(s) < 10 || (len(s) > 10 && s[10] != ' ' && s[10] != 'T') {
		return false
	}
	for i := 0; i < 10; i++ {
		switch i {
		case 4, 7:
			if s[i] != '-' {
				return false
			}
		default:
			if s[i] < '0' || s[i] > '9' {
				return false
			}
		}
	}
	m, _ := strconv.Atoi(s[5:7])
	d, _ := strconv.Atoi(s[8:10])
	return m >= 1 && m <= 12 && d >= 1 && d <= 31
}

func allDates(vals []engine.Value) bool {
	n := 0
	for _, v := range vals {
		s, ok := v.(string)
		if !ok {
			continue
		}
		if !isDate(s) {
			return false
		}
		n++
	}
	return n > 0
}

// numberHistogram counts the values in bins equal-width bins from the
// smallest to the largest (one bin when they are all equal; none when
// they are not finite).
func numberHistogram(vals []engine.Value, bins int) []Bin {
	lo, hi, n := math.Inf(1), math.Inf(-1), 0
	for _, v := range vals {
		if x, ok := number(v); ok {
			lo, hi, n = math.Min(lo, x), math.Max(hi, x), n+1
		}
	}
	if n == 0 || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return []Bin{}
	}
	if lo == hi {
		return []Bin{{From: lo, To: hi, Count: int64(n)}}
	}
	out := make([]Bin, bins)
	w := (hi - lo) / float64(bins)
	for i := range out {
		out[i] = Bin{From: lo + float64(i)*w, To: lo + float64(i+1)*w}
	}
	out[bins-1].To = hi
	for _, v := range vals {
		if x, ok := number(v); ok {
			i := min(int((x-lo)/w), bins-1)
			out[i].Count++
		}
	}
	return out
}

func number(v engine.Value) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, !math.IsNaN(x)
	}
	return 0, false
}

// yearHistogram counts the dates per year, in order.
func yearHistogram(vals []engine.Value) []Bin {
	counts := map[int]int64{}
	for _, v := range vals {
		if s, ok := v.(string); ok && len(s) >= 4 {
			y, err := strconv.Atoi(s[:4])
			if err == nil {
				counts[y]++
			}
		}
	}
	years := make([]int, 0, len(counts))
	for y := range counts {
		years = append(years, y)
	}
	sort.Ints(years)
	out := make([]Bin, len(years))
	for i, y := range years {
		out[i] = Bin{From: float64(y), To: float64(y), Count: counts[y]}
	}
	return out
}

// joinShare is the share of the counted values found in key.
func joinShare(vals map[any]int64, key map[any]struct{}) float64 {
	var in, all int64
	for v, n := range vals {
		all += n
		if _, ok := key[v]; ok {
			in += n
		}
	}
	if all == 0 {
		return 0
	}
	return float64(in) / float64(all)
}

// inferredShare is the share at or past which a join is read from the
// values.
const inferredShare = 0.99

// relationships are the declared foreign keys (with their share matched
// where the target was read whole) and the joins read from the values: a
// text column whose values (≥ 99 %) occur in another table's key, or an
// integer one whose name also names that table or key (integers 1…n occur
// in every key numbered 1…n, so the values alone do not tell).
func (p *Database) relationships() []Relationship {
	out := []Relationship{}
	declared := map[string]bool{}
	for _, t := range p.Tables {
		for _, fk := range t.decl {
			ut, uc := splitRef(fk.References)
			r := Relationship{From: t.Name + "." + fk.Column, To: ut + "." + uc, ends: [4]string{t.Name, fk.Column, ut, uc}}
			if u := p.Table(ut); u != nil {
				if uc == "" && len(u.PrimaryKey) == 1 {
					uc = u.PrimaryKey[0]
					r.To, r.ends[3] = u.Name+"."+uc, uc
				}
				if key, ok := u.keys[uc]; ok {
					if vals, ok := t.vals[fk.Column]; ok {
						share := round3(joinShare(vals, key))
						r.Matched = &share
					}
				}
			}
			declared[strings.ToLower(r.From)] = true
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].From < out[j].From })
	var inferred []Relationship
	for _, t := range p.Tables {
		names := make([]string, 0, len(t.vals))
		for n := range t.vals {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, cn := range names {
			from := t.Name + "." + cn
			if declared[strings.ToLower(from)] {
				continue
			}
			col := t.Column(cn)
			if best, ok := p.bestKey(t, col, t.vals[cn]); ok {
				inferred = append(inferred, Relationship{From: from, To: best.table + "." + best.key, Matched: &best.share, Inferred: true,
					ends: [4]string{t.Name, cn, best.table, best.key}})
			}
		}
	}
	return append(out, inferred...)
}

type keyMatch struct {
	table string
	key   string
	share float64
	named bool
}

// bestKey is the key of another table (or another key of t) holding
// col's values, the one whose name col's name says first.
func (p *Database) bestKey(t *Table, col *Column, vals map[any]int64) (keyMatch, bool) {
	var best keyMatch
	found := false
	for _, u := range p.Tables {
		kn := make([]string, 0, len(u.keys))
		for n := range u.keys {
			kn = append(kn, n)
		}
		sort.Strings(kn)
		for _, k := range kn {
			if u == t && strings.EqualFold(k, col.Name) {
				continue
			}
			uc := u.Column(k)
			if uc == nil || uc.Observed != col.Observed {
				continue
			}
			named := namesTable(col.Name, u.Name, k)
			if col.Observed == "integer" && !named {
				continue
			}
			share := joinShare(vals, u.keys[k])
			if share < inferredShare {
				continue
			}
			m := keyMatch{table: u.Name, key: k, share: round3(share), named: named}
			if !found || (m.named && !best.named) || (m.named == best.named && m.share > best.share) {
				best, found = m, true
			}
		}
	}
	return best, found
}

// namesTable reports whether a column's name names table (singular or
// plural) or is the key's own name: customer_id → customers, ArtistId →
// Artist.ArtistId.
func namesTable(col, table, key string) bool {
	c := squash(col)
	if c == squash(key) && !isGenericKey(key) {
		return true
	}
	t := squash(table)
	t = strings.TrimSuffix(t, "s")
	return len(t) >= 3 && strings.Contains(c, t)
}

func isGenericKey(k string) bool {
	switch squash(k) {
	case "id", "key", "code", "rowid":
		return true
	}
	return false
}

func squash(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r != '_' && r != ' ' && r != '-' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// splitRef splits "Table(column)" into its parts.
func splitRef(ref string) (string, string) {
	i := strings.LastIndexByte(ref, '(')
	if i < 0 || !strings.HasSuffix(ref, ")") {
		return ref, ""
	}
	return ref[:i], ref[i+1 : len(ref)-1]
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

// String is the figure as text: "12,345" or "1.5".
func (b Bin) String() string { return fmt.Sprintf("%g–%g: %d", b.From, b.To, b.Count) }
