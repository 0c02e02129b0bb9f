// Package adapter holds what the database adapters (engine/sqlite,
// engine/postgres) share, written once: the lock that holds a connection,
// the names a database's hints cite (the unknown table's closest names),
// the de-duplication of query-plan hints, and the bounds of schema
// introspection. The adapters keep what differs: their SQL, their
// catalog, their words for what the role or the file can see.
package adapter

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"querent/engine"
	"querent/engine/text"
)

// WithLock runs f holding the connection that lock guards (a channel of
// one), or returns ctx's error when ctx ends first.
func WithLock(ctx context.Context, lock chan struct{}, f func() error) error {
	select {
	case lock <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-lock }()
	return f()
}

// Hints are a query plan's hints, each said once: a plan names the same
// problem at every node where it finds it.
type Hints struct{ list []string }

// Add adds the hint format says, unless it was added already.
func (h *Hints) Add(format string, args ...any) {
	s := fmt.Sprintf(format, args...)
	for _, x := range h.list {
		if x == s {
			return
		}
	}
	h.list = append(h.list, s)
}

// List is the hints in the order they were added; nil for none.
func (h *Hints) List() []string { return h.list }

// Bounds of schema introspection: it stays cheap on huge tables.
const (
	SampleRows       = 3
	DistinctMax      = 25     // columns with more distinct values get none listed
	DistinctScanRows = 10_000 // distinct values are taken from at most this many rows
	SampleTextRunes  = 200    // longer sample texts are cut with …
	SampleBlobBytes  = 64     // longer sample blobs are cut
)

// CutSample shortens a long sample value: samples are for showing, not
// for analysis.
func CutSample(v engine.Value) engine.Value {
	switch x := v.(type) {
	case string:
		if utf8.RuneCountInString(x) > SampleTextRunes {
			return string([]rune(x)[:SampleTextRunes]) + "…"
		}
	case []byte:
		if len(x) > SampleBlobBytes {
			return x[:SampleBlobBytes]
		}
	}
	return v
}

// Names are the names of a database's tables, views and columns, for the
// "did you mean …?" hints.
type Names struct {
	Tables []TableNames
	// Qualified says a query may name a table bare that the index holds
	// qualified (schema.name, off PostgreSQL's search path): Table finds
	// it when no table has the bare name.
	Qualified bool
}

// TableNames are one table's or view's names.
type TableNames struct {
	// Name is the table as a query names it (PostgreSQL's: bare when on
	// the search path, else schema.name).
	Name string
	// Kind is the catalog's kind of relation.
	Kind string
	// Internal marks a table of the database's own (SQLite's, Querent's):
	// never listed in hints.
	Internal bool
	Columns  []string
	// Rows is the planner's estimate of its rows (PostgreSQL's
	// pg_class.reltuples, for the plan's hints), -1 when unknown.
	Rows float64
}

// Table is the table named name, case-insensitively, or nil.
func (n *Names) Table(name string) *TableNames {
	for i := range n.Tables {
		if strings.EqualFold(n.Tables[i].Name, name) {
			return &n.Tables[i]
		}
	}
	if n.Qualified {
		// A bare name that only a qualified table has.
		for i := range n.Tables {
			if j := strings.LastIndexByte(n.Tables[i].Name, '.'); j >= 0 && strings.EqualFold(n.Tables[i].Name[j+1:], name) {
				return &n.Tables[i]
			}
		}
	}
	return nil
}

// TableList is the names of the tables and views, internal ones left out.
func (n *Names) TableList() []string {
	var out []string
	for _, t := range n.Tables {
		if !t.Internal {
			out = append(out, t.Name)
		}
	}
	return out
}

// BareName is name without its qualifier (schema.table → table).
func BareName(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[i+1:]
	}
	return name
}

// UnknownTable is the unknown_table error of name, found at the byte
// offset pos of query: its hint names the closest tables and lists them
// all, or says none (the adapter's words for a database that shows no
// table).
func UnknownTable(query string, pos int, name string, tables []string, none string) *engine.Error {
	e := engine.QueryErrorf(engine.CodeUnknownTable, query, pos, "no such table: %s", name)
	var hint []string
	if s := text.Closest(BareName(name), tables, 3); len(s) > 0 {
		hint = append(hint, "did you mean "+text.OrList(s)+"?")
	}
	if len(tables) == 0 {
		hint = append(hint, none)
	} else {
		hint = append(hint, "the tables and views are: "+text.NameList(tables, 40))
	}
	return e.WithHint("%s", strings.Join(hint, " "))
}
