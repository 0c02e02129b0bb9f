package sensitive

import (
	"sort"
	"strings"

	"querent/engine"
	"querent/engine/sqltext"
	"querent/engine/words"
)

// Set is the set of a database's columns that the analyst marked
// sensitive: their values never reach a model or an agent (engine/sensitive
// keeps the marks, per database, in Querent's data folder). The zero and
// the nil Sensitive hold no column.
type Set struct {
	// cols maps "table\x00column" (folded) to "Table.Column" as marked.
	cols map[string]string
	// names are the marked columns' own names, folded: what a statement's
	// text is searched for (Derived's second signal).
	names map[string]bool
	// tables are the tables (and views) that hold a marked column, folded.
	tables map[string]bool
}

// New is the set of cols, each "table.column" (the table's name
// may itself hold dots: the last dot splits).
func New(cols ...string) *Set {
	s := &Set{cols: map[string]string{}, names: map[string]bool{}, tables: map[string]bool{}}
	for _, c := range cols {
		t, col := engine.SplitColumn(c)
		s.Add(t, col)
	}
	return s
}

// Add marks table.column.
func (s *Set) Add(table, column string) {
	if column == "" {
		return
	}
	s.cols[key(table, column)] = table + "." + column
	s.names[strings.ToLower(column)] = true
	s.tables[strings.ToLower(table)] = true
}

func key(table, column string) string {
	return strings.ToLower(table) + "\x00" + strings.ToLower(column)
}

// Empty reports a set that holds no column.
func (s *Set) Empty() bool { return s == nil || len(s.cols) == 0 }

// Has reports whether table.column is marked.
func (s *Set) Has(table, column string) bool {
	if s.Empty() {
		return false
	}
	_, ok := s.cols[key(table, column)]
	return ok
}

// Table reports whether the table (or view) holds a marked column.
func (s *Set) Table(table string) bool { return !s.Empty() && s.tables[strings.ToLower(table)] }

// Columns lists the marked columns, "Table.Column", sorted.
func (s *Set) Columns() []string {
	if s.Empty() {
		return []string{}
	}
	out := make([]string, 0, len(s.cols))
	for _, c := range s.cols {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}

// Reads reports whether a statement that read these columns ("table.column",
// Validation.ColumnsRead) read a marked one.
func (s *Set) Reads(read []string) bool {
	if s.Empty() {
		return false
	}
	for _, r := range read {
		if s.Has(engine.SplitColumn(r)) {
			return true
		}
	}
	return false
}

// Names reports whether the statement's text names a marked column (an
// identifier token, quoted or not, equal to a marked column's name) while
// reading a table that holds one: what Derived adds to the database's own
// record of the reads, which misses some (SQLite reports no read of a
// USING or NATURAL join's columns).
func (s *Set) Names(sql string, tables []string) bool {
	if s.Empty() {
		return false
	}
	holds := false
	for _, t := range tables {
		if s.Table(t) || s.Table(lastPart(t)) {
			holds = true
			break
		}
	}
	if !holds {
		return false
	}
	for _, tok := range sqltext.Lex(sql) {
		if tok.Kind != sqltext.Quoted && tok.Kind != sqltext.Word {
			continue
		}
		if s.names[strings.ToLower(sqltext.IdentText(sql, tok))] {
			return true
		}
	}
	return false
}

func lastPart(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[i+1:]
	}
	return name
}

// Mark sets each result column's Sensitive flag: a column that is a
// marked column (its origin, from the database's own column metadata,
// followed through views, subqueries and CTEs), and every computed column
// (an expression, an aggregate: no origin) of a statement that reads a
// marked column anywhere (lower(Email), count(DISTINCT Email) and
// substr(Email, 1, 3) are all sensitive: Querent cannot tell which part of
// a computed value came from the column, so it takes none as safe). sql and
// tables are the statement and the tables it reads, read is
// Validation.ColumnsRead. It returns the names of the sensitive columns.
func (s *Set) Mark(cols []engine.Column, sql string, tables, read []string) []string {
	out := []string{}
	if s.Empty() {
		return out
	}
	reads := s.Reads(read) || s.Names(sql, tables)
	for i := range cols {
		c := &cols[i]
		switch {
		case c.Origin != "":
			c.Sensitive = s.Has(engine.SplitColumn(c.Origin))
		default:
			c.Sensitive = reads
		}
		if c.Sensitive {
			out = append(out, c.Name)
		}
	}
	return out
}

// Clone is a copy of s that can be added to without changing s.
func (s *Set) Clone() *Set {
	c := New()
	if s != nil {
		for _, name := range s.cols {
			c.Add(engine.SplitColumn(name))
		}
	}
	return c
}

// MarkResult marks res's columns with s (Mark) from what the statement
// read (engine.ResultMarker).
func (s *Set) MarkResult(res *engine.Result) {
	if res == nil || s.Empty() {
		return
	}
	s.Mark(res.Columns, res.Query, res.TablesUsed, res.ColumnsRead)
}

// MaskRow returns row with the values of the sensitive columns replaced by
// MaskText (a NULL too: whether a value is there is the column's too); row
// itself is not changed.
func MaskRow(cols []engine.Column, row []engine.Value) []engine.Value {
	out := append([]engine.Value(nil), row...)
	for i := range out {
		if i < len(cols) && cols[i].Sensitive {
			out[i] = engine.MaskText
		}
	}
	return out
}

// MaskRows is MaskRow over rows.
func MaskRows(cols []engine.Column, rows [][]engine.Value) [][]engine.Value {
	out := make([][]engine.Value, len(rows))
	for i, r := range rows {
		out[i] = MaskRow(cols, r)
	}
	return out
}

// Masked returns a copy of the answer for a model or an agent: the values
// of its sensitive columns replaced by MaskText, in the rows, in the
// statistics that would reveal them (min, max, top values, outliers,
// quantiles: only the counts stay), in the other readings' rows, and
// MaskedColumns naming them, with a warning that says so. An answer with
// no sensitive column comes back as it is.
func Masked(a *engine.Answer) *engine.Answer {
	names := engine.SensitiveNames(a.Columns)
	alts := false
	if a.Confidence != nil {
		for _, alt := range a.Confidence.Alternatives {
			alts = alts || len(engine.SensitiveNames(alt.Columns)) > 0
		}
	}
	if len(names) == 0 && !alts {
		return a
	}
	b := *a
	b.Results = engine.Rows{Columns: a.Results.Columns, Values: MaskRows(a.Columns, a.Results.Values)}
	b.Stats = engine.ColumnStatsList{Columns: a.Stats.Columns, Stats: make([]*engine.ColumnStats, len(a.Stats.Stats))}
	for i, st := range a.Stats.Stats {
		if st != nil && i < len(a.Stats.Columns) && contains(names, a.Stats.Columns[i]) {
			st = &engine.ColumnStats{Count: st.Count, NullCount: st.NullCount, Outliers: []engine.Value{}, TopValues: []engine.TopValue{}, Kind: st.Kind}
		}
		b.Stats.Stats[i] = st
	}
	if a.Confidence != nil && alts {
		c := *a.Confidence
		c.Alternatives = make([]engine.Alternative, len(a.Confidence.Alternatives))
		for i, alt := range a.Confidence.Alternatives {
			alt.Rows = engine.Rows{Columns: alt.Rows.Columns, Values: MaskRows(alt.Columns, alt.Rows.Values)}
			c.Alternatives[i] = alt
			for _, n := range engine.SensitiveNames(alt.Columns) {
				if !contains(names, n) {
					names = append(names, n)
				}
			}
		}
		b.Confidence = &c
	}
	b.MaskedColumns = names
	b.Warnings = append([]string(nil), a.Warnings...)
	b.WarningWords = append([]words.Sentence(nil), a.WarningWords...)
	b.Warn(words.New("sensitive.masked", words.And(8, names...), words.Value(engine.MaskText)))
	return &b
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// MaskSchema is sch as a model or an agent may see it: the sample values
// and the distinct values of marked columns replaced by MaskText (NULL
// stays NULL). sch itself is not changed; without marks it is returned as
// it is.
func (s *Set) MaskSchema(sch *engine.Schema) *engine.Schema {
	if s.Empty() || sch == nil {
		return sch
	}
	out := *sch
	out.Tables = make([]*engine.Table, len(sch.Tables))
	for i, t := range sch.Tables {
		out.Tables[i] = s.MaskTable(t)
	}
	return &out
}

// MaskTable is MaskSchema for one table.
func (s *Set) MaskTable(t *engine.Table) *engine.Table {
	if !s.Table(t.Name) {
		return t
	}
	c := *t
	masked := make([]bool, len(t.Samples.Columns))
	for j, name := range t.Samples.Columns {
		masked[j] = s.Has(t.Name, name)
	}
	c.Samples = engine.Rows{Columns: t.Samples.Columns, Values: make([][]engine.Value, len(t.Samples.Values))}
	for r, row := range t.Samples.Values {
		nr := append([]engine.Value(nil), row...)
		for j := range nr {
			if j < len(masked) && masked[j] {
				nr[j] = engine.MaskText
			}
		}
		c.Samples.Values[r] = nr
	}
	c.DistinctValues = engine.DistinctValues{}
	for j, name := range t.DistinctValues.Columns {
		if !s.Has(t.Name, name) && j < len(t.DistinctValues.Values) {
			c.DistinctValues.Add(name, t.DistinctValues.Values[j])
		}
	}
	return &c
}

// MaskedOf names the marked columns of t.
func (s *Set) MaskedOf(t *engine.Table) []string {
	out := []string{}
	for _, c := range t.Columns {
		if s.Has(t.Name, c.Name) {
			out = append(out, c.Name)
		}
	}
	return out
}

// Of returns db's marks (nil when it has none or keeps none).
func Of(db engine.Database) *Set {
	if m, ok := db.(engine.SensitiveMarker); ok {
		s, _ := m.Sensitive().(*Set)
		return s
	}
	return nil
}
