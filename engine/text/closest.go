package text

import (
	"sort"
	"strings"
)

// Closest returns up to n candidates that look like target, best first:
// the same name in another case or spelling (InvoiceDate for
// invoice_date), a name that starts with it or that it starts with, one
// that contains it or that it contains, or one a typo or two away as its
// length allows (one edit up to seven letters, two up to eleven, three
// beyond) — never a name that merely shares letters with it ("nope" is
// not "copy"). A qualified candidate (schema.table) is also compared on
// its last part. When a candidate is the same name spelt another way,
// only such candidates are returned: they leave no doubt. The database
// adapters use it for their "did you mean" hints.
func Closest(target string, candidates []string, n int) []string {
	t := normName(target)
	if t == "" {
		return nil
	}
	type scored struct {
		name  string
		score int
	}
	var out []scored
	seen := map[string]bool{}
	for _, c := range candidates {
		if seen[c] {
			continue
		}
		seen[c] = true
		score := closeness(t, normName(c))
		if i := strings.LastIndexByte(c, '.'); i >= 0 {
			if s := closeness(t, normName(c[i+1:])); s >= 0 && (score < 0 || s < score) {
				score = s
			}
		}
		if score >= 0 {
			out = append(out, scored{c, score})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].score < out[j].score })
	if len(out) > 0 && out[0].score == 0 {
		k := 1
		for k < len(out) && out[k].score == 0 {
			k++
		}
		out = out[:k]
	}
	var names []string
	for i := 0; i < len(out) && i < n; i++ {
		names = append(names, out[i].name)
	}
	return names
}

// normName folds a name for Closest: lower case, without _, - and spaces.
func normName(s string) string {
	return strings.NewReplacer("_", "", " ", "", "-", "").Replace(strings.ToLower(s))
}

// closeness scores how close the folded name c is to the folded target t:
// 0 the same, higher further, -1 not close.
func closeness(t, c string) int {
	diff := len(c) - len(t)
	if diff < 0 {
		diff = -diff
	}
	switch {
	case c == t:
		return 0
	case len(t) >= 3 && strings.HasPrefix(c, t), len(c) >= 3 && strings.HasPrefix(t, c):
		return 1 + diff/4
	case len(t) >= 4 && strings.Contains(c, t), len(c) >= 4 && strings.Contains(t, c):
		return 2 + diff/4
	case len(t) >= 3:
		limit := max(1, len(t)/4)
		if d := Distance(t, c, limit+1); d <= limit {
			return 2 + d
		}
	}
	return -1
}
