package ask

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"querent/engine/sqltext"
	"querent/engine/valuehints"
)

// comparisonRE finds text comparisons: col = 'x', t.col LIKE '%x%', col IN ('a', 'b').
var comparisonRE = regexp.MustCompile(`(?i)((?:[A-Za-z_][A-Za-z0-9_]*|"[^"]+")(?:\.(?:[A-Za-z_][A-Za-z0-9_]*|"[^"]+"))?)\s*(=|==|<>|!=|\bnot\s+like\b|\blike\b|\bglob\b|\bin\s*\()\s*('(?:[^']|'')*'(?:\s*,\s*'(?:[^']|'')*')*)`)

// emptyChecks looks at what a query that returned nothing compares text
// columns with: a value that is not stored in that column, but resembles
// stored values, is the usual reason ('Brasil' for 'Brazil').
func (a *Asker) emptyChecks(ctx context.Context, sql string) []string {
	vi := a.valueIndex(ctx, false)
	if vi == nil {
		return nil
	}
	var checks []string
	seen := map[string]bool{}
	for _, m := range comparisonRE.FindAllStringSubmatch(sql, -1) {
		col, op := m[1], strings.ToLower(strings.Join(strings.Fields(m[2]), " "))
		like := strings.Contains(op, "like") || op == "glob"
		for _, lit := range sqltext.StringLiterals(m[3]) {
			bare := lit
			if like {
				bare = strings.Trim(lit, "%_*? ")
			}
			if bare == "" || len(bare) > 100 || seen[col+"\x00"+lit] {
				continue
			}
			seen[col+"\x00"+lit] = true
			indexed, present := vi.Stored(col, bare, like)
			if !indexed || present {
				continue
			}
			var similar []string
			for _, v := range vi.Similar(col, bare, 3) {
				similar = append(similar, "'"+strings.ReplaceAll(v, "'", "''")+"'")
			}
			msg := fmt.Sprintf("%s %s '%s' matches no stored value of %s", col, strings.ToUpper(op), strings.ReplaceAll(lit, "'", "''"), col)
			if len(similar) > 0 {
				msg += "; it has " + strings.Join(similar, ", ")
			}
			checks = append(checks, msg)
		}
	}
	return checks
}

// valueIndex builds (once) the index of stored text values; where the
// build's budget ran out (a slow server), each later question indexes more
// of the columns it did not reach, within the same budget, until none is
// left (more is true once per question: when its prompt is built).
func (a *Asker) valueIndex(ctx context.Context, more bool) *valuehints.Index {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.values != nil && a.valuesMarks != marksKey(a.marks()) {
		a.values = nil // a column was marked or unmarked: never indexed, or indexed now
	}
	if a.values != nil {
		if more && a.values.Pending() > 0 {
			if vi, err := a.values.Continue(ctx, a.DB, a.ValueIndex); err == nil {
				a.values = vi
			}
		}
		return a.values
	}
	s, err := a.DB.Schema(ctx)
	if err != nil {
		return nil
	}
	vi, err := valuehints.BuildIndex(ctx, a.DB, valueSchema(s, a.marks()), a.ValueIndex)
	if err != nil {
		return nil
	}
	a.values, a.valuesMarks = vi, marksKey(a.marks())
	return vi
}
