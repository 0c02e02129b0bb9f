package export

import (
	"cmp"
	"hash/maphash"
	"math"
	"math/rand/v2"
	"slices"

	"querent/engine"
)

// Bounds of the streamed statistics: every column's distinct-value table
// and reservoir sample hold at most this many entries, shared out among
// the columns (statsBudget in all, at least statsMinPerColumn each), so
// that memory stays bounded however many rows and columns.
const (
	statsMaxPerColumn = 100_000
	statsMinPerColumn = 1_000
	statsBudget       = 2_000_000
	sampleSeed        = 0x5175657265_6e74 // "Querent": a fixed seed, so that an export is reproducible
)

// perColumn is the per-column bound for ncols columns.
func perColumn(ncols int) int {
	if ncols < 1 {
		ncols = 1
	}
	return min(statsMaxPerColumn, max(statsMinPerColumn, statsBudget/ncols))
}

// number is a numeric value keeping its storage class, so that integers
// beyond 2^53 compare and subtract exactly (as engine's statistics do).
type number struct {
	i     int64
	f     float64
	isInt bool
}

func (n number) float() float64 {
	if n.isInt {
		return float64(n.i)
	}
	return n.f
}

func (n number) value() engine.Value {
	if n.isInt {
		return n.i
	}
	return n.f
}

// cmpNumber compares two numbers by value, exactly.
func cmpNumber(a, b number) int {
	switch {
	case a.isInt && b.isInt:
		return cmp.Compare(a.i, b.i)
	case !a.isInt && !b.isInt:
		return cmp.Compare(a.f, b.f)
	case a.isInt:
		return cmpIntFloat(a.i, b.f)
	default:
		return -cmpIntFloat(b.i, a.f)
	}
}

// cmpIntFloat compares an integer with a (non-NaN) float exactly.
func cmpIntFloat(i int64, f float64) int {
	const two63 = 9223372036854775808.0
	if f >= two63 {
		return -1
	}
	if f < -two63 {
		return 1
	}
	t := math.Trunc(f)
	if c := cmp.Compare(i, int64(t)); c != 0 {
		return c
	}
	return cmp.Compare(t, f)
}

// sub returns a-b as a float, exactly when both are integers whose
// difference fits in 53 bits.
func sub(a, b number) float64 {
	if a.isInt && b.isInt {
		d := a.i - b.i
		if (a.i >= 0) == (b.i >= 0) || (d >= 0) == (a.i >= 0) {
			return float64(d)
		}
	}
	return a.float() - b.float()
}

// percentile is numpy's default (linear) method on sorted numbers, as
// engine.ComputeStats computes it, so that a sample holding every value
// gives the same quartiles.
func percentile(sorted []number, p float64) float64 {
	h := float64(len(sorted)-1) * p
	lo := math.Floor(h)
	i := int(lo)
	t := h - lo
	a := sorted[i]
	if t == 0 || i+1 >= len(sorted) {
		return a.float()
	}
	b := sorted[i+1]
	if cmpNumber(a, b) == 0 {
		return a.float()
	}
	diff := sub(b, a)
	af, bf := a.float(), b.float()
	if math.IsInf(diff, 0) && !math.IsInf(af, 0) && !math.IsInf(bf, 0) {
		return af*(1-t) + bf*t
	}
	if t >= 0.5 {
		return bf - diff*(1-t)
	}
	return af + diff*t
}

// Value classes, in SQLite's sort order (numbers, text, blobs).
const (
	classNum = iota
	classText
	classBlob
)

// colStats are one column's statistics, gathered while streaming.
type colStats struct {
	count, nulls           int64
	nNum, nText, nBlob     int64
	nFloat                 int64 // numbers stored as floats
	distinctCap, sampleCap int

	// numbers
	min, max number
	hasInf   bool
	shift    number // the first number: Welford runs on differences from it
	overflow bool   // a difference or square overflowed: no mean or std
	wn       int64
	wmean    float64
	wm2      float64
	sample   []number
	rng      *rand.Rand

	// text
	minS, maxS string

	// distinct values and the most frequent one
	counts    map[uint64]int64
	capped    bool
	topClass  int
	topCount  int64
	topNumber number
	topText   string
}

// top is the most frequent value.
func (c *colStats) top() engine.Value {
	switch {
	case c.topCount == 0:
		return nil
	case c.topClass == classNum:
		return c.topNumber.value()
	case c.topClass == classBlob:
		return []byte(c.topText)
	}
	return c.topText
}

// streamStats gathers every column's statistics.
type streamStats struct {
	cols []colStats
	seed maphash.Seed
}

func newStreamStats(ncols int) *streamStats {
	s := &streamStats{cols: make([]colStats, ncols), seed: maphash.MakeSeed()}
	per := perColumn(ncols)
	for j := range s.cols {
		s.cols[j] = colStats{
			distinctCap: per, sampleCap: per,
			counts: make(map[uint64]int64),
			rng:    rand.New(rand.NewPCG(sampleSeed, uint64(j))),
		}
	}
	return s
}

// splitmix mixes an integer into a well-spread hash.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

const (
	tagFloat = 0x2545f4914f6cdd1d
	tagText  = 0x9c6a1b5e3d2f4871
	tagBlob  = 0x61c8864680b583eb
)

// add records one row.
func (s *streamStats) add(row []engine.Value) {
	for j := range s.cols {
		c := &s.cols[j]
		var v engine.Value
		if j < len(row) {
			v = row[j]
		}
		switch x := v.(type) {
		case nil:
			c.nulls++
		case int64:
			c.addNumber(number{i: x, isInt: true}, splitmix(uint64(x)))
		case float64:
			if math.IsNaN(x) {
				c.nulls++
				continue
			}
			var key uint64
			if x == math.Trunc(x) && x >= -9223372036854775808.0 && x < 9223372036854775808.0 {
				key = splitmix(uint64(int64(x))) // 1.0 is the same value as 1
			} else {
				key = splitmix(math.Float64bits(x) ^ tagFloat)
			}
			c.nFloat++
			c.addNumber(number{f: x}, key)
		case string:
			c.count++
			if c.nText == 0 || x < c.minS {
				c.minS = x
			}
			if c.nText == 0 || x > c.maxS {
				c.maxS = x
			}
			c.nText++
			c.addKey(maphash.String(s.seed, x)^tagText, classText, number{}, x)
		case []byte:
			c.count++
			c.nBlob++
			c.addKey(maphash.Bytes(s.seed, x)^tagBlob, classBlob, number{}, string(x))
		default:
			c.nulls++ // a database returns no other type
		}
	}
}

func (c *colStats) addNumber(n number, key uint64) {
	c.count++
	if c.nNum == 0 {
		c.min, c.max = n, n
		if !math.IsInf(n.f, 0) {
			c.shift = n // Welford on differences from the first value keeps 1e15+1, 1e15+2… exact
		}
	} else {
		// Equal values: keep the integer, as engine's statistics do.
		if d := cmpNumber(n, c.min); d < 0 || d == 0 && n.isInt && !c.min.isInt {
			c.min = n
		}
		if d := cmpNumber(n, c.max); d > 0 || d == 0 && n.isInt && !c.max.isInt {
			c.max = n
		}
	}
	c.nNum++
	if !n.isInt && math.IsInf(n.f, 0) {
		c.hasInf = true
	} else if !c.hasInf && !c.overflow {
		d := sub(n, c.shift)
		c.wn++
		delta := d - c.wmean
		c.wmean += delta / float64(c.wn)
		c.wm2 += delta * (d - c.wmean)
		if math.IsInf(d, 0) || math.IsInf(c.wm2, 0) {
			c.overflow = true // values near ±1.8e308: no mean or std
		}
	}
	if len(c.sample) < c.sampleCap {
		c.sample = append(c.sample, n)
	} else if k := c.rng.Int64N(c.nNum); k < int64(c.sampleCap) {
		c.sample[k] = n
	}
	c.addKey(key, classNum, n, "")
}

// addKey counts a value in the distinct table and keeps the most frequent
// (ties: the smaller value, in SQLite's order).
func (c *colStats) addKey(key uint64, class int, n number, text string) {
	cnt, ok := c.counts[key]
	if !ok {
		if len(c.counts) >= c.distinctCap {
			c.capped = true
			return
		}
	}
	cnt++
	c.counts[key] = cnt
	if cnt > c.topCount || cnt == c.topCount && c.less(class, n, text) {
		c.topCount, c.topClass, c.topNumber, c.topText = cnt, class, n, text
	}
}

// less reports whether a value sorts before the current top value.
func (c *colStats) less(class int, n number, text string) bool {
	if class != c.topClass {
		return class < c.topClass
	}
	if class == classNum {
		return cmpNumber(n, c.topNumber) < 0
	}
	return text < c.topText
}

// kind is the column's kind, as engine.ColumnStats.Kind names it.
func (c *colStats) kind() string {
	classes := 0
	for _, n := range []int64{c.nNum, c.nText, c.nBlob} {
		if n > 0 {
			classes++
		}
	}
	switch {
	case c.count == 0:
		return engine.KindEmpty
	case classes > 1:
		return engine.KindMixed
	case c.nNum > 0:
		return engine.KindNumeric
	case c.nText > 0:
		return engine.KindText
	}
	return engine.KindBlob
}

// summary is one column's statistics, ready for the sheet.
type summary struct {
	Kind                string
	Count, Nulls        int64
	Distinct            int64
	DistinctCapped      bool // more than DistinctCap distinct values
	DistinctCap         int
	Min, Max            engine.Value // nil where they do not apply
	Mean, Std           *float64
	P25, P50, P75       *float64
	Sampled             bool  // the quartiles come from a sample
	SampleSize, NumSeen int64 // sample size, numbers seen
	Top                 engine.Value
	TopCount            int64
	HasInf              bool
	Overflow            bool // values too large for a mean and std
}

func finite(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

// summarize finishes the statistics of column j.
func (s *streamStats) summarize(j int) summary {
	c := &s.cols[j]
	out := summary{Kind: c.kind(), Count: c.count, Nulls: c.nulls, Distinct: int64(len(c.counts)),
		DistinctCapped: c.capped, DistinctCap: c.distinctCap, HasInf: c.hasInf, Overflow: c.overflow}
	switch out.Kind {
	case engine.KindNumeric:
		out.Min, out.Max = c.min.value(), c.max.value()
		if !c.hasInf && !c.overflow && c.wn > 0 {
			out.Mean = finite(c.shift.float() + c.wmean)
			if c.wn >= 2 {
				out.Std = finite(math.Sqrt(c.wm2 / float64(c.wn-1)))
			}
		}
		sorted := slices.Clone(c.sample)
		slices.SortFunc(sorted, cmpNumber)
		if len(sorted) > 0 {
			out.P25 = finite(percentile(sorted, 0.25))
			out.P50 = finite(percentile(sorted, 0.5))
			out.P75 = finite(percentile(sorted, 0.75))
		}
		out.SampleSize, out.NumSeen = int64(len(c.sample)), c.nNum
		out.Sampled = out.SampleSize < out.NumSeen
	case engine.KindText:
		out.Min, out.Max = c.minS, c.maxS
		out.Top, out.TopCount = c.top(), c.topCount
	case engine.KindMixed:
		out.Top, out.TopCount = c.top(), c.topCount
	}
	return out
}
