//go:build unix

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"querent/engine/postgres/pgtest"
)

// stopCase is a command stopped while its work runs: by a signal
// ("SIGINT", "SIGTERM") or, for querent mcp, by closing its standard input
// ("close").
type stopCase struct {
	name string
	args []string
	// mcpCall is the query of a run_query call, for querent mcp.
	mcpCall string
	// serveCall is the query the page runs (Results.Run), for querent serve.
	serveCall string
	how       string
	code      int // the exit status it must end with
}

// stopped is what happened to one stopCase.
type stopped struct {
	code     int
	exitedIn time.Duration // from the signal (or the closed input) to the exit
	stderr   string
	children []int     // the process's children (query workers) while it ran
	at       time.Time // when it was stopped
}

// mcpLines are the lines a client sends to run one query through querent
// mcp.
func mcpLines(sql string) string {
	call, _ := json.Marshal(sql)
	return strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"stopper","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"run_query","arguments":{"sql":` + string(call) + `}}}`,
	}, "\n") + "\n"
}

// runAndStop starts exe with c's arguments, waits until running says the
// work is under way (at most a minute), stops it as c says and waits for
// its exit.
func runAndStop(t *testing.T, exe string, c stopCase, env []string, running func() bool) stopped {
	t.Helper()
	cmd := exec.Command(exe, c.args...)
	cmd.Env = append(os.Environ(), env...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if c.serveCall == "" {
		cmd.Stdout = io.Discard
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stdout io.Reader
	if c.serveCall != "" {
		if stdout, err = cmd.StdoutPipe(); err != nil {
			t.Fatal(err)
		}
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if c.serveCall != "" {
		runOnPage(t, stdout, c.serveCall)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer func() {
		select {
		case <-exited:
		default:
			cmd.Process.Kill()
			<-exited
		}
	}()
	if c.mcpCall != "" {
		if _, err := io.WriteString(stdin, mcpLines(c.mcpCall)); err != nil {
			t.Fatal(err)
		}
	}
	for end := time.Now().Add(time.Minute); !running(); time.Sleep(20 * time.Millisecond) {
		select {
		case err := <-exited:
			exited <- err
			t.Fatalf("%s: exited before its work ran (%v): %s", c.name, err, errb.String())
		default:
		}
		if time.Now().After(end) {
			t.Fatalf("%s: the work did not start within a minute: %s", c.name, errb.String())
		}
	}
	children := childrenOf(cmd.Process.Pid)
	start := time.Now()
	switch c.how {
	case "SIGINT":
		cmd.Process.Signal(os.Interrupt)
	case "SIGTERM":
		cmd.Process.Signal(syscall.SIGTERM)
	case "close":
		stdin.Close()
	}
	var werr error
	select {
	case werr = <-exited:
		exited <- werr
	case <-time.After(patience):
		t.Fatalf("%s: still running %s after %s: %s", c.name, patience, c.how, errb.String())
	}
	s := stopped{exitedIn: time.Since(start), stderr: errb.String(), children: children, at: start}
	var ee *exec.ExitError
	switch {
	case errors.As(werr, &ee):
		s.code = ee.ExitCode()
	case werr != nil:
		t.Fatalf("%s: %v", c.name, werr)
	}
	return s
}

// runOnPage reads the address querent serve prints and, as the page
// would, runs sql there (Results.Run), without waiting for the answer.
func runOnPage(t *testing.T, stdout io.Reader, sql string) {
	t.Helper()
	lines := bufio.NewScanner(stdout)
	for lines.Scan() {
		addr := strings.TrimSpace(lines.Text())
		if !strings.HasPrefix(addr, "http://127.0.0.1:") {
			continue
		}
		go io.Copy(io.Discard, stdout)
		body, _ := json.Marshal([]string{sql})
		go func() {
			resp, err := http.Post(strings.Replace(addr, "/?token=", "/call/Results.Run?token=", 1), "application/json", bytes.NewReader(body))
			if err == nil {
				resp.Body.Close()
			}
		}()
		return
	}
	t.Fatalf("querent serve printed no address: %v", lines.Err())
}

// noChildLeft fails when a child of a stopped command is still alive a
// second after its parent's exit.
func noChildLeft(t *testing.T, what string, pids []int) {
	t.Helper()
	for _, pid := range pids {
		gone := false
		for end := time.Now().Add(time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
			if _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); err != nil || isZombie(pid) {
				gone = true
				break
			}
		}
		if !gone {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("%s: the query worker %d outlived its parent", what, pid)
		}
	}
}

// stopCases are the commands and ways of stopping them that must end the
// work in flight promptly: sql by SIGTERM and SIGINT, export and ask
// --input (request: a file whose question is the query) by SIGTERM, mcp by
// SIGINT, SIGTERM and the end of its input, serve (a query run by the
// page) by SIGTERM. flags go before every
// command's own (--allow-superuser…).
func stopCases(db, query, request, out string, flags ...string) []stopCase {
	with := func(args ...string) []string { return append(append(args[:1:1], flags...), args[1:]...) }
	var cs []stopCase
	for _, sig := range []string{"SIGTERM", "SIGINT"} {
		cs = append(cs, stopCase{name: "sql, " + sig, args: with("sql", "--db", db, "--timeout", "5m", "--format", "json", "--", query), how: sig, code: 130})
	}
	cs = append(cs,
		stopCase{name: "export, SIGTERM", args: with("export", "--db", db, "--timeout", "5m", "--sql", query, "--out", out), how: "SIGTERM", code: 130},
		stopCase{name: "ask --input, SIGTERM", args: with("ask", "--input", request), how: "SIGTERM", code: 130})
	for _, how := range []string{"SIGINT", "SIGTERM", "close"} {
		code := 130
		if how == "close" {
			code = 0 // the client ended the session: not a cancellation
		}
		cs = append(cs, stopCase{name: "mcp, " + how, args: with("mcp", "--db", db, "--timeout", "5m"), mcpCall: query, how: how, code: code})
	}
	// Ctrl-C is how querent serve is stopped: status 0.
	cs = append(cs, stopCase{name: "serve, SIGTERM", args: with("serve", "--db", db), serveCall: query, how: "SIGTERM", code: 0})
	return cs
}

// TestSignalsStopTheWork: on a SQLite file, SIGINT and SIGTERM stop sql,
// ask --input, export, eval, mcp and serve with an endless query running,
// and an import halfway, as does the end of mcp's input: each exits within the grace with the
// contract's status (130 cancelled; 0 for the client that ended its MCP
// session and for serve, which Ctrl-C stops), no query worker is left
// behind, and the import leaves no file.
func TestSignalsStopTheWork(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads the query workers from /proc")
	}
	exe := build(t)
	dir := t.TempDir()
	src, err := os.ReadFile("../../engine/sqlite/demo/Chinook_Sqlite.sqlite")
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "music.db")
	os.WriteFile(db, src, 0o644)
	const endless = "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM r) SELECT count(*) AS n FROM r"
	request := filepath.Join(dir, "request.json")
	b, _ := json.Marshal(map[string]any{"question": endless, "timeout_s": 300, "connection": map[string]any{"db_type": "sqlite", "host": db}})
	os.WriteFile(request, b, 0o644)
	preds := filepath.Join(dir, "preds.jsonl")
	b, _ = json.Marshal(map[string]string{"id": "tracks-count", "sql": endless})
	os.WriteFile(preds, append(b, '\n'), 0o644)
	// An import of a CSV that takes a few seconds (it runs in the process
	// itself, without a worker).
	imports := t.TempDir()
	big := filepath.Join(imports, "big.csv")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	w.WriteString("id,name,amount,day\n")
	for i := range 800_000 {
		fmt.Fprintf(w, "%d,name %d,%d.50,2024-%02d-%02d\n", i, i%977, i, i%12+1, i%28+1)
	}
	if err := errors.Join(w.Flush(), f.Close()); err != nil {
		t.Fatal(err)
	}
	cases := append(stopCases(db, endless, request, filepath.Join(dir, "out.csv")),
		stopCase{name: "eval, SIGTERM", args: []string{"eval", "--db", db, "--gold", "chinook", "--predictions", preds, "--format", "json"}, how: "SIGTERM", code: 130},
		stopCase{name: "import, SIGTERM", args: []string{"import", "--db", filepath.Join(imports, "big.sqlite"), big}, how: "SIGTERM", code: 130})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var started time.Time
			s := runAndStop(t, exe, c, nil, func() bool {
				// The query has had a moment in its worker (the database
				// opens in a few milliseconds).
				if started.IsZero() {
					started = time.Now()
				}
				return time.Since(started) > 700*time.Millisecond
			})
			if s.code != c.code || s.exitedIn > 3*time.Second {
				t.Errorf("exit %d after %s, want %d within 3 s: %s", s.code, s.exitedIn, c.code, s.stderr)
			}
			if len(s.children) == 0 && c.args[0] != "import" {
				t.Errorf("no query worker was running: the test proves nothing")
			}
			noChildLeft(t, c.name, s.children)
			t.Logf("%s: exited %d after %s", c.name, s.code, s.exitedIn.Round(time.Millisecond))
		})
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 3 {
		t.Errorf("files left: %v (want the database, the request and the predictions only)", entries)
	}
	if entries, _ := os.ReadDir(imports); len(entries) != 1 {
		t.Errorf("the stopped import left %v", entries)
	}
}

// TestPostgresSignalsStopTheStatement: a statement the guard allows and
// that would run for hours (a count over generate_series, under a 5-minute
// timeout) is stopped on the server when Querent is: SIGTERM and SIGINT to
// sql, SIGTERM to export, ask --input and serve (the page's query), SIGINT,
// SIGTERM and the end of the input to mcp. Each exits within the grace
// with the contract's status, and pg_stat_activity (read as the superuser
// over the socket) shows no statement of application_name 'querent' left
// running a moment later.
func TestPostgresSignalsStopTheStatement(t *testing.T) {
	p := startPGFaces(t)
	dir := t.TempDir()
	const long = "SELECT count(*) AS n FROM generate_series(1, 10000000000) AS g"
	// active counts Querent's sessions and its statements running for at
	// least running. The signal waits for a statement that has run 300 ms:
	// the check of the statement (a Parse) shows as active for a moment
	// before it runs, and a signal then would land between the run's BEGIN
	// and its statement, where PostgreSQL drops a cancel request (a backend
	// reading its next message ignores it) and the pipelined statement runs
	// on: a race of the engine's envelope, not of the faces' stopping.
	active := func(running time.Duration) (statements, sessions int) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		out, err := p.srv.Psql(ctx, "chinook", "-F", " ", "-c", fmt.Sprintf(`SELECT count(*) FILTER (WHERE state = 'active' AND query LIKE '%%generate_series%%'
  AND clock_timestamp() - query_start >= interval '%d milliseconds'), count(*)
FROM pg_stat_activity WHERE application_name = 'querent'`, running.Milliseconds()))
		if err != nil {
			t.Fatalf("pg_stat_activity: %v %s", err, out)
		}
		if _, err := fmt.Sscan(out, &statements, &sessions); err != nil {
			t.Fatalf("pg_stat_activity: %q", out)
		}
		return statements, sessions
	}
	if n, _ := active(0); n != 0 {
		t.Fatalf("%d statements running before the test", n)
	}
	request := filepath.Join(dir, "request.json")
	b, _ := json.Marshal(map[string]any{"question": long, "timeout_s": 300, "connection": map[string]any{"db_type": "postgresql",
		"host": "127.0.0.1", "port": p.srv.Port, "database": "chinook", "username": pgtest.Reader, "password": pgtest.ReaderPassword, "ssl": false}})
	os.WriteFile(request, b, 0o644)
	var report strings.Builder
	fmt.Fprintf(&report, "%-22s %-5s %-10s %-18s %s\n", "command", "exit", "exited in", "no statement by", "sessions left")
	for _, c := range stopCases(p.reader, long, request, filepath.Join(dir, "out.csv")) {
		t.Run(c.name, func(t *testing.T) {
			s := runAndStop(t, build(t), c, nil, func() bool { n, _ := active(300 * time.Millisecond); return n > 0 })
			// From the signal to the first look that finds no statement
			// left (an upper bound: the look itself takes a few ms).
			var gone time.Duration
			left, sessions := 0, 0
			for end := time.Now().Add(3 * time.Second); ; time.Sleep(20 * time.Millisecond) {
				left, sessions = active(0)
				if left == 0 {
					gone = time.Since(s.at)
					break
				}
				if time.Now().After(end) {
					break
				}
			}
			if s.code != c.code || s.exitedIn > 3*time.Second {
				t.Errorf("exit %d after %s, want %d within 3 s: %s", s.code, s.exitedIn, c.code, s.stderr)
			}
			if left != 0 {
				t.Errorf("%d statements still running 3 s after the exit", left)
				dump, _ := p.srv.Psql(context.Background(), "chinook", "-c", "SELECT pid, state, backend_start, xact_start, query_start, state_change, now(), wait_event_type, wait_event, left(query, 200) FROM pg_stat_activity WHERE application_name = 'querent'")
				t.Logf("signalled at %s\n%s", s.at.Format("15:04:05.000"), dump)
				// Ended here, so that the next case sees only its own.
				p.srv.Psql(context.Background(), "chinook", "-c", "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'querent'")
				for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
					if _, n := active(0); n == 0 {
						break
					}
				}
			}
			noSecrets(t, c.name, s.stderr)
			by := "still running"
			if left == 0 {
				by = gone.Round(time.Millisecond).String()
			}
			fmt.Fprintf(&report, "%-22s %-5d %-10s %-18s %d\n", c.name, s.code, s.exitedIn.Round(time.Millisecond), by, sessions)
			t.Logf("%s: exit %d after %s; statements left %d (none by %s), sessions left %d", c.name, s.code, s.exitedIn.Round(time.Millisecond), left, by, sessions)
		})
	}
	t.Logf("\n%s", report.String())
	if d := os.Getenv("QUERENT_REPORT_DIR"); d != "" {
		os.WriteFile(filepath.Join(d, "signals-postgres.txt"), []byte(report.String()), 0o644)
	}
}
