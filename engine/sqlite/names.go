package sqlite

import (
	"context"
	"strings"
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
