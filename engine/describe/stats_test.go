package describe

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"

	"querent/engine"
)

func fp(x float64) *float64 { return &x }

// column makes a one-column result from values.
func column(vals ...engine.Value) ([]engine.Column, [][]engine.Value) {
	rows := make([][]engine.Value, len(vals))
	for i, v := range vals {
		rows[i] = []engine.Value{v}
	}
	return []engine.Column{{Name: "c"}}, rows
}

func stats1(vals ...engine.Value) *engine.ColumnStats {
	cols, rows := column(vals...)
	return ComputeStats(cols, rows).Stats[0]
}

func fmtPtr(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

// closeTo compares float pointers: both nil, or within a relative 1e-15
// (a few units in the last place: the sums are compensated, not exact).
func closeTo(got, want *float64) bool {
	if got == nil || want == nil {
		return got == want
	}
	if *got == *want {
		return true
	}
	return math.Abs(*got-*want) <= 1e-15*math.Max(math.Abs(*got), math.Abs(*want))
}

func checkStats(t *testing.T, got, want *engine.ColumnStats) {
	t.Helper()
	if got.Kind != want.Kind {
		t.Errorf("Kind: got %q, want %q", got.Kind, want.Kind)
	}
	if got.Count != want.Count || got.NullCount != want.NullCount || got.Distinct != want.Distinct {
		t.Errorf("count/null/distinct: got %d/%d/%d, want %d/%d/%d",
			got.Count, got.NullCount, got.Distinct, want.Count, want.NullCount, want.Distinct)
	}
	if !reflect.DeepEqual(got.Min, want.Min) {
		t.Errorf("Min: got %#v, want %#v", got.Min, want.Min)
	}
	if !reflect.DeepEqual(got.Max, want.Max) {
		t.Errorf("Max: got %#v, want %#v", got.Max, want.Max)
	}
	for _, f := range []struct {
		name      string
		got, want *float64
	}{
		{"Mean", got.Mean, want.Mean}, {"Std", got.Std, want.Std},
		{"P25", got.P25, want.P25}, {"P50", got.P50, want.P50}, {"P75", got.P75, want.P75},
	} {
		if !closeTo(f.got, f.want) {
			t.Errorf("%s: got %v, want %v", f.name, fmtPtr(f.got), fmtPtr(f.want))
		}
	}
	if want.Outliers == nil {
		want.Outliers = []engine.Value{}
	}
	if !reflect.DeepEqual(got.Outliers, want.Outliers) {
		t.Errorf("Outliers: got %#v, want %#v", got.Outliers, want.Outliers)
	}
	if want.TopValues == nil {
		want.TopValues = []engine.TopValue{}
	}
	if !reflect.DeepEqual(got.TopValues, want.TopValues) {
		t.Errorf("TopValues: got %#v, want %#v", got.TopValues, want.TopValues)
	}
}

func TestComputeStats(t *testing.T) {
	inf := math.Inf(1)
	big := int64(1_000_000_000_000_000) // 1e15
	two62 := int64(1) << 62
	tests := []struct {
		name string
		vals []engine.Value
		want engine.ColumnStats
	}{{
		name: "integers",
		vals: []engine.Value{int64(3), int64(1), int64(4), int64(1), int64(5), int64(9), int64(2), int64(6), int64(5), int64(3), int64(5)},
		want: engine.ColumnStats{Kind: engine.KindNumeric, Count: 11, Distinct: 7, Min: int64(1), Max: int64(9),
			Mean: fp(4), Std: fp(2.3664319132398464), P25: fp(2.5), P50: fp(4), P75: fp(5),
			Outliers:  []engine.Value{int64(9)}, // above 5 + 1.5·2.5
			TopValues: []engine.TopValue{{Value: int64(5), Count: 3}, {Value: int64(1), Count: 2}, {Value: int64(3), Count: 2}, {Value: int64(2), Count: 1}, {Value: int64(4), Count: 1}}},
	}, {
		name: "floats",
		vals: []engine.Value{1.5, 2.5, 2.5, 10.0},
		want: engine.ColumnStats{Kind: engine.KindNumeric, Count: 4, Distinct: 3, Min: 1.5, Max: 10.0,
			Mean: fp(4.125), Std: fp(3.944933459514875), P25: fp(2.25), P50: fp(2.5), P75: fp(4.375),
			Outliers: []engine.Value{10.0}},
	}, {
		name: "floats interpolated like numpy",
		vals: []engine.Value{0.4, 0.1, 0.3, 0.2},
		want: engine.ColumnStats{Kind: engine.KindNumeric, Count: 4, Distinct: 4, Min: 0.1, Max: 0.4,
			Mean: fp(0.25), Std: fp(0.12909944487358058), P25: fp(0.17500000000000002), P50: fp(0.25), P75: fp(0.325)},
	}, {
		name: "mixed integers and floats keep their types",
		vals: []engine.Value{2.5, int64(1), int64(3), 1.0, 3.0},
		want: engine.ColumnStats{Kind: engine.KindNumeric, Count: 5, Distinct: 3, Min: int64(1), Max: int64(3),
			Mean: fp(2.1), Std: fp(1.02469507659596), P25: fp(1), P50: fp(2.5), P75: fp(3)},
	}, {
		name: "float extremes stay floats",
		vals: []engine.Value{int64(2), 0.5, 7.25},
		want: engine.ColumnStats{Kind: engine.KindNumeric, Count: 3, Distinct: 3, Min: 0.5, Max: 7.25,
			Mean: fp(3.25), Std: fp(3.5443617196894563), P25: fp(1.25), P50: fp(2), P75: fp(4.625)},
	}, {
		name: "NULLs",
		vals: []engine.Value{nil, int64(1), nil, int64(3), math.NaN()},
		want: engine.ColumnStats{Kind: engine.KindNumeric, Count: 2, NullCount: 3, Distinct: 2, Min: int64(1), Max: int64(3),
			Mean: fp(2), Std: fp(math.Sqrt2), P25: fp(1.5), P50: fp(2), P75: fp(2.5),
			TopValues: []engine.TopValue{{Value: int64(1), Count: 1}, {Value: int64(3), Count: 1}}},
	}, {
		name: "one value has no std",
		vals: []engine.Value{7.5},
		want: engine.ColumnStats{Kind: engine.KindNumeric, Count: 1, Distinct: 1, Min: 7.5, Max: 7.5,
			Mean: fp(7.5), P25: fp(7.5), P50: fp(7.5), P75: fp(7.5)},
	}, {
		name: "constant column",
		vals: []engine.Value{int64(4), int64(4), int64(4)},
		want: engine.ColumnStats{Kind: engine.KindNumeric, Count: 3, Distinct: 1, Min: int64(4), Max: int64(4),
			Mean: fp(4), Std: fp(0), P25: fp(4), P50: fp(4), P75: fp(4),
			TopValues: []engine.TopValue{{Value: int64(4), Count: 3}}},
	}, {
		name: "all NULL",
		vals: []engine.Value{nil, nil},
		want: engine.ColumnStats{Kind: engine.KindEmpty, NullCount: 2},
	}, {
		name: "text with ties in top values",
		vals: []engine.Value{"pear", "apple", "fig", "apple", "pear", "kiwi", "date", "cherry", "banana", nil},
		want: engine.ColumnStats{Kind: engine.KindText, Count: 9, NullCount: 1, Distinct: 7, Min: "apple", Max: "pear",
			TopValues: []engine.TopValue{{Value: "apple", Count: 2}, {Value: "pear", Count: 2}, {Value: "banana", Count: 1}, {Value: "cherry", Count: 1}, {Value: "date", Count: 1}}},
	}, {
		name: "text order is byte order",
		vals: []engine.Value{"b", "B", "a", "É"},
		want: engine.ColumnStats{Kind: engine.KindText, Count: 4, Distinct: 4, Min: "B", Max: "É",
			TopValues: []engine.TopValue{{Value: "B", Count: 1}, {Value: "a", Count: 1}, {Value: "b", Count: 1}, {Value: "É", Count: 1}}},
	}, {
		name: "blobs",
		vals: []engine.Value{[]byte{1, 2}, []byte{1, 2}, []byte{3}, nil, []byte{}},
		want: engine.ColumnStats{Kind: engine.KindBlob, Count: 4, NullCount: 1, Distinct: 3},
	}, {
		name: "mixed storage classes",
		vals: []engine.Value{int64(1), "1", 1.0, "x", []byte("x"), nil, "x", 2.5},
		want: engine.ColumnStats{Kind: engine.KindMixed, Count: 7, NullCount: 1, Distinct: 5,
			TopValues: []engine.TopValue{{Value: int64(1), Count: 2}, {Value: "x", Count: 2}, {Value: 2.5, Count: 1}, {Value: "1", Count: 1}, {Value: []byte("x"), Count: 1}}},
	}, {
		name: "large integers keep their precision",
		vals: []engine.Value{big + 1, big + 2, big + 3, big + 4},
		want: engine.ColumnStats{Kind: engine.KindNumeric, Count: 4, Distinct: 4, Min: big + 1, Max: big + 4,
			Mean: fp(1e15 + 2.5), Std: fp(1.2909944487358056), P25: fp(1e15 + 1.75), P50: fp(1e15 + 2.5), P75: fp(1e15 + 3.25),
			TopValues: []engine.TopValue{{Value: big + 1, Count: 1}, {Value: big + 2, Count: 1}, {Value: big + 3, Count: 1}, {Value: big + 4, Count: 1}}},
	}, {
		name: "large floats keep their precision",
		vals: []engine.Value{1e15 + 0.5, 1e15 + 1, 1e15 + 1.5},
		want: engine.ColumnStats{Kind: engine.KindNumeric, Count: 3, Distinct: 3, Min: 1e15 + 0.5, Max: 1e15 + 1.5,
			Mean: fp(1e15 + 1), Std: fp(0.5), P25: fp(1e15 + 0.75), P50: fp(1e15 + 1), P75: fp(1e15 + 1.25)},
	}, {
		name: "integers beyond 2^53 subtract exactly",
		vals: []engine.Value{two62 + 1, two62 + 3},
		want: engine.ColumnStats{Kind: engine.KindNumeric, Count: 2, Distinct: 2, Min: two62 + 1, Max: two62 + 3,
			Mean: fp(float64(two62)), Std: fp(math.Sqrt2), P25: fp(float64(two62)), P50: fp(float64(two62)), P75: fp(float64(two62)),
			TopValues: []engine.TopValue{{Value: two62 + 1, Count: 1}, {Value: two62 + 3, Count: 1}}},
	}, {
		// The exact mean is -0.5: the float difference of the extremes
		// rounds it away, which is fine at this magnitude.
		name: "extreme integers do not overflow",
		vals: []engine.Value{int64(math.MinInt64), int64(math.MaxInt64)},
		want: engine.ColumnStats{Kind: engine.KindNumeric, Count: 2, Distinct: 2, Min: int64(math.MinInt64), Max: int64(math.MaxInt64),
			Mean: fp(0), Std: fp(1.3043817825332783e19), P25: fp(-4.611686018427388e18), P50: fp(0), P75: fp(4.611686018427388e18),
			TopValues: []engine.TopValue{{Value: int64(math.MinInt64), Count: 1}, {Value: int64(math.MaxInt64), Count: 1}}},
	}, {
		name: "huge floats do not overflow",
		vals: []engine.Value{-1e308, 1e308},
		want: engine.ColumnStats{Kind: engine.KindNumeric, Count: 2, Distinct: 2, Min: -1e308, Max: 1e308,
			Mean: fp(0), Std: fp(1.4142135623730951e308), P25: fp(-5e307), P50: fp(0), P75: fp(5e307)},
	}, {
		name: "+Inf: no mean, no std, infinite percentile is null, Inf is an outlier",
		vals: []engine.Value{int64(1), int64(2), int64(3), int64(4), int64(5), inf},
		want: engine.ColumnStats{Kind: engine.KindNumeric, Count: 6, Distinct: 6, Min: int64(1), Max: inf,
			P25: fp(2.25), P50: fp(3.5), P75: fp(4.75), Outliers: []engine.Value{inf}},
	}, {
		name: "±Inf",
		vals: []engine.Value{math.Inf(-1), 0.0, inf},
		want: engine.ColumnStats{Kind: engine.KindNumeric, Count: 3, Distinct: 3, Min: math.Inf(-1), Max: inf, P50: fp(0)},
	}, {
		name: "outliers via IQR, farthest from the median first",
		vals: []engine.Value{int64(-50), int64(1), int64(2), int64(3), int64(4), int64(5), int64(6), int64(7), int64(8), int64(9), int64(100), int64(250), int64(100)},
		want: engine.ColumnStats{Kind: engine.KindNumeric, Count: 13, Distinct: 12, Min: int64(-50), Max: int64(250),
			Mean: fp(34.23076923076923), Std: fp(76.40479243929865), P25: fp(3), P50: fp(6), P75: fp(9),
			Outliers:  []engine.Value{int64(250), int64(100), int64(-50)},
			TopValues: []engine.TopValue{{Value: int64(100), Count: 2}, {Value: int64(-50), Count: 1}, {Value: int64(1), Count: 1}, {Value: int64(2), Count: 1}, {Value: int64(3), Count: 1}}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkStats(t, stats1(tt.vals...), &tt.want)
		})
	}
}

func TestComputeStatsPercentilesLikeNumpy(t *testing.T) {
	// Expected values: numpy.percentile(x, [25, 50, 75]) (method "linear").
	tests := []struct {
		vals          []engine.Value
		p25, p50, p75 float64
	}{
		{[]engine.Value{int64(1), int64(2), int64(3), int64(4)}, 1.75, 2.5, 3.25},
		{[]engine.Value{int64(7), int64(15), int64(36), int64(39), int64(40), int64(41)}, 20.25, 37.5, 39.75},
		{[]engine.Value{0.1, 0.2, 0.3, 0.4}, 0.17500000000000002, 0.25, 0.325},
		{[]engine.Value{int64(-50), int64(1), int64(2), int64(3), int64(4), int64(5), int64(6), int64(7), int64(8), int64(9), int64(100), int64(250)}, 2.75, 5.5, 8.25},
		{[]engine.Value{int64(10)}, 10, 10, 10},
		{[]engine.Value{int64(1), int64(10)}, 3.25, 5.5, 7.75},
	}
	for _, tt := range tests {
		s := stats1(tt.vals...)
		got := []any{fmtPtr(s.P25), fmtPtr(s.P50), fmtPtr(s.P75)}
		want := []any{tt.p25, tt.p50, tt.p75}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("percentiles of %v: got %v, want %v", tt.vals, got, want)
		}
	}
}

func TestComputeStatsLimits(t *testing.T) {
	// 40 distinct integers: too many for top values; 12 outliers, 10 kept.
	var vals []engine.Value
	for i := range 100 {
		vals = append(vals, int64(i%28))
	}
	for i := range 12 {
		vals = append(vals, int64(1000+i))
	}
	s := stats1(vals...)
	if len(s.TopValues) != 0 {
		t.Errorf("TopValues of 40 distinct integers: got %v, want []", s.TopValues)
	}
	want := []engine.Value{int64(1011), int64(1010), int64(1009), int64(1008), int64(1007), int64(1006), int64(1005), int64(1004), int64(1003), int64(1002)}
	if !reflect.DeepEqual(s.Outliers, want) {
		t.Errorf("Outliers: got %v, want %v", s.Outliers, want)
	}

	// Float columns get no top values, even with few distinct values.
	if s := stats1(1.5, 1.5, 2.5); len(s.TopValues) != 0 {
		t.Errorf("TopValues of floats: got %v, want []", s.TopValues)
	}
}

func TestComputeStatsDeterministic(t *testing.T) {
	a := []engine.Value{"b", "a", "c", "a", "c", "b", int64(3), 3.0}
	b := []engine.Value{3.0, "c", "a", "b", int64(3), "c", "b", "a"}
	ja, err := json.Marshal(stats1(a...))
	if err != nil {
		t.Fatal(err)
	}
	jb, err := json.Marshal(stats1(b...))
	if err != nil {
		t.Fatal(err)
	}
	if string(ja) != string(jb) {
		t.Errorf("order changed the stats: got %s, want %s", jb, ja)
	}
}

func TestComputeStatsEmptyResult(t *testing.T) {
	cols := []engine.Column{{Name: "a"}, {Name: "b"}}
	l := ComputeStats(cols, nil)
	if got, want := l.Columns, []string{"a", "b"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Columns: got %v, want %v", got, want)
	}
	for i, s := range l.Stats {
		checkStats(t, s, &engine.ColumnStats{Kind: engine.KindEmpty})
		if l.Stats[i] != l.Get(cols[i].Name) {
			t.Errorf("Get(%q) is not Stats[%d]", cols[i].Name, i)
		}
	}
	got, err := json.Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	empty := `{"count":0,"null_count":0,"distinct":0,"min":null,"max":null,"mean":null,"std":null,"p25":null,"p50":null,"p75":null,"outliers":[],"top_values":[]}`
	if want := `{"a":` + empty + `,"b":` + empty + `}`; string(got) != want {
		t.Errorf("JSON: got %s, want %s", got, want)
	}
	if got, err := json.Marshal(ComputeStats(nil, nil)); err != nil || string(got) != "{}" {
		t.Errorf("JSON of no columns: got %s, %v, want {}", got, err)
	}
}

func TestColumnStatsJSON(t *testing.T) {
	cols := []engine.Column{{Name: "z"}, {Name: "a"}, {Name: "e"}, {Name: "inf"}, {Name: "blob"}}
	rows := [][]engine.Value{
		{int64(3), "b", nil, math.Inf(1), []byte("hi")},
		{int64(1), "a", nil, 2.0, nil},
		{nil, "b", nil, math.Inf(-1), []byte("hi")},
	}
	l := ComputeStats(cols, rows)
	got, err := json.Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	want := `{` +
		`"z":{"count":2,"null_count":1,"distinct":2,"min":1,"max":3,"mean":2.0,"std":1.4142135623730951,"p25":1.5,"p50":2.0,"p75":2.5,"outliers":[],"top_values":[{"value":1,"count":1},{"value":3,"count":1}]},` +
		`"a":{"count":3,"null_count":0,"distinct":2,"min":"a","max":"b","mean":null,"std":null,"p25":null,"p50":null,"p75":null,"outliers":[],"top_values":[{"value":"b","count":2},{"value":"a","count":1}]},` +
		`"e":{"count":0,"null_count":3,"distinct":0,"min":null,"max":null,"mean":null,"std":null,"p25":null,"p50":null,"p75":null,"outliers":[],"top_values":[]},` +
		`"inf":{"count":3,"null_count":0,"distinct":3,"min":"-Infinity","max":"Infinity","mean":null,"std":null,"p25":null,"p50":2.0,"p75":null,"outliers":[],"top_values":[]},` +
		`"blob":{"count":2,"null_count":1,"distinct":1,"min":null,"max":null,"mean":null,"std":null,"p25":null,"p50":null,"p75":null,"outliers":[],"top_values":[]}` +
		`}`
	if string(got) != want {
		t.Errorf("JSON:\ngot  %s\nwant %s", got, want)
	}

	// A hand-built value with nil slices still writes [], and NaN never
	// reaches the output.
	s := &engine.ColumnStats{Count: 1, Min: 1e21, Max: math.Inf(1), Mean: fp(math.NaN()), Std: fp(math.Inf(1)), P50: fp(1e-7),
		TopValues: []engine.TopValue{{Value: []byte{0xff}, Count: 1}}}
	got, err = json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	want = `{"count":1,"null_count":0,"distinct":0,"min":1e+21,"max":"Infinity","mean":null,"std":null,"p25":null,"p50":1e-07,"p75":null,"outliers":[],"top_values":[{"value":"/w==","count":1}]}`
	if string(got) != want {
		t.Errorf("JSON:\ngot  %s\nwant %s", got, want)
	}

	// A list with a missing entry writes null.
	got, err = json.Marshal(engine.ColumnStatsList{Columns: []string{"x"}})
	if err != nil || string(got) != `{"x":null}` {
		t.Errorf("JSON of a missing entry: got %s, %v, want {\"x\":null}", got, err)
	}
}

func TestColumnStatsListGet(t *testing.T) {
	l := ComputeStats([]engine.Column{{Name: "Total"}, {Name: "total_2"}}, [][]engine.Value{{int64(1), "x"}})
	if got, want := l.Get("Total"), l.Stats[0]; got != want {
		t.Errorf("Get(Total): got %p, want %p", got, want)
	}
	if got, want := l.Get("TOTAL_2"), l.Stats[1]; got != want {
		t.Errorf("Get(TOTAL_2): got %p, want %p", got, want)
	}
	if got := l.Get("missing"); got != nil {
		t.Errorf("Get(missing): got %v, want nil", got)
	}
}

func TestComputeStatsShortRowsAndGoTypes(t *testing.T) {
	cols := []engine.Column{{Name: "a"}, {Name: "b"}}
	rows := [][]engine.Value{{1, float32(2.5)}, {uint8(3)}, {int32(5), 4.5}}
	l := ComputeStats(cols, rows)
	checkStats(t, l.Stats[0], &engine.ColumnStats{Kind: engine.KindNumeric, Count: 3, Distinct: 3, Min: int64(1), Max: int64(5),
		Mean: fp(3), Std: fp(2), P25: fp(2), P50: fp(3), P75: fp(4),
		TopValues: []engine.TopValue{{Value: int64(1), Count: 1}, {Value: int64(3), Count: 1}, {Value: int64(5), Count: 1}}})
	checkStats(t, l.Stats[1], &engine.ColumnStats{Kind: engine.KindNumeric, Count: 2, NullCount: 1, Distinct: 2, Min: 2.5, Max: 4.5,
		Mean: fp(3.5), Std: fp(math.Sqrt2), P25: fp(3), P50: fp(3.5), P75: fp(4)})
}
