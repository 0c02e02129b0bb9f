package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"querent/engine/enginetest/casefile"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/xuri/excelize/v2"

	"querent/engine/eval"
	"querent/engine/ollama/ollamatest"
	"querent/engine/postgres/pgtest"
)

// pgFaces is Querent's binary against a private PostgreSQL server with the
// seeds' Chinook: the SELECT-only role's URL, the superuser's, and what the
// red team's cases need (a volatile function that writes, a table it
// writes to).
type pgFaces struct {
	srv                 *pgtest.Server
	exe                 string
	reader, super, port string
}

func startPGFaces(t *testing.T) *pgFaces {
	t.Helper()
	srv, reader := pgtest.StartChinook(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	fixtures := `CREATE TABLE public.audit_log (id serial PRIMARY KEY, note text);
CREATE FUNCTION public.querent_evil() RETURNS int LANGUAGE plpgsql VOLATILE AS $$
BEGIN INSERT INTO public.audit_log (note) VALUES ('pwned'); RETURN 1; END $$;
CREATE VIEW public.evil_view AS SELECT public.querent_evil() AS x;
CREATE SEQUENCE public.counter;
GRANT SELECT ON ALL TABLES IN SCHEMA public TO ` + pgtest.Reader + `;
GRANT SELECT ON ALL SEQUENCES IN SCHEMA public TO ` + pgtest.Reader + `;
ANALYZE;`
	if out, err := srv.Psql(ctx, "chinook", "-c", fixtures); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return &pgFaces{srv: srv, exe: build(t), reader: reader, super: srv.URL(pgtest.SuperUser, pgtest.SuperPassword, "chinook"),
		port: fmt.Sprint(srv.Port)}
}

// state is what a read must never change: every table's rows (count and
// checksum), the next transaction ID (a write spends one), the objects of
// public, roles, locks held and sessions other than this query's.
func (p *pgFaces) state(t *testing.T) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tables, err := p.srv.Psql(ctx, "chinook", "-c", `SELECT string_agg(tablename, ' ' ORDER BY tablename) FROM pg_tables WHERE schemaname = 'public'`)
	if err != nil {
		t.Fatal(err)
	}
	var q []string
	for _, tb := range strings.Fields(tables) {
		q = append(q, fmt.Sprintf(`SELECT '%[1]s', count(*), md5(coalesce(string_agg(t::text, ',' ORDER BY t::text), '')) FROM public.%[1]s t`, tb))
	}
	q = append(q, `SELECT 'xmax', txid_snapshot_xmax(txid_current_snapshot()), ''`,
		`SELECT 'objects', count(*), md5(string_agg(relname::text || relkind::text, ',' ORDER BY relname)) FROM pg_class WHERE relnamespace = 'public'::regnamespace`,
		`SELECT 'functions', count(*), '' FROM pg_proc WHERE pronamespace = 'public'::regnamespace`,
		`SELECT 'roles', count(*), md5(string_agg(rolname::text || rolsuper::text, ',' ORDER BY rolname)) FROM pg_roles`,
		`SELECT 'locks', count(*), '' FROM pg_locks WHERE pid <> pg_backend_pid() AND locktype <> 'virtualxid'`,
		`SELECT 'advisory', count(*), '' FROM pg_locks WHERE locktype = 'advisory'`,
		`SELECT 'sessions', count(*), '' FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()`,
		`SELECT 'prepared', count(*), '' FROM pg_prepared_xacts`)
	out, err := p.srv.Psql(ctx, "chinook", "-c", strings.Join(q, " UNION ALL "))
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return out
}

func (p *pgFaces) run(t *testing.T, stdin string, env []string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(p.exe, args...)
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr, cmd.Stdin = &out, &errb, strings.NewReader(stdin)
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), out.String(), errb.String()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, out.String(), errb.String()
}

// noSecrets fails when either password appears in s.
func noSecrets(t *testing.T, what, s string) {
	t.Helper()
	for _, pw := range []string{pgtest.ReaderPassword, pgtest.SuperPassword} {
		if strings.Contains(s, pw) {
			t.Errorf("%s holds a password: %.300s", what, s)
		}
	}
}

// TestPostgresFaces: every face on a real PostgreSQL server — sql (URL
// and key=value forms), schema, ask --input with the contract's connection
// object, export with the server's provenance, eval with the built-in gold
// set's translation, the superuser refused unless --allow-superuser (or
// the request's allow_superuser), then warned about, and refused again
// under --require-readonly-role — and the password in no output, no
// error, no history, no export and no file of the data folder.
func TestPostgresFaces(t *testing.T) {
	p := startPGFaces(t)
	before := p.state(t)
	dir := t.TempDir()

	code, out, errs := p.run(t, "", nil, "sql", "--db", p.reader, "--format", "json", "SELECT count(*) AS n FROM invoice")
	if code != 0 || !strings.Contains(out, `"n": 412`) {
		t.Fatalf("sql: exit %d %s %s", code, out, errs)
	}
	noSecrets(t, "sql's output", out+errs)
	kv := fmt.Sprintf("host=127.0.0.1 port=%s dbname=chinook user=%s password=%s sslmode=disable", p.port, pgtest.Reader, pgtest.ReaderPassword)
	if code, out, errs := p.run(t, "", nil, "sql", "--db", kv, "SELECT name FROM artist WHERE artist_id = 1"); code != 0 || !strings.Contains(out, "AC/DC") {
		t.Errorf("sql, key=value: exit %d %s %s", code, out, errs)
	}
	// The superuser: refused unless allowed, saying how to allow it; then
	// connected, with the warning; refused again when a read-only role is
	// required.
	code, out, errs = p.run(t, "", nil, "sql", "--db", p.super, "--format", "json", "SELECT 1 AS one")
	if code != 2 || !strings.Contains(out, `"type": "database"`) || !strings.Contains(out, "is a superuser") ||
		!strings.Contains(out, "--allow-superuser") || !strings.Contains(out, "CREATE ROLE") || strings.Contains(out, `"results": [{`) {
		t.Errorf("sql as the superuser: exit %d, want refused: %s %s", code, out, errs)
	}
	noSecrets(t, "the superuser's refusal", out+errs)
	code, _, errs = p.run(t, "", nil, "schema", "--db", p.super)
	if code != 2 || !strings.Contains(errs, "is a superuser") || !strings.Contains(errs, "hint: ") || !strings.Contains(errs, "--allow-superuser") {
		t.Errorf("schema as the superuser: exit %d, want refused: %s", code, errs)
	}
	code, out, errs = p.run(t, "", nil, "sql", "--db", p.super, "--allow-superuser", "--format", "json", "SELECT 1 AS one")
	if code != 0 || !strings.Contains(out, `"one": 1`) || !strings.Contains(strings.ToLower(out), "a superuser:") {
		t.Errorf("sql --allow-superuser as the superuser: exit %d, want the warning: %s %s", code, out, errs)
	}
	noSecrets(t, "sql's output as the superuser", out+errs)
	for _, args := range [][]string{{"--require-readonly-role"}, {"--require-readonly-role", "--allow-superuser"}} {
		code, _, errs = p.run(t, "", nil, append(append([]string{"sql", "--db", p.super}, args...), "SELECT 1")...)
		if code != 2 || !strings.Contains(errs, "CREATE ROLE") {
			t.Errorf("%v as the superuser: exit %d %s", args, code, errs)
		}
		noSecrets(t, "the refusal", errs)
	}
	// ask --input: the request's allow_superuser.
	superReq := func(allow bool) string {
		b, _ := json.Marshal(map[string]any{"question": "SELECT 1 AS one", "allow_superuser": allow, "connection": map[string]any{"db_type": "postgresql",
			"host": "127.0.0.1", "port": p.srv.Port, "database": "chinook", "username": pgtest.SuperUser, "password": pgtest.SuperPassword}})
		return string(b)
	}
	code, out, errs = p.run(t, superReq(false), nil, "ask", "--input", "-")
	if code != 2 || !strings.Contains(out, "is a superuser") || !strings.Contains(out, `"errors": [`) {
		t.Errorf("ask --input as the superuser: exit %d, want refused: %.500s %s", code, out, errs)
	}
	code, out, errs = p.run(t, superReq(true), nil, "ask", "--input", "-")
	if code != 0 || !strings.Contains(out, `"one": 1`) || !strings.Contains(out, "a superuser:") {
		t.Errorf("ask --input with allow_superuser: exit %d, want the warning: %.500s %s", code, out, errs)
	}
	noSecrets(t, "ask --input as the superuser", out+errs)
	code, _, errs = p.run(t, "", nil, "mcp", "--db", p.super)
	if code != 2 || !strings.Contains(errs, "is a superuser") {
		t.Errorf("mcp on the superuser: exit %d, want refused: %s", code, errs)
	}
	noSecrets(t, "mcp's refusal", errs)
	if code, _, errs := p.run(t, "", nil, "sql", "--db", p.reader, "--require-readonly-role", "SELECT 1"); code != 0 {
		t.Errorf("--require-readonly-role as the reader: exit %d %s", code, errs)
	}
	// A wrong password: a clear error, without the password given.
	wrong := strings.Replace(p.reader, pgtest.ReaderPassword, "Wrong-Pw-5150", 1)
	code, out, errs = p.run(t, "", nil, "schema", "--db", wrong, "--format", "json")
	if code != 2 || strings.Contains(out+errs, "Wrong-Pw-5150") || !strings.Contains(out, "postgres://"+pgtest.Reader+"@127.0.0.1:"+p.port+"/chinook") {
		t.Errorf("wrong password: exit %d %s %s", code, out, errs)
	}

	// schema
	code, out, errs = p.run(t, "", nil, "schema", "--db", p.reader, "--format", "json")
	var sch struct {
		Database string `json:"database"`
		Tables   []struct {
			Name string `json:"name"`
		} `json:"tables"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &sch) != nil || sch.Database != "postgres://"+pgtest.Reader+"@127.0.0.1:"+p.port+"/chinook" || len(sch.Tables) < 11 {
		t.Errorf("schema: exit %d %.300s %s", code, out, errs)
	}
	noSecrets(t, "the schema", out+errs)

	// ask --input with the connection object, the model scripted.
	fake := ollamatest.New(t, ollamatest.Answer("SELECT billing_country, SUM(total) AS sales FROM invoice GROUP BY 1 ORDER BY 2 DESC LIMIT 3",
		"The three countries that spent most.", "And per year?"))
	req, _ := json.Marshal(map[string]any{"question": "Which three countries spent most?", "connection": map[string]any{
		"db_type": "postgresql", "host": "127.0.0.1", "port": p.srv.Port, "database": "chinook",
		"username": pgtest.Reader, "password": pgtest.ReaderPassword, "ssl": false}, "max_rows": 10})
	code, out, errs = p.run(t, string(req), []string{"OLLAMA_HOST=" + fake.URL}, "ask", "--input", "-")
	if code != 0 || !strings.Contains(out, `"USA"`) || !strings.Contains(out, "The three countries that spent most.") {
		t.Errorf("ask --input: exit %d %.600s %s", code, out, errs)
	}
	noSecrets(t, "ask's answer", out+errs)
	if reqs := fake.Requests(); len(reqs) == 0 || !strings.Contains(reqs[0].Messages[0].Content, "You write PostgreSQL queries") {
		t.Errorf("the model was not asked for PostgreSQL")
	}

	// export: the server's facts on the Provenance sheet.
	xlsx := filepath.Join(dir, "sales.xlsx")
	code, _, errs = p.run(t, "", nil, "export", "--db", p.reader, "--sql",
		"SELECT billing_country, SUM(total) AS sales FROM invoice GROUP BY 1 ORDER BY 2 DESC", "--chart", "auto", "--out", xlsx)
	if code != 0 {
		t.Fatalf("export: exit %d %s", code, errs)
	}
	f, err := excelize.OpenFile(xlsx)
	if err != nil {
		t.Fatal(err)
	}
	prov, _ := f.GetRows("Provenance")
	f.Close()
	facts := map[string]string{}
	for _, r := range prov {
		if len(r) >= 2 {
			facts[r[0]] = r[1]
		}
	}
	if facts["role"] != pgtest.Reader || facts["server"] != "127.0.0.1:"+p.port || !strings.HasPrefix(facts["server version"], "PostgreSQL 1") ||
		facts["snapshot time"] == "" || facts["database name"] != "chinook" {
		t.Errorf("provenance: %q", facts)
	}
	raw, _ := os.ReadFile(xlsx)
	noSecrets(t, "the workbook", string(raw))

	// eval: the built-in set's translation, perfect predictions.
	gold, err := eval.LoadFor("chinook", "postgresql")
	if err != nil {
		t.Fatal(err)
	}
	var preds strings.Builder
	for _, it := range gold.Items {
		if it.SQL != "" {
			b, _ := json.Marshal(map[string]string{"id": it.ID, "sql": it.SQL})
			preds.Write(append(b, '\n'))
		}
	}
	predFile := filepath.Join(dir, "preds.jsonl")
	os.WriteFile(predFile, []byte(preds.String()), 0o644)
	code, out, errs = p.run(t, "", nil, "eval", "--db", p.reader, "--gold", "chinook", "--predictions", predFile, "--format", "json")
	var rep struct {
		Items []struct {
			ID    string `json:"id"`
			Match bool   `json:"match"`
		} `json:"items"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil || len(rep.Items) != len(gold.Items) {
		t.Fatalf("eval on PostgreSQL: exit %d: %.300s %s", code, out, errs)
	}
	matched := 0
	for i, it := range rep.Items {
		// The unanswerable items have no SQL to predict.
		if gold.Items[i].SQL != "" && !it.Match {
			t.Errorf("eval on PostgreSQL: %s does not match its own gold SQL", it.ID)
		}
		if it.Match {
			matched++
		}
	}
	t.Logf("eval on PostgreSQL: %d of %d items matched (the others are unanswerable)", matched, len(rep.Items))

	// The history lists the question asked on the server, by its name.
	code, out, errs = p.run(t, "", nil, "history", "--db", p.reader, "--format", "json")
	if code != 0 || !strings.Contains(out, "Which three countries spent most?") || !strings.Contains(out, `"database": "postgres://`+pgtest.Reader+`@127.0.0.1:`+p.port+`/chinook"`) {
		t.Errorf("history --db URL: exit %d %.500s %s", code, out, errs)
	}
	noSecrets(t, "the history", out+errs)

	// No password in any file of the data folder (the history among them).
	data := os.Getenv("QUERENT_DATA_DIR")
	filepath.Walk(data, func(path string, info os.FileInfo, err error) error {
		if err == nil && info.Mode().IsRegular() && info.Size() < 64<<20 {
			b, _ := os.ReadFile(path)
			noSecrets(t, path, string(b))
		}
		return nil
	})
	if after := p.state(t); after != before {
		t.Errorf("the server changed:\nbefore %s\nafter  %s", before, after)
	}
}

// redTeam reads engine/postgres's hostile statements (testdata/redteam.txt)
// with their expected outcome; the generated giants ({{DEEP…}}) are left to
// the engine's own red team.
func redTeam(t *testing.T, dir string) []struct{ what, expect, sql string } {
	t.Helper()
	repl := strings.NewReplacer("{{DIR}}", filepath.ToSlash(dir), "{{EMPTY}}", "", "{{NUL}}", "")
	var cases []struct{ what, expect, sql string }
	for _, c := range casefile.Read(t, "../../engine/postgres/testdata/redteam.txt", repl) {
		if !strings.Contains(c.SQL, "{{") && strings.TrimSpace(c.SQL) != "" {
			cases = append(cases, struct{ what, expect, sql string }{c.Head, c.Expect, c.SQL})
		}
	}
	return cases
}

// TestPostgresRedTeamThroughTheFaces runs the PostgreSQL red team through
// MCP's run_query and explain_query (every case, as the SELECT-only role
// and as the superuser, allowed) and through sql and ask --input (every fourth
// case, both roles): what must be refused is refused by every face, no
// face crashes, and afterwards the server is as it was — rows, transaction
// IDs, objects, roles, locks and sessions.
func TestPostgresRedTeamThroughTheFaces(t *testing.T) {
	p := startPGFaces(t)
	cases := redTeam(t, p.srv.Dir)
	if len(cases) < 80 {
		t.Fatalf("only %d red-team cases", len(cases))
	}
	before := p.state(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.Command(p.exe, "mcp", "--allow-superuser", "--db", p.reader, "--db", p.super, "--timeout", "2s")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	client := sdk.NewClient(&sdk.Implementation{Name: "red-team", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v; %s", err, stderr.String())
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "list_databases", Arguments: map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	dbs := jsonOf(res.StructuredContent)
	if !strings.Contains(dbs, `"dialect":"postgresql"`) || !strings.Contains(strings.ToLower(dbs), "superuser") {
		t.Errorf("list_databases: %s", dbs)
	}
	noSecrets(t, "list_databases", dbs)
	counts := map[string]int{}
	for _, c := range cases {
		for _, db := range []string{"chinook", "chinook_2"} {
			for _, tool := range []string{"run_query", "explain_query"} {
				r, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: map[string]any{"database": db, "sql": c.sql}})
				if err != nil {
					t.Fatalf("%s %s on %s: the server failed: %v; %s", tool, c.what, db, err, stderr.String())
				}
				doc := jsonOf(r.StructuredContent)
				// What must be refused never runs (the refusal's reason may
				// differ from the engine's red team, whose fixtures are richer:
				// a function that does not exist here is unknown).
				if tool == "run_query" && c.expect == "refused" && !r.IsError {
					t.Errorf("%s on %s: %s ran: %.300s", tool, db, c.what, doc)
				}
				if strings.Contains(doc, `"type":"internal"`) {
					t.Errorf("%s on %s: %s: an internal error: %.300s", tool, db, c.what, doc)
				}
				noSecrets(t, tool, doc)
				counts[tool]++
			}
		}
	}
	for i, c := range cases {
		if i%4 != 0 {
			continue
		}
		for _, url := range []string{p.reader, p.super} {
			code, out, errs := p.run(t, "", nil, "sql", "--db", url, "--allow-superuser", "--timeout", "2s", "--format", "json", "--", c.sql)
			if code != 0 && code != 1 || (c.expect == "refused" && code != 1) {
				t.Errorf("sql: %s: exit %d %.300s %s", c.what, code, out, errs)
			}
			counts["sql"]++
			req, _ := json.Marshal(map[string]any{"question": c.sql, "timeout_s": 2, "allow_superuser": true, "connection": map[string]any{"db_type": "postgresql", "host": "127.0.0.1",
				"port": p.srv.Port, "database": "chinook", "username": map[bool]string{true: pgtest.Reader, false: pgtest.SuperUser}[url == p.reader],
				"password": map[bool]string{true: pgtest.ReaderPassword, false: pgtest.SuperPassword}[url == p.reader]}})
			code, out, errs = p.run(t, string(req), []string{"OLLAMA_HOST=127.0.0.1:1"}, "ask", "--input", "-")
			// A statement that compiles runs as SQL; anything else goes to the model, which is down.
			if code != 0 && code != 1 && code != 2 || (c.expect == "refused" && strings.Contains(out, `"results": [`) && !strings.Contains(out, `"errors": [`)) {
				t.Errorf("ask --input: %s: exit %d %.300s %s", c.what, code, out, errs)
			}
			noSecrets(t, "ask --input", out+errs)
			counts["ask --input"]++
		}
	}
	t.Logf("red team through the faces: %d cases; calls: %v", len(cases), counts)
	cs.Close()
	cmd.Wait()
	if after := p.state(t); after != before {
		t.Errorf("the server changed:\nbefore %s\nafter  %s", before, after)
	}
	if d := os.Getenv("QUERENT_REPORT_DIR"); d != "" {
		os.WriteFile(filepath.Join(d, "redteam-postgres-faces.txt"), []byte(fmt.Sprintf("cases %d, calls %v, server unchanged: %v\n",
			len(cases), counts, p.state(t) == before)), 0o644)
	}
}
