package sqlite

import (
	"context"
	"sort"
	"strings"

	"querent/engine/text"
)

// nameIndex holds the names of the tables, views and columns, for the
// "did you mean …?" suggestions of unknown_table and unknown_column errors.
type nameIndex struct {
	tables []tableNames
}

type tableNames struct {
	name     string
	kind     string
	internal bool
	columns  []string
}

func (n *nameIndex) table(name string) *tableNames {
	for i := range n.tables {
		if strings.EqualFold(n.tables[i].name, name) {
			return &n.tables[i]
		}
	}
	return nil
}

// tableList returns the names of the user's tables and views.
func (n *nameIndex) tableList() []string {
	var out []string
	for _, t := range n.tables {
		if !t.internal {
			out = append(out, t.name)
		}
	}
	return out
}

// nameIndexLocked loads the names once (the file cannot change while open);
// a failed load, a cancelled one say, is tried again next time.
func (d *DB) nameIndexLocked(ctx context.Context) (*nameIndex, error) {
	if d.names != nil {
		return d.names, nil
	}
	idx, err := d.loadNamesLocked(ctx)
	if err != nil {
		return nil, err
	}
	d.names = idx
	return idx, nil
}

func (d *DB) loadNamesLocked(ctx context.Context) (*nameIndex, error) {
	d.auth.reset(policyInternal)
	rows, err := d.conn.QueryContext(ctx, "SELECT name, type FROM sqlite_schema WHERE type IN ('table', 'view') ORDER BY rowid")
	if err != nil {
		return nil, err
	}
	idx := &nameIndex{}
	for rows.Next() {
		var t tableNames
		if err := rows.Scan(&t.name, &t.kind); err != nil {
			rows.Close()
			return nil, err
		}
		t.internal = isInternalTable(t.name)
		idx.tables = append(idx.tables, t)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i := range idx.tables {
		cols, err := d.tableColumnNamesLocked(ctx, idx.tables[i].name)
		if err != nil {
			continue // a broken view: no column names to suggest
		}
		idx.tables[i].columns = cols
	}
	return idx, nil
}

func (d *DB) tableColumnNamesLocked(ctx context.Context, table string) ([]string, error) {
	d.auth.reset(policyInternal)
	rows, err := d.conn.QueryContext(ctx, "SELECT name FROM pragma_table_xinfo(?) WHERE hidden IN (0, 2, 3) ORDER BY cid", table)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var cols []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			return nil, err
		}
		cols = append(cols, c)
	}
	return cols, rows.Err()
}

// isInternalTable reports whether a table belongs to SQLite or to Querent
// rather than to the user's data.
func isInternalTable(name string) bool {
	l := strings.ToLower(name)
	return strings.HasPrefix(l, "sqlite_") || strings.HasPrefix(l, "_querent_")
}

// closest returns up to n candidates that look like target: the same name in
// another case or spelling (InvoiceDate for invoice_date), a name that
// contains it or that it contains, or one a few typos away — never a name
// that merely shares letters with it.
func closest(target string, candidates []string, n int) []string {
	type scored struct {
		name  string
		score int
	}
	norm := func(s string) string {
		return strings.NewReplacer("_", "", " ", "", "-", "").Replace(strings.ToLower(s))
	}
	t := norm(target)
	if t == "" {
		return nil
	}
	var out []scored
	seen := map[string]bool{}
	for _, c := range candidates {
		if seen[c] {
			continue
		}
		seen[c] = true
		cn := norm(c)
		score := -1
		switch {
		case cn == t:
			score = 0
		case len(t) >= 3 && strings.HasPrefix(cn, t), len(cn) >= 3 && strings.HasPrefix(t, cn):
			score = 1 + abs(len(cn)-len(t))/4
		case len(t) >= 4 && strings.Contains(cn, t), len(cn) >= 4 && strings.Contains(t, cn):
			score = 2 + abs(len(cn)-len(t))/4
		case len(t) >= 3:
			// A typo or two, as the name's length allows: one edit up to
			// seven letters ("nope" is not "copy", two edits away), two
			// up to eleven, three beyond.
			limit := max(1, len(t)/4)
			if dist := text.Distance(t, cn, limit+1); dist <= limit {
				score = 2 + dist
			}
		}
		if score >= 0 {
			out = append(out, scored{c, score})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].score < out[j].score })
	// The same name spelt another way leaves no doubt: suggest only it.
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

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
