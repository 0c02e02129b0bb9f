package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"querent/engine"
	"querent/engine/postgres/pgtest"
)

func TestLooksLikeConnString(t *testing.T) {
	for s, want := range map[string]bool{
		"postgres://u@h/db":             true,
		"postgresql://h:5433/db":        true,
		"PostgreSQL://h/db":             true,
		"host=localhost dbname=chinook": true,
		"dbname=chinook":                true,
		"service=prod":                  true,
		"chinook.sqlite":                false,
		"/home/a/data.db":               false,
		"C:\\data\\host=x.db":           false,
		"my host=file.sqlite":           true, // a path that looks like key=value: the faces check files first
		"./postgres_backup/chinook.db":  false,
	} {
		if got := LooksLikeConnString(s); got != want {
			t.Errorf("LooksLikeConnString(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestDisplayName(t *testing.T) {
	t.Setenv("PGPASSFILE", filepath.Join(t.TempDir(), "none"))
	for conn, want := range map[string]string{
		"postgres://agent:s3cret@db.example.com:6543/sales?sslmode=require":     "postgres://agent@db.example.com:6543/sales",
		"host=/var/run/postgresql port=5432 user=me password=hunter22 dbname=x": "postgres://me@[/var/run/postgresql]:5432/x",
		"postgres://u@[::1]:5432/d": "postgres://u@[::1]:5432/d",
	} {
		got, err := DisplayName(conn)
		if err != nil || got != want {
			t.Errorf("DisplayName(%q) = %q, %v; want %q", conn, got, err, want)
		}
	}
	_, err := DisplayName("postgres://agent:Sup3r-Secret@host:notaport/db")
	if err == nil || strings.Contains(everything(err), "Sup3r-Secret") {
		t.Errorf("a bad URL: %v (must fail without the password)", err)
	}
}

func TestSSLModeJSON(t *testing.T) {
	for in, want := range map[string]engine.SSLMode{`true`: "require", `false`: "disable", `"verify-full"`: "verify-full", `"Prefer"`: "prefer", `"on"`: "require"} {
		var c engine.Connection
		if err := json.Unmarshal([]byte(`{"db_type":"postgresql","ssl":`+in+`}`), &c); err != nil || c.SSL != want {
			t.Errorf("ssl %s: %q, %v; want %q", in, c.SSL, err, want)
		}
	}
	var c engine.Connection
	if err := json.Unmarshal([]byte(`{"ssl":"maybe"}`), &c); err == nil {
		t.Error(`ssl "maybe" was accepted`)
	}
	// Quotes and backslashes cannot add a parameter.
	c = engine.Connection{Host: "h", Database: "x' user='postgres", Username: `a\`, Password: "p'w"}
	cs := ConnString(c)
	if !strings.Contains(cs, `dbname='x\' user=\'postgres'`) || !strings.Contains(cs, `user='a\\'`) {
		t.Errorf("ConnString = %s", cs)
	}
}

// everything is every text an error carries: its message with the hint,
// %+v, and each error it wraps.
func everything(err error) string {
	var b strings.Builder
	for e := err; e != nil; e = errors.Unwrap(e) {
		fmt.Fprintf(&b, "%v\n%+v\n%#v\n", e, e, e)
		if ee, ok := e.(*engine.Error); ok {
			b.WriteString(ee.Message + "\n" + ee.Hint + "\n" + ee.Query + "\n")
		}
	}
	return b.String()
}

// secretsIn collects every string a DB shows about itself.
func secretsIn(db *DB) string {
	p := db.Provenance()
	r, _ := json.Marshal(db.Role())
	pj, _ := json.Marshal(p)
	return strings.Join([]string{db.Name(), strings.Join(db.Warnings(), "\n"), db.Role().Warning, p.String(), string(pj), string(r), fmt.Sprintf("%+v", p)}, "\n")
}

func TestConnectionForms(t *testing.T) {
	s := server(t)
	ctx := context.Background()
	t.Setenv("PGPASSFILE", filepath.Join(t.TempDir(), "none"))
	open := func(name, conn string) *DB {
		t.Helper()
		db, err := Open(ctx, conn, Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		t.Cleanup(func() { db.Close() })
		res, err := db.Run(ctx, "SELECT current_user, current_database()", engine.RunOptions{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := fmt.Sprint(res.Rows[0]...); got != readerRole+"chinook" {
			t.Errorf("%s: connected as %s", name, got)
		}
		if strings.Contains(secretsIn(db), readerPassword) {
			t.Errorf("%s: the password shows", name)
		}
		return db
	}
	db := open("URL", readerURL(s))
	if want := fmt.Sprintf("postgres://%s@127.0.0.1:%d/chinook", readerRole, s.Port); db.Name() != want {
		t.Errorf("Name() = %q, want %q", db.Name(), want)
	}
	if db.Dialect() != "postgresql" {
		t.Errorf("Dialect() = %q", db.Dialect())
	}
	open("key=value", fmt.Sprintf("host=127.0.0.1 port=%d user=%s password='%s' dbname=chinook sslmode=disable", s.Port, readerRole, readerPassword))

	// The environment, as libpq reads it.
	t.Setenv("PGHOST", "127.0.0.1")
	t.Setenv("PGPORT", strconv.Itoa(s.Port))
	t.Setenv("PGUSER", readerRole)
	t.Setenv("PGPASSWORD", readerPassword)
	t.Setenv("PGDATABASE", "chinook")
	t.Setenv("PGSSLMODE", "disable")
	open("PG* variables", "")
	t.Setenv("PGPASSWORD", "")

	// ~/.pgpass (PGPASSFILE), with the password out of the string.
	pgpass := filepath.Join(t.TempDir(), "pgpass")
	if err := os.WriteFile(pgpass, []byte(fmt.Sprintf("127.0.0.1:%d:chinook:%s:%s\n", s.Port, readerRole, readerPassword)), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PGPASSFILE", pgpass)
	open(".pgpass", fmt.Sprintf("postgres://%s@127.0.0.1:%d/chinook", readerRole, s.Port))

	// PGSERVICE with a service file.
	svc := filepath.Join(t.TempDir(), "pg_service.conf")
	if err := os.WriteFile(svc, []byte(fmt.Sprintf("[querent_test]\nhost=127.0.0.1\nport=%d\ndbname=chinook\nuser=%s\nsslmode=disable\n", s.Port, readerRole)), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PGHOST", "")
	t.Setenv("PGPORT", "")
	t.Setenv("PGUSER", "")
	t.Setenv("PGDATABASE", "")
	t.Setenv("PGSERVICEFILE", svc)
	t.Setenv("PGSERVICE", "querent_test")
	open("PGSERVICE", "")
	t.Setenv("PGSERVICE", "")

	// The sub-agent contract's connection object.
	var c engine.Connection
	if err := json.Unmarshal([]byte(fmt.Sprintf(`{"db_type": "postgresql", "host": "127.0.0.1", "port": %d, "database": "chinook",
		"username": %q, "password": %q, "ssl": false}`, s.Port, readerRole, readerPassword)), &c); err != nil {
		t.Fatal(err)
	}
	cdb, err := OpenConnection(ctx, c, Options{})
	if err != nil {
		t.Fatalf("OpenConnection: %v", err)
	}
	cdb.Close()
	if _, err := OpenConnection(ctx, engine.Connection{DBType: "mysql"}, Options{}); engine.ErrorCode(err) != engine.CodeUsage {
		t.Errorf("db_type mysql: %v", err)
	}

	// The Unix socket (trusted for local users).
	sdb, err := Open(ctx, s.SocketURL("chinook"), Options{AllowSuperuser: true})
	if err != nil {
		t.Fatalf("socket: %v", err)
	}
	if !strings.Contains(sdb.Name(), "[/") {
		t.Errorf("socket Name() = %q", sdb.Name())
	}
	sdb.Close()
}

func TestPasswordNeverShows(t *testing.T) {
	s := server(t)
	ctx := context.Background()
	t.Setenv("PGPASSFILE", filepath.Join(t.TempDir(), "none"))
	pw := readerPassword
	var texts []string
	add := func(what string, err error) {
		if err == nil {
			t.Errorf("%s: no error", what)
			return
		}
		texts = append(texts, what+": "+everything(err))
	}
	// A wrong password, a wrong database, a closed port, SSL required from
	// a server without it, a URL that cannot be read.
	_, err := Open(ctx, s.URL(readerRole, pw+"-wrong", "chinook"), Options{})
	add("wrong password", err)
	if e := engine.AsError(err); e.Code != engine.CodeDatabase || !strings.Contains(e.Message, "refused the password") {
		t.Errorf("wrong password: %v", err)
	}
	_, err = Open(ctx, s.URL(readerRole, pw, "chinok"), Options{})
	add("wrong database", err)
	if e := engine.AsError(err); e.Code != engine.CodeDatabase || !strings.Contains(e.Message, `database "chinok" does not exist`) {
		t.Errorf("wrong database: %v", err)
	}
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	_, err = Open(ctx, fmt.Sprintf("postgres://%s:%s@127.0.0.1:%d/chinook?sslmode=disable", readerRole, pw, port), Options{ConnectTimeout: 2 * time.Second})
	add("closed port", err)
	if e := engine.AsError(err); e.Code != engine.CodeDatabase || !strings.Contains(e.Message, "nothing is listening") {
		t.Errorf("closed port: %v", err)
	}
	_, err = Open(ctx, strings.Replace(s.URL(readerRole, pw, "chinook"), "sslmode=disable", "sslmode=require", 1), Options{})
	add("ssl required", err)
	if e := engine.AsError(err); e.Code != engine.CodeDatabase || !strings.Contains(e.Message, "SSL") {
		t.Errorf("ssl required: %v", err)
	}
	_, err = Open(ctx, "postgres://"+readerRole+":"+pw+"@127.0.0.1:notaport/chinook", Options{})
	add("bad URL", err)
	_, err = Open(ctx, "host=127.0.0.1 password="+pw+" port=x", Options{})
	add("bad key=value", err)
	_, err = OpenConnection(ctx, engine.Connection{Host: "127.0.0.1", Port: s.Port, Database: "chinook", Username: readerRole, Password: pw + "x", SSL: "disable"}, Options{})
	add("connection object", err)
	// A working connection, and the errors of queries.
	db, err := Open(ctx, readerURL(s), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	texts = append(texts, secretsIn(db))
	for _, q := range []string{"SELECT * FROM nope", "SELECT nope FROM album", "SELECT * FROM payroll", "SELECT pg_sleep(1)", "SELEC 1",
		"SELECT '" + pw + "' FROM nope"} {
		_, err := db.Run(ctx, q, engine.RunOptions{})
		if err == nil {
			t.Errorf("%s: no error", q)
			continue
		}
		e := engine.AsError(err)
		e.Query = "" // the query as written may hold anything the user typed
		msg := e.Message + e.Hint
		if q == "SELECT '"+pw+"' FROM nope" {
			continue // the user's own text, echoed in their own error: not the connection's password
		}
		texts = append(texts, msg)
	}
	for _, txt := range texts {
		if strings.Contains(txt, pw) {
			t.Errorf("the password shows in: %s", txt)
		}
		if strings.Contains(txt, urlEscape(pw)) && urlEscape(pw) != pw {
			t.Errorf("the URL-encoded password shows in: %s", txt)
		}
	}
}

func TestRoles(t *testing.T) {
	s := server(t)
	reader, super := openReader(t), openSuper(t)
	writer := openURL(t, s.URL(writerRole, writerPassword, "chinook"))
	if r := reader.Role(); !r.ReadOnly || r.Warning != "" || r.Superuser || len(reader.Warnings()) != 0 {
		t.Errorf("reader: %+v %v", r, reader.Warnings())
	}
	r := writer.Role()
	if r.ReadOnly || r.WritableTables != 2 || strings.Join(r.WritableExamples, ",") != "album,artist" || strings.Join(r.CreateSchemas, ",") != "public" {
		t.Errorf("writer: %+v", r)
	}
	if !strings.Contains(r.Warning, "connected as "+writerRole+", a role that may do more than read (may change 2 tables: album, artist; may create objects in public)") {
		t.Errorf("writer's warning: %s", r.Warning)
	}
	if w := writer.Warnings(); len(w) != 1 || w[0] != r.Warning {
		t.Errorf("writer's warnings: %v", w)
	}
	r = super.Role()
	if !r.Superuser || r.ReadOnly || !strings.HasPrefix(r.Warning, "connected as postgres, a superuser:") {
		t.Errorf("superuser: %+v", r)
	}
	// RequireReadOnlyRole refuses both, with the SQL of a SELECT-only role.
	for _, url := range []string{superURL(s), s.URL(writerRole, writerPassword, "chinook")} {
		_, err := Open(context.Background(), url, Options{RequireReadOnlyRole: true, AllowSuperuser: true})
		e := engine.AsError(err)
		if e == nil || e.Code != engine.CodeDatabase || !strings.Contains(e.Message, "a read-only role is required") ||
			!strings.Contains(e.Hint, "CREATE ROLE querent_reader LOGIN") || !strings.Contains(e.Hint, "GRANT SELECT ON ALL TABLES IN SCHEMA public TO querent_reader") {
			t.Errorf("RequireReadOnlyRole: %v", err)
		}
	}
	db, err := Open(context.Background(), readerURL(s), Options{RequireReadOnlyRole: true})
	if err != nil {
		t.Fatalf("RequireReadOnlyRole for the reader: %v", err)
	}
	db.Close()
	// The SQL of the hint makes a role Querent accepts.
	hint := readOnlyRoleSQL("chinook", []string{"public", "sales"})
	hint = strings.Replace(hint, "PASSWORD '…'", "PASSWORD 'Made-From-The-Hint-1'", 1)
	if _, err := s.Psql(context.Background(), "chinook", "-c", hint); err != nil {
		t.Fatalf("the hint's SQL: %v\n%s", err, hint)
	}
	db, err = Open(context.Background(), s.URL("querent_reader", "Made-From-The-Hint-1", "chinook"), Options{RequireReadOnlyRole: true})
	if err != nil {
		t.Fatalf("the role made from the hint: %v", err)
	}
	defer db.Close()
	if res, err := db.Run(context.Background(), "SELECT count(*) FROM track", engine.RunOptions{}); err != nil || res.Rows[0][0] != int64(3503) {
		t.Errorf("the hint's role reads: %v %v", res, err)
	}
	_ = pgtest.SuperUser
}

func TestProvenance(t *testing.T) {
	db := openReader(t)
	if p := db.Provenance(); !p.SnapshotTime.IsZero() || p.Database != "chinook" || p.Role != readerRole || !strings.HasPrefix(p.ServerVersion, "1") {
		t.Errorf("before a run: %+v", p)
	}
	before := time.Now().Add(-time.Minute)
	mustRun(t, db, "SELECT 1")
	p := db.Provenance()
	if p.SnapshotTime.Before(before) || p.SnapshotTime.After(time.Now().Add(time.Minute)) {
		t.Errorf("snapshot time %s", p.SnapshotTime)
	}
	if !strings.Contains(p.String(), "database chinook, role "+readerRole) {
		t.Errorf("String() = %s", p)
	}
}

// TestSessionBounds checks that the connection string cannot lift the
// session's bounds: Querent's startup parameters come after its options.
func TestSessionBounds(t *testing.T) {
	s := server(t)
	conn := readerURL(s) + "&options=" + strings.NewReplacer(" ", "%20", "=", "%3D").Replace("-c default_transaction_read_only=off -c statement_timeout=0") +
		"&default_transaction_read_only=off&application_name=mine"
	db := openURL(t, conn)
	res := mustRun(t, db, "SELECT current_setting('default_transaction_read_only'), current_setting('application_name')")
	if got := fmt.Sprint(res.Rows[0]...); got != "onmine" {
		t.Errorf("settings %s, want on and the user's application_name", got)
	}
	var sessionTimeout string
	err := db.withLock(context.Background(), func() error {
		rows, err := db.queryLocked(context.Background(), "SELECT current_setting('statement_timeout'), current_setting('transaction_read_only')")
		if err == nil {
			sessionTimeout = strings.Join(rows[0], " ")
		}
		return err
	})
	if err != nil || sessionTimeout != "30s on" {
		t.Errorf("outside a run: %q %v", sessionTimeout, err)
	}
}
