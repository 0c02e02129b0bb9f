// Package sqlite is Querent's SQLite adapter (modernc.org/sqlite, pure Go):
// the guarded read-only open of a user's file, validation by SQLite's own
// compiler under an allowlist authorizer and tight limits, running with a
// timeout and a row cap, query-plan hints and schema introspection.
//
// The defence is layered as ../shared/docs/security.md describes; every layer
// holds on its own, and tests check each one separately:
//
//   - file intake: the DSN is built with net/url, the file is opened with
//     mode=ro&immutable=1, so SQLite never writes it nor creates a sidecar;
//   - connection: query_only, defensive, trusted_schema=0, no double-quoted
//     string literals (validation reads double-quoted text that is close to
//     no column name as text, with a warning: dqtext.go), cell_size_check,
//     no mmap; one pinned connection;
//   - limits: ATTACHED 0, a 10 MB LENGTH, SQL length, expression depth…;
//   - authorizer: only SELECT, READ of the main database (not sqlite_dbpage
//     or dbstat), allowlisted functions and introspection pragmas;
//   - pre-check: exactly one statement, no NUL byte, not EXPLAIN, at least one
//     result column;
//   - execution: a MATERIALIZED wrapper so all work happens while the
//     context's deadline is watched, and a row cap.
package sqlite
