package export

import (
	"context"

	"querent/engine"
)

// MaxViewRows bounds Options.Rows: the rows of a view are held in memory
// to be written in the view's order (the page shows at most this many).
const MaxViewRows = engine.MaxRowsInMemory

// viewDB is a database whose Stream gives only the rows of a view (the
// grid's filter and sort on the page): the statement's rows at the indices
// of rows, in that order. The rows are read in full before the first is
// given, so an index past the result fails the export before a row is
// written: never a partial file.
type viewDB struct {
	engine.Database
	rows []int64
}

func newView(db engine.Database, rows []int64) (*viewDB, error) {
	if len(rows) > MaxViewRows {
		return nil, engine.Errorf(engine.CodeUsage, "the view has %d rows, more than %d", len(rows), MaxViewRows).WithHint("export the whole result instead")
	}
	seen := make(map[int64]bool, len(rows))
	for _, r := range rows {
		if r < 0 || seen[r] {
			return nil, engine.Errorf(engine.CodeUsage, "row %d of the view is negative or repeated", r).WithHint("export the view again from the page")
		}
		seen[r] = true
	}
	return &viewDB{Database: db, rows: rows}, nil
}

// Stream reads the statement's rows up to the view's last, keeps those
// the view shows, then gives them in the view's order.
func (v *viewDB) Stream(ctx context.Context, sql string, opts engine.StreamOptions, columns func([]engine.Column) error, row func([]engine.Value) error) (*engine.StreamInfo, error) {
	want := make(map[int64]int, len(v.rows))
	var last int64 = -1
	for i, r := range v.rows {
		want[r] = i
		last = max(last, r)
	}
	kept := make([][]engine.Value, len(v.rows))
	var idx int64
	inner := opts
	inner.MaxRows = last + 1
	var cols []engine.Column
	info, err := v.Database.Stream(ctx, sql, inner, func(c []engine.Column) error {
		cols = append([]engine.Column(nil), c...)
		return nil
	}, func(vals []engine.Value) error {
		if i, ok := want[idx]; ok {
			kept[i] = append([]engine.Value(nil), vals...)
		}
		idx++
		return nil
	})
	if err != nil {
		return info, err
	}
	if idx <= last {
		return info, engine.Errorf(engine.CodeExport, "the result has %d rows now, the view shows row %d", idx, last+1).WithHint(
			"the database changed since the rows were shown: run the query again and export the view it shows")
	}
	if cols == nil {
		cols = info.Columns
	}
	if err := columns(cols); err != nil {
		return info, err
	}
	for _, r := range kept {
		if err := row(r); err != nil {
			return info, err
		}
	}
	out := *info
	out.Rows, out.Truncated = int64(len(kept)), false
	return &out, nil
}
