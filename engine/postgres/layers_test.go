package postgres

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"querent/engine"
)

// Each layer on its own, with the parser and the policy bypassed: what
// holds without them, and what does not (why the policy refuses it).

// rawRun runs sql through the envelope alone, without the parser or the
// policy.
func rawRun(t *testing.T, db *DB, sql string, timeout time.Duration) ([][]string, error) {
	t.Helper()
	var rows [][]string
	err := db.withLock(context.Background(), func() error {
		return db.runLocked(context.Background(), envelope{sql: sql, timeout: timeout, unchecked: true,
			fields: func([]pgconn.FieldDescription) error { return nil },
			row: func(v [][]byte) error {
				r := make([]string, len(v))
				for i, x := range v {
					r[i] = string(x)
				}
				rows = append(rows, r)
				return nil
			}})
	})
	return rows, err
}

func sqlstate(err error) string {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code
	}
	return ""
}

func layer(format string) {
	report.mu.Lock()
	report.layers = append(report.layers, format)
	report.mu.Unlock()
}

func TestLayerProtocol(t *testing.T) {
	db := openSuper(t)
	chk := newChecker(t)
	xid := chk.xid()
	// One Parse message holds one statement: the server refuses more.
	_, err := rawRun(t, db, "COMMIT; DELETE FROM invoice_line; SELECT 1", time.Second)
	if sqlstate(err) != "42601" || !strings.Contains(err.Error(), "cannot insert multiple commands into a prepared statement") {
		t.Fatalf("the envelope ran a multi-statement text: %v", err)
	}
	// The same on the bare connection, outside any transaction.
	err = db.withLock(context.Background(), func() error {
		conn, err := db.connLocked(context.Background())
		if err != nil {
			return err
		}
		return conn.ExecParams(context.Background(), "COMMIT; DELETE FROM invoice_line; SELECT 1", nil, nil, nil, nil).Read().Err
	})
	if sqlstate(err) != "42601" {
		t.Fatalf("the connection ran a multi-statement text: %v", err)
	}
	if chk.xid() != xid {
		t.Fatal("something wrote")
	}
	layer("extended protocol: COMMIT; DELETE FROM invoice_line; SELECT 1 as the superuser, parser bypassed → the server refuses it (42601 cannot insert multiple commands into a prepared statement), nothing written")
}

func TestLayerReadOnlyTransaction(t *testing.T) {
	db := openSuper(t)
	chk := newChecker(t)
	xid := chk.xid()
	for _, sql := range []string{
		"WITH d AS (DELETE FROM invoice_line RETURNING 1) SELECT count(*) FROM d",
		"SELECT public.querent_evil_definer()",
		"SELECT nextval('counter')",
	} {
		_, err := rawRun(t, db, sql, time.Second)
		if sqlstate(err) != "25006" {
			t.Errorf("%s: %v, want 25006 (read-only transaction)", sql, err)
		}
	}
	if chk.xid() != xid {
		t.Fatal("something wrote")
	}
	// default_transaction_read_only from the startup packet: a statement
	// outside Querent's own BEGIN READ ONLY is read-only too.
	err := db.withLock(context.Background(), func() error {
		conn, err := db.connLocked(context.Background())
		if err != nil {
			return err
		}
		return conn.ExecParams(context.Background(), "DELETE FROM invoice_line", nil, nil, nil, nil).Read().Err
	})
	if sqlstate(err) != "25006" {
		t.Fatalf("a DELETE outside the envelope: %v, want 25006", err)
	}
	layer("read-only transaction: a data-modifying WITH, a SECURITY DEFINER function that deletes, nextval as the superuser, parser bypassed → 25006, nothing written; a bare DELETE outside BEGIN READ ONLY → 25006 (default_transaction_read_only in the startup packet)")
	// What it does not stop: txid_current() assigns a transaction ID in a
	// read-only transaction (each one brings wraparound closer).
	if _, err := rawRun(t, db, "SELECT txid_current()", time.Second); err != nil {
		t.Fatal(err)
	}
	if chk.xid() == xid {
		t.Fatal("txid_current() spent no transaction ID (PostgreSQL changed?)")
	}
	if _, err := db.Run(context.Background(), "SELECT txid_current()", engine.RunOptions{}); engine.ErrorCode(err) != engine.CodeRefused {
		t.Fatalf("the policy allowed txid_current(): %v", err)
	}
	layer("read-only transaction: txid_current(), parser bypassed → a transaction ID is spent even in a read-only transaction: the function policy refuses it")
}

func TestLayerRollbackUndoesSettings(t *testing.T) {
	db := openReader(t)
	before, _ := rawRun(t, db, "SELECT current_setting('search_path'), current_setting('statement_timeout')", time.Second)
	if _, err := rawRun(t, db, "SELECT set_config('search_path', 'pg_temp', false), set_config('statement_timeout', '0', false)", time.Second); err != nil {
		t.Fatal(err)
	}
	after, _ := rawRun(t, db, "SELECT current_setting('search_path'), current_setting('statement_timeout')", time.Second)
	if len(before) != 1 || len(after) != 1 || before[0][0] != after[0][0] {
		t.Fatalf("search_path %v, was %v", after, before)
	}
	layer("ROLLBACK: set_config(…, false) of search_path and statement_timeout, parser bypassed → undone by the ROLLBACK (the policy refuses set_config anyway)")
}

func TestLayerAdvisoryLockOutlivesRollback(t *testing.T) {
	db := openReader(t)
	chk := newChecker(t)
	if _, err := rawRun(t, db, "SELECT pg_advisory_lock(4242)", time.Second); err != nil {
		t.Fatal(err)
	}
	// A ROLLBACK does not release a session lock; the envelope's DISCARD
	// ALL does, before the call returns: nothing of the session outlives
	// the call, even with both checks bypassed.
	for _, l := range chk.locks() {
		if strings.HasPrefix(l, "advisory") {
			t.Fatalf("an advisory lock outlived the call: %v", chk.locks())
		}
	}
	if _, err := openReader(t).Run(context.Background(), "SELECT pg_advisory_lock(4242)", engine.RunOptions{}); engine.ErrorCode(err) != engine.CodeRefused {
		t.Fatalf("the policy allowed pg_advisory_lock: %v", err)
	}
	layer("advisory locks: pg_advisory_lock(4242), parser and server check bypassed → the lock outlives the ROLLBACK (a read-only transaction does not stop it), and the envelope's DISCARD ALL releases it before the call returns; both checks refuse the function")
}

func TestLayerStatementTimeout(t *testing.T) {
	db := openReader(t)
	start := time.Now()
	_, err := rawRun(t, db, "SELECT pg_sleep(5)", 300*time.Millisecond)
	elapsed := time.Since(start)
	if sqlstate(err) != "57014" {
		t.Fatalf("pg_sleep(5) under a 300ms timeout: %v", err)
	}
	if elapsed > 2*time.Second {
		t.Fatalf("pg_sleep(5) under a 300ms timeout took %s", elapsed)
	}
	layer("statement_timeout: pg_sleep(5), parser bypassed, timeout 300ms → stopped by the server after " + elapsed.Round(time.Millisecond).String())
}

func TestLayerDblink(t *testing.T) {
	db := openSuper(t)
	if !hasDblink {
		t.Skip("the dblink extension is not installed on the test server")
	}
	s := server(t)
	// A second connection is not inside Querent's read-only transaction: the
	// write goes through. (It writes into a table of its own, dropped after.)
	conn := "host=" + s.Dir + " port=" + strconv.Itoa(s.Port) + " dbname=chinook user=postgres"
	_, err := rawRun(t, db, "SELECT dblink_exec('"+conn+"', 'CREATE TABLE public.dblink_proof (x int)')", 5*time.Second)
	defer s.Psql(context.Background(), "chinook", "-c", "DROP TABLE IF EXISTS public.dblink_proof")
	if err != nil {
		t.Fatalf("dblink_exec: %v", err)
	}
	out, _ := s.Psql(context.Background(), "chinook", "-c", "SELECT to_regclass('public.dblink_proof') IS NOT NULL")
	if strings.TrimSpace(out) != "t" {
		t.Fatalf("dblink_exec did not write (%q): PostgreSQL or dblink changed?", out)
	}
	if _, err := db.Run(context.Background(), "SELECT dblink_exec('"+conn+"', 'SELECT 1')", engine.RunOptions{}); engine.ErrorCode(err) != engine.CodeRefused {
		t.Fatalf("the policy allowed dblink_exec: %v", err)
	}
	layer("dblink: dblink_exec(…, 'CREATE TABLE …') as the superuser, parser bypassed → written through a second connection outside the read-only transaction: the function policy refuses every dblink function")
}

// TestLayerServerCheckAlone runs every case of the red team's third round
// with PostgreSQL's parser in Querent and its policy bypassed: the server
// check alone (the server's own reading of the statement, judged by OID)
// must refuse every one that the red team expects refused, or leave it
// harmless.
func TestLayerServerCheckAlone(t *testing.T) {
	s := server(t)
	victim := newVictim(t, s)
	for _, db := range []*DB{openReader(t), openSuper(t)} {
		refused := 0
		n := 0
		for _, c := range loadRedTeam(t, s.Dir) {
			if !strings.HasPrefix(c.category, "round 3") || !strings.Contains(c.expect, "refused") {
				continue
			}
			n++
			var ran bool
			err := db.withLock(context.Background(), func() error {
				return db.runLocked(context.Background(), envelope{sql: c.sql, timeout: 2 * time.Second, query: c.sql,
					fields: func([]pgconn.FieldDescription) error { ran = true; return nil },
					row:    func([][]byte) error { return nil }})
			})
			switch code := engine.ErrorCode(err); {
			case code == engine.CodeRefused:
				refused++
			case err != nil && !ran:
				// The server refused it itself (no such function for
				// these types, permission denied): nothing ran.
			default:
				if !strings.Contains(c.expect, "allowed") {
					t.Errorf("%s (as %s): ran with the server check alone: %v", c.what, db.Role().Name, err)
				}
			}
			if err := victim.alive(); err != nil {
				t.Fatalf("%s (as %s): another session was ended: %v", c.what, db.Role().Name, err)
			}
		}
		layer(fmt.Sprintf("server check alone, as %s: %d of the third round's %d hostile cases refused by the server's own reading of them, the rest refused by the server itself; none ran", db.Role().Name, refused, n))
	}
}
