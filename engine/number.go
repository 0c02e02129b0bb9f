package engine

import (
	"cmp"
	"math"
)

// Number is a numeric value keeping its storage class, so that integers
// beyond 2^53 compare and subtract exactly. The statistics of answers and
// of exports (engine/export) share it.
type Number struct {
	I     int64
	F     float64
	IsInt bool
}

// Float is the number as a float64 (rounded beyond 2^53).
func (n Number) Float() float64 {
	if n.IsInt {
		return float64(n.I)
	}
	return n.F
}

// Value is the number as an answer's value: int64 or float64.
func (n Number) Value() Value {
	if n.IsInt {
		return n.I
	}
	return n.F
}

// CompareNumbers compares two numbers by value, exactly (no rounding of
// large integers to float).
func CompareNumbers(a, b Number) int {
	switch {
	case a.IsInt && b.IsInt:
		return cmp.Compare(a.I, b.I)
	case !a.IsInt && !b.IsInt:
		return cmp.Compare(a.F, b.F)
	case a.IsInt:
		return cmpIntFloat(a.I, b.F)
	default:
		return -cmpIntFloat(b.I, a.F)
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
	// Same integer part: the fraction decides.
	return cmp.Compare(t, f)
}

// NumberDiff returns a-b as a float, exactly when both are integers whose
// difference fits in 53 bits.
func NumberDiff(a, b Number) float64 {
	if a.IsInt && b.IsInt {
		d := a.I - b.I
		// Overflow happens when the operands' signs differ and the
		// result's sign differs from a's.
		if (a.I >= 0) == (b.I >= 0) || (d >= 0) == (a.I >= 0) {
			return float64(d)
		}
	}
	return a.Float() - b.Float()
}

// Percentile is numpy's default (method "linear") on sorted numbers: the
// value at rank (n-1)·p, interpolated between the two closest ranks the way
// numpy's _lerp does it, so results match numpy to the last bit. The
// difference of the two neighbours is exact for integers. It may return
// ±Inf or NaN when the neighbours are infinite.
func Percentile(sorted []Number, p float64) float64 {
	h := float64(len(sorted)-1) * p
	lo := math.Floor(h)
	i := int(lo)
	t := h - lo
	a := sorted[i]
	if t == 0 || i+1 >= len(sorted) {
		return a.Float()
	}
	b := sorted[i+1]
	if CompareNumbers(a, b) == 0 {
		return a.Float()
	}
	diff := NumberDiff(b, a)
	af, bf := a.Float(), b.Float()
	if math.IsInf(diff, 0) && !math.IsInf(af, 0) && !math.IsInf(bf, 0) {
		return af*(1-t) + bf*t // the difference of ±1e308 overflows; the weights do not
	}
	if t >= 0.5 {
		return bf - diff*(1-t)
	}
	return af + diff*t
}
