package engine

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
)

// Kinds of column, as ColumnStats.Kind reports them.
const (
	KindNumeric = "numeric" // every non-NULL value is an integer or a float
	KindText    = "text"    // every non-NULL value is text
	KindBlob    = "blob"    // every non-NULL value is a blob
	KindMixed   = "mixed"   // several storage classes, as SQLite allows
	KindEmpty   = "empty"   // no non-NULL value (no rows, or only NULLs)
)

// Limits of the statistics: short lists keep the JSON small enough for a
// model's context and a side panel.
const (
	maxTopValues      = 5  // TopValues holds at most this many values
	maxOutliers       = 10 // Outliers holds at most this many values
	maxIntTopDistinct = 20 // integer columns with at most this many distinct values get TopValues
)

// ColumnStats is the statistics of one result column: the JSON of the
// contract's "stats" object. Fields that do not apply to the column's kind
// are nil (null in JSON); Outliers and TopValues are never nil, so they
// marshal as [] rather than null.
type ColumnStats struct {
	// Count is the number of non-NULL values.
	Count int64 `json:"count"`
	// NullCount is the number of NULLs.
	NullCount int64 `json:"null_count"`
	// Distinct is the number of distinct non-NULL values. Numbers compare by
	// value (1 = 1.0), text by bytes, blobs by bytes; text "1" and the number
	// 1 are distinct, as in SQLite.
	Distinct int64 `json:"distinct"`
	// Min and Max are the smallest and largest value: numbers for numeric
	// columns (int64 stays int64; where an integer and a float are equal, the
	// integer), the lexicographically (byte-wise, SQLite's BINARY collation)
	// smallest and largest text for text columns, nil for other kinds and
	// when there are no values.
	Min Value `json:"min"`
	Max Value `json:"max"`
	// Mean is the arithmetic mean of a numeric column; nil otherwise, and
	// when it is not finite (a column holding ±Inf).
	Mean *float64 `json:"mean"`
	// Std is the sample standard deviation (n-1 in the denominator) of a
	// numeric column; nil when fewer than 2 values, not numeric or not finite.
	Std *float64 `json:"std"`
	// P25, P50 and P75 are percentiles of a numeric column, interpolated
	// linearly between the closest ranks like numpy's default method; nil
	// when not numeric or not finite.
	P25 *float64 `json:"p25"`
	P50 *float64 `json:"p50"`
	P75 *float64 `json:"p75"`
	// Outliers are the distinct values of a numeric column outside
	// [P25-1.5·IQR, P75+1.5·IQR], farthest from the median first (ties: the
	// smaller value first), at most 10.
	Outliers []Value `json:"outliers"`
	// TopValues are the most frequent values, at most 5, most frequent
	// first (ties: in value order), for text and mixed columns and for
	// integer columns with at most 20 distinct values (codes, years).
	TopValues []TopValue `json:"top_values"`
	// Kind is KindNumeric, KindText, KindBlob, KindMixed or KindEmpty.
	Kind string `json:"-"`
}

// TopValue is one frequent value and how many rows hold it.
type TopValue struct {
	Value Value `json:"value"`
	Count int64 `json:"count"`
}

// MarshalJSON writes {"value": …, "count": …}, the value as WriteValue
// writes result cells (±Inf as strings, blobs as base64).
func (t TopValue) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	if err := t.writeJSON(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func (t TopValue) writeJSON(b *bytes.Buffer) error {
	b.WriteString(`{"value":`)
	if err := WriteValue(b, t.Value); err != nil {
		return err
	}
	b.WriteString(`,"count":`)
	b.WriteString(strconv.FormatInt(t.Count, 10))
	b.WriteByte('}')
	return nil
}

// MarshalJSON writes the contract's keys in the contract's order. Values
// are written as WriteValue writes result cells, floats as FormatFloat
// formats them, nil slices as [].
func (s ColumnStats) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	if err := s.writeJSON(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func (s *ColumnStats) writeJSON(b *bytes.Buffer) error {
	b.WriteString(`{"count":`)
	b.WriteString(strconv.FormatInt(s.Count, 10))
	b.WriteString(`,"null_count":`)
	b.WriteString(strconv.FormatInt(s.NullCount, 10))
	b.WriteString(`,"distinct":`)
	b.WriteString(strconv.FormatInt(s.Distinct, 10))
	b.WriteString(`,"min":`)
	if err := WriteValue(b, s.Min); err != nil {
		return err
	}
	b.WriteString(`,"max":`)
	if err := WriteValue(b, s.Max); err != nil {
		return err
	}
	for _, f := range []struct {
		key string
		p   *float64
	}{{"mean", s.Mean}, {"std", s.Std}, {"p25", s.P25}, {"p50", s.P50}, {"p75", s.P75}} {
		b.WriteString(`,"`)
		b.WriteString(f.key)
		b.WriteString(`":`)
		writeFloatPtr(b, f.p)
	}
	b.WriteString(`,"outliers":[`)
	for i, v := range s.Outliers {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := WriteValue(b, v); err != nil {
			return err
		}
	}
	b.WriteString(`],"top_values":[`)
	for i, t := range s.TopValues {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := t.writeJSON(b); err != nil {
			return err
		}
	}
	b.WriteString(`]}`)
	return nil
}

// writeFloatPtr writes nil, NaN and ±Inf as null (JSON has no such numbers;
// the statistics never produce them, this is a last guard).
func writeFloatPtr(b *bytes.Buffer, p *float64) {
	if p == nil || math.IsNaN(*p) || math.IsInf(*p, 0) {
		b.WriteString("null")
		return
	}
	b.WriteString(FormatFloat(*p))
}

// ColumnStatsList is the statistics of every result column. It keeps the
// columns' order and marshals as a JSON object {col: stats, …} in that
// order. Stats[i] belongs to Columns[i].
type ColumnStatsList struct {
	Columns []string
	Stats   []*ColumnStats
}

// MarshalJSON writes {col: stats, …} in column order; a missing or nil
// entry is written as null.
func (l ColumnStatsList) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, c := range l.Columns {
		if i > 0 {
			b.WriteByte(',')
		}
		writeString(&b, c)
		b.WriteByte(':')
		if i >= len(l.Stats) || l.Stats[i] == nil {
			b.WriteString("null")
			continue
		}
		if err := l.Stats[i].writeJSON(&b); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Get returns the statistics of the column named name (an exact match
// first, else case-insensitively), or nil.
func (l ColumnStatsList) Get(name string) *ColumnStats {
	for i, c := range l.Columns {
		if c == name && i < len(l.Stats) {
			return l.Stats[i]
		}
	}
	for i, c := range l.Columns {
		if equalFold(c, name) && i < len(l.Stats) {
			return l.Stats[i]
		}
	}
	return nil
}

// ComputeStats computes the statistics of every column of a result. A row
// shorter than cols counts as NULL in the missing columns. NaN (which
// SQLite never returns: it stores NULL instead) counts as NULL. Integer
// and float values of other Go types (int, uint32, float32…) are taken as
// int64 or float64. The result is deterministic: it depends only on the
// values, and on their order only where equal values' types differ.
func ComputeStats(cols []Column, rows [][]Value) ColumnStatsList {
	l := ColumnStatsList{Columns: make([]string, len(cols)), Stats: make([]*ColumnStats, len(cols))}
	vals := make([]Value, len(rows))
	for j, c := range cols {
		l.Columns[j] = c.Name
		for i, r := range rows {
			vals[i] = nil
			if j < len(r) {
				vals[i] = r[j]
			}
		}
		l.Stats[j] = columnStats(vals)
	}
	return l
}

// sortNumbers sorts by value; equal values put integers first, so that
// Min, Max and the run representatives prefer the integer.
func sortNumbers(nums []Number) {
	slices.SortFunc(nums, func(a, b Number) int {
		if c := CompareNumbers(a, b); c != 0 {
			return c
		}
		switch {
		case a.IsInt == b.IsInt:
			return 0
		case a.IsInt:
			return -1
		default:
			return 1
		}
	})
}

// toNumber normalises the Go numeric types a caller may pass.
func toNumber(v Value) (Number, bool) {
	switch x := v.(type) {
	case int64:
		return Number{I: x, IsInt: true}, true
	case float64:
		return Number{F: x}, true
	case int:
		return Number{I: int64(x), IsInt: true}, true
	case int32:
		return Number{I: int64(x), IsInt: true}, true
	case int16:
		return Number{I: int64(x), IsInt: true}, true
	case int8:
		return Number{I: int64(x), IsInt: true}, true
	case uint:
		return uintNumber(uint64(x)), true
	case uint64:
		return uintNumber(x), true
	case uint32:
		return Number{I: int64(x), IsInt: true}, true
	case uint16:
		return Number{I: int64(x), IsInt: true}, true
	case uint8:
		return Number{I: int64(x), IsInt: true}, true
	case float32:
		return Number{F: float64(x)}, true
	}
	return Number{}, false
}

func uintNumber(x uint64) Number {
	if x > math.MaxInt64 {
		return Number{F: float64(x)}
	}
	return Number{I: int64(x), IsInt: true}
}

// numberRun is a run of equal numbers in sorted order.
type numberRun struct {
	v     Number // the first of the run: the integer where there is one
	count int64
}

func numberRuns(sorted []Number) []numberRun {
	var runs []numberRun
	for i := 0; i < len(sorted); {
		j := i + 1
		for j < len(sorted) && CompareNumbers(sorted[i], sorted[j]) == 0 {
			j++
		}
		runs = append(runs, numberRun{v: sorted[i], count: int64(j - i)})
		i = j
	}
	return runs
}

func columnStats(vals []Value) *ColumnStats {
	s := &ColumnStats{Outliers: []Value{}, TopValues: []TopValue{}}
	var (
		nums   []Number
		strs   []string
		blobs  [][]byte
		others []Value
	)
	for _, v := range vals {
		switch x := v.(type) {
		case nil:
			s.NullCount++
		case string:
			strs = append(strs, x)
		case []byte:
			blobs = append(blobs, x)
		default:
			n, ok := toNumber(v)
			switch {
			case !ok:
				others = append(others, v)
			case !n.IsInt && math.IsNaN(n.F):
				s.NullCount++
			default:
				nums = append(nums, n)
			}
		}
	}
	s.Count = int64(len(nums) + len(strs) + len(blobs) + len(others))
	classes := 0
	for _, n := range []int{len(nums), len(strs), len(blobs), len(others)} {
		if n > 0 {
			classes++
		}
	}
	switch {
	case s.Count == 0:
		s.Kind = KindEmpty
	case classes > 1 || len(others) > 0:
		s.Kind = KindMixed
		mixedStats(s, nums, strs, blobs, others)
	case len(nums) > 0:
		s.Kind = KindNumeric
		numericStats(s, nums)
	case len(strs) > 0:
		s.Kind = KindText
		textStats(s, strs)
	default:
		s.Kind = KindBlob
		seen := make(map[string]struct{}, len(blobs))
		for _, b := range blobs {
			seen[string(b)] = struct{}{}
		}
		s.Distinct = int64(len(seen))
	}
	return s
}

func finite(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

func numericStats(s *ColumnStats, nums []Number) {
	sortNumbers(nums)
	runs := numberRuns(nums)
	s.Distinct = int64(len(runs))
	s.Min = runs[0].v.Value()
	s.Max = runs[len(runs)-1].v.Value()

	hasInf := false
	allInt := true
	for _, x := range nums {
		if !x.IsInt {
			allInt = false
			if math.IsInf(x.F, 0) {
				hasInf = true
			}
		}
	}
	if !hasInf {
		mean, std := meanStd(nums)
		s.Mean = finite(mean)
		if len(nums) >= 2 {
			s.Std = finite(std)
		}
	}

	q1, med, q3 := Percentile(nums, 0.25), Percentile(nums, 0.5), Percentile(nums, 0.75)
	s.P25, s.P50, s.P75 = finite(q1), finite(med), finite(q3)
	s.Outliers = outliers(runs, q1, med, q3)

	if allInt && len(runs) <= maxIntTopDistinct {
		tops := make([]TopValue, len(runs))
		for i, r := range runs { // runs are in value order: a stable sort keeps it for ties
			tops[i] = TopValue{Value: r.v.Value(), Count: r.count}
		}
		slices.SortStableFunc(tops, func(a, b TopValue) int { return cmp.Compare(b.Count, a.Count) })
		s.TopValues = tops[:min(len(tops), maxTopValues)]
	}
}

// meanStd returns the mean and the sample standard deviation of sorted,
// finite numbers. It works on the differences from the median, scaled by a
// power of two so that no sum overflows, with compensated sums and the
// corrected two-pass variance: 1e15+1, 1e15+2, 1e15+3 has a standard
// deviation of exactly 1, and integers beyond 2^53 are subtracted exactly.
func meanStd(sorted []Number) (mean, std float64) {
	n := len(sorted)
	k := sorted[n/2]
	d := make([]float64, n)
	maxAbs := 0.0
	for i, x := range sorted {
		d[i] = NumberDiff(x, k)
		maxAbs = max(maxAbs, math.Abs(d[i]))
	}
	if math.IsInf(maxAbs, 0) { // values near ±MaxFloat64 on both sides: no shift
		k = Number{IsInt: true}
		maxAbs = 0
		for i, x := range sorted {
			d[i] = x.Float()
			maxAbs = max(maxAbs, math.Abs(d[i]))
		}
	}
	if maxAbs == 0 {
		return k.Float(), 0
	}
	_, exp := math.Frexp(maxAbs)
	scale := math.Ldexp(1, -exp)
	var sum kahan
	for i := range d {
		d[i] *= scale
		sum.add(d[i])
	}
	m := sum.value() / float64(n)
	mean = k.Float() + math.Ldexp(m, exp)
	if n < 2 {
		return mean, 0
	}
	var ss, c kahan
	for _, e := range d {
		r := e - m
		ss.add(r * r)
		c.add(r)
	}
	cs := c.value()
	v := (ss.value() - cs*cs/float64(n)) / float64(n-1)
	if v < 0 {
		v = 0
	}
	return mean, math.Ldexp(math.Sqrt(v), exp)
}

// kahan is a Neumaier compensated sum.
type kahan struct{ sum, c float64 }

func (k *kahan) add(x float64) {
	t := k.sum + x
	if math.Abs(k.sum) >= math.Abs(x) {
		k.c += (k.sum - t) + x
	} else {
		k.c += (x - t) + k.sum
	}
	k.sum = t
}

func (k *kahan) value() float64 { return k.sum + k.c }

// outliers returns the distinct values outside Tukey's fences, farthest
// from the median first.
func outliers(runs []numberRun, q1, med, q3 float64) []Value {
	out := []Value{}
	if math.IsInf(q1, 0) || math.IsInf(q3, 0) || math.IsNaN(q1) || math.IsNaN(q3) {
		return out
	}
	iqr := q3 - q1
	lo, hi := q1-1.5*iqr, q3+1.5*iqr
	var found []Number
	for _, r := range runs {
		// As floats, like the quartiles: integers beyond 2^53 round the
		// same way on both sides.
		if f := r.v.Float(); f < lo || f > hi {
			found = append(found, r.v)
		}
	}
	slices.SortStableFunc(found, func(a, b Number) int { // found is in value order: ties stay smaller first
		return cmp.Compare(math.Abs(b.Float()-med), math.Abs(a.Float()-med))
	})
	for _, v := range found[:min(len(found), maxOutliers)] {
		out = append(out, v.Value())
	}
	return out
}

func textStats(s *ColumnStats, strs []string) {
	counts := make(map[string]int64, len(strs))
	for _, x := range strs {
		counts[x]++
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	s.Distinct = int64(len(keys))
	s.Min, s.Max = keys[0], keys[len(keys)-1]
	tops := make([]TopValue, len(keys))
	for i, k := range keys {
		tops[i] = TopValue{Value: k, Count: counts[k]}
	}
	s.TopValues = topValues(tops)
}

// topValues sorts values that are already in value order by count,
// keeping value order for ties, and keeps the first few.
func topValues(tops []TopValue) []TopValue {
	slices.SortStableFunc(tops, func(a, b TopValue) int { return cmp.Compare(b.Count, a.Count) })
	return tops[:min(len(tops), maxTopValues)]
}

// mixedStats counts a column that holds several storage classes. Value
// order for ties is SQLite's: numbers, then text, then blobs (then any
// other Go type, by its printed form).
func mixedStats(s *ColumnStats, nums []Number, strs []string, blobs [][]byte, others []Value) {
	var tops []TopValue
	sortNumbers(nums)
	for _, r := range numberRuns(nums) {
		tops = append(tops, TopValue{Value: r.v.Value(), Count: r.count})
	}
	tops = append(tops, countStrings(strs, func(k string) Value { return k })...)
	bs := make([]string, len(blobs))
	for i, b := range blobs {
		bs[i] = string(b)
	}
	tops = append(tops, countStrings(bs, func(k string) Value { return []byte(k) })...)
	oks := make([]string, len(others))
	byKey := make(map[string]Value, len(others))
	for i, o := range others {
		oks[i] = fmt.Sprintf("%T %#v", o, o)
		byKey[oks[i]] = o
	}
	tops = append(tops, countStrings(oks, func(k string) Value { return byKey[k] })...)
	s.Distinct = int64(len(tops))
	s.TopValues = topValues(tops)
}

// countStrings returns each distinct string with its count, in byte order.
func countStrings(xs []string, value func(string) Value) []TopValue {
	counts := make(map[string]int64, len(xs))
	for _, x := range xs {
		counts[x]++
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	tops := make([]TopValue, len(keys))
	for i, k := range keys {
		tops[i] = TopValue{Value: value(k), Count: counts[k]}
	}
	return tops
}
