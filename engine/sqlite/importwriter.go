package sqlite

import (
	"context"

	"querent/engine/imports"
)

// ImportWriter writes imports into SQLite files: the importer's Writer
// (engine/importer), over Import and Check.
type ImportWriter struct{}

// Write writes the tables into the database at target, all or nothing
// (Import).
func (ImportWriter) Write(ctx context.Context, target string, tables []*imports.Table, opts imports.WriteOptions) (*imports.Report, error) {
	return Import(ctx, target, tables, importOptions(opts))
}

// Check says what Write would do, writing nothing (Check).
func (ImportWriter) Check(ctx context.Context, target string, tables []*imports.Table, opts imports.WriteOptions) ([]imports.TargetCheck, []string, error) {
	checks, warnings, err := Check(ctx, target, tables, importOptions(opts))
	out := make([]imports.TargetCheck, len(checks))
	for i, c := range checks {
		out[i] = imports.TargetCheck{Name: c.Name, Action: c.Action}
	}
	return out, warnings, err
}

func importOptions(o imports.WriteOptions) ImportOptions {
	return ImportOptions{Table: o.Table, Replace: o.Replace, Append: o.Append, ReplaceUserTable: o.ReplaceUserTable, Progress: o.Progress, MaxMemory: o.MaxMemory}
}
