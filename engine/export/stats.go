package export

import (
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
	min, max engine.Number
	hasInf   bool
	shift    engine.Number // the first number: Welford runs on differences from it
	overflow bool          // a difference or square overflowed: no mean or std
	wn       int64
	wmean    float64
	wm2      float64
	sample   []engine.Number
	rng      *rand.Rand

	// text
	minS, maxS string

	// distinct values and the most frequent one
	counts    map[uint64]int64
	capped    bool
	topClass  int
	topCount  int64
	topNumber engine.Number
	topText   string
}

// top is the most frequent value.
func (c *colStats) top() engine.Value {
	switch {
	case c.topCount == 0:
		return nil
	case c.topClass == classNum:
		return c.topNumber.Value()
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
			c.addNumber(engine.Number{I: x, IsInt: true}, splitmix(uint64(x)))
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
			c.addNumber(engine.Number{F: x}, key)
		case string:
			c.count++
			if c.nText == 0 || x < c.minS {
				c.minS = x
			}
			if c.nText == 0 || x > c.maxS {
				c.maxS = x
			}
			c.nText++
			c.addKey(maphash.String(s.seed, x)^tagText, classText, engine.Number{}, x)
		case []byte:
			c.count++
			c.nBlob++
			c.addKey(maphash.Bytes(s.seed, x)^tagBlob, classBlob, engine.Number{}, string(x))
		default:
			c.nulls++ // a database returns no other type
		}
	}
}

func (c *colStats) addNumber(n engine.Number, key uint64) {
	c.count++
	if c.nNum == 0 {
		c.min, c.max = n, n
		if !math.IsInf(n.F, 0) {
			c.shift = n // Welford on differences from the first value keeps 1e15+1, 1e15+2… exact
		}
	} else {
		// Equal values: keep the integer, as engine's statistics do.
		if d := engine.CompareNumbers(n, c.min); d < 0 || d == 0 && n.IsInt && !c.min.IsInt {
			c.min = n
		}
		if d := engine.CompareNumbers(n, c.max); d > 0 || d == 0 && n.IsInt && !c.max.IsInt {
			c.max = n
		}
	}
	c.nNum++
	if !n.IsInt && math.IsInf(n.F, 0) {
		c.hasInf = true
	} else if !c.hasInf && !c.overflow {
		d := engine.NumberDiff(n, c.shift)
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
func (c *colStats) addKey(key uint64, class int, n engine.Number, text string) {
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
func (c *colStats) less(class int, n engine.Number, text string) bool {
	if class != c.topClass {
		return class < c.topClass
	}
	if class == classNum {
		return engine.CompareNumbers(n, c.topNumber) < 0
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
		out.Min, out.Max = c.min.Value(), c.max.Value()
		if !c.hasInf && !c.overflow && c.wn > 0 {
			out.Mean = finite(c.shift.Float() + c.wmean)
			if c.wn >= 2 {
				out.Std = finite(math.Sqrt(c.wm2 / float64(c.wn-1)))
			}
		}
		sorted := slices.Clone(c.sample)
		slices.SortFunc(sorted, engine.CompareNumbers)
		if len(sorted) > 0 {
			out.P25 = finite(engine.Percentile(sorted, 0.25))
			out.P50 = finite(engine.Percentile(sorted, 0.5))
			out.P75 = finite(engine.Percentile(sorted, 0.75))
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
