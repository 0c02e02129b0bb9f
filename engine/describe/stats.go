package describe

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"querent/engine"
)

// Limits of the statistics: short lists keep the JSON small enough for a
// model's context and a side panel.
const (
	maxTopValues      = 5  // TopValues holds at most this many values
	maxOutliers       = 10 // Outliers holds at most this many values
	maxIntTopDistinct = 20 // integer columns with at most this many distinct values get TopValues
)

// ComputeStats computes the statistics of every column of a result. A row
// shorter than cols counts as NULL in the missing columns. NaN (which
// SQLite never returns: it stores NULL instead) counts as NULL. Integer
// and float values of other Go types (int, uint32, float32…) are taken as
// int64 or float64. The result is deterministic: it depends only on the
// values, and on their order only where equal values' types differ.
func ComputeStats(cols []engine.Column, rows [][]engine.Value) engine.ColumnStatsList {
	l := engine.ColumnStatsList{Columns: make([]string, len(cols)), Stats: make([]*engine.ColumnStats, len(cols))}
	vals := make([]engine.Value, len(rows))
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
func sortNumbers(nums []engine.Number) {
	slices.SortFunc(nums, func(a, b engine.Number) int {
		if c := engine.CompareNumbers(a, b); c != 0 {
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
func toNumber(v engine.Value) (engine.Number, bool) {
	switch x := v.(type) {
	case int64:
		return engine.Number{I: x, IsInt: true}, true
	case float64:
		return engine.Number{F: x}, true
	case int:
		return engine.Number{I: int64(x), IsInt: true}, true
	case int32:
		return engine.Number{I: int64(x), IsInt: true}, true
	case int16:
		return engine.Number{I: int64(x), IsInt: true}, true
	case int8:
		return engine.Number{I: int64(x), IsInt: true}, true
	case uint:
		return uintNumber(uint64(x)), true
	case uint64:
		return uintNumber(x), true
	case uint32:
		return engine.Number{I: int64(x), IsInt: true}, true
	case uint16:
		return engine.Number{I: int64(x), IsInt: true}, true
	case uint8:
		return engine.Number{I: int64(x), IsInt: true}, true
	case float32:
		return engine.Number{F: float64(x)}, true
	}
	return engine.Number{}, false
}

func uintNumber(x uint64) engine.Number {
	if x > math.MaxInt64 {
		return engine.Number{F: float64(x)}
	}
	return engine.Number{I: int64(x), IsInt: true}
}

// numberRun is a run of equal numbers in sorted order.
type numberRun struct {
	v     engine.Number // the first of the run: the integer where there is one
	count int64
}

func numberRuns(sorted []engine.Number) []numberRun {
	var runs []numberRun
	for i := 0; i < len(sorted); {
		j := i + 1
		for j < len(sorted) && engine.CompareNumbers(sorted[i], sorted[j]) == 0 {
			j++
		}
		runs = append(runs, numberRun{v: sorted[i], count: int64(j - i)})
		i = j
	}
	return runs
}

func columnStats(vals []engine.Value) *engine.ColumnStats {
	s := &engine.ColumnStats{Outliers: []engine.Value{}, TopValues: []engine.TopValue{}}
	var (
		nums   []engine.Number
		strs   []string
		blobs  [][]byte
		others []engine.Value
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
		s.Kind = engine.KindEmpty
	case classes > 1 || len(others) > 0:
		s.Kind = engine.KindMixed
		mixedStats(s, nums, strs, blobs, others)
	case len(nums) > 0:
		s.Kind = engine.KindNumeric
		numericStats(s, nums)
	case len(strs) > 0:
		s.Kind = engine.KindText
		textStats(s, strs)
	default:
		s.Kind = engine.KindBlob
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

func numericStats(s *engine.ColumnStats, nums []engine.Number) {
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

	q1, med, q3 := engine.Percentile(nums, 0.25), engine.Percentile(nums, 0.5), engine.Percentile(nums, 0.75)
	s.P25, s.P50, s.P75 = finite(q1), finite(med), finite(q3)
	s.Outliers = outliers(runs, q1, med, q3)

	if allInt && len(runs) <= maxIntTopDistinct {
		tops := make([]engine.TopValue, len(runs))
		for i, r := range runs { // runs are in value order: a stable sort keeps it for ties
			tops[i] = engine.TopValue{Value: r.v.Value(), Count: r.count}
		}
		slices.SortStableFunc(tops, func(a, b engine.TopValue) int { return cmp.Compare(b.Count, a.Count) })
		s.TopValues = tops[:min(len(tops), maxTopValues)]
	}
}

// meanStd returns the mean and the sample standard deviation of sorted,
// finite numbers. It works on the differences from the median, scaled by a
// power of two so that no sum overflows, with compensated sums and the
// corrected two-pass variance: 1e15+1, 1e15+2, 1e15+3 has a standard
// deviation of exactly 1, and integers beyond 2^53 are subtracted exactly.
func meanStd(sorted []engine.Number) (mean, std float64) {
	n := len(sorted)
	k := sorted[n/2]
	d := make([]float64, n)
	maxAbs := 0.0
	for i, x := range sorted {
		d[i] = engine.NumberDiff(x, k)
		maxAbs = max(maxAbs, math.Abs(d[i]))
	}
	if math.IsInf(maxAbs, 0) { // values near ±MaxFloat64 on both sides: no shift
		k = engine.Number{IsInt: true}
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
func outliers(runs []numberRun, q1, med, q3 float64) []engine.Value {
	out := []engine.Value{}
	if math.IsInf(q1, 0) || math.IsInf(q3, 0) || math.IsNaN(q1) || math.IsNaN(q3) {
		return out
	}
	iqr := q3 - q1
	lo, hi := q1-1.5*iqr, q3+1.5*iqr
	var found []engine.Number
	for _, r := range runs {
		// As floats, like the quartiles: integers beyond 2^53 round the
		// same way on both sides.
		if f := r.v.Float(); f < lo || f > hi {
			found = append(found, r.v)
		}
	}
	slices.SortStableFunc(found, func(a, b engine.Number) int { // found is in value order: ties stay smaller first
		return cmp.Compare(math.Abs(b.Float()-med), math.Abs(a.Float()-med))
	})
	for _, v := range found[:min(len(found), maxOutliers)] {
		out = append(out, v.Value())
	}
	return out
}

func textStats(s *engine.ColumnStats, strs []string) {
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
	tops := make([]engine.TopValue, len(keys))
	for i, k := range keys {
		tops[i] = engine.TopValue{Value: k, Count: counts[k]}
	}
	s.TopValues = topValues(tops)
}

// topValues sorts values that are already in value order by count,
// keeping value order for ties, and keeps the first few.
func topValues(tops []engine.TopValue) []engine.TopValue {
	slices.SortStableFunc(tops, func(a, b engine.TopValue) int { return cmp.Compare(b.Count, a.Count) })
	return tops[:min(len(tops), maxTopValues)]
}

// mixedStats counts a column that holds several storage classes. Value
// order for ties is SQLite's: numbers, then text, then blobs (then any
// other Go type, by its printed form).
func mixedStats(s *engine.ColumnStats, nums []engine.Number, strs []string, blobs [][]byte, others []engine.Value) {
	var tops []engine.TopValue
	sortNumbers(nums)
	for _, r := range numberRuns(nums) {
		tops = append(tops, engine.TopValue{Value: r.v.Value(), Count: r.count})
	}
	tops = append(tops, countStrings(strs, func(k string) engine.Value { return k })...)
	bs := make([]string, len(blobs))
	for i, b := range blobs {
		bs[i] = string(b)
	}
	tops = append(tops, countStrings(bs, func(k string) engine.Value { return []byte(k) })...)
	oks := make([]string, len(others))
	byKey := make(map[string]engine.Value, len(others))
	for i, o := range others {
		oks[i] = fmt.Sprintf("%T %#v", o, o)
		byKey[oks[i]] = o
	}
	tops = append(tops, countStrings(oks, func(k string) engine.Value { return byKey[k] })...)
	s.Distinct = int64(len(tops))
	s.TopValues = topValues(tops)
}

// countStrings returns each distinct string with its count, in byte order.
func countStrings(xs []string, value func(string) engine.Value) []engine.TopValue {
	counts := make(map[string]int64, len(xs))
	for _, x := range xs {
		counts[x]++
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	tops := make([]engine.TopValue, len(keys))
	for i, k := range keys {
		tops[i] = engine.TopValue{Value: value(k), Count: counts[k]}
	}
	return tops
}
