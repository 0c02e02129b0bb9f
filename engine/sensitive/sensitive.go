// Package sensitive keeps the columns an analyst marked sensitive, per
// database, in Querent's data folder (never in the database), and offers
// the columns that look like personal data (Likely). What a mark means is
// the engine's (engine.Sensitive): the column's values never reach a model
// or an agent.
//
// The marks of a database are found by its identity (its sha256) or its
// name (the file's path, the server's address), like the glossary's: a file
// that changed keeps its marks, and so does a copy of it.
package sensitive

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"querent/engine"
	"querent/engine/files"
	"querent/engine/sqltext"
	"querent/engine/text"
)

// FileName is the marks' file in Querent's data folder.
const FileName = "sensitive.json"

// Mark is one column marked sensitive.
type Mark struct {
	Table    string    `json:"table"`
	Column   string    `json:"column"`
	MarkedAt time.Time `json:"marked_at"`
}

// Name is the mark's "Table.Column".
func (m Mark) Name() string { return m.Table + "." + m.Column }

// entry is one database's marks in the file.
type entry struct {
	Database string `json:"database"`
	SHA256   string `json:"sha256,omitempty"`
	Columns  []Mark `json:"columns"`
}

type document struct {
	Databases []entry `json:"databases"`
}

// Store is the marks' file in a folder.
type Store struct {
	path string
	mu   sync.Mutex
}

// Open is the store in dir (Querent's data folder); the file is made on the
// first mark.
func Open(dir string) *Store { return &Store{path: filepath.Join(dir, FileName)} }

// OpenDefault is the store in Querent's data folder (files.DataDir).
func OpenDefault() (*Store, error) {
	dir, err := files.DataDir()
	if err != nil {
		return nil, err
	}
	return Open(dir), nil
}

// ref is how a database is found in the file.
type ref struct{ name, sha string }

func refOf(ctx context.Context, db engine.Database) ref {
	r := ref{name: db.Name()}
	if f, ok := db.(engine.Fingerprinter); ok {
		r.sha, _ = f.SHA256(ctx)
	}
	if strings.HasPrefix(r.sha, files.QuickPrefix) {
		r.sha = "" // a quick identity is not the file's hash: found by name
	}
	return r
}

func (r ref) matches(e entry) bool {
	return (r.name != "" && e.Database == r.name) || (r.sha != "" && e.SHA256 == r.sha)
}

func (s *Store) read() (document, error) {
	var doc document
	b, err := os.ReadFile(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return doc, nil
	}
	if err != nil {
		return doc, engine.Errorf(engine.CodeDatabase, "cannot read the sensitive columns (%s): %v", s.path, err).WithErr(err)
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		// A damaged file must not silently unmark every column.
		return doc, engine.Errorf(engine.CodeDatabase, "the sensitive columns' file %s cannot be read: %v", s.path, err).WithErr(err).WithHint(
			"fix or remove the file, then mark the columns again with querent sensitive add")
	}
	return doc, nil
}

func (s *Store) write(doc document) error {
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return engine.Errorf(engine.CodeInternal, "%v", err).WithErr(err)
	}
	if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
		return engine.Errorf(engine.CodeDatabase, "cannot make Querent's data folder: %v", err).WithErr(err)
	}
	if err := files.WriteFileAtomic(s.path, append(b, '\n'), 0o600); err != nil {
		return engine.Errorf(engine.CodeDatabase, "cannot save the sensitive columns: %v", err).WithErr(err)
	}
	return nil
}

// List returns db's marks, by table and column.
func (s *Store) List(ctx context.Context, db engine.Database) ([]Mark, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	doc, err := s.read()
	if err != nil {
		return nil, err
	}
	return marksOf(doc, refOf(ctx, db)), nil
}

// marksOf is the union of the marks of every entry r matches (a copy and
// the file it was copied from may both have some).
func marksOf(doc document, r ref) []Mark {
	out := []Mark{}
	seen := map[string]bool{}
	for _, e := range doc.Databases {
		if !r.matches(e) {
			continue
		}
		for _, m := range e.Columns {
			k := strings.ToLower(m.Name())
			if !seen[k] {
				seen[k] = true
				out = append(out, m)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return strings.ToLower(out[i].Name()) < strings.ToLower(out[j].Name()) })
	return out
}

// Add marks the column name ("Table.Column") of db, which must exist (an
// error names the closest tables or columns); marking a marked column
// again changes nothing. It returns the mark as the schema spells it.
func (s *Store) Add(ctx context.Context, db engine.Database, name string) (Mark, error) {
	m, err := resolve(ctx, db, name)
	if err != nil {
		return Mark{}, err
	}
	m.MarkedAt = time.Now().UTC().Truncate(time.Second)
	s.mu.Lock()
	defer s.mu.Unlock()
	doc, err := s.read()
	if err != nil {
		return Mark{}, err
	}
	r := refOf(ctx, db)
	for _, old := range marksOf(doc, r) {
		if strings.EqualFold(old.Name(), m.Name()) {
			return old, nil
		}
	}
	i := s.entryFor(&doc, r)
	doc.Databases[i].Columns = append(doc.Databases[i].Columns, m)
	return m, s.write(doc)
}

// entryFor returns the index of r's own entry (by name first), made when
// there is none; its identity is brought up to date.
func (s *Store) entryFor(doc *document, r ref) int {
	for i, e := range doc.Databases {
		if e.Database == r.name {
			if r.sha != "" {
				doc.Databases[i].SHA256 = r.sha
			}
			return i
		}
	}
	// A copy found by its hash gets its own entry, with the marks it was
	// found with: a mark added or removed here is this database's.
	doc.Databases = append(doc.Databases, entry{Database: r.name, SHA256: r.sha, Columns: marksOf(*doc, r)})
	return len(doc.Databases) - 1
}

// Remove unmarks the column name; false when it was not marked.
func (s *Store) Remove(ctx context.Context, db engine.Database, name string) (bool, error) {
	table, column := engine.SplitColumn(strings.TrimSpace(name))
	s.mu.Lock()
	defer s.mu.Unlock()
	doc, err := s.read()
	if err != nil {
		return false, err
	}
	r := refOf(ctx, db)
	found := false
	for _, m := range marksOf(doc, r) {
		found = found || strings.EqualFold(m.Name(), table+"."+column)
	}
	if !found {
		return false, nil
	}
	i := s.entryFor(&doc, r)
	for j, e := range doc.Databases {
		if j != i && !r.matches(e) {
			continue
		}
		kept := []Mark{}
		for _, m := range e.Columns {
			if !strings.EqualFold(m.Name(), table+"."+column) {
				kept = append(kept, m)
			}
		}
		doc.Databases[j].Columns = kept
	}
	return true, s.write(doc)
}

// resolve finds the column name in db's schema, as the schema spells it.
func resolve(ctx context.Context, db engine.Database, name string) (Mark, error) {
	name = strings.TrimSpace(name)
	table, column := engine.SplitColumn(name)
	if table == "" || column == "" {
		return Mark{}, engine.Errorf(engine.CodeUsage, "%q names no column: write TABLE.COLUMN", name).WithHint(
			"list the columns with querent schema --db DB")
	}
	sch, err := db.Schema(ctx)
	if err != nil {
		return Mark{}, err
	}
	t := sch.Table(table)
	if t == nil {
		var names []string
		for _, x := range sch.Tables {
			if !x.Internal {
				names = append(names, x.Name)
			}
		}
		e := engine.Errorf(engine.CodeUnknownTable, "there is no table %s", table)
		if c := text.Closest(table, names, 3); len(c) > 0 {
			return Mark{}, e.WithHint("did you mean %s?", strings.Join(c, " or "))
		}
		return Mark{}, e.WithHint("the tables are: %s", strings.Join(names, ", "))
	}
	c := t.Column(column)
	if c == nil {
		var names []string
		for _, x := range t.Columns {
			names = append(names, x.Name)
		}
		e := engine.Errorf(engine.CodeUnknownColumn, "%s has no column %s", t.Name, column)
		if cl := text.Closest(column, names, 3); len(cl) > 0 {
			return Mark{}, e.WithHint("did you mean %s? %s has: %s", strings.Join(cl, " or "), t.Name, strings.Join(names, ", "))
		}
		return Mark{}, e.WithHint("%s has: %s", t.Name, strings.Join(names, ", "))
	}
	return Mark{Table: t.Name, Column: c.Name}, nil
}

// Set is db's marks as the engine holds them, with the columns of the
// views computed from a marked column (a view's column that is one, or any
// computed column of a view that reads one: Sensitive.Mark over the view's
// own query, as the database compiles it).
func (s *Store) Set(ctx context.Context, db engine.Database) (*Set, error) {
	marks, err := s.List(ctx, db)
	if err != nil {
		return nil, err
	}
	set := setOf(marks)
	if set.Empty() {
		return set, nil
	}
	sch, err := db.Schema(ctx)
	if err != nil {
		return set, nil // the marks hold; the views are followed in each result
	}
	ExpandViews(ctx, db, sch, set)
	return set, nil
}

// ExpandViews adds to set the columns of sch's views that carry a marked
// column's values, until no view adds one (a view over a view).
func ExpandViews(ctx context.Context, db engine.Database, sch *engine.Schema, set *Set) {
	for range 4 {
		added := false
		for _, t := range sch.Tables {
			if t.Kind != "view" && !strings.Contains(strings.ToLower(t.Kind), "view") {
				continue
			}
			q := "SELECT * FROM " + sqltext.TableIdent(db.Dialect(), t.Name)
			if def := viewQuery(t.SQL); def != "" && db.Dialect() == sqltext.PostgreSQL {
				// PostgreSQL describes a view's columns as the view's own:
				// its definition names the tables they come from.
				q = def
			}
			v, err := db.Validate(ctx, q)
			if err != nil || len(v.Columns) != len(t.Columns) {
				continue
			}
			cols := append([]engine.Column(nil), v.Columns...)
			set.Mark(cols, v.SQL, v.Tables, v.ColumnsRead)
			for i, c := range cols {
				if c.Sensitive && !set.Has(t.Name, t.Columns[i].Name) {
					set.Add(t.Name, t.Columns[i].Name)
					added = true
				}
			}
		}
		if !added {
			return
		}
	}
}

// viewQuery is the SELECT of a "CREATE VIEW name AS …" statement ("" when
// it is not one).
func viewQuery(create string) string {
	up := strings.ToUpper(create)
	if !strings.HasPrefix(up, "CREATE ") || !strings.Contains(up, " VIEW ") {
		return ""
	}
	for _, tok := range sqltext.Lex(create) {
		if tok.Kind == sqltext.Word && strings.EqualFold(create[tok.Start:tok.End], "AS") {
			return strings.TrimSuffix(strings.TrimSpace(create[tok.End:]), ";")
		}
	}
	return ""
}

// Apply gives db its marks (engine.SensitiveMarker): its results' columns
// are marked from then on. A database with marks that cannot keep them is
// an error (it would show their values).
func (s *Store) Apply(ctx context.Context, db engine.Database) (*Set, error) {
	marks, err := s.List(ctx, db)
	if err != nil {
		return nil, err
	}
	m, ok := db.(engine.SensitiveMarker)
	if !ok {
		if len(marks) > 0 {
			// Fail closed: a connection that cannot hold the marks would
			// show their values to a model or an agent.
			return nil, engine.Errorf(engine.CodeInternal, "this connection (%T) cannot keep the columns marked sensitive", db).WithHint(
				"report it; until then unmark them with querent sensitive remove, knowing a model will see their values")
		}
		return nil, nil
	}
	set := setOf(marks)
	// The connection holds the marks before the views are followed: a
	// server that describes the origin of result columns only for a
	// connection with marks (PostgreSQL) then describes the views' too.
	m.SetSensitive(set)
	if set.Empty() {
		return set, nil
	}
	if sch, err := db.Schema(ctx); err == nil {
		all := set.Clone()
		ExpandViews(ctx, db, sch, all)
		m.SetSensitive(all)
		return all, nil
	}
	return set, nil
}

// WithMarks gives a database just opened (db, err: what the opener
// returned) the columns marked sensitive in Querent's data folder, so that
// every face's results are marked from the first. A marks' file that
// cannot be read fails the open (db is closed) rather than unmark every
// column.
func WithMarks(ctx context.Context, db engine.Database, err error) (engine.Database, error) {
	if err != nil {
		return nil, err
	}
	st, err := OpenDefault()
	if err == nil {
		_, err = st.Apply(ctx, db)
	}
	if err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// setOf is the set of the marks themselves (without the views').
func setOf(marks []Mark) *Set {
	set := New()
	for _, m := range marks {
		set.Add(m.Table, m.Column)
	}
	return set
}
