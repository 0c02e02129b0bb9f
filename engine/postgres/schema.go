package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"querent/engine"
	"querent/engine/adapter"
	"querent/engine/sqltext"
)

// Bounds of schema introspection: it stays cheap on huge tables and on
// schemas of hundreds of tables.
const (
	maxRelations    = 2000 // relations described at most
	stepsPerFlush   = 60   // bounded steps sent in one round trip
	schemaCallLimit = 60 * time.Second
)

// relFilter selects the relations a role can see and read, outside the
// system schemas; partitions are described through their parent.
const relFilter = `c.relkind IN ('r', 'p', 'v', 'm', 'f') AND n.nspname NOT IN ('pg_catalog', 'information_schema')
  AND n.nspname !~ '^pg_(toast|temp)' AND NOT c.relispartition
  AND pg_catalog.has_schema_privilege(n.oid, 'USAGE')
  AND (pg_catalog.has_table_privilege(c.oid, 'SELECT') OR pg_catalog.has_any_column_privilege(c.oid, 'SELECT'))`

// schemaSQL reads the catalog in one round trip: relations, columns, keys
// and indexes of every table at once, whatever their number.
var schemaSQL = []string{
	// 0: relations, those on the search path first, in its order.
	`SELECT c.oid, n.nspname, c.relname, c.relkind, pg_catalog.pg_table_is_visible(c.oid), c.reltuples::bigint, c.relpages,
		coalesce(pg_catalog.obj_description(c.oid, 'pg_class'), ''),
		CASE WHEN c.relkind IN ('v', 'm') THEN coalesce(pg_catalog.pg_get_viewdef(c.oid, true), '') ELSE '' END,
		c.relrowsecurity
	 FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
	 WHERE ` + relFilter + `
	 ORDER BY array_position(current_schemas(false), n.nspname::text) NULLS LAST, n.nspname, c.relname
	 LIMIT ` + strconv.Itoa(maxRelations),
	// 1: columns.
	`SELECT a.attrelid, a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod), NOT a.attnotnull,
		pg_catalog.pg_get_expr(ad.adbin, ad.adrelid), a.attgenerated::text, coalesce(pg_catalog.col_description(a.attrelid, a.attnum), ''),
		t.typcategory::text, t.typtype::text
	 FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_class c ON c.oid = a.attrelid
	 JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace JOIN pg_catalog.pg_type t ON t.oid = a.atttypid
	 LEFT JOIN pg_catalog.pg_attrdef ad ON ad.adrelid = a.attrelid AND ad.adnum = a.attnum
	 WHERE ` + relFilter + ` AND a.attnum > 0 AND NOT a.attisdropped
	 ORDER BY a.attrelid, a.attnum`,
	// 2: primary and foreign keys.
	`SELECT con.conrelid, con.contype::text,
		array_to_string(ARRAY(SELECT a.attname FROM unnest(con.conkey) WITH ORDINALITY k(num, i)
			JOIN pg_catalog.pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.num ORDER BY k.i), chr(31)),
		CASE WHEN con.contype = 'f' THEN (SELECT CASE WHEN pg_catalog.pg_table_is_visible(fc.oid) THEN fc.relname
			ELSE fn.nspname || '.' || fc.relname END FROM pg_catalog.pg_class fc JOIN pg_catalog.pg_namespace fn ON fn.oid = fc.relnamespace
			WHERE fc.oid = con.confrelid) ELSE '' END,
		array_to_string(ARRAY(SELECT a.attname FROM unnest(con.confkey) WITH ORDINALITY k(num, i)
			JOIN pg_catalog.pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.num ORDER BY k.i), chr(31))
	 FROM pg_catalog.pg_constraint con JOIN pg_catalog.pg_class c ON c.oid = con.conrelid
	 JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
	 WHERE con.contype IN ('p', 'f') AND ` + relFilter + `
	 ORDER BY con.conrelid, con.contype DESC, con.conname`,
	// 3: indexes.
	`SELECT i.indrelid, ic.relname, i.indisunique,
		array_to_string(ARRAY(SELECT pg_catalog.pg_get_indexdef(i.indexrelid, k, true) FROM generate_series(1, i.indnkeyatts) k ORDER BY k), chr(31))
	 FROM pg_catalog.pg_index i JOIN pg_catalog.pg_class ic ON ic.oid = i.indexrelid
	 JOIN pg_catalog.pg_class c ON c.oid = i.indrelid JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
	 WHERE ` + relFilter + `
	 ORDER BY i.indrelid, ic.relname`,
}

// relation is one table or view being described.
type relation struct {
	oid      string
	schema   string
	name     string // the table's relname
	kind     byte   // pg_class.relkind
	tuples   int64  // reltuples (-1: never analyzed)
	pages    int64
	t        *engine.Table
	category map[string]string // column → pg_type.typcategory
	rls      bool              // row-level security is on (relrowsecurity)
}

// newRelation reads one row of schemaSQL's relations.
func newRelation(r []string) *relation {
	rel := &relation{oid: r[0], schema: r[1], name: r[2], kind: r[3][0], category: map[string]string{}, rls: r[9] == "t"}
	rel.tuples, _ = strconv.ParseInt(r[5], 10, 64)
	rel.pages, _ = strconv.ParseInt(r[6], 10, 64)
	name := r[2]
	if r[4] != "t" {
		name = r[1] + "." + r[2]
	}
	t := &engine.Table{Name: name, Kind: "table", Columns: []*engine.TableColumn{}, PrimaryKey: []string{},
		ForeignKeys: []engine.ForeignKey{}, Indexes: []engine.Index{}, Samples: engine.Rows{Values: [][]engine.Value{}},
		Comment: r[7]}
	switch rel.kind {
	case 'v':
		t.Kind = "view"
		t.SQL = "CREATE VIEW " + sqltext.TableIdent(sqltext.PostgreSQL, name) + " AS " + strings.TrimSpace(r[8])
		t.Note = "a view: its columns come from the catalog, and its rows are read only when a query asks for them (reading a view runs its definition)"
	case 'm':
		t.Kind = "view"
		t.SQL = "CREATE MATERIALIZED VIEW " + ident(name) + " AS " + strings.TrimSpace(r[8])
		t.Note = "a materialized view: its rows are as of its last REFRESH"
	case 'f':
		t.Note = "a foreign table: its rows live on another server, so they are not counted or sampled"
	}
	if rel.rls {
		t.Note = joinNote(t.Note, "row-level security is on: its rows are read only when a query asks for them (its policies run then, and are checked like the query)")
	}
	rel.t = t
	return rel
}

// addColumn reads one row of schemaSQL's columns into the relation.
func (rel *relation) addColumn(r []string) {
	c := &engine.TableColumn{Name: r[1], Type: r[2], Nullable: r[3] == "t", Affinity: affinity(r[7], r[2]), Comment: r[6]}
	if r[4] != "" {
		def := r[4]
		if r[5] == "s" {
			c.Generated = "stored"
		} else {
			c.Default = &def
		}
	}
	rel.category[c.Name] = r[7]
	if r[8] == "e" {
		rel.category[c.Name] = "E" // an enum: categorical
	}
	rel.t.Columns = append(rel.t.Columns, c)
}

// readable reports whether introspection reads the relation's rows:
// tables and materialized views whose reading runs no code but
// PostgreSQL's. A view runs its definition, a foreign table its wrapper, a
// table under row-level security its policies: their rows are read only
// when a query asks, through the guard.
func (r *relation) readable() bool {
	return (r.kind == 'r' || r.kind == 'p' || r.kind == 'm') && !r.rls
}

// qualified is the relation as Querent's own statements name it.
func (r *relation) qualified() string { return quoteIdent(r.schema) + "." + quoteIdent(r.name) }

// Schema describes the tables, views and materialized views the role can
// read: columns with their types, keys, indexes, COMMENT ON descriptions,
// row counts (exact for small tables, else the planner's estimate, flagged),
// three sample rows and the values of low-cardinality text columns. Every
// bounded step runs in a read-only transaction of its own under
// statement_timeout (Options.SchemaTableBudget), and all of them together
// under Options.SchemaBudget. The result is computed once per connection.
func (d *DB) Schema(ctx context.Context) (*engine.Schema, error) {
	d.schemaMu.Lock()
	defer d.schemaMu.Unlock()
	if d.schema != nil {
		return d.schema, nil
	}
	ctx, cancel := context.WithTimeout(ctx, schemaCallLimit)
	defer cancel()
	var s *engine.Schema
	err := d.withLock(ctx, func() error {
		var err error
		s, err = d.schemaLocked(ctx)
		return err
	})
	if err != nil {
		return nil, engine.AsError(err)
	}
	d.schema = s
	return s, nil
}

func (d *DB) schemaLocked(ctx context.Context) (*engine.Schema, error) {
	res, err := d.batchLocked(ctx, schemaSQL...)
	if err != nil {
		return nil, d.readError(ctx, err)
	}
	s := &engine.Schema{Database: d.name, Tables: []*engine.Table{}, Dialect: sqltext.PostgreSQL}
	byOID := map[string]*relation{}
	var rels []*relation
	for _, r := range res[0] {
		rel := newRelation(r)
		byOID[rel.oid] = rel
		rels = append(rels, rel)
		s.Tables = append(s.Tables, rel.t)
	}
	for _, r := range res[1] {
		if rel := byOID[r[0]]; rel != nil {
			rel.addColumn(r)
		}
	}
	for _, r := range res[2] {
		rel := byOID[r[0]]
		if rel == nil {
			continue
		}
		cols := splitUnit(r[2])
		switch r[1] {
		case "p":
			rel.t.PrimaryKey = cols
			for i, name := range cols {
				if c := rel.t.Column(name); c != nil {
					c.PK = i + 1
				}
			}
		case "f":
			refCols := splitUnit(r[4])
			for i, col := range cols {
				ref := r[3]
				if i < len(refCols) {
					ref += "(" + refCols[i] + ")"
				}
				rel.t.ForeignKeys = append(rel.t.ForeignKeys, engine.ForeignKey{Column: col, References: ref})
			}
		}
	}
	for _, r := range res[3] {
		if rel := byOID[r[0]]; rel != nil {
			rel.t.Indexes = append(rel.t.Indexes, engine.Index{Name: r[1], Unique: r[2] == "t", Columns: splitUnit(r[3])})
		}
	}
	for _, rel := range rels {
		if rel.t.SQL == "" {
			rel.t.SQL = createTableSQL(rel.t)
		}
		rel.t.RowCount, rel.t.RowCountEstimated = max(rel.tuples, -1), true
	}
	d.describeRows(ctx, rels)
	if err := ctx.Err(); err != nil {
		return nil, engine.AsError(err)
	}
	return s, nil
}

// affinity maps PostgreSQL's type category onto the engine's affinities.
func affinity(category, typ string) string {
	switch category {
	case "N":
		if strings.HasPrefix(typ, "smallint") || strings.HasPrefix(typ, "integer") || strings.HasPrefix(typ, "bigint") || typ == "oid" {
			return "INTEGER"
		}
		if strings.HasPrefix(typ, "real") || strings.HasPrefix(typ, "double") {
			return "REAL"
		}
		return "NUMERIC"
	}
	if typ == "bytea" {
		return "BLOB"
	}
	return "TEXT"
}

// createTableSQL writes a table as CREATE TABLE, for prompts and the schema
// view (PostgreSQL keeps no CREATE statement; this is its equivalent).
func createTableSQL(t *engine.Table) string {
	var b strings.Builder
	b.WriteString("CREATE TABLE " + sqltext.TableIdent(sqltext.PostgreSQL, t.Name) + " (")
	for i, c := range t.Columns {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(ident(c.Name) + " " + c.Type)
		if !c.Nullable {
			b.WriteString(" NOT NULL")
		}
		if c.Default != nil {
			b.WriteString(" DEFAULT " + *c.Default)
		}
	}
	if len(t.PrimaryKey) > 0 {
		b.WriteString(", PRIMARY KEY (" + identList(t.PrimaryKey) + ")")
	}
	for _, fk := range t.ForeignKeys {
		b.WriteString(", FOREIGN KEY (" + ident(fk.Column) + ") REFERENCES " + fk.References)
	}
	b.WriteString(")")
	return b.String()
}

func identList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = ident(n)
	}
	return strings.Join(q, ", ")
}

// step is one bounded statement of schema introspection.
type step struct {
	rel  *relation
	kind string // "count", "samples", "distinct"
	sql  string
	cols []string // the distinct step's columns
}

// describeRows counts, samples and lists the categorical values of every
// relation, each statement bounded by statement_timeout in a read-only
// transaction of its own, pipelined by chunks, all within the budget.
func (d *DB) describeRows(ctx context.Context, rels []*relation) {
	deadline := time.Now().Add(d.opts.SchemaBudget)
	steps := d.rowSteps(rels)
	budget := d.opts.SchemaTableBudget
	done := map[*relation]map[string]bool{}
	for len(steps) > 0 {
		if ctx.Err() != nil {
			return
		}
		if time.Now().After(deadline) {
			break
		}
		n := min(stepsPerFlush, len(steps))
		chunk := steps[:n]
		steps = steps[n:]
		results := d.stepsLocked(ctx, chunk, budget)
		for i, st := range chunk {
			if done[st.rel] == nil {
				done[st.rel] = map[string]bool{}
			}
			done[st.rel][st.kind] = true
			r := results[i]
			if r.err != nil {
				what := map[string]string{"count": "counting its rows", "samples": "reading sample rows", "distinct": "listing its values"}[st.kind]
				if isTimeout(r.err) {
					st.rel.t.Note = joinNote(st.rel.t.Note, fmt.Sprintf("%s ran past %s and was stopped", what, budget))
				} else {
					st.rel.t.Note = joinNote(st.rel.t.Note, what+" failed: "+scrub(errText(r.err), d.cfg.Password))
				}
				continue
			}
			st.apply(r)
		}
	}
	for _, rel := range rels {
		if !rel.readable() || done[rel]["samples"] {
			continue
		}
		rel.t.Note = joinNote(rel.t.Note, "its rows were not counted (the count is the planner's estimate) nor sampled: reading the tables' details took more than "+
			d.opts.SchemaBudget.String()+" in all, and Querent stopped there")
	}
}

// rowSteps lists the bounded steps that describe the rows of the readable
// relations: an exact count of the small ones, sample rows, and the values
// of categorical columns.
func (d *DB) rowSteps(rels []*relation) []step {
	var steps []step
	for _, rel := range rels {
		if !rel.readable() {
			continue
		}
		q := rel.qualified()
		small := rel.tuples >= 0 && rel.tuples < d.opts.ExactCountMaxRows || rel.tuples < 0 && rel.pages < 1000
		if small {
			steps = append(steps, step{rel: rel, kind: "count", sql: "SELECT count(*) FROM " + q})
		}
		steps = append(steps, step{rel: rel, kind: "samples", sql: fmt.Sprintf("SELECT * FROM %s LIMIT %d", q, adapter.SampleRows)})
		var cols []string
		for _, c := range rel.t.Columns {
			switch rel.category[c.Name] {
			case "S", "E", "B":
				cols = append(cols, c.Name)
			}
		}
		if len(cols) > 0 {
			var parts []string
			for _, c := range cols {
				qc := quoteIdent(c)
				parts = append(parts, fmt.Sprintf("CASE WHEN count(DISTINCT %[1]s) <= %[2]d THEN json_agg(DISTINCT %[1]s ORDER BY %[1]s) FILTER (WHERE %[1]s IS NOT NULL) END", qc, adapter.DistinctMax))
			}
			sql := fmt.Sprintf("SELECT json_build_array(%s), count(*) FROM (SELECT %s FROM %s LIMIT %d) s",
				strings.Join(parts, ", "), identQuotedList(cols), q, adapter.DistinctScanRows)
			steps = append(steps, step{rel: rel, kind: "distinct", sql: sql, cols: cols})
		}
	}
	return steps
}

// apply puts what a step read into its table: the exact count, the sample
// rows or the categorical values.
func (st step) apply(r stepResult) {
	t := st.rel.t
	switch st.kind {
	case "count":
		if len(r.rows) == 1 {
			if n, err := strconv.ParseInt(string(r.rows[0][0]), 10, 64); err == nil {
				t.RowCount, t.RowCountEstimated = n, false
			}
		}
	case "samples":
		t.Samples = engine.Rows{Columns: r.names, Values: [][]engine.Value{}}
		for _, row := range r.rows {
			vals := make([]engine.Value, len(row))
			for j, v := range row {
				vals[j] = adapter.CutSample(decode(r.oids[j], v))
			}
			t.Samples.Values = append(t.Samples.Values, vals)
		}
	case "distinct":
		if len(r.rows) != 1 {
			return
		}
		var lists []json.RawMessage
		if err := json.Unmarshal(r.rows[0][0], &lists); err != nil {
			return
		}
		scanned, _ := strconv.ParseInt(string(r.rows[0][1]), 10, 64)
		for j, raw := range lists {
			var vals []any
			if j >= len(st.cols) || json.Unmarshal(raw, &vals) != nil || vals == nil {
				continue
			}
			ev := make([]engine.Value, 0, len(vals))
			for _, v := range vals {
				switch x := v.(type) {
				case string:
					ev = append(ev, adapter.CutSample(x))
				case bool:
					ev = append(ev, strconv.FormatBool(x))
				default:
					ev = append(ev, fmt.Sprint(x))
				}
			}
			t.DistinctValues.Add(st.cols[j], ev)
		}
		if scanned >= adapter.DistinctScanRows {
			t.DistinctValuesSampled = true
		}
	}
}

func identQuotedList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = quoteIdent(n)
	}
	return strings.Join(q, ", ")
}

func joinNote(note, more string) string {
	if note == "" {
		return more
	}
	return note + "; " + more
}

func isTimeout(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && (pgErr.Code == "57014" || pgErr.Code == "55P03")
}

func errText(err error) string {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Message
	}
	return err.Error()
}

// stepResult is what one bounded step returned.
type stepResult struct {
	names []string
	oids  []uint32
	rows  [][][]byte
	err   error
}

// stepsLocked runs each step in a read-only transaction of its own under
// statement_timeout, all of them pipelined in one round trip:
//
//	BEGIN READ ONLY; SET LOCAL statement_timeout = …; <step>  Sync  ROLLBACK  Sync   (× steps)
func (d *DB) stepsLocked(ctx context.Context, steps []step, budget time.Duration) []stepResult {
	results := make([]stepResult, len(steps))
	fail := func(err error) []stepResult {
		for i := range results {
			if results[i].err == nil && results[i].rows == nil {
				results[i].err = err
			}
		}
		return results
	}
	conn, err := d.connLocked(ctx)
	if err != nil {
		return fail(err)
	}
	p := conn.StartPipeline(ctx)
	send := func(q string) { p.SendQueryParams(q, nil, nil, nil, nil) }
	for _, st := range steps {
		send("BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
		send("SET LOCAL statement_timeout = " + ms(budget))
		send(st.sql)
		p.SendPipelineSync()
		send("ROLLBACK")
		p.SendPipelineSync()
	}
	if err := p.Flush(); err != nil {
		d.dropConnLocked()
		return fail(err)
	}
	broken := false
	get := func() (any, error) {
		r, err := p.GetResults()
		var pgErr *pgconn.PgError
		if err != nil && !errors.As(err, &pgErr) {
			broken = true
		}
		return r, err
	}
	for i := range steps {
		// BEGIN, SET, the step; then Sync, ROLLBACK, Sync.
		var stepErr error
		for k := 0; k < 3 && stepErr == nil; k++ {
			r, err := get()
			if err != nil {
				stepErr = err
				break
			}
			rr, ok := r.(*pgconn.ResultReader)
			if !ok {
				broken = true
				break
			}
			if k < 2 {
				if _, err := rr.Close(); err != nil {
					stepErr = err
				}
				continue
			}
			fields := rr.FieldDescriptions()
			res := &results[i]
			for _, f := range fields {
				res.names = append(res.names, f.Name)
				res.oids = append(res.oids, f.DataTypeOID)
			}
			res.rows = [][][]byte{}
			for rr.NextRow() {
				vals := rr.Values()
				row := make([][]byte, len(vals))
				for j, v := range vals {
					if v != nil {
						row[j] = append([]byte{}, v...)
					}
				}
				res.rows = append(res.rows, row)
			}
			if _, err := rr.Close(); err != nil {
				stepErr = err
			}
		}
		if broken {
			d.dropConnLocked()
			return fail(errors.New("the connection broke while reading the schema"))
		}
		results[i].err = stepErr
		for k := 0; k < 3; k++ { // Sync, ROLLBACK, Sync
			r, _ := get()
			if broken {
				d.dropConnLocked()
				return fail(errors.New("the connection broke while reading the schema"))
			}
			if rr, ok := r.(*pgconn.ResultReader); ok {
				rr.Close()
			}
		}
	}
	if err := p.Close(); err != nil || conn.TxStatus() != 'I' || ctx.Err() != nil {
		d.dropConnLocked()
	}
	return results
}
