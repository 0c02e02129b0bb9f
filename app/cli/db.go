package cli

import (
	"context"
	"flag"
	"io"

	"querent/engine"
	"querent/engine/imports"
)

// Opener opens a database for guarded, read-only use: a SQLite file, a
// PostgreSQL connection string (postgres://user@host:5432/db or libpq's
// key=value form), or "" for the bundled demo database.
type Opener func(ctx context.Context, target string, opts engine.OpenOptions) (engine.Database, error)

// ConnectionOpener opens the database a connection object of the
// sub-agent contract names ({"db_type": "postgresql", "host": …} or
// {"db_type": "sqlite", "host": FILE}).
type ConnectionOpener func(ctx context.Context, c engine.Connection, opts engine.OpenOptions) (engine.Database, error)

// dbFlags are the flags every command that reads a database shares: --db,
// --require-readonly-role and --allow-superuser.
type dbFlags struct {
	target         string
	readOnlyRole   bool
	allowSuperuser bool
}

// The words of the PostgreSQL role flags, the same in every command.
const (
	readOnlyRoleUsage = "PostgreSQL: refuse to connect as a role that may do more than read (a superuser, a role that may write), instead of warning"
	// A superuser is refused by default (the engine's choice): it may read
	// and write the server's files and run programs on it.
	allowSuperuserUsage = "PostgreSQL: connect even as a superuser, with a warning (refused by default: a superuser may read and write the server's files and run programs on it; use a SELECT-only role)"
)

// addDBFlags registers --db (what, e.g. "to query"),
// --require-readonly-role and --allow-superuser on fs.
func addDBFlags(fs *flag.FlagSet, what, dflt string) *dbFlags {
	d := &dbFlags{}
	fs.StringVar(&d.target, "db", "", "the SQLite file, PostgreSQL URL (postgres://user@host/db), or CSV, XLSX, JSON or Parquet file (imported into a workspace in the data folder) "+what+dflt)
	fs.BoolVar(&d.readOnlyRole, "require-readonly-role", false, readOnlyRoleUsage)
	fs.BoolVar(&d.allowSuperuser, "allow-superuser", false, allowSuperuserUsage)
	return d
}

func (d *dbFlags) options() engine.OpenOptions {
	return engine.OpenOptions{RequireReadOnlyRole: d.readOnlyRole, AllowSuperuser: d.allowSuperuser}
}

// open opens the database the flags name. A data file named in place of
// a database (CSV, XLSX, JSON, Parquet) is imported into its workspace on
// its first open; on a terminal, standard error shows that import's
// progress as querent import does.
func (c *CLI) open(ctx context.Context, d *dbFlags) (engine.Database, error) {
	opts := d.options()
	if line := newProgress(stderrOf(ctx), "text", "Ctrl-C cancels"); line != nil {
		opts.Progress = func(p engine.ImportProgress) {
			importStage(line, imports.Progress{Phase: p.Phase, Source: p.Source, BytesDone: p.BytesDone, BytesTotal: p.BytesTotal, Rows: p.Rows, RowsTotal: p.RowsTotal})
		}
		defer line.clear()
	}
	return c.Open(ctx, d.target, opts)
}

// stderrKey is the context key of the running command's standard error.
type stderrKey struct{}

// withStderr is ctx carrying the command's standard error, for the
// progress of what happens below the flags (opening a data file).
func withStderr(ctx context.Context, w io.Writer) context.Context {
	return context.WithValue(ctx, stderrKey{}, w)
}

// stderrOf is the standard error that ctx carries, or nil.
func stderrOf(ctx context.Context) io.Writer {
	w, _ := ctx.Value(stderrKey{}).(io.Writer)
	return w
}

// shown is how a database the user named is shown before it is open (in
// an error, a JSON document, a command to run next): a PostgreSQL
// connection string without its password.
func (c *CLI) shown(target string) string {
	if c.DisplayName == nil || target == "" {
		return target
	}
	return c.DisplayName(target)
}
