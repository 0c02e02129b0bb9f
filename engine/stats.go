package engine

import (
	"bytes"
	"math"
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
