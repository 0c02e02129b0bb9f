// Package profile describes what a database holds, for an analyst who
// opens it for the first time: per table the rows, per column the declared
// and observed types, the NULLs, the distinct values, the range, the top
// values and a small histogram; the joins, declared and read from the
// values; and (Suggest) a handful of questions already answered.
//
// Every figure is read through the database's guarded read path (db.Run:
// the guard, a row cap and a timeout per statement) and computed by the
// statistics code answers use (describe.ComputeStats). Small tables are
// profiled exactly; past Options.SampleThreshold rows, the figures come
// from the first Options.SampleRows rows and say so (sampled).
package profile

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"querent/engine"
	"querent/engine/describe"
	"querent/engine/sqltext"
)

// Options bound Profile. Zero fields take the defaults.
type Options struct {
	// SampleThreshold is the row count past which a table's figures come
	// from a sample (default 200,000 rows).
	SampleThreshold int64
	// SampleRows is the sample's size: the table's first rows (default
	// 100,000).
	SampleRows int
	// Budget bounds the whole profile (default 20 s): the tables not
	// reached are listed in Profile.Skipped.
	Budget time.Duration
	// QueryTimeout bounds each statement (default 5 s), so that one slow
	// view does not use the whole budget.
	QueryTimeout time.Duration
	// MaxTables bounds the tables and views profiled (default 200).
	MaxTables int
	// Bins is the number of a numeric histogram's bins (default 10).
	Bins int
	// Table, when set, profiles only that table or view (and reads no
	// joins but its declared ones).
	Table string
}

func (o Options) withDefaults() Options {
	if o.SampleThreshold <= 0 {
		o.SampleThreshold = 200_000
	}
	if o.SampleRows <= 0 {
		o.SampleRows = 100_000
	}
	if o.Budget <= 0 {
		o.Budget = 20 * time.Second
	}
	if o.QueryTimeout <= 0 {
		o.QueryTimeout = 5 * time.Second
	}
	if o.MaxTables <= 0 {
		o.MaxTables = 200
	}
	if o.Bins <= 0 {
		o.Bins = 10
	}
	return o
}

// Database is the profile of a database: what it holds.
type Database struct {
	Database      string         `json:"database"`
	Tables        []*Table       `json:"tables"`
	Relationships []Relationship `json:"relationships"`
	// Skipped lists the tables and views not profiled, and why
	// ("BigView: out of time").
	Skipped []string `json:"skipped"`
	// SampleThreshold and SampleRows say when and how figures are sampled.
	SampleThreshold int64 `json:"sample_threshold"`
	SampleRows      int   `json:"sample_rows"`

	dialect string
}

// Table is the profile of one table or view.
type Table struct {
	Name string `json:"name"`
	Kind string `json:"kind"` // "table" or "view"
	// Rows is the table's row count; -1 when it could not be counted.
	Rows int64 `json:"rows"`
	// Sampled is true when the columns' figures come from the first
	// ProfiledRows rows rather than all of them.
	Sampled      bool      `json:"sampled"`
	ProfiledRows int64     `json:"profiled_rows"`
	Columns      []*Column `json:"columns"`
	PrimaryKey   []string  `json:"primary_key"`

	keys map[string]map[any]struct{}  // single-column keys' values (exact tables only)
	vals map[string]map[any]int64     // candidate join columns' values and counts
	decl map[string]engine.ForeignKey // declared foreign keys by column
}

// Column is the profile of one column.
type Column struct {
	Name string `json:"name"`
	// Type is the declared type, as written ("" when none).
	Type string `json:"type"`
	// Observed is what the values are: integer, real, text, date, blob,
	// mixed or empty (no value but NULLs).
	Observed string `json:"observed"`
	Nulls    int64  `json:"nulls"`
	Distinct int64  `json:"distinct"`
	// Min and Max are the smallest and largest number, date or text (byte
	// order); null for blobs and empty columns.
	Min Cell `json:"min"`
	Max Cell `json:"max"`
	// MinLength and MaxLength are the shortest and longest text, in
	// characters; null when the column holds no text.
	MinLength *int `json:"min_length"`
	MaxLength *int `json:"max_length"`
	// Top is the most frequent values with their counts, for categorical
	// columns (text, few distinct integers); [] otherwise.
	Top []engine.TopValue `json:"top"`
	// Histogram counts the values in equal-width bins (numbers) or per
	// year (dates); [] otherwise.
	Histogram []Bin `json:"histogram"`
	// Sampled is true when these figures come from a sample.
	Sampled bool `json:"sampled"`
	// Sensitive is set on a column the analyst marked sensitive, in a
	// profile an agent is given (Table.Masked): its values are left out.
	Sensitive bool `json:"sensitive,omitempty"`

	stats *engine.ColumnStats
}

// Bin is one bar of a histogram: the values in [From, To) (the last bin
// holds To), or, for dates, one year (From = To = the year).
type Bin struct {
	From  float64 `json:"from"`
	To    float64 `json:"to"`
	Count int64   `json:"count"`
}

// Relationship is a join between two columns.
type Relationship struct {
	From string `json:"from"` // "Table.column"
	To   string `json:"to"`   // "Table.column": a primary key or unique column
	// Matched is the share of From's non-NULL values found in To; null
	// when To's values were not all read (a sampled table).
	Matched *float64 `json:"matched"`
	// Inferred is true for a join read from the values, false for a
	// declared foreign key.
	Inferred bool `json:"inferred"`
	// Confirmed and Dropped are the analyst's choice (Joins.Choose); a
	// dropped one is not given to the model.
	Confirmed bool `json:"confirmed,omitempty"`
	Dropped   bool `json:"dropped,omitempty"`

	ends [4]string // from's table and column, to's table and column (names may hold dots)
}

// Cell is a value as results write it (±Inf as text, blobs as base64).
type Cell struct{ V engine.Value }

// MarshalJSON writes the value as engine.WriteValue writes result cells.
func (c Cell) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	if err := engine.WriteValue(&b, c.V); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Table returns the profile of the table named name (case-insensitively),
// or nil.
func (p *Database) Table(name string) *Table {
	for _, t := range p.Tables {
		if strings.EqualFold(t.Name, name) {
			return t
		}
	}
	return nil
}

// Column returns the column named name (case-insensitively), or nil.
func (t *Table) Column(name string) *Column {
	for _, c := range t.Columns {
		if strings.EqualFold(c.Name, name) {
			return c
		}
	}
	return nil
}

// Profile profiles the user's tables and views of db (not its internal
// tables), one guarded statement per table for the values and one for
// the count where the schema did not count the rows exactly. It stops at
// ctx's end (the error is then engine's cancelled or timeout error) and
// leaves out, in Skipped, the tables past opts.Budget or whose statement
// failed or ran past opts.QueryTimeout.
func Profile(ctx context.Context, db engine.Database, opts Options) (*Database, error) {
	opts = opts.withDefaults()
	sch, err := db.Schema(ctx)
	if err != nil {
		return nil, err
	}
	p := &Database{Database: db.Name(), Tables: []*Table{}, Relationships: []Relationship{}, Skipped: []string{},
		SampleThreshold: opts.SampleThreshold, SampleRows: opts.SampleRows, dialect: db.Dialect()}
	bctx, cancel := context.WithTimeout(ctx, opts.Budget)
	defer cancel()
	n := 0
	for _, st := range sch.Tables {
		if st == nil || st.Internal || (opts.Table != "" && !strings.EqualFold(st.Name, opts.Table)) {
			continue
		}
		if n >= opts.MaxTables {
			p.Skipped = append(p.Skipped, st.Name+": more than "+fmt.Sprint(opts.MaxTables)+" tables")
			continue
		}
		n++
		if err := ctx.Err(); err != nil {
			return nil, engine.AsError(err)
		}
		if bctx.Err() != nil {
			p.Skipped = append(p.Skipped, st.Name+": out of time")
			continue
		}
		t, err := p.profileTable(bctx, db, st, opts)
		if err != nil {
			if cerr := ctx.Err(); cerr != nil {
				return nil, engine.AsError(cerr)
			}
			p.Skipped = append(p.Skipped, st.Name+": "+reason(err))
			continue
		}
		p.Tables = append(p.Tables, t)
	}
	if opts.Table != "" && len(p.Tables) == 0 && len(p.Skipped) == 0 {
		var names []string
		for _, t := range sch.Tables {
			if t != nil && !t.Internal {
				names = append(names, t.Name)
			}
		}
		return nil, engine.Errorf(engine.CodeUnknownTable, "no table or view named %q in %s", opts.Table, db.Name()).
			WithHint("the tables and views are: %s", strings.Join(names, ", "))
	}
	p.Relationships = p.relationships()
	return p, nil
}

func reason(err error) string {
	if e := engine.AsError(err); e != nil {
		if e.Code == engine.CodeTimeout {
			return "out of time"
		}
		return e.Message
	}
	return err.Error()
}

// profileTable reads st's rows (all of them, or the first opts.SampleRows
// past opts.SampleThreshold) and computes its columns' figures.
func (p *Database) profileTable(ctx context.Context, db engine.Database, st *engine.Table, opts Options) (*Table, error) {
	t := &Table{Name: st.Name, Kind: st.Kind, Rows: -1, Columns: []*Column{}, PrimaryKey: st.PrimaryKey,
		decl: map[string]engine.ForeignKey{}}
	if t.PrimaryKey == nil {
		t.PrimaryKey = []string{}
	}
	for _, fk := range st.ForeignKeys {
		t.decl[strings.ToLower(fk.Column)] = fk
	}
	var cols []*engine.TableColumn
	var sel []string
	for _, c := range st.Columns {
		if c == nil || c.Generated == "hidden" {
			continue
		}
		cols = append(cols, c)
		q := sqltext.QuoteIdent(c.Name)
		if p.dialect != sqltext.PostgreSQL {
			// A blob's bytes are not read: its class is enough.
			q = fmt.Sprintf("CASE WHEN typeof(%s) = 'blob' THEN x'' ELSE %s END", q, q)
		}
		sel = append(sel, q)
	}
	if len(cols) == 0 {
		return t, nil
	}
	from := sqltext.TableIdent(p.dialect, st.Name)
	if st.RowCount >= 0 && !st.RowCountEstimated {
		t.Rows = st.RowCount
	}
	limit := int(opts.SampleThreshold)
	if t.Rows > opts.SampleThreshold || (t.Rows < 0 && st.RowCount > opts.SampleThreshold) {
		limit = opts.SampleRows
	}
	q := fmt.Sprintf("SELECT %s FROM %s LIMIT %d", strings.Join(sel, ", "), from, limit+1)
	res, err := db.Run(ctx, q, engine.RunOptions{MaxRows: limit, Timeout: timeout(ctx, opts.QueryTimeout)})
	if err != nil {
		return nil, err
	}
	t.ProfiledRows = int64(len(res.Rows))
	t.Sampled = res.Truncated
	if !t.Sampled {
		t.Rows = t.ProfiledRows
	} else if t.Rows < 0 {
		cres, err := db.Run(ctx, "SELECT count(*) FROM "+from, engine.RunOptions{MaxRows: 1, Timeout: timeout(ctx, opts.QueryTimeout)})
		if err == nil && len(cres.Rows) == 1 && len(cres.Rows[0]) == 1 {
			if n, ok := cres.Rows[0][0].(int64); ok {
				t.Rows = n
			}
		} else if err != nil && ctx.Err() != nil {
			return nil, err
		}
	}
	ecols := make([]engine.Column, len(cols))
	for i, c := range cols {
		ecols[i] = engine.Column{Name: c.Name, Type: c.Type, DeclType: c.Type}
	}
	stats := describe.ComputeStats(ecols, res.Rows)
	unique := uniqueColumns(st)
	// A table that declares no key (an imported file's) has the keys its
	// values show: a column read whole, without NULLs, every value once.
	byValues := len(unique) == 0 && !t.Sampled && t.ProfiledRows >= 2
	vals := make([]engine.Value, len(res.Rows))
	for j, c := range cols {
		for i, r := range res.Rows {
			vals[i] = r[j]
		}
		col := newColumn(c, stats.Stats[j], vals, opts.Bins)
		col.Sampled = t.Sampled
		t.Columns = append(t.Columns, col)
		key := unique[strings.ToLower(c.Name)] || byValues && col.Nulls == 0 && col.Distinct == t.ProfiledRows
		p.keepValues(t, col, key, vals)
	}
	return t, nil
}

// timeout is d, or less where ctx ends sooner.
func timeout(ctx context.Context, d time.Duration) time.Duration {
	if dl, ok := ctx.Deadline(); ok {
		if left := time.Until(dl); left < d {
			return max(left, time.Millisecond)
		}
	}
	return d
}

// uniqueColumns is the columns that are, alone, the table's primary key
// or a unique index.
func uniqueColumns(st *engine.Table) map[string]bool {
	u := map[string]bool{}
	if len(st.PrimaryKey) == 1 {
		u[strings.ToLower(st.PrimaryKey[0])] = true
	}
	for _, ix := range st.Indexes {
		if ix.Unique && len(ix.Columns) == 1 {
			u[strings.ToLower(ix.Columns[0])] = true
		}
	}
	return u
}

// maxJoinDistinct bounds the distinct values kept per column for reading
// joins from the values (memory: a few MB at most per table).
const maxJoinDistinct = 50_000

// keepValues keeps what the joins are read from: a key's values (when the
// table was read whole) and a candidate column's values with their counts.
func (p *Database) keepValues(t *Table, col *Column, key bool, vals []engine.Value) {
	if col.Observed != "integer" && col.Observed != "text" {
		return
	}
	if col.Distinct > maxJoinDistinct {
		return
	}
	if key && !t.Sampled {
		if t.keys == nil {
			t.keys = map[string]map[any]struct{}{}
		}
		set := make(map[any]struct{}, col.Distinct)
		for _, v := range vals {
			if k, ok := joinKey(v); ok {
				set[k] = struct{}{}
			}
		}
		t.keys[col.Name] = set
	}
	if key && len(t.PrimaryKey) == 1 && strings.EqualFold(t.PrimaryKey[0], col.Name) {
		return // a table's own key does not reference another's
	}
	if col.Distinct < 2 {
		return
	}
	if t.vals == nil {
		t.vals = map[string]map[any]int64{}
	}
	m := make(map[any]int64, col.Distinct)
	for _, v := range vals {
		if k, ok := joinKey(v); ok {
			m[k]++
		}
	}
	t.vals[col.Name] = m
}

// joinKey is v as joins compare it: integers (and integral reals) as
// int64, text as itself.
func joinKey(v engine.Value) (any, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return int64(x), true
		}
	case string:
		return x, true
	}
	return nil, false
}
