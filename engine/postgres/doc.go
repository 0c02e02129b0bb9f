// Package postgres is Querent's PostgreSQL adapter: the engine's database
// port over one guarded connection (github.com/jackc/pgx/v5's pgconn, the
// extended protocol only) to a server the user points it at, read-only for
// real.
//
// The layers, each of which holds on its own (the tests check each one):
//
//   - the protocol: every statement goes in its own Parse message of the
//     extended protocol, which PostgreSQL refuses to hold more than one
//     statement; the simple protocol, which runs any number (the COMMIT;
//     <write>; SELECT 1 escape of peers), is never used — not even for the
//     guard's own statements;
//   - PostgreSQL's own parser (pgparse): exactly one statement, a SELECT
//     (WITH … SELECT, VALUES, TABLE), no data-modifying WITH, no SELECT INTO,
//     no FOR UPDATE/SHARE, no parameter, built-in operators, and functions
//     from an allowlist read from PostgreSQL's catalog (functions.go) that
//     refuses what a read-only transaction does not stop: advisory locks,
//     sleeps, set_config, dblink, server files, other sessions, SQL run from
//     strings, and every function that is not a built-in;
//   - the session: default_transaction_read_only, statement_timeout,
//     lock_timeout and idle_in_transaction_session_timeout set in the
//     startup packet, so that even the guard's own catalog queries run
//     read-only and bounded;
//   - every run: BEGIN READ ONLY, SET LOCAL statement_timeout, lock_timeout
//     and idle_in_transaction_session_timeout, the statement under a LIMIT
//     cap+1 wrapper, and ROLLBACK whatever happened — pipelined, so that the
//     guard costs no round trip of its own; a cancelled context sends
//     PostgreSQL a cancel request, and a connection whose state is unknown is
//     closed, never reused;
//   - the role: Open reports what the role may do (a superuser, a role that
//     may write…) and can refuse any role that is not SELECT-only;
//   - secrets: the password is in no name, message, warning or provenance.
package postgres
