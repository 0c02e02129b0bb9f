package sqlite

import (
	"context"
	"strings"

	"querent/engine/adapter"
)

// nameIndexLocked loads the names of the tables, views and columns once,
// for the "did you mean …?" suggestions of unknown_table and
// unknown_column errors (the file cannot change while open); a failed
// load, a cancelled one say, is tried again next time.
func (d *DB) nameIndexLocked(ctx context.Context) (*adapter.Names, error) {
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

func (d *DB) loadNamesLocked(ctx context.Context) (*adapter.Names, error) {
	d.auth.reset(policyInternal)
	rows, err := d.conn.QueryContext(ctx, "SELECT name, type FROM sqlite_schema WHERE type IN ('table', 'view') ORDER BY rowid")
	if err != nil {
		return nil, err
	}
	idx := &adapter.Names{}
	for rows.Next() {
		var t adapter.TableNames
		if err := rows.Scan(&t.Name, &t.Kind); err != nil {
			rows.Close()
			return nil, err
		}
		t.Internal = isInternalTable(t.Name)
		idx.Tables = append(idx.Tables, t)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i := range idx.Tables {
		cols, err := d.tableColumnNamesLocked(ctx, idx.Tables[i].Name)
		if err != nil {
			continue // a broken view: no column names to suggest
		}
		idx.Tables[i].Columns = cols
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
