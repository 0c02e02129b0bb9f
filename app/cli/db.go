package cli

import (
	"context"
	"flag"

	"querent/engine"
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
	fs.StringVar(&d.target, "db", "", "the SQLite file or PostgreSQL URL (postgres://user@host/db) "+what+dflt)
	fs.BoolVar(&d.readOnlyRole, "require-readonly-role", false, readOnlyRoleUsage)
	fs.BoolVar(&d.allowSuperuser, "allow-superuser", false, allowSuperuserUsage)
	return d
}

func (d *dbFlags) options() engine.OpenOptions {
	return engine.OpenOptions{RequireReadOnlyRole: d.readOnlyRole, AllowSuperuser: d.allowSuperuser}
}

// open opens the database the flags name.
func (c *CLI) open(ctx context.Context, d *dbFlags) (engine.Database, error) {
	return c.Open(ctx, d.target, d.options())
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
