package main

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	_ "modernc.org/sqlite"
)

// The red team's bombs: one SQL function call over a 10 MB value, which
// SQLite runs as one step of its machine, deaf to interrupts (175 s, 574 s
// and more under a 2 s timeout before the query worker).
var bombs = map[string]string{
	"like":  "SELECT printf('%.*c', 9999000, 'a') LIKE '%' || printf('%.*c', 9990, 'a') || 'b' AS m",
	"instr": "SELECT instr(printf('%.*c', 9999000, 'a'), printf('%.*c', 4000000, 'a') || 'b') AS n",
	"glob":  "SELECT printf('%.*c', 9999000, 'a') GLOB '*' || printf('%.*c', 9990, 'a') || 'b' AS g",
}

// patience bounds a stopped bomb in these tests: far above the timeout
// plus its grace on a loaded machine, far below a bomb left running.
const patience = 20 * time.Second

// runExe runs the binary and returns its exit code, output and how long it took.
func runExe(t *testing.T, exe string, stdin string, args ...string) (int, string, string, time.Duration) {
	t.Helper()
	cmd := exec.Command(exe, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.Stdin = strings.NewReader(stdin)
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), out.String(), errb.String(), d
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, out.String(), errb.String(), d
}

// TestBombsStopOnTime: from sql, ask --input and export, every bomb ends
// with a timeout soon after its 1 s timeout.
func TestBombsStopOnTime(t *testing.T) {
	exe := build(t)
	dir := t.TempDir()
	for name, q := range bombs {
		code, _, errs, d := runExe(t, exe, "", "sql", "--timeout", "1s", q)
		if code != 1 || !strings.Contains(errs, "timeout") || d > patience {
			t.Errorf("sql %s: exit %d after %s: %s", name, code, d, errs)
		}
		t.Logf("sql %s: stopped after %s", name, d.Round(time.Millisecond))
	}
	req, _ := json.Marshal(map[string]any{"question": bombs["instr"], "timeout_s": 1})
	code, out, _, d := runExe(t, exe, string(req), "ask", "--input", "-")
	if code != 1 || !strings.Contains(out, `"type":"timeout"`) && !strings.Contains(out, `"type": "timeout"`) || d > patience {
		t.Errorf("ask --input: exit %d after %s: %.300s", code, d, out)
	}
	outFile := filepath.Join(dir, "bomb.csv")
	code, _, errs, d := runExe(t, exe, "", "export", "--timeout", "1s", "--sql", bombs["like"], "--out", outFile)
	if code != 1 || !strings.Contains(errs, "timeout") || d > patience {
		t.Errorf("export: exit %d after %s: %s", code, d, errs)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("export left %v", entries)
	}
}

// TestCtrlCStopsABomb: Ctrl-C ends a query that SQLite cannot interrupt.
func TestCtrlCStopsABomb(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT on Windows")
	}
	exe := build(t)
	cmd := exec.Command(exe, "sql", "--timeout", "10m", bombs["instr"])
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(700 * time.Millisecond)
	cmd.Process.Signal(os.Interrupt)
	start := time.Now()
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 || time.Since(start) > patience {
		t.Fatalf("exit %v after %s; stderr %s", err, time.Since(start), errb.String())
	}
	t.Logf("stopped %s after Ctrl-C", time.Since(start).Round(time.Millisecond))
}

// TestMemoryBombs: a row of 150 values of 10 MB, 20 rows of 10 MB, and a
// view of 80 such columns fail with too_big instead of taking gigabytes.
func TestMemoryBombs(t *testing.T) {
	exe := build(t)
	cols := make([]string, 150)
	for i := range cols {
		cols[i] = "printf('%.*c', 9999000 - " + strconv.Itoa(i) + ", 'x') AS c" + strconv.Itoa(i)
	}
	wide := "SELECT " + strings.Join(cols, ", ")
	tall := "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 20) SELECT printf('%.*c', 9999000, 'x') AS v FROM r"
	for name, q := range map[string]string{"wide": wide, "tall": tall} {
		code, _, errs, _ := runExe(t, exe, "", "sql", q)
		if code != 1 || !strings.Contains(errs, "too_big") {
			t.Errorf("%s: exit %d: %s", name, code, errs)
		}
	}
	db := hostileDB(t, "fat", "CREATE VIEW fat AS SELECT "+strings.Join(cols[:80], ", "))
	code, out, errs, _ := runExe(t, exe, "", "schema", "--db", db)
	if code != 0 || !strings.Contains(out, "fat") {
		t.Errorf("schema: exit %d: %s %s", code, out, errs)
	}
	code, _, errs, _ = runExe(t, exe, "", "export", "--db", db, "--sql", "SELECT * FROM fat", "--out", filepath.Join(t.TempDir(), "fat.xlsx"))
	if code != 1 || !strings.Contains(errs, "too_big") {
		t.Errorf("export: exit %d: %s", code, errs)
	}
}

// hostileDB writes a database with one ordinary table and the given
// statements (views meant to hang whoever reads them).
func hostileDB(t *testing.T, name string, stmts ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name+".db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range append([]string{"CREATE TABLE ok(id INTEGER PRIMARY KEY, name TEXT)", "INSERT INTO ok VALUES (1, 'a')"}, stmts...) {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	return path
}

const endlessView = "CREATE VIEW v AS WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM r) SELECT x FROM r WHERE x=1 OR x=1000000000000"

// TestHostileSchemaOpens: a view whose second row never comes (606 s of
// `querent schema` before) no longer holds up schema, serve or mcp.
func TestHostileSchemaOpens(t *testing.T) {
	exe := build(t)
	db := hostileDB(t, "hostile", endlessView, "CREATE VIEW b AS "+bombs["instr"])
	code, out, errs, d := runExe(t, exe, "", "schema", "--db", db)
	if code != 0 || !strings.Contains(out, "note:") || d > patience {
		t.Errorf("schema: exit %d after %s: %s %s", code, d, out, errs)
	}
	t.Logf("schema of the hostile file in %s", d.Round(time.Millisecond))

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, "serve", "--db", db, "--addr", "127.0.0.1:0")
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	line := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "http://127.0.0.1:") {
				line <- sc.Text()
				return
			}
		}
	}()
	select {
	case <-line:
		t.Logf("serve printed its address after %s", time.Since(start).Round(time.Millisecond))
	case <-time.After(patience):
		t.Fatal("serve did not print its address")
	}
}

// TestMCPBombHoldsUpNothingElse: while one database runs a bomb, the other
// databases answer, and a hostile schema answers list_tables.
func TestMCPBombHoldsUpNothingElse(t *testing.T) {
	exe := build(t)
	hostile := hostileDB(t, "hostile", endlessView)
	plain := hostileDB(t, "plain")
	other := hostileDB(t, "other")
	cmd := exec.Command(exe, "mcp", "--db", plain, "--db", other, "--db", hostile, "--timeout", "4s")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	client := sdk.NewClient(&sdk.Implementation{Name: "bomb-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	call := func(tool string, args map[string]any) (*sdk.CallToolResult, error) {
		return cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
	}
	bombDone := make(chan error, 1)
	go func() {
		res, err := call("run_query", map[string]any{"database": "plain", "sql": bombs["instr"]})
		if err == nil && !res.IsError {
			err = errors.New("the bomb answered")
		}
		bombDone <- err
	}()
	time.Sleep(300 * time.Millisecond)
	start := time.Now()
	res, err := call("run_query", map[string]any{"database": "other", "sql": "SELECT count(*) AS n FROM ok"})
	if err != nil || res.IsError {
		t.Fatalf("other database: %v %+v", err, res)
	}
	if res, err := call("list_tables", map[string]any{"database": "hostile"}); err != nil || res.IsError {
		t.Fatalf("list_tables on the hostile file: %v %+v", err, res)
	}
	t.Logf("another database answered in %s while the bomb ran", time.Since(start).Round(time.Millisecond))
	select {
	case err := <-bombDone:
		t.Fatalf("the bomb ended first: %v", err)
	default:
	}
	if res, err := call("list_databases", map[string]any{}); err != nil || res.IsError {
		t.Fatalf("list_databases: %v", err)
	}
	if err := <-bombDone; err != nil {
		t.Errorf("the bomb: %v", err)
	}
}

// TestKilledParentLeavesNothing: a SIGKILL of querent during a bomb on a
// file with a -wal leaves no worker running, and the private snapshot it
// stranded is removed by the next start.
func TestKilledParentLeavesNothing(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	exe := build(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "w.db")
	// A WAL file whose changes are not checkpointed: the writer's files are
	// copied while it still holds them, as another program would leave them.
	db, err := sql.Open("sqlite", path+"?_pragma=journal_mode(WAL)&_pragma=wal_autocheckpoint(0)")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	for _, s := range []string{"CREATE TABLE t(x)", "INSERT INTO t VALUES (1), (2)"} {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	mine := filepath.Join(dir, "mine.db")
	for _, suffix := range []string{"", "-wal"} {
		b, err := os.ReadFile(path + suffix)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(mine+suffix, b, 0o644)
	}
	db.Close()
	data := t.TempDir()
	env := append(os.Environ(), "QUERENT_DATA_DIR="+data)
	cmd := exec.Command(exe, "sql", "--db", mine, "--timeout", "10m", bombs["instr"])
	cmd.Env = env
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	snaps := filepath.Join(data, "snapshots")
	deadline := time.Now().Add(patience)
	for {
		if entries, _ := os.ReadDir(snaps); len(entries) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no snapshot was made")
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond)
	workers := childrenOf(cmd.Process.Pid)
	if len(workers) == 0 {
		t.Fatal("no worker found")
	}
	cmd.Process.Kill()
	cmd.Wait()
	for _, pid := range workers {
		gone := false
		for end := time.Now().Add(patience); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
			if _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); err != nil || isZombie(pid) {
				gone = true
				break
			}
		}
		if !gone {
			killPID(pid)
			t.Errorf("worker %d outlived its parent", pid)
		}
	}
	if entries, _ := os.ReadDir(snaps); len(entries) == 0 {
		t.Fatal("the snapshot was not stranded: the test proves nothing")
	}
	run := exec.Command(exe, "sql", "--db", mine, "SELECT count(*) FROM t")
	run.Env = env
	if out, err := run.CombinedOutput(); err != nil || !strings.Contains(string(out), "2") {
		t.Fatalf("%v: %s", err, out)
	}
	if entries, _ := os.ReadDir(snaps); len(entries) != 0 {
		t.Errorf("stranded snapshots left: %v", entries)
	}
}

// childrenOf lists a process's children.
func childrenOf(pid int) []int {
	var out []int
	tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	for _, task := range tasks {
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/children", pid, task.Name()))
		for _, f := range strings.Fields(string(b)) {
			if n, err := strconv.Atoi(f); err == nil {
				out = append(out, n)
			}
		}
	}
	return out
}

func isZombie(pid int) bool {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	i := strings.LastIndexByte(string(b), ')')
	return i > 0 && i+2 < len(b) && b[i+2] == 'Z'
}

// TestWorkerModeIsHidden: no environment makes a command a query worker
// (any non-empty QUERENT_WORKER did, --help included: 13 bytes of a frame
// on stdout, exit 0), nor the hidden argument typed without the parent's
// pipes.
func TestWorkerModeIsHidden(t *testing.T) {
	exe := build(t)
	for _, v := range []string{"0", "1", "false", "yes"} {
		cmd := exec.Command(exe, "sql", "--format", "csv", "SELECT 6 * 7 AS n")
		cmd.Env = append(os.Environ(), "QUERENT_WORKER="+v)
		out, err := cmd.Output()
		if err != nil || string(out) != "n\n42\n" {
			t.Errorf("QUERENT_WORKER=%s querent sql: %v, %q", v, err, out)
		}
		cmd = exec.Command(exe, "--help")
		cmd.Env = append(os.Environ(), "QUERENT_WORKER="+v)
		out, err = cmd.Output()
		if err != nil || !strings.Contains(string(out), "querent sql") {
			t.Errorf("QUERENT_WORKER=%s querent --help: %v, %q", v, err, out)
		}
	}
	// The hidden argument at a terminal (no pipes): an unknown command.
	cmd := exec.Command(exe, "--querent-query-worker=2")
	var errb bytes.Buffer
	cmd.Stderr = &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 {
		t.Errorf("the hidden argument alone: %v, %s", err, errb.String())
	}
}

// TestWorkerFromTheRunningBinary: a binary deleted (or replaced by an
// update) while querent mcp runs still starts its workers: a bomb's kill
// forces a new worker, and the next call is answered by it.
func TestWorkerFromTheRunningBinary(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("elsewhere the binary's path is resolved at start, and a deleted file cannot be run")
	}
	src, err := os.ReadFile(build(t))
	if err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(t.TempDir(), "querent-copy")
	if err := os.WriteFile(exe, src, 0o755); err != nil {
		t.Fatal(err)
	}
	db := hostileDB(t, "plain")
	cmd := exec.Command(exe, "mcp", "--db", db, "--timeout", "1s")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	client := sdk.NewClient(&sdk.Implementation{Name: "exe-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	call := func(sql string) (*sdk.CallToolResult, error) {
		return cs.CallTool(ctx, &sdk.CallToolParams{Name: "run_query", Arguments: map[string]any{"database": "plain", "sql": sql}})
	}
	if res, err := call("SELECT count(*) AS n FROM ok"); err != nil || res.IsError {
		t.Fatalf("first call: %v %+v", err, res)
	}
	if err := os.Remove(exe); err != nil {
		t.Fatal(err)
	}
	if res, err := call(bombs["instr"]); err != nil || !res.IsError || !strings.Contains(jsonOf(res), "timeout") {
		t.Fatalf("the bomb: %v %s", err, jsonOf(res))
	}
	if res, err := call("SELECT count(*) AS n FROM ok"); err != nil || res.IsError {
		t.Fatalf("after the binary was deleted: %v %s", err, jsonOf(res))
	}
}

// TestFIFOSwappedInNeverBlocks: a FIFO renamed in and out of a database's
// path while querent opens it never holds a command up (a check by name
// followed by an open blocked --timeout 2s for 60 s in 8 of 40 runs): each
// run answers from the file or refuses what is not one, at once.
func TestFIFOSwappedInNeverBlocks(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no FIFOs")
	}
	exe := build(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "swapped.db")
	reg := hostileDB(t, "regular")
	fifo := filepath.Join(dir, "fifo")
	if err := mkfifo(fifo); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	swapped := make(chan int)
	go func() {
		n := 0
		defer func() { swapped <- n }()
		for {
			for _, name := range []string{reg, fifo} {
				select {
				case <-stop:
					return
				default:
				}
				if os.Rename(name, path) == nil {
					time.Sleep(time.Millisecond)
					os.Rename(path, name)
					n++
				}
			}
		}
	}()
	answered, refused := 0, 0
	for i := 0; i < 30; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), patience)
		cmd := exec.CommandContext(ctx, exe, "sql", "--db", path, "--timeout", "2s", "SELECT count(*) FROM ok")
		start := time.Now()
		out, err := cmd.CombinedOutput()
		d := time.Since(start)
		cancel()
		var ee *exec.ExitError
		switch {
		case err == nil:
			answered++
		case errors.As(err, &ee) && ee.ExitCode() == 2 && strings.Contains(string(out), "database"):
			refused++
		default:
			t.Errorf("run %d: %v after %s: %s", i, err, d, out)
		}
		if d > 10*time.Second {
			t.Errorf("run %d took %s", i, d)
		}
	}
	close(stop)
	t.Logf("30 runs while the path was swapped %d times: %d answered, %d refused", <-swapped, answered, refused)
}

// TestSparseFileAnswersWithinTimeout: a database with a sparse 50 GB tail
// answers ask --timeout 2s within its timeout (37–87 s before: the sha256
// was read whole, outside the timeout) and records its quick identity; on
// MCP, a 200 GB one answers its first call and list_databases at once.
func TestSparseFileAnswersWithinTimeout(t *testing.T) {
	exe := build(t)
	db := hostileDB(t, "sparse")
	if err := os.Truncate(db, 50<<30); err != nil {
		t.Skip("no sparse files here")
	}
	data := t.TempDir()
	env := append(os.Environ(), "QUERENT_DATA_DIR="+data)
	cmd := exec.Command(exe, "ask", "--db", db, "--timeout", "2s", "SELECT 1 AS one")
	cmd.Env = env
	start := time.Now()
	out, err := cmd.CombinedOutput()
	d := time.Since(start)
	if err != nil || !strings.Contains(string(out), "1") {
		t.Fatalf("ask: %v %s", err, out)
	}
	if d > patience {
		t.Errorf("ask --timeout 2s took %s", d)
	}
	cmd = exec.Command(exe, "history", "--format", "json", "--db", db)
	cmd.Env = env
	out, err = cmd.Output()
	var hist struct {
		Entries []struct {
			SHA string `json:"database_sha256"`
		} `json:"entries"`
	}
	if err != nil || json.Unmarshal(out, &hist) != nil || len(hist.Entries) != 1 || !strings.HasPrefix(hist.Entries[0].SHA, "quick:") {
		t.Errorf("history: %v %s", err, out)
	}
	t.Logf("ask on a 50 GB sparse file: %s; recorded %s", d.Round(time.Millisecond), hist.Entries[0].SHA)

	if err := os.Truncate(db, 200<<30); err != nil {
		t.Fatal(err)
	}
	mcp := exec.Command(exe, "mcp", "--db", db, "--timeout", "2s")
	mcp.Env = env
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	client := sdk.NewClient(&sdk.Implementation{Name: "sparse-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: mcp}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	start = time.Now()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "run_query", Arguments: map[string]any{"database": "sparse", "sql": "SELECT count(*) AS n FROM ok"}})
	if err != nil || res.IsError {
		t.Fatalf("run_query: %v %s", err, jsonOf(res))
	}
	first := time.Since(start)
	if res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "list_databases", Arguments: map[string]any{}}); err != nil || res.IsError {
		t.Fatalf("list_databases: %v", err)
	}
	if d := time.Since(start); d > patience {
		t.Errorf("first call and list_databases on a 200 GB file took %s", d)
	}
	t.Logf("mcp on a 200 GB sparse file: first call %s, list_databases %s after it", first.Round(time.Millisecond), (time.Since(start) - first).Round(time.Millisecond))
}

// TestMCPRunawaysCostTheirCallersOnly: 300 MCP calls at once on one
// database, 5 of them runaways: every other call is answered (before,
// 32 were and 263 timed out without running, behind the runaways on the
// database's one worker).
func TestMCPRunawaysCostTheirCallersOnly(t *testing.T) {
	if testing.Short() {
		t.Skip("300 calls")
	}
	exe := build(t)
	db := hostileDB(t, "busy")
	cmd := exec.Command(exe, "mcp", "--db", db, "--timeout", "5s")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	client := sdk.NewClient(&sdk.Implementation{Name: "runaway-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	var wg sync.WaitGroup
	var mu sync.Mutex
	answered, runaways, failed := 0, 0, []string{}
	start := time.Now()
	for i := range 300 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sql := "SELECT count(*) AS n FROM ok"
			if i%60 == 0 {
				sql = bombs["instr"]
			}
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "run_query", Arguments: map[string]any{"database": "busy", "sql": sql}})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case i%60 == 0 && err == nil && res.IsError && (strings.Contains(jsonOf(res), `"timeout"`) || strings.Contains(jsonOf(res), `"too_big"`)):
				// Stopped at its timeout, or past its share of the memory
				// ceiling (a runaway's two 10 MB strings, while 15 other
				// workers share it).
				runaways++
			case i%60 != 0 && err == nil && !res.IsError:
				answered++
			default:
				text := ""
				if res != nil && len(res.Content) > 0 {
					text = jsonOf(res.Content[0])
				}
				failed = append(failed, fmt.Sprintf("call %d: %v %.300s", i, err, text))
			}
		}()
	}
	wg.Wait()
	if answered != 295 || runaways != 5 {
		t.Errorf("%d of 295 answered, %d of 5 runaways stopped; first failures: %v", answered, runaways, failed[:min(3, len(failed))])
	}
	t.Logf("300 MCP calls with 5 runaways: %d answered, in %s", answered, time.Since(start).Round(time.Millisecond))
}
