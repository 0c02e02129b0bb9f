package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"querent/engine/adapter"
	"querent/engine/sqltext"

	"querent/engine"
)

// Bounds of schema introspection (with the adapters' shared ones,
// adapter.SampleRows and the others): it stays cheap on huge tables.
const (
	unknownRowCount   = -1
	schemaCallTimeout = 30 * time.Second
)

// rowCount is a cached row count.
type rowCount struct {
	n         int64
	estimated bool
}

// Schema describes the tables and views: columns, keys, indexes, row counts
// (exact where counting is quick, else estimated and flagged), three sample
// rows and the distinct values of low-cardinality text columns. The result
// is computed once per open file (the file cannot change while open).
func (d *DB) Schema(ctx context.Context) (*engine.Schema, error) {
	return d.SchemaSteps(ctx, nil, nil)
}

// Step names of SchemaSteps.
func countStep(table string) string   { return "count " + table }
func samplesStep(table string) string { return "samples " + table }

// SchemaSteps is Schema steered step by step, for a caller that watches it
// from outside (the query worker's parent, which can stop a step that
// SQLite cannot interrupt): skip names the bounded steps not to run
// ("count T", "samples T"; "*" for all of them) because they ran past their
// budget before — a skipped step leaves a note on its table instead of its
// data — and onStep, when set, is called before each bounded step with its
// name and budget.
func (d *DB) SchemaSteps(ctx context.Context, skip map[string]bool, onStep func(step string, budget time.Duration)) (*engine.Schema, error) {
	d.schemaMu.Lock()
	defer d.schemaMu.Unlock()
	if d.schema != nil {
		return d.schema, nil
	}
	var s *engine.Schema
	err := d.withLock(ctx, func() error {
		var err error
		s, err = d.schemaLocked(ctx, skip, onStep)
		return err
	})
	if err != nil {
		return nil, engine.AsError(err)
	}
	d.schema = s
	return s, nil
}

func (d *DB) schemaLocked(ctx context.Context, skip map[string]bool, onStep func(string, time.Duration)) (*engine.Schema, error) {
	// The catalog steps below read only the schema's own rows and pragmas,
	// bounded by its size: the caller's context covers them.
	stop := d.interruptOn(ctx)
	defer stop()
	idx, err := d.nameIndexLocked(ctx)
	if err != nil {
		return nil, d.readError(ctx, err)
	}
	s := &engine.Schema{Database: d.name, Tables: []*engine.Table{}}
	byName := map[string]*engine.Table{}
	for _, tn := range idx.Tables {
		t := &engine.Table{Name: tn.Name, Kind: tn.Kind, Internal: tn.Internal,
			Columns: []*engine.TableColumn{}, PrimaryKey: []string{}, ForeignKeys: []engine.ForeignKey{},
			Indexes: []engine.Index{}, Samples: engine.Rows{Values: [][]engine.Value{}}}
		s.Tables = append(s.Tables, t)
		byName[strings.ToLower(tn.Name)] = t
	}
	if err := d.loadSQLLocked(ctx, byName); err != nil {
		return nil, d.readError(ctx, err)
	}
	for _, t := range s.Tables {
		if err := d.loadColumnsLocked(ctx, t); err != nil {
			if ctx.Err() != nil {
				return nil, engine.AsError(ctx.Err())
			}
			t.Note = "cannot be read: " + sqliteMessage(err)
			continue
		}
		if t.Kind == "table" {
			if err := d.loadKeysLocked(ctx, t, byName); err != nil {
				if ctx.Err() != nil {
					return nil, engine.AsError(ctx.Err())
				}
				t.Note = "keys cannot be read: " + sqliteMessage(err)
			}
		}
	}
	d.loadOriginalNamesLocked(ctx, byName)
	budget := d.opts.SchemaTableBudget
	spent := time.Now().Add(d.opts.SchemaBudget)
	for _, t := range s.Tables {
		if t.Note != "" {
			t.RowCount, t.RowCountEstimated = unknownRowCount, true
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, engine.AsError(err)
		}
		if time.Now().After(spent) {
			rc := d.estimateLocked(ctx, t.Name, t.Kind)
			t.RowCount, t.RowCountEstimated = rc.n, rc.estimated
			t.Note = "its rows were not counted (the count is an estimate) nor sampled: reading the tables' details took more than " +
				d.opts.SchemaBudget.String() + " in all, and Querent stopped there so that the file opens at once"
			continue
		}
		var rc rowCount
		if step := countStep(t.Name); skip[step] || skip["*"] {
			rc = d.estimateLocked(ctx, t.Name, t.Kind)
			t.Note = "counting its rows ran past " + budget.String() + " and was stopped; the row count is an estimate"
		} else {
			if onStep != nil {
				onStep(step, budget)
			}
			rc = d.rowCountFullLocked(ctx, t.Name, t.Kind)
		}
		t.RowCount, t.RowCountEstimated = rc.n, rc.estimated
		if step := samplesStep(t.Name); skip[step] || skip["*"] {
			t.Note = joinNote(t.Note, "sample rows were not read: reading them ran past "+budget.String()+" and was stopped")
			continue
		} else if onStep != nil {
			onStep(step, budget)
		}
		d.loadSamplesLocked(ctx, t)
	}
	return s, nil
}

// joinNote adds a sentence to a table's note.
func joinNote(note, more string) string {
	if note == "" {
		return more
	}
	return note + "; " + more
}

func (d *DB) readError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return engine.AsError(ctx.Err())
	}
	return openError(d.name, err)
}

// query runs one of Querent's own statements under the internal policy.
func (d *DB) queryLocked(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	d.auth.reset(policyInternal)
	return d.conn.QueryContext(ctx, q, args...)
}

func (d *DB) loadSQLLocked(ctx context.Context, byName map[string]*engine.Table) error {
	rows, err := d.queryLocked(ctx, "SELECT name, coalesce(sql, '') FROM sqlite_schema WHERE type IN ('table', 'view')")
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var name, text string
		if err := rows.Scan(&name, &text); err != nil {
			return err
		}
		if t := byName[strings.ToLower(name)]; t != nil {
			t.SQL = text
		}
	}
	return rows.Err()
}

func (d *DB) loadColumnsLocked(ctx context.Context, t *engine.Table) error {
	rows, err := d.queryLocked(ctx, `SELECT name, type, "notnull", dflt_value, pk, hidden FROM pragma_table_xinfo(?) ORDER BY cid`, t.Name)
	if err != nil {
		return err
	}
	defer rows.Close()
	var pks []*engine.TableColumn
	for rows.Next() {
		var c engine.TableColumn
		var notnull, hidden int
		var dflt sql.NullString
		if err := rows.Scan(&c.Name, &c.Type, &notnull, &dflt, &c.PK, &hidden); err != nil {
			return err
		}
		switch hidden {
		case 1:
			c.Generated = "hidden"
		case 2:
			c.Generated = "virtual"
		case 3:
			c.Generated = "stored"
		}
		c.Affinity = affinity(c.Type)
		if dflt.Valid {
			c.Default = &dflt.String
		}
		c.Nullable = notnull == 0
		col := c
		t.Columns = append(t.Columns, &col)
		if c.PK > 0 {
			pks = append(pks, &col)
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	sort.Slice(pks, func(i, j int) bool { return pks[i].PK < pks[j].PK })
	for _, c := range pks {
		t.PrimaryKey = append(t.PrimaryKey, c.Name)
	}
	// An INTEGER PRIMARY KEY is the rowid: it can never be NULL.
	if len(pks) == 1 && strings.EqualFold(strings.TrimSpace(pks[0].Type), "INTEGER") {
		pks[0].Nullable = false
	}
	return nil
}

func (d *DB) loadKeysLocked(ctx context.Context, t *engine.Table, byName map[string]*engine.Table) error {
	rows, err := d.queryLocked(ctx, `SELECT "table", "from", "to", seq FROM pragma_foreign_key_list(?) ORDER BY id, seq`, t.Name)
	if err != nil {
		return err
	}
	type fk struct {
		table, from string
		to          sql.NullString
		seq         int
	}
	var fks []fk
	for rows.Next() {
		var f fk
		if err := rows.Scan(&f.table, &f.from, &f.to, &f.seq); err != nil {
			rows.Close()
			return err
		}
		fks = append(fks, f)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, f := range fks {
		to := f.to.String
		if !f.to.Valid || to == "" {
			// REFERENCES t without a column: the referenced table's primary key.
			if rt := byName[strings.ToLower(f.table)]; rt != nil && f.seq < len(rt.PrimaryKey) {
				to = rt.PrimaryKey[f.seq]
			}
		}
		t.ForeignKeys = append(t.ForeignKeys, engine.ForeignKey{Column: f.from, References: fmt.Sprintf("%s(%s)", f.table, to)})
	}

	rows, err = d.queryLocked(ctx, `SELECT name, "unique" FROM pragma_index_list(?) ORDER BY seq`, t.Name)
	if err != nil {
		return err
	}
	idxs := []engine.Index{}
	for rows.Next() {
		var ix engine.Index
		if err := rows.Scan(&ix.Name, &ix.Unique); err != nil {
			rows.Close()
			return err
		}
		ix.Columns = []string{}
		idxs = append(idxs, ix)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for i := range idxs {
		rows, err := d.queryLocked(ctx, `SELECT name FROM pragma_index_info(?) ORDER BY seqno`, idxs[i].Name)
		if err != nil {
			return err
		}
		for rows.Next() {
			var name sql.NullString
			if err := rows.Scan(&name); err != nil {
				rows.Close()
				return err
			}
			if name.Valid {
				idxs[i].Columns = append(idxs[i].Columns, name.String)
			} else {
				idxs[i].Columns = append(idxs[i].Columns, "(expression)")
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
	}
	// Indexes in reverse creation order from SQLite; show them by name.
	sort.Slice(idxs, func(i, j int) bool { return idxs[i].Name < idxs[j].Name })
	t.Indexes = idxs
	return nil
}

// loadOriginalNamesLocked reads the original header names of imported tables
// from Querent's metadata table, when the file has one.
func (d *DB) loadOriginalNamesLocked(ctx context.Context, byName map[string]*engine.Table) {
	if byName["_querent_imports"] == nil {
		return
	}
	rows, err := d.queryLocked(ctx, "SELECT table_name, columns_json FROM _querent_imports ORDER BY rowid")
	if err != nil {
		return
	}
	defer rows.Close()
	for rows.Next() {
		var table string
		var js sql.NullString
		if rows.Scan(&table, &js) != nil || !js.Valid {
			continue
		}
		t := byName[strings.ToLower(table)]
		if t == nil {
			continue
		}
		var cols []struct {
			Name         string `json:"name"`
			OriginalName string `json:"original_name"`
			BadValues    int64  `json:"bad_values"`
		}
		if json.Unmarshal([]byte(js.String), &cols) != nil {
			continue
		}
		for _, c := range cols {
			if tc := t.Column(c.Name); tc != nil {
				orig := c.OriginalName
				tc.OriginalName = &orig
				tc.BadValues = c.BadValues
			}
		}
	}
}

// rowCountLocked returns the (cached) row count of a table or view; -1 when
// it cannot be known quickly.
func (d *DB) rowCountLocked(ctx context.Context, table string) int64 {
	kind := "table"
	if idx, err := d.nameIndexLocked(ctx); err == nil {
		if tn := idx.Table(table); tn != nil {
			kind = tn.Kind
		}
	}
	return d.rowCountFullLocked(ctx, table, kind).n
}

func (d *DB) rowCountFullLocked(ctx context.Context, table, kind string) rowCount {
	key := strings.ToLower(table)
	if d.rowCounts == nil {
		d.rowCounts = map[string]rowCount{}
	}
	if rc, ok := d.rowCounts[key]; ok {
		return rc
	}
	rc := d.countLocked(ctx, table, kind)
	if ctx.Err() == nil {
		d.rowCounts[key] = rc
	}
	return rc
}

// countLocked counts exactly within the per-table budget; past it, or on a
// file too large to count its tables quickly, a table's count is estimated
// from its largest rowid or sqlite_stat1.
func (d *DB) countLocked(ctx context.Context, table, kind string) rowCount {
	if kind == "table" && d.size > d.opts.ExactCountMaxBytes {
		// SQLite counts a table's b-tree in one step, which no interrupt
		// reaches: on a large file that step alone could outlast any budget.
		return d.estimateLocked(ctx, table, kind)
	}
	bctx, cancel := context.WithTimeout(ctx, d.opts.SchemaTableBudget)
	defer cancel()
	stop := d.interruptOn(bctx)
	defer stop()
	var n int64
	rows, err := d.queryLocked(bctx, "SELECT count(*) FROM "+sqltext.QuoteIdent(table))
	if err == nil {
		if rows.Next() {
			err = rows.Scan(&n)
		}
		rows.Close()
		if err == nil {
			err = rows.Err()
		}
	}
	if err == nil {
		return rowCount{n: n}
	}
	if ctx.Err() != nil {
		return rowCount{n: unknownRowCount, estimated: true}
	}
	return d.estimateLocked(ctx, table, kind)
}

// estimateLocked estimates a table's row count from its largest rowid or
// sqlite_stat1, both cheap on any size; -1 (unknown) for views and when
// neither is known.
func (d *DB) estimateLocked(ctx context.Context, table, kind string) rowCount {
	if kind != "table" || ctx.Err() != nil {
		return rowCount{n: unknownRowCount, estimated: true}
	}
	ectx, cancel2 := context.WithTimeout(ctx, time.Second)
	defer cancel2()
	stop := d.interruptOn(ectx)
	defer stop()
	var est sql.NullInt64
	if r, err := d.queryLocked(ectx, "SELECT max(rowid) FROM "+sqltext.QuoteIdent(table)); err == nil {
		if r.Next() {
			_ = r.Scan(&est)
		}
		r.Close()
		if est.Valid && est.Int64 > 0 {
			return rowCount{n: est.Int64, estimated: true}
		}
	}
	var stat sql.NullString
	if r, err := d.queryLocked(ectx, "SELECT stat FROM sqlite_stat1 WHERE tbl = ? LIMIT 1", table); err == nil {
		if r.Next() {
			_ = r.Scan(&stat)
		}
		r.Close()
		var v int64
		if stat.Valid {
			if _, err := fmt.Sscan(stat.String, &v); err == nil && v > 0 {
				return rowCount{n: v, estimated: true}
			}
		}
	}
	return rowCount{n: unknownRowCount, estimated: true}
}

// loadSamplesLocked reads a few rows and the distinct values of the text
// columns, within the per-table budget. Slow views get a note instead.
func (d *DB) loadSamplesLocked(ctx context.Context, t *engine.Table) {
	bctx, cancel := context.WithTimeout(ctx, d.opts.SchemaTableBudget)
	defer cancel()
	stop := d.interruptOn(bctx)
	defer stop()
	var cols []string
	for _, c := range t.Columns {
		if c.Generated != "hidden" {
			cols = append(cols, c.Name)
		}
	}
	if len(cols) == 0 {
		return
	}
	sel := make([]string, len(cols))
	for i, c := range cols {
		sel[i] = cutExpr(sqltext.QuoteIdent(c))
	}
	rows, err := d.queryLocked(bctx, fmt.Sprintf("SELECT %s FROM %s LIMIT %d", strings.Join(sel, ", "), sqltext.QuoteIdent(t.Name), adapter.SampleRows))
	if err != nil {
		t.Note = sampleNote(bctx, err)
		return
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	t.Samples.Columns = cols
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			break
		}
		row := make([]engine.Value, len(cols))
		for i, v := range vals {
			row[i] = adapter.CutSample(normalize(v))
		}
		t.Samples.Values = append(t.Samples.Values, row)
	}
	err = rows.Err()
	rows.Close()
	if err != nil {
		t.Note = sampleNote(bctx, err)
		return
	}
	sampled := t.RowCount < 0 || t.RowCount > adapter.DistinctScanRows
	for _, c := range t.Columns {
		if c.Generated == "hidden" || (c.Affinity != "TEXT" && strings.TrimSpace(c.Type) != "") {
			continue
		}
		values, ok := d.distinctLocked(bctx, t.Name, c.Name)
		if bctx.Err() != nil {
			if t.Note == "" {
				t.Note = "distinct values were not all listed: reading them took longer than " + d.opts.SchemaTableBudget.String()
			}
			break
		}
		if ok {
			t.DistinctValues.Add(c.Name, values)
			t.DistinctValuesSampled = t.DistinctValuesSampled || sampled
		}
	}
}

func sampleNote(ctx context.Context, err error) string {
	if ctx.Err() != nil {
		return "sample rows were not read: reading them took too long"
	}
	return "sample rows cannot be read: " + sqliteMessage(err)
}

// distinctLocked returns the distinct text values of a column when it is a
// category: at most adapter.DistinctMax values among the first adapter.DistinctScanRows
// rows, at least one of them repeated (a column of unique names is not a
// category, however short the table).
func (d *DB) distinctLocked(ctx context.Context, table, col string) ([]engine.Value, bool) {
	q := fmt.Sprintf("SELECT +c, count(*) FROM (SELECT %s AS c FROM %s LIMIT %d) WHERE c IS NOT NULL GROUP BY c ORDER BY c LIMIT %d",
		cutExpr(sqltext.QuoteIdent(col)), sqltext.QuoteIdent(table), adapter.DistinctScanRows, adapter.DistinctMax+1)
	rows, err := d.queryLocked(ctx, q)
	if err != nil {
		return nil, false
	}
	defer rows.Close()
	var out []engine.Value
	var total int64
	for rows.Next() {
		var v any
		var n int64
		if err := rows.Scan(&v, &n); err != nil {
			return nil, false
		}
		s, ok := v.(string)
		if !ok {
			return nil, false // numbers or blobs in a text column: not a category
		}
		out = append(out, adapter.CutSample(s))
		total += n
	}
	if rows.Err() != nil || len(out) == 0 || len(out) > adapter.DistinctMax || total <= int64(len(out)) {
		return nil, false
	}
	return out, true
}

// cutExpr selects col cut to what a sample shows (one character more than
// shown, so that adapter.CutSample still marks the cut), inside SQLite: a long value
// is never copied out whole. Numbers are left alone (substr would turn them
// into text); the expression has no declared type, so the driver hands
// back text exactly as stored.
func cutExpr(col string) string {
	return fmt.Sprintf("CASE typeof(%[1]s) WHEN 'text' THEN substr(%[1]s, 1, %[2]d) WHEN 'blob' THEN substr(%[1]s, 1, %[3]d) ELSE %[1]s END",
		col, adapter.SampleTextRunes+1, adapter.SampleBlobBytes)
}

// affinity applies SQLite's rules for a declared type's column affinity.
func affinity(declared string) string {
	t := strings.ToUpper(declared)
	switch {
	case strings.Contains(t, "INT"):
		return "INTEGER"
	case strings.Contains(t, "CHAR"), strings.Contains(t, "CLOB"), strings.Contains(t, "TEXT"):
		return "TEXT"
	case strings.Contains(t, "BLOB"), strings.TrimSpace(t) == "":
		return "BLOB"
	case strings.Contains(t, "REAL"), strings.Contains(t, "FLOA"), strings.Contains(t, "DOUB"):
		return "REAL"
	}
	return "NUMERIC"
}
