package postgres

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"

	"querent/engine"
	"querent/engine/words"
)

// RoleInfo says who the connection is and what that role may do. Querent's
// layers keep every query read-only whatever the role; a role that may only
// read is the safeguard that does not depend on Querent at all.
type RoleInfo struct {
	// Name is the role the queries run as (current_user).
	Name string `json:"name"`
	// Superuser is true for a superuser: it may do anything, read and write
	// the server's files and run programs on it.
	Superuser bool `json:"superuser"`
	// WritableTables counts the tables and views the role may INSERT into,
	// UPDATE, DELETE from or TRUNCATE; WritableExamples names a few.
	WritableTables   int      `json:"writable_tables"`
	WritableExamples []string `json:"writable_examples,omitempty"`
	// WritableSequences counts the sequences it may advance or set.
	WritableSequences int `json:"writable_sequences"`
	// CreateSchemas are the schemas it may create objects in.
	CreateSchemas []string `json:"create_schemas,omitempty"`
	// CreateOnDatabase is true when it may create schemas in the database.
	CreateOnDatabase bool `json:"create_on_database"`
	// Memberships are the predefined roles it belongs to that reach beyond
	// the data (pg_write_server_files, pg_execute_server_program,
	// pg_read_server_files, pg_write_all_data, pg_signal_backend,
	// pg_checkpoint) and the superusers it may become.
	Memberships []string `json:"memberships,omitempty"`
	// CreateRole, CreateDB, Replication and BypassRLS are the role's own
	// attributes.
	CreateRole  bool `json:"create_role"`
	CreateDB    bool `json:"create_db"`
	Replication bool `json:"replication"`
	BypassRLS   bool `json:"bypass_rls"`
	// ReadOnly is true when the role may do none of the above but read.
	ReadOnly bool `json:"read_only"`
	// Warning is one line for the faces to show prominently when the role
	// is not read-only ("" when it is).
	Warning string `json:"warning,omitempty"`
	// WarningWords is Warning in parts (package words), for the faces
	// that say it in their language.
	WarningWords words.Sentence `json:"-"`
}

// summary lists what the role may do, for messages, in parts (package
// words): "may change 2 tables: album, artist; may create objects in
// public".
func (r RoleInfo) summary() words.Part {
	var what []words.Part
	say := func(key string, parts ...words.Part) { what = append(what, words.New("role."+key, parts...)) }
	if r.Superuser {
		say("a_superuser")
	}
	if r.WritableTables > 0 && !r.Superuser {
		var ex words.Part
		if len(r.WritableExamples) > 0 {
			var etc words.Part
			if r.WritableTables > len(r.WritableExamples) {
				etc = words.New("role.etc")
			}
			ex = words.New("role.examples", words.Seq(words.Values(words.Comma, r.WritableExamples...), etc))
		}
		say(plural("may_change", r.WritableTables), count(r.WritableTables), ex)
	}
	if r.WritableSequences > 0 && !r.Superuser {
		say(plural("may_advance", r.WritableSequences), count(r.WritableSequences))
	}
	if len(r.CreateSchemas) > 0 && !r.Superuser {
		say("may_create_in", words.Values(words.Comma, r.CreateSchemas...))
	}
	if r.CreateOnDatabase && !r.Superuser {
		say("may_create_schemas")
	}
	for _, m := range r.Memberships {
		say("member_of", words.Value(m))
	}
	if !r.Superuser {
		if r.CreateRole {
			say("may_create_roles")
		}
		if r.CreateDB {
			say("may_create_databases")
		}
		if r.Replication {
			say("may_replicate")
		}
	}
	return words.List(words.Semi, what...)
}

// plural is key_1 for one, key_n for any other count.
func plural(key string, n int) string {
	if n == 1 {
		return key + "_1"
	}
	return key + "_n"
}

// count is a count in digits as the messages always wrote it (no
// thousands separator).
func count(n int) words.Part { return words.Value(strconv.Itoa(n)) }

// roleSQL asks the server who the session is and what it may do, in one
// round trip (a batch of the extended protocol).
var roleSQL = []string{
	`SELECT current_user, current_database(), r.rolsuper, r.rolcreaterole, r.rolcreatedb, r.rolreplication, r.rolbypassrls,
		has_database_privilege(current_database(), 'CREATE'), current_setting('server_version'), current_setting('server_version_num'),
		array_to_string(current_schemas(false), chr(31)), pg_size_bytes(current_setting('work_mem'))
	 FROM pg_catalog.pg_roles r WHERE r.rolname = current_user`,
	`SELECT count(*), (SELECT string_agg(x, ', ') FROM (SELECT c2.oid::regclass::text AS x FROM pg_catalog.pg_class c2
		JOIN pg_catalog.pg_namespace n2 ON n2.oid = c2.relnamespace
		WHERE c2.relkind IN ('r', 'p', 'v', 'f', 'm') AND n2.nspname NOT IN ('pg_catalog', 'information_schema') AND n2.nspname !~ '^pg_toast'
		  AND (has_table_privilege(c2.oid, 'INSERT') OR has_table_privilege(c2.oid, 'UPDATE') OR has_table_privilege(c2.oid, 'DELETE') OR has_table_privilege(c2.oid, 'TRUNCATE'))
		ORDER BY 1 LIMIT 5) s)
	 FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
	 WHERE c.relkind IN ('r', 'p', 'v', 'f', 'm') AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname !~ '^pg_toast'
	   AND (has_table_privilege(c.oid, 'INSERT') OR has_table_privilege(c.oid, 'UPDATE') OR has_table_privilege(c.oid, 'DELETE') OR has_table_privilege(c.oid, 'TRUNCATE'))`,
	`SELECT count(*) FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
	 WHERE c.relkind = 'S' AND n.nspname NOT IN ('pg_catalog', 'information_schema')
	   AND (has_sequence_privilege(c.oid, 'UPDATE') OR has_sequence_privilege(c.oid, 'USAGE'))`,
	`SELECT coalesce(string_agg(quote_ident(nspname), ', ' ORDER BY nspname), '') FROM pg_catalog.pg_namespace
	 WHERE has_schema_privilege(oid, 'CREATE') AND nspname NOT IN ('pg_catalog', 'information_schema') AND nspname !~ '^pg_(toast|temp)'`,
	`SELECT coalesce(string_agg(rolname, ', ' ORDER BY rolname), '') FROM pg_catalog.pg_roles
	 WHERE rolname <> current_user AND pg_has_role(current_user, oid, 'MEMBER')
	   AND (rolname IN ('pg_write_server_files', 'pg_execute_server_program', 'pg_read_server_files', 'pg_write_all_data',
	                    'pg_signal_backend', 'pg_checkpoint') OR rolsuper)`,
}

// inspect reads the server's version, the session's schemas and what the
// role may do.
func (d *DB) inspect(ctx context.Context) error {
	res, err := d.batchLocked(ctx, roleSQL...)
	if err != nil {
		return d.readError(ctx, err)
	}
	if len(res) != len(roleSQL) || len(res[0]) != 1 {
		return dbError(d.name, "cannot read the role %s from pg_roles", d.cfg.User).WithHint("check that the role exists and may read the catalog")
	}
	row := res[0][0]
	b := func(i int) bool { return row[i] == "t" }
	d.server = serverInfo{user: row[0], database: row[1], version: row[8], searchPath: splitUnit(row[10])}
	d.server.versionNum, _ = strconv.Atoi(row[9])
	d.server.workMem, _ = strconv.ParseInt(row[11], 10, 64)
	r := RoleInfo{Name: row[0], Superuser: b(2), CreateRole: b(3), CreateDB: b(4), Replication: b(5), BypassRLS: b(6), CreateOnDatabase: b(7)}
	r.WritableTables, _ = strconv.Atoi(res[1][0][0])
	if ex := res[1][0][1]; ex != "" {
		r.WritableExamples = strings.Split(ex, ", ")
	}
	r.WritableSequences, _ = strconv.Atoi(res[2][0][0])
	if s := res[3][0][0]; s != "" {
		r.CreateSchemas = strings.Split(s, ", ")
	}
	if s := res[4][0][0]; s != "" && !r.Superuser {
		// (A superuser is a member of every role: saying so adds nothing.)
		r.Memberships = strings.Split(s, ", ")
	}
	r.ReadOnly = !r.Superuser && r.WritableTables == 0 && r.WritableSequences == 0 && len(r.CreateSchemas) == 0 &&
		!r.CreateOnDatabase && len(r.Memberships) == 0 && !r.CreateRole && !r.CreateDB && !r.Replication
	if !r.ReadOnly {
		r.WarningWords = roleWarning(r)
		r.Warning = words.English(r.WarningWords)
	}
	d.role = r
	return nil
}

// roleWarning warns about a role that may do more than read.
func roleWarning(r RoleInfo) words.Sentence {
	if r.Superuser {
		return words.New("role.superuser", words.Value(r.Name))
	}
	return words.New("role.may_more", words.Value(r.Name), r.summary())
}

// readOnlyRoleSQL is the SQL that makes a SELECT-only role for database.
func readOnlyRoleSQL(database string, schemas []string) string {
	if len(schemas) == 0 {
		schemas = []string{"public"}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "CREATE ROLE querent_reader LOGIN PASSWORD '…'; GRANT CONNECT ON DATABASE %s TO querent_reader;", ident(database))
	for _, s := range schemas {
		fmt.Fprintf(&b, " GRANT USAGE ON SCHEMA %[1]s TO querent_reader; GRANT SELECT ON ALL TABLES IN SCHEMA %[1]s TO querent_reader;"+
			" ALTER DEFAULT PRIVILEGES IN SCHEMA %[1]s GRANT SELECT ON TABLES TO querent_reader;", ident(s))
	}
	b.WriteString(" ALTER ROLE querent_reader SET default_transaction_read_only = on;")
	return b.String()
}

// batchLocked runs Querent's own statements in one round trip (one batch of
// the extended protocol, each statement in its own Parse) and returns their
// rows as text (a NULL as ""). The session's transactions are read-only.
func (d *DB) batchLocked(ctx context.Context, sqls ...string) ([][][]string, error) {
	conn, err := d.connLocked(ctx)
	if err != nil {
		return nil, err
	}
	var batch pgconn.Batch
	for _, q := range sqls {
		batch.ExecParams(q, nil, nil, nil, nil)
	}
	results, err := conn.ExecBatch(ctx, &batch).ReadAll()
	if err != nil {
		if ctx.Err() != nil || isClosedErr(err) {
			d.dropConnLocked()
		}
		return nil, err
	}
	out := make([][][]string, len(results))
	for i, r := range results {
		if r.Err != nil {
			return nil, r.Err
		}
		for _, row := range r.Rows {
			vals := make([]string, len(row))
			for j, v := range row {
				vals[j] = string(v)
			}
			out[i] = append(out[i], vals)
		}
	}
	return out, nil
}

// queryLocked runs one of Querent's own statements with text parameters.
func (d *DB) queryLocked(ctx context.Context, sql string, args ...string) ([][]string, error) {
	conn, err := d.connLocked(ctx)
	if err != nil {
		return nil, err
	}
	params := make([][]byte, len(args))
	for i, a := range args {
		params[i] = []byte(a)
	}
	r := conn.ExecParams(ctx, sql, params, nil, nil, nil).Read()
	if r.Err != nil {
		if ctx.Err() != nil || isClosedErr(r.Err) {
			d.dropConnLocked()
		}
		return nil, r.Err
	}
	var out [][]string
	for _, row := range r.Rows {
		vals := make([]string, len(row))
		for j, v := range row {
			vals[j] = string(v)
		}
		out = append(out, vals)
	}
	return out, nil
}

// readError translates an error of Querent's own catalog queries.
func (d *DB) readError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return engine.AsError(ctx.Err())
	}
	if e, ok := err.(*engine.Error); ok {
		return e
	}
	return dbError(d.name, "cannot read the catalog: %s", scrub(err.Error(), d.cfg.Password)).WithErr(&secretError{scrub(err.Error(), d.cfg.Password)}).WithHint(
		"check that the role may read the database's catalog (pg_catalog)")
}

// splitUnit splits a list joined with the unit separator (chr(31)), which
// no sane name holds.
func splitUnit(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "\x1f")
}
