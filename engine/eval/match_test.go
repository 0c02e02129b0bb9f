package eval

import (
	"strings"
	"testing"

	"querent/engine"
)

// rs builds a result set from rows of values.
func rs(rows ...[]engine.Value) ResultSet {
	if len(rows) == 0 {
		return ResultSet{}
	}
	cols := make([]string, len(rows[0]))
	for i := range cols {
		cols[i] = string(rune('a' + i))
	}
	return ResultSet{Columns: cols, Rows: rows}
}

// pointOne and pointTwo are variables so that their sum is computed in
// float64 (a constant expression would be exact).
var pointOne, pointTwo = 0.1, 0.2

func row(vs ...engine.Value) []engine.Value { return vs }

func TestCompare(t *testing.T) {
	const ordered, unordered = true, false
	tie := rs(row("x", int64(5)), row("y", int64(3)))
	for _, tc := range []struct {
		name       string
		gold, pred ResultSet
		rule       Rule
		match      bool
		reason     string // a part of the reason
	}{
		{"same single value", rs(row(int64(3503))), rs(row(int64(3503))), Rule{}, true, "same result"},
		{"different value", rs(row(int64(3503))), rs(row(int64(3502))), Rule{}, false, "gold row (3503) is missing; the prediction has (3502) instead"},

		// Order.
		{"ordered: same order", rs(row("a"), row("b"), row("c")), rs(row("a"), row("b"), row("c")), Rule{OrderMatters: ordered}, true, ""},
		{"ordered: another order", rs(row("a"), row("b"), row("c")), rs(row("b"), row("a"), row("c")), Rule{OrderMatters: ordered}, false,
			"the same rows in another order: row 1 is gold ('a') vs ('b')"},
		{"unordered: another order", rs(row("a"), row("b"), row("c")), rs(row("c"), row("a"), row("b")), Rule{OrderMatters: unordered}, true, ""},
		{"ordered: a row differs", rs(row("Iron Maiden", int64(21)), row("Led Zeppelin", int64(14)), row("Deep Purple", int64(11))),
			rs(row("Iron Maiden", int64(21)), row("Led Zeppelin", int64(14)), row("Metallica", int64(10))), Rule{OrderMatters: true}, false,
			"row 3 differs: gold ('Deep Purple', 11) vs ('Metallica', 10)"},

		// Duplicates: rows are a multiset, not a set.
		{"duplicates counted", rs(row("a"), row("a"), row("b")), rs(row("a"), row("b"), row("b")), Rule{}, false, "gold row ('a') is missing; the prediction has ('b') instead"},
		{"duplicates in another order", rs(row("a"), row("a"), row("b")), rs(row("a"), row("b"), row("a")), Rule{}, true, ""},
		{"DISTINCT missing", rs(row("a"), row("b")), rs(row("a"), row("a"), row("b")), Rule{}, false, "3 rows, gold has 2"},

		// Extra columns.
		{"extra column refused", rs(row("Iron Maiden")), rs(row("Iron Maiden", int64(21))), Rule{}, false, "columns do not match: gold has 1, prediction 2"},
		{"extra column tolerated", rs(row("Iron Maiden")), rs(row("Iron Maiden", int64(21))), Rule{ExtraColumns: true}, true, "1 extra column ignored"},
		{"extra column first", rs(row("Iron Maiden")), rs(row(int64(21), "Iron Maiden")), Rule{ExtraColumns: true}, true, ""},
		{"extra columns, wrong values", rs(row("Iron Maiden")), rs(row(int64(14), "Led Zeppelin")), Rule{ExtraColumns: true}, false,
			"gold row ('Iron Maiden') is missing; the prediction has (14, 'Led Zeppelin') instead"},
		{"fewer columns", rs(row("a", int64(1))), rs(row("a")), Rule{ExtraColumns: true}, false, "columns do not match: gold has 2, prediction 1"},

		// Column permutations.
		{"columns swapped", rs(row("a", int64(1)), row("b", int64(2))), rs(row(int64(1), "a"), row(int64(2), "b")), Rule{}, true, "columns in another order"},
		{"columns swapped, ordered", rs(row("a", int64(1)), row("b", int64(2))), rs(row(int64(1), "a"), row(int64(2), "b")), Rule{OrderMatters: true}, true, ""},
		{"same column values, rows differ", rs(row(int64(1), int64(1)), row(int64(2), int64(2))), rs(row(int64(1), int64(2)), row(int64(2), int64(1))), Rule{}, false,
			"2 of 2 gold rows are missing"},
		{"permutation needs the second candidate", rs(row(int64(1), int64(1), int64(2)), row(int64(2), int64(1), int64(2))),
			rs(row(int64(1), int64(2), int64(1)), row(int64(2), int64(2), int64(1))), Rule{}, true, ""},

		// Numbers and NULLs.
		{"1 = 1.0", rs(row(int64(1), 2.0)), rs(row(1.0, int64(2))), Rule{}, true, ""},
		{"pointOne+pointTwo is not 0.3 strictly", rs(row(0.3)), rs(row(pointOne + pointTwo)), Rule{}, false, "gold row (0.3) is missing; the prediction has (0.30000000000000004) instead"},
		{"pointOne+pointTwo is 0.3 leniently", rs(row(0.3)), rs(row(pointOne + pointTwo)), Rule{Lenient: true}, true, ""},
		{"lenient is not loose", rs(row(22.46)), rs(row(22.4624)), Rule{Lenient: true}, false, "missing"},
		{"lenient floats in a multiset", rs(row("a", 0.3), row("b", 0.7)), rs(row("b", 0.7000000001), row("a", pointOne+pointTwo)), Rule{Lenient: true}, true, ""},
		{"lenient pairing beyond sorting", rs(row(1.0, 2.0), row(1.0000001, 5.0)), rs(row(1.0000001, 2.0), row(1.0, 5.0)), Rule{Lenient: true}, true, ""},
		{"2^53+1 is not 2^53", rs(row(int64(9007199254740993))), rs(row(9007199254740992.0)), Rule{}, false, ""},
		{"NULL = NULL", rs(row(nil, "a")), rs(row(nil, "a")), Rule{}, true, ""},
		{"NULL is not 0", rs(row(nil)), rs(row(int64(0))), Rule{}, false, "gold row (NULL) is missing; the prediction has (0) instead"},
		{"NULL is not empty text", rs(row(nil)), rs(row("")), Rule{Lenient: true}, false, ""},

		// Text and numbers.
		{"text 10 is not 10 strictly", rs(row(int64(10))), rs(row("10")), Rule{}, false, "gold row (10) is missing; the prediction has ('10') instead"},
		{"text 10 is 10 leniently", rs(row(int64(10))), rs(row("10")), Rule{Lenient: true}, true, ""},
		{"text 01 is 1 leniently", rs(row(int64(1), int64(7))), rs(row("01", int64(7))), Rule{Lenient: true}, true, ""},
		{"text 10.50 is 10.5 leniently", rs(row(10.5)), rs(row("10.50")), Rule{Lenient: true}, true, ""},
		{"text is compared exactly", rs(row("Rock")), rs(row("rock")), Rule{Lenient: true}, false, ""},
		{"blobs", rs(row([]byte{1, 2})), rs(row([]byte{1, 2})), Rule{}, true, ""},
		{"blob is not text", rs(row([]byte("ab"))), rs(row("ab")), Rule{}, false, "x'6162'"},

		// Rankings and ties.
		{"ranking: extra rows refused by default", rs(row("a"), row("b"), row("c")), rs(row("a"), row("b"), row("c"), row("d"), row("e")), Rule{OrderMatters: true}, false, "5 rows, gold has 3"},
		{"ranking: extra rows tolerated", rs(row("a"), row("b"), row("c")), rs(row("a"), row("b"), row("c"), row("d"), row("e")), Rule{OrderMatters: true, Ranking: true}, true,
			"the first 3 of 5 rows match (ranking)"},
		{"ranking: the head must match in order", rs(row("a"), row("b")), rs(row("b"), row("a"), row("c")), Rule{OrderMatters: true, Ranking: true}, false, "another order"},
		{"ranking: fewer rows", rs(row("a"), row("b"), row("c")), rs(row("a"), row("b")), Rule{OrderMatters: true, Ranking: true}, false, "2 rows, gold has 3"},
		{"ranking, unordered head", rs(row("a"), row("b")), rs(row("b"), row("a"), row("c")), Rule{Ranking: true}, true, ""},
		// A LIMIT that cuts a tie: y and z both have 3; the gold kept y.
		{"LIMIT cut at a tie", tie, rs(row("x", int64(5)), row("z", int64(3))), Rule{OrderMatters: true}, false, "row 2 differs: gold ('y', 3) vs ('z', 3)"},
		{"tie kept whole, with ranking", tie, rs(row("x", int64(5)), row("y", int64(3)), row("z", int64(3))), Rule{OrderMatters: true, Ranking: true}, true, ""},
		{"tie in the other order, with ranking", tie, rs(row("x", int64(5)), row("z", int64(3)), row("y", int64(3))), Rule{OrderMatters: true, Ranking: true}, false, "row 2 differs"},

		// Empty results.
		{"both empty", ResultSet{Columns: []string{"a"}}, ResultSet{Columns: []string{"a", "b"}}, Rule{}, true, "both results are empty"},
		{"empty prediction", rs(row("a"), row("b")), ResultSet{Columns: []string{"a"}}, Rule{}, false, "0 rows, gold has 2"},
		{"empty gold", ResultSet{Columns: []string{"a"}}, rs(row("a")), Rule{}, false, "1 row, gold has 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := Compare(tc.gold, tc.pred, tc.rule)
			if v.Match != tc.match || !strings.Contains(v.Reason, tc.reason) {
				t.Errorf("Compare = %v %q, want %v with %q", v.Match, v.Reason, tc.match, tc.reason)
			}
			// Deterministic.
			if v2 := Compare(tc.gold, tc.pred, tc.rule); v2 != v {
				t.Errorf("a second comparison gave %+v, then %+v", v, v2)
			}
		})
	}
}

// Many identical columns: the pruning cannot tell them apart, the search
// still ends.
func TestCompareManyIdenticalColumns(t *testing.T) {
	var g, p []engine.Value
	for i := 0; i < 10; i++ {
		g = append(g, int64(1))
		p = append(p, int64(1))
	}
	p[9] = int64(2)
	v := Compare(rs(row(g...)), rs(row(p...)), Rule{})
	if v.Match || v.Reason == "" {
		t.Errorf("got %+v", v)
	}
	if v := Compare(rs(row(g...)), rs(row(g...)), Rule{}); !v.Match {
		t.Errorf("identical rows: %+v", v)
	}
}

func TestHasTopLevelOrderBy(t *testing.T) {
	for sql, want := range map[string]bool{
		"SELECT a FROM t ORDER BY a":                              true,
		"select a from t order\n  by a desc limit 1":              true,
		"SELECT a FROM t":                                         false,
		"SELECT a FROM (SELECT a FROM t ORDER BY a)":              false,
		"SELECT a, row_number() OVER (ORDER BY b) FROM t":         false,
		"SELECT group_concat(a ORDER BY a) FROM t":                false,
		"SELECT 'ORDER BY' FROM t":                                false,
		`SELECT "order" FROM t -- ORDER BY x` + "\n":              false,
		"SELECT a FROM t /* ORDER BY */":                          false,
		"WITH x AS (SELECT a FROM t ORDER BY a) SELECT * FROM x":  false,
		"SELECT a FROM t UNION SELECT b FROM u ORDER BY 1":        true,
		"SELECT [order] FROM t ORDER /* c */ BY 1":                true,
		"SELECT sorder, border FROM t":                            false,
		"SELECT a FROM t WHERE b IN (SELECT c FROM u) ORDER BY a": true,
	} {
		if got := HasTopLevelOrderBy(sql); got != want {
			t.Errorf("HasTopLevelOrderBy(%q) = %v, want %v", sql, got, want)
		}
	}
}

func TestPassAtK(t *testing.T) {
	for _, tc := range []struct {
		n, c, k   int
		at, hat   float64
		atDescrib string
	}{
		{2, 0, 2, 0, 0, "none right"},
		{2, 1, 2, 1, 0, "one of two"},
		{2, 2, 2, 1, 1, "both"},
		{10, 3, 1, 0.3, 0.3, "k=1 is the share right"},
		{5, 2, 2, 0.7, 0.1, "1 - C(3,2)/C(5,2) = 0.7; C(2,2)/C(5,2) = 0.1"},
	} {
		if at, hat := PassAtK(tc.n, tc.c, tc.k), PassHatK(tc.n, tc.c, tc.k); abs(at-tc.at) > 1e-12 || abs(hat-tc.hat) > 1e-12 {
			t.Errorf("%s: pass@k %v pass^k %v, want %v %v", tc.atDescrib, at, hat, tc.at, tc.hat)
		}
	}
	if p := Percentile([]float64{5, 1, 3, 2, 4}, 50); p != 3 {
		t.Errorf("p50 = %v", p)
	}
	if p := Percentile([]float64{5, 1, 3, 2, 4}, 95); p != 5 {
		t.Errorf("p95 = %v", p)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
