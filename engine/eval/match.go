package eval

// The match rule: the Spider test-suite execution match (Zhong, Yu and
// Klein, "Semantic Evaluation for Text-to-SQL with Distilled Test Suites",
// 2020; github.com/taoyds/test-suite-sql-eval, exec_eval.py result_eq), so
// that scores compare with published ones. Two results match when some
// permutation of the prediction's columns makes its rows equal to the
// gold rows: as a multiset, or as a list when order matters.

import (
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"querent/engine"
)

// ResultSet is a query's result as the scorer sees it: the columns' names
// (for messages only; columns are matched by their values) and the rows.
type ResultSet struct {
	Columns []string
	Rows    [][]engine.Value
}

// Rule says how strictly two results are compared.
type Rule struct {
	// OrderMatters compares rows as lists instead of multisets.
	OrderMatters bool
	// Ranking tolerates extra trailing rows in the prediction: its first
	// len(gold) rows must match (as a list when OrderMatters).
	Ranking bool
	// ExtraColumns tolerates extra predicted columns: some subset of the
	// prediction's columns must match the gold columns.
	ExtraColumns bool
	// Lenient also lets text that reads as a number equal that number
	// ("10" = 10) and floats match to 1e-6 relative.
	Lenient bool
}

// Verdict is the outcome of one comparison.
type Verdict struct {
	Match bool
	// Reason says in one line why the results differ (or how they matched).
	Reason string
}

// maxPermutationChecks bounds the column assignments tried on one pair of
// results; only results with many columns holding the same values need
// more.
const maxPermutationChecks = 20000

// maxMatchingRows bounds the rows of one group that lenient comparison pairs
// up exhaustively; a larger group is paired in sorted order only.
const maxMatchingRows = 2000

// Compare tells whether pred matches gold under rule r, with a reason.
// It is deterministic and never looks at the SQL.
func Compare(gold, pred ResultSet, r Rule) Verdict {
	n, m := len(gold.Rows), len(pred.Rows)
	if n == 0 && m == 0 {
		// As in the reference: two empty results are the same denotation
		// (their columns cannot be compared without values).
		return Verdict{Match: true, Reason: "both results are empty"}
	}
	predRows := pred.Rows
	switch {
	case r.Ranking && m >= n:
		predRows = predRows[:n]
	case m != n:
		return Verdict{Reason: fmt.Sprintf("%s, gold has %d", plural(m, "row"), n)}
	}
	gc, pc := width(gold), width(pred)
	if pc != gc && !(r.ExtraColumns && pc > gc) {
		return Verdict{Reason: fmt.Sprintf("columns do not match: gold has %d, prediction %d", gc, pc)}
	}
	c := newComparer(gold.Rows, predRows, gc, pc, r)
	perm, ok, tried := c.search()
	if ok {
		return Verdict{Match: true, Reason: c.matchReason(perm, m)}
	}
	if tried > maxPermutationChecks {
		return Verdict{Reason: fmt.Sprintf("too many ways to pair the columns (checked %d)", maxPermutationChecks)}
	}
	return Verdict{Reason: c.mismatchReason()}
}

func width(rs ResultSet) int {
	if len(rs.Columns) > 0 {
		return len(rs.Columns)
	}
	if len(rs.Rows) > 0 {
		return len(rs.Rows[0])
	}
	return 0
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// cell is one value, normalised for comparison: integral floats are
// integers (1.0 = 1), and in lenient mode numeric text is a number.
type cell struct {
	kind byte
	i    int64
	f    float64
	s    string
}

const (
	kNull byte = iota
	kInt
	kFloat
	kText
	kBlob
)

// numericTextRE is decimal notation only: "10", "-2.5", "1e3" (never hex,
// "inf" or "nan", which strconv would also accept).
var numericTextRE = regexp.MustCompile(`^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$`)

func toCell(v engine.Value, lenient bool) cell {
	switch x := v.(type) {
	case nil:
		return cell{kind: kNull}
	case int64:
		return cell{kind: kInt, i: x}
	case int:
		return cell{kind: kInt, i: int64(x)}
	case float64:
		return floatCell(x)
	case string:
		if lenient {
			t := strings.TrimSpace(x)
			if numericTextRE.MatchString(t) {
				if i, err := strconv.ParseInt(t, 10, 64); err == nil {
					return cell{kind: kInt, i: i}
				}
				if f, err := strconv.ParseFloat(t, 64); err == nil {
					return floatCell(f)
				}
			}
		}
		return cell{kind: kText, s: x}
	case []byte:
		return cell{kind: kBlob, s: string(x)}
	case bool:
		if x {
			return cell{kind: kInt, i: 1}
		}
		return cell{kind: kInt, i: 0}
	}
	return cell{kind: kText, s: fmt.Sprint(v)}
}

// floatCell makes an integral float an integer, so that 1 = 1.0 exactly as
// Python compares them (2^53+1 is not 2^53 as a float).
func floatCell(f float64) cell {
	if f == math.Trunc(f) && f >= -9.223372036854775808e18 && f < 9.223372036854775808e18 {
		return cell{kind: kInt, i: int64(f)}
	}
	return cell{kind: kFloat, f: f}
}

func (c cell) numeric() bool { return c.kind == kInt || c.kind == kFloat }

func (c cell) float() float64 {
	if c.kind == kInt {
		return float64(c.i)
	}
	return c.f
}

// key is a self-delimiting text form: equal keys, equal cells (exactly).
func (c cell) key() string {
	switch c.kind {
	case kNull:
		return "n;"
	case kInt:
		return "i" + strconv.FormatInt(c.i, 10) + ";"
	case kFloat:
		return "f" + strconv.FormatFloat(c.f, 'g', -1, 64) + ";"
	case kText:
		return "t" + strconv.Itoa(len(c.s)) + ":" + c.s
	}
	return "b" + strconv.Itoa(len(c.s)) + ":" + c.s
}

// approxEqual is the lenient float equality: 1e-6 relative, with an
// absolute floor of 1e-12 so that a sum that should be 0 is.
func approxEqual(x, y float64) bool {
	if x == y {
		return true
	}
	d := math.Abs(x - y)
	return d <= 1e-6*math.Max(math.Abs(x), math.Abs(y)) || d <= 1e-12
}

func cellsEqual(a, b cell, lenient bool) bool {
	if lenient && a.numeric() && b.numeric() {
		if a.kind == kInt && b.kind == kInt {
			return a.i == b.i
		}
		return approxEqual(a.float(), b.float())
	}
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case kNull:
		return true
	case kInt:
		return a.i == b.i
	case kFloat:
		return a.f == b.f || math.IsNaN(a.f) && math.IsNaN(b.f)
	}
	return a.s == b.s
}

// comparer holds two results normalised, for the column search.
type comparer struct {
	g, p     [][]cell
	gc, pc   int
	r        Rule
	gKeys    []string       // the gold rows' keys
	gCount   map[string]int // gold row key → count
	cand     [][]int        // gold column → candidate prediction columns
	lenientN bool           // lenient and some cell is numeric: keys are not enough
}

func newComparer(gold, pred [][]engine.Value, gc, pc int, r Rule) *comparer {
	c := &comparer{gc: gc, pc: pc, r: r}
	c.g = normalise(gold, gc, r.Lenient)
	c.p = normalise(pred, pc, r.Lenient)
	c.gKeys = make([]string, len(c.g))
	c.gCount = map[string]int{}
	for i, row := range c.g {
		k := rowKey(row, nil)
		c.gKeys[i] = k
		c.gCount[k]++
	}
	if r.Lenient {
		for _, rows := range [][][]cell{c.g, c.p} {
			for _, row := range rows {
				for _, x := range row {
					if x.kind == kFloat {
						c.lenientN = true
					}
				}
			}
		}
	}
	// Prune the column pairings with each column's multiset of values: a
	// prediction column can only stand for a gold column that holds the
	// same values (exactly; in lenient mode, the same non-numeric values and
	// as many numbers).
	gs, ps := make([]uint64, gc), make([]uint64, pc)
	for i := range gs {
		gs[i] = columnSignature(c.g, i, c.lenientN)
	}
	for j := range ps {
		ps[j] = columnSignature(c.p, j, c.lenientN)
	}
	c.cand = make([][]int, gc)
	for i := 0; i < gc; i++ {
		if i < pc && ps[i] == gs[i] {
			c.cand[i] = append(c.cand[i], i) // the written order first
		}
		for j := 0; j < pc; j++ {
			if j != i && ps[j] == gs[i] {
				c.cand[i] = append(c.cand[i], j)
			}
		}
	}
	return c
}

func normalise(rows [][]engine.Value, w int, lenient bool) [][]cell {
	out := make([][]cell, len(rows))
	for i, row := range rows {
		cs := make([]cell, w)
		for j := 0; j < w; j++ {
			var v engine.Value
			if j < len(row) {
				v = row[j]
			}
			cs[j] = toCell(v, lenient)
		}
		out[i] = cs
	}
	return out
}

// rowKey is the key of a row, its columns taken in perm's order (nil: as is).
func rowKey(row []cell, perm []int) string {
	var b strings.Builder
	if perm == nil {
		for _, x := range row {
			b.WriteString(x.key())
		}
		return b.String()
	}
	for _, j := range perm {
		b.WriteString(row[j].key())
	}
	return b.String()
}

func columnSignature(rows [][]cell, col int, lenientNumbers bool) uint64 {
	keys := make([]string, 0, len(rows))
	numbers := 0
	for _, row := range rows {
		x := row[col]
		if lenientNumbers && x.numeric() {
			numbers++
			continue
		}
		keys = append(keys, x.key())
	}
	slices.Sort(keys)
	h := fnv.New64a()
	fmt.Fprintf(h, "%d|", numbers)
	for _, k := range keys {
		h.Write([]byte(k))
	}
	return h.Sum64()
}

// search enumerates the injective pairings of gold columns with candidate
// prediction columns, in a fixed order, until one makes the rows equal.
func (c *comparer) search() (perm []int, ok bool, tried int) {
	perm = make([]int, c.gc)
	used := make([]bool, c.pc)
	var dfs func(i int) bool
	dfs = func(i int) bool {
		if i == c.gc {
			tried++
			return tried <= maxPermutationChecks && c.rowsMatch(perm)
		}
		for _, j := range c.cand[i] {
			if used[j] {
				continue
			}
			used[j], perm[i] = true, j
			if dfs(i + 1) {
				return true
			}
			used[j] = false
			if tried > maxPermutationChecks {
				return false
			}
		}
		return false
	}
	ok = dfs(0)
	return perm, ok, tried
}

func (c *comparer) rowsMatch(perm []int) bool {
	if c.r.OrderMatters {
		for r := range c.g {
			for i, j := range perm {
				if !cellsEqual(c.g[r][i], c.p[r][j], c.r.Lenient) {
					return false
				}
			}
		}
		return true
	}
	if c.exactMultiset(perm) {
		return true
	}
	if !c.lenientN {
		return false
	}
	return c.lenientMultiset(perm)
}

func (c *comparer) exactMultiset(perm []int) bool {
	left := make(map[string]int, len(c.gCount))
	for k, v := range c.gCount {
		left[k] = v
	}
	for _, row := range c.p {
		k := rowKey(row, perm)
		if left[k] == 0 {
			return false
		}
		left[k]--
	}
	return true
}

// lenientMultiset pairs rows whose non-numeric cells are equal, then pairs
// their numbers within the tolerance: in sorted order first, then by
// augmenting paths (a bipartite matching) when the sorted pairing fails.
func (c *comparer) lenientMultiset(perm []int) bool {
	group := func(row []cell, perm []int) string {
		var b strings.Builder
		for i := range perm {
			x := row[i]
			if perm != nil {
				x = row[perm[i]]
			}
			if x.numeric() {
				b.WriteString("#;")
			} else {
				b.WriteString(x.key())
			}
		}
		return b.String()
	}
	identity := make([]int, c.gc)
	for i := range identity {
		identity[i] = i
	}
	gg, pg := map[string][][]cell{}, map[string][][]cell{}
	var order []string
	for _, row := range c.g {
		k := group(row, identity)
		if _, ok := gg[k]; !ok {
			order = append(order, k)
		}
		gg[k] = append(gg[k], row)
	}
	for _, row := range c.p {
		proj := make([]cell, c.gc)
		for i, j := range perm {
			proj[i] = row[j]
		}
		k := group(proj, identity)
		pg[k] = append(pg[k], proj)
	}
	for _, k := range order {
		if len(gg[k]) != len(pg[k]) || !c.pairUp(gg[k], pg[k]) {
			return false
		}
	}
	return len(gg) == len(pg)
}

func (c *comparer) rowsEqual(a, b []cell) bool {
	for i := range a {
		if !cellsEqual(a[i], b[i], true) {
			return false
		}
	}
	return true
}

func (c *comparer) pairUp(gold, pred [][]cell) bool {
	cmp := func(a, b []cell) int {
		for i := range a {
			x, y := a[i].float(), b[i].float()
			if x < y {
				return -1
			}
			if x > y {
				return 1
			}
		}
		return 0
	}
	slices.SortStableFunc(gold, cmp)
	slices.SortStableFunc(pred, cmp)
	sorted := true
	for i := range gold {
		if !c.rowsEqual(gold[i], pred[i]) {
			sorted = false
			break
		}
	}
	if sorted {
		return true
	}
	if len(gold) > maxMatchingRows {
		return false
	}
	// Kuhn's augmenting paths.
	matchOf := make([]int, len(pred)) // pred row → gold row, or -1
	for i := range matchOf {
		matchOf[i] = -1
	}
	var try func(g int, seen []bool) bool
	try = func(g int, seen []bool) bool {
		for p := range pred {
			if seen[p] || !c.rowsEqual(gold[g], pred[p]) {
				continue
			}
			seen[p] = true
			if matchOf[p] < 0 || try(matchOf[p], seen) {
				matchOf[p] = g
				return true
			}
		}
		return false
	}
	for g := range gold {
		if !try(g, make([]bool, len(pred))) {
			return false
		}
	}
	return true
}

// matchReason says how a match was found, when it needed more than the
// plain comparison.
func (c *comparer) matchReason(perm []int, predRows int) string {
	var notes []string
	if predRows > len(c.g) {
		notes = append(notes, fmt.Sprintf("the first %d of %d rows match (ranking)", len(c.g), predRows))
	}
	if c.pc > c.gc {
		notes = append(notes, plural(c.pc-c.gc, "extra column")+" ignored")
	}
	moved := false
	for i, j := range perm {
		if i != j {
			moved = true
		}
	}
	if moved && c.pc == c.gc {
		notes = append(notes, "columns in another order")
	}
	if len(notes) == 0 {
		return "same result"
	}
	return "same result: " + strings.Join(notes, ", ")
}

// mismatchReason explains, in one line, the most telling difference, under
// the most plausible pairing of columns: the first differing row when order
// matters, else the first gold row the prediction lacks and what it has
// instead. A prediction with extra columns is shown whole.
func (c *comparer) mismatchReason() string {
	perm := c.bestEffortPerm()
	show := perm
	if c.pc > c.gc {
		show = nil
	}
	if c.r.OrderMatters {
		for r := range c.g {
			for i, j := range perm {
				if cellsEqual(c.g[r][i], c.p[r][j], c.r.Lenient) {
					continue
				}
				gr, pr := formatRow(c.g[r], nil), formatRow(c.p[r], show)
				if c.exactMultiset(perm) || c.lenientN && c.lenientMultiset(perm) {
					return fmt.Sprintf("the same rows in another order: row %d is gold %s vs %s", r+1, gr, pr)
				}
				return fmt.Sprintf("row %d differs: gold %s vs %s", r+1, gr, pr)
			}
		}
	}
	left := map[string]int{}
	for _, row := range c.p {
		left[rowKey(row, perm)]++
	}
	missing, firstMissing := 0, -1
	for r, k := range c.gKeys {
		if left[k] > 0 {
			left[k]--
			continue
		}
		missing++
		if firstMissing < 0 {
			firstMissing = r
		}
	}
	if firstMissing < 0 {
		// Only possible in lenient mode, where keys are stricter than
		// the comparison.
		return "the rows differ beyond the lenient tolerance"
	}
	msg := fmt.Sprintf("gold row %s is missing", formatRow(c.g[firstMissing], nil))
	if missing > 1 {
		msg = fmt.Sprintf("%d of %d gold rows are missing, e.g. %s", missing, len(c.g), formatRow(c.g[firstMissing], nil))
	}
	for _, row := range c.p {
		if k := rowKey(row, perm); left[k] > 0 {
			msg += "; the prediction has " + formatRow(row, show) + " instead"
			break
		}
	}
	return msg
}

// bestEffortPerm pairs each gold column with a candidate when it has one,
// else with the column in the same place, else with the first unused one.
func (c *comparer) bestEffortPerm() []int {
	perm := make([]int, c.gc)
	used := make([]bool, c.pc)
	done := make([]bool, c.gc)
	for i := range perm {
		for _, j := range c.cand[i] {
			if !used[j] {
				perm[i], used[j], done[i] = j, true, true
				break
			}
		}
	}
	for i := range perm {
		if done[i] {
			continue
		}
		j := i
		if j >= c.pc || used[j] {
			for j = 0; used[j]; j++ {
			}
		}
		perm[i], used[j] = j, true
	}
	return perm
}

// formatRow writes a row as a tuple of SQL-like literals, cut short.
func formatRow(row []cell, perm []int) string {
	const maxCells = 8
	var parts []string
	n := len(row)
	if perm != nil {
		n = len(perm)
	}
	for i := 0; i < n; i++ {
		if i == maxCells {
			parts = append(parts, "…")
			break
		}
		x := row[i]
		if perm != nil {
			x = row[perm[i]]
		}
		parts = append(parts, formatCell(x))
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func formatCell(x cell) string {
	switch x.kind {
	case kNull:
		return "NULL"
	case kInt:
		return strconv.FormatInt(x.i, 10)
	case kFloat:
		return engine.FormatFloat(x.f)
	case kBlob:
		b := []byte(x.s)
		if len(b) > 8 {
			return fmt.Sprintf("x'%s…'", strings.ToUpper(hex.EncodeToString(b[:8])))
		}
		return fmt.Sprintf("x'%s'", strings.ToUpper(hex.EncodeToString(b)))
	}
	s := x.s
	if utf8.RuneCountInString(s) > 40 {
		s = string([]rune(s)[:39]) + "…"
	}
	s = strings.NewReplacer("\n", `\n`, "\r", `\r`, "\t", `\t`, "'", "''").Replace(s)
	return "'" + s + "'"
}
