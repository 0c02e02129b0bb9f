package postgres

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"querent/engine"
)

// The third red team's reproductions that are not single statements
// (issue 21): the connection's settings, the session between calls, what
// runs on after a timeout, who may connect, and what the messages show.

// psqlOnce runs setup SQL as the superuser once per name.
var psqlOnce sync.Map

func setupOnce(t *testing.T, name, database, sql string) {
	t.Helper()
	once, _ := psqlOnce.LoadOrStore(name, &sync.Once{})
	var err error
	once.(*sync.Once).Do(func() {
		_, err = server(t).Psql(context.Background(), database, "-c", sql)
	})
	if err != nil {
		t.Fatalf("setup %s: %v", name, err)
	}
}

func TestSuperuserRefusedByDefault(t *testing.T) {
	s := server(t)
	ctx := context.Background()
	_, err := Open(ctx, superURL(s), Options{})
	e := engine.AsError(err)
	if e == nil || e.Code != engine.CodeDatabase || !strings.Contains(e.Message, "the role postgres is a superuser, and Querent does not connect as one unless told to") ||
		!strings.Contains(e.Hint, "CREATE ROLE querent_reader LOGIN") || !strings.Contains(e.Hint, "allow superusers explicitly") {
		t.Fatalf("a superuser by default: %v", err)
	}
	if strings.Contains(everything(err), pgtestSuperPassword()) {
		t.Fatal("the refusal shows the password")
	}
	// Allowed: connected, warned, and its temporary files bounded.
	db := openSuper(t)
	if !db.Role().Superuser || len(db.Warnings()) == 0 {
		t.Fatalf("allowed superuser: %+v %v", db.Role(), db.Warnings())
	}
	// Set after connecting, and again after each run's DISCARD ALL.
	for i := 0; i < 2; i++ {
		res, err := db.Run(ctx, "SELECT current_setting('temp_file_limit'), current_setting('client_connection_check_interval')", engine.RunOptions{})
		if err != nil || fmt.Sprint(res.Rows[0]...) != "2GB1s" {
			t.Fatalf("a superuser's temp_file_limit and client check, run %d: %v %v", i+1, res, err)
		}
	}
	// A SELECT-only role keeps the server's own setting (only a superuser
	// may set it).
	reader := openReader(t)
	for i := 0; i < 2; i++ {
		res, err := reader.Run(ctx, "SELECT current_setting('temp_file_limit'), current_setting('client_connection_check_interval')", engine.RunOptions{})
		if err != nil || fmt.Sprint(res.Rows[0]...) != "-11s" {
			t.Fatalf("the reader's temp_file_limit and client check, run %d: %v %v", i+1, res, err)
		}
	}
}

func pgtestSuperPassword() string { return "s3cret-Super-pw!" }

// TestPredefinedRolesCounted: a role that may signal other sessions or
// reach the server's files or programs is not read-only.
func TestPredefinedRolesCounted(t *testing.T) {
	s := server(t)
	var sql strings.Builder
	roles := []string{"pg_signal_backend", "pg_read_server_files", "pg_write_server_files", "pg_execute_server_program", "pg_checkpoint"}
	for _, r := range roles {
		fmt.Fprintf(&sql, "CREATE ROLE r3_%[1]s LOGIN PASSWORD 'pw-%[1]s'; GRANT CONNECT ON DATABASE chinook TO r3_%[1]s; GRANT %[1]s TO r3_%[1]s;", r)
	}
	setupOnce(t, "predefined roles", "chinook", sql.String())
	for _, r := range roles {
		db := openURL(t, s.URL("r3_"+r, "pw-"+r, "chinook"))
		info := db.Role()
		if info.ReadOnly || !strings.Contains(strings.Join(info.Memberships, ","), r) || !strings.Contains(info.Warning, "member of "+r) {
			t.Errorf("a member of %s: %+v", r, info)
		}
		_, err := Open(context.Background(), s.URL("r3_"+r, "pw-"+r, "chinook"), Options{RequireReadOnlyRole: true})
		if e := engine.AsError(err); e == nil || !strings.Contains(e.Message, "a read-only role is required") {
			t.Errorf("RequireReadOnlyRole accepted a member of %s: %v", r, err)
		}
	}
}

// TestOneReadingOfText: whatever the role, the database or the connection
// string set, the server reads strings as the guard's parser does.
func TestOneReadingOfText(t *testing.T) {
	s := server(t)
	setupOnce(t, "text settings: database", "postgres", `CREATE DATABASE r3_scsdb`)
	setupOnce(t, "text settings", "postgres", `
		CREATE ROLE r3_scs LOGIN PASSWORD 'pw-scs'; ALTER ROLE r3_scs SET standard_conforming_strings = off; ALTER ROLE r3_scs SET escape_string_warning = off;
		CREATE ROLE r3_sjis LOGIN PASSWORD 'pw-sjis'; ALTER ROLE r3_sjis SET client_encoding = 'SJIS';
		ALTER DATABASE r3_scsdb SET standard_conforming_strings = off;
		GRANT CONNECT ON DATABASE chinook, r3_scsdb TO r3_scs, r3_sjis, `+readerRole)
	const attack = `SELECT 'a\' -- ' , pg_sleep(2) AS x`
	conns := map[string]string{
		"a role with standard_conforming_strings off": s.URL("r3_scs", "pw-scs", "chinook"),
		"a database with it off":                      s.URL(readerRole, readerPassword, "r3_scsdb"),
		"options=-c standard_conforming_strings=off":  s.URL(readerRole, readerPassword, "chinook") + "&options=-c%20standard_conforming_strings%3Doff%20-c%20client_encoding%3DSJIS",
		"a role with client_encoding SJIS":            s.URL("r3_sjis", "pw-sjis", "chinook"),
	}
	t.Run("PGOPTIONS", func(t *testing.T) {
		t.Setenv("PGOPTIONS", "-c standard_conforming_strings=off -c client_encoding=SJIS")
		checkOneReading(t, openURL(t, s.URL(readerRole, readerPassword, "chinook")), attack)
	})
	for what, url := range conns {
		t.Run(what, func(t *testing.T) { checkOneReading(t, openURL(t, url), attack) })
	}
}

func checkOneReading(t *testing.T, db *DB, attack string) {
	t.Helper()
	ctx := context.Background()
	res, err := db.Run(ctx, attack, engine.RunOptions{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatalf("%s: %v", attack, err)
	}
	if len(res.Columns) != 1 || fmt.Sprint(res.Rows[0][0]) != `a\` {
		t.Fatalf("%s: the server read it otherwise: %v %v", attack, res.Columns, res.Rows)
	}
	res, err = db.Run(ctx, "SELECT current_setting('standard_conforming_strings'), current_setting('client_encoding'), 'é表'", engine.RunOptions{})
	if err != nil || fmt.Sprint(res.Rows[0]...) != "onUTF8é表" {
		t.Fatalf("the session's settings: %v %v", res, err)
	}
}

// TestSessionHoldsNothing: on one connection reused call after call (as
// MCP's is), no call leaves a lock, a second connection or a setting for
// the next, and another session stays alive.
func TestSessionHoldsNothing(t *testing.T) {
	s := server(t)
	chk := newChecker(t)
	v := newVictim(t, s)
	db := openReader(t)
	ctx := context.Background()
	for _, q := range []string{
		"SELECT pg_advisory_lock(7001)", "SELECT (7001::bigint).pg_advisory_lock", "SELECT pg_try_advisory_lock(7002)",
		"SELECT setseed(0.5)", "SELECT (0.5::float8).setseed", "SELECT set_config('search_path', 'sales', false)",
		"SELECT dblink_connect('c', 'dbname=chinook')", "SELECT ('dbname=chinook'::text).dblink_connect",
		"SELECT (pid).pg_terminate_backend FROM pg_stat_activity WHERE application_name = 'querent-victim'",
	} {
		if _, err := db.Run(ctx, q, engine.RunOptions{}); err == nil {
			t.Errorf("%s ran", q)
		}
		if _, err := db.Run(ctx, "SELECT count(*) FROM genre", engine.RunOptions{}); err != nil {
			t.Fatalf("the next call after %s: %v", q, err)
		}
		if l := chk.locks(); len(l) > 0 {
			t.Errorf("after %s: locks %v", q, l)
		}
		if ss := chk.sessions(); len(ss) > 0 {
			t.Errorf("after %s: sessions %v", q, ss)
		}
		if err := v.alive(); err != nil {
			t.Fatalf("after %s: another session was ended: %v", q, err)
		}
	}
	// With both checks bypassed, a lock and a setting taken in one call
	// are gone before the next (the envelope's DISCARD ALL).
	if _, err := rawRun(t, db, "SELECT pg_advisory_lock(7003), set_config('search_path', 'sales', false)", time.Second); err != nil {
		t.Fatal(err)
	}
	if l := chk.locks(); len(l) > 0 {
		t.Errorf("a lock outlived the call: %v", l)
	}
	res, err := db.Run(ctx, "SELECT current_setting('search_path')", engine.RunOptions{})
	if err != nil || fmt.Sprint(res.Rows[0][0]) == "sales" {
		t.Errorf("a setting outlived the call: %v %v", res, err)
	}
}

// TestNothingStartsBehindARunaway: PostgreSQL 15's LIKE matcher checks for
// no interrupt, so a statement past its timeout runs on after Querent's
// cancel; Querent starts no other statement on the server until it ends.
func TestNothingStartsBehindARunaway(t *testing.T) {
	db := openReader(t)
	chk := newChecker(t)
	ctx := context.Background()
	const bomb = "SELECT repeat('a', 400000) LIKE '%' || repeat('a', 4000) || 'b'"
	start := time.Now()
	_, err := db.Run(ctx, bomb, engine.RunOptions{Timeout: 200 * time.Millisecond})
	if engine.ErrorCode(err) != engine.CodeTimeout {
		t.Fatalf("the LIKE bomb: %v", err)
	}
	busy := func() bool {
		for _, r := range chk.query("SELECT state FROM pg_stat_activity WHERE application_name = 'querent' AND state = 'active'") {
			if r[0] == "active" {
				return true
			}
		}
		return false
	}
	if !busy() {
		t.Skipf("the bomb stopped with its timeout (%s): the server interrupted it", time.Since(start))
	}
	// A statement with less time than the bomb has left is refused, and
	// says why.
	_, err = db.Run(ctx, "SELECT 1", engine.RunOptions{Timeout: 50 * time.Millisecond})
	e := engine.AsError(err)
	if e == nil || e.Code != engine.CodeTimeout || !strings.Contains(e.Message, "an earlier query of Querent's is still running on the server") {
		if busy() {
			t.Fatalf("a statement while the bomb runs: %v", err)
		}
	}
	// One with time enough waits for it, and runs alone.
	res, err := db.Run(ctx, "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'querent' AND state = 'active' AND pid <> pg_backend_pid()",
		engine.RunOptions{Timeout: time.Minute})
	if err != nil || fmt.Sprint(res.Rows[0][0]) != "0" {
		t.Fatalf("after waiting: %v %v", res, err)
	}
	t.Logf("the bomb ran %s past its 200ms timeout; the next statement waited for it", time.Since(start)-200*time.Millisecond)
}

func TestTargetSessionAttrs(t *testing.T) {
	s := server(t)
	url := readerURL(s)
	for _, tsa := range []string{"read-write", "primary", "any", "read-only", "prefer-standby"} {
		db := openURL(t, url+"&target_session_attrs="+tsa)
		if _, err := db.Run(context.Background(), "SELECT 1", engine.RunOptions{}); err != nil {
			t.Errorf("%s: %v", tsa, err)
		}
	}
	_, err := Open(context.Background(), url+"&target_session_attrs=standby", Options{})
	e := engine.AsError(err)
	if e == nil || !strings.Contains(e.Message, "no server of the connection string is a standby") || strings.Contains(everything(err), "SSL") {
		t.Fatalf("standby: %v", everything(err))
	}
}

func TestHostListProvenance(t *testing.T) {
	s := server(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := l.Addr().(*net.TCPAddr).Port
	l.Close()
	conn := fmt.Sprintf("host=127.0.0.1,127.0.0.1 port=%d,%d dbname=chinook user=%s password=%s sslmode=disable", dead, s.Port, readerRole, readerPassword)
	db := openURL(t, conn)
	if _, err := db.Run(context.Background(), "SELECT 1", engine.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	if got, want := db.Provenance().Server, "127.0.0.1:"+strconv.Itoa(s.Port); got != want {
		t.Fatalf("provenance names %s, want %s (the host that answered)", got, want)
	}
}

func TestPasswordInOtherFields(t *testing.T) {
	s := server(t)
	ctx := context.Background()
	const pw = "Wr0ng-Field-pw!"
	for _, c := range []engine.Connection{
		{DBType: "postgresql", Host: "postgres://" + readerRole + ":" + pw + "@nohost.invalid/chinook", Database: "chinook", Username: readerRole},
		{DBType: "postgresql", Host: "nohost.invalid password=" + pw, Database: "chinook", Username: readerRole},
		{DBType: "postgresql", Host: "127.0.0.1", Port: s.Port, Database: readerRole + ":" + pw + "@chinook", Username: readerRole, Password: readerPassword},
		{DBType: "postgresql", Host: "127.0.0.1", Port: s.Port, Database: "chinook password=" + pw, Username: readerRole, Password: readerPassword},
	} {
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		db, err := OpenConnection(cctx, c, Options{ConnectTimeout: 3 * time.Second})
		cancel()
		if err == nil {
			db.Close()
			t.Errorf("%+v connected", c)
			continue
		}
		if strings.Contains(everything(err), pw) {
			t.Errorf("the error shows the password written into a field: %s", everything(err))
		}
	}
}

// TestSchemaRunsNoView: introspection (MCP's first list_tables) reads
// views' columns from the catalog and never runs a view, a foreign table's
// wrapper or a row-level security policy.
func TestSchemaRunsNoView(t *testing.T) {
	s := server(t)
	v := newVictim(t, s)
	db := openReader(t)
	sc, err := db.Schema(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if err := v.alive(); err != nil {
		t.Fatalf("reading the schema ran the database's code: %v", err)
	}
	for _, tb := range sc.Tables {
		switch tb.Name {
		case "canary_view", "evil_view", "secured", "passwd_file":
			if len(tb.Samples.Values) > 0 || len(tb.Columns) == 0 || tb.Note == "" {
				t.Errorf("%s: samples %v, columns %d, note %q", tb.Name, tb.Samples.Values, len(tb.Columns), tb.Note)
			}
		case "genre":
			if len(tb.Samples.Values) == 0 || tb.RowCountEstimated {
				t.Errorf("a table is still sampled and counted: %+v", tb)
			}
		}
	}
}
