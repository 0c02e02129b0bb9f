package workspace

import (
	"context"

	"querent/engine"
	"querent/engine/words"
)

// DB is a workspace database shown as the data file it was made from: its
// name, its path and its sha256 are the file's, so that answers, the
// history, the glossary and exports' provenance name the user's file, and
// no export may replace it (engine/files compares the path). The queries
// run on the workspace, under the guard, like any database's.
type DB struct {
	engine.Database
	ws *Workspace
}

// Wrap shows db, opened on ws.Database, as the data file of ws.
func Wrap(db engine.Database, ws *Workspace) *DB { return &DB{Database: db, ws: ws} }

var (
	_ engine.Database        = (*DB)(nil)
	_ engine.Filer           = (*DB)(nil)
	_ engine.Fingerprinter   = (*DB)(nil)
	_ engine.WarningSayer    = (*DB)(nil)
	_ engine.SensitiveMarker = (*DB)(nil)
)

// Name is the data file's absolute path.
func (d *DB) Name() string { return d.ws.Source }

// Path is the data file's absolute path: what an export must never replace.
func (d *DB) Path() string { return d.ws.Source }

// Workspace is the workspace the file was imported into.
func (d *DB) Workspace() *Workspace { return d.ws }

// SHA256 is the data file's sha256 when it was imported.
func (d *DB) SHA256(context.Context) (string, error) { return d.ws.SHA256, nil }

// Schema is the workspace's schema, named after the data file.
func (d *DB) Schema(ctx context.Context) (*engine.Schema, error) {
	s, err := d.Database.Schema(ctx)
	if err != nil {
		return nil, err
	}
	c := *s
	c.Database = d.ws.Source
	return &c, nil
}

// WarningWords are the workspace database's warnings in parts.
func (d *DB) WarningWords() []words.Sentence {
	if w, ok := d.Database.(engine.WarningSayer); ok {
		return w.WarningWords()
	}
	return nil
}

// SetSensitive gives the workspace database the marks of the data file
// (engine.SensitiveMarker): a wrapper that dropped them would show a model
// the values of a column the analyst marked.
func (d *DB) SetSensitive(m engine.ResultMarker) {
	if s, ok := d.Database.(engine.SensitiveMarker); ok {
		s.SetSensitive(m)
	}
}

// Sensitive returns the marks given (nil: none).
func (d *DB) Sensitive() engine.ResultMarker {
	if s, ok := d.Database.(engine.SensitiveMarker); ok {
		return s.Sensitive()
	}
	return nil
}
