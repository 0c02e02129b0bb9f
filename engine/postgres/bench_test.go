package postgres

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"querent/engine/text"

	"github.com/jackc/pgx/v5/pgconn"

	"querent/engine"
	"querent/engine/postgres/pgparse"
)

// The benchmark report (QUERENT_BENCH=1; make bench): a guarded run against
// psql on the same queries, the cost of validation, and the cold start of
// PostgreSQL's parser with and without its compilation cache. Timed tests
// are benchmarks only: nothing here fails on a slow machine.

// probeEnv makes the test binary, started again, measure one cold start
// and exit (a cold start needs a fresh process).
const probeEnv = "QUERENT_PG_PROBE"

// probeMain runs in a fresh process: "parse DIR" times the first parse
// ("-" for no cache); "open DIR URL" times Open and the first Validate.
func probeMain(args []string) int {
	ctx := context.Background()
	dir := args[1]
	switch args[0] {
	case "parse":
		start := time.Now()
		if dir == "-" {
			dir = ""
		}
		pgparse.Warm(dir)
		if _, err := pgparse.Parse(ctx, "SELECT 1"); err != nil {
			fmt.Println("ERROR", err)
			return 1
		}
		fmt.Println("PROBE", time.Since(start).Nanoseconds(), 0)
	case "open":
		start := time.Now()
		db, err := Open(ctx, args[2], Options{ParserCacheDir: dir})
		if err != nil {
			fmt.Println("ERROR", err)
			return 1
		}
		opened := time.Since(start)
		if _, err := db.Validate(ctx, "SELECT billing_country, sum(total) FROM invoice GROUP BY 1"); err != nil {
			fmt.Println("ERROR", err)
			return 1
		}
		fmt.Println("PROBE", opened.Nanoseconds(), time.Since(start).Nanoseconds())
		db.Close()
	}
	return 0
}

func init() {
	if v := os.Getenv(probeEnv); v != "" {
		os.Exit(probeMain(strings.Fields(v)))
	}
}

// probe runs the test binary again in a probe mode and returns its two
// figures.
func probe(t *testing.T, args string) (time.Duration, time.Duration) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), probeEnv+"="+args)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("probe %s: %v\n%s", args, err, out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) == 3 && f[0] == "PROBE" {
			a, _ := strconv.ParseInt(f[1], 10, 64)
			b, _ := strconv.ParseInt(f[2], 10, 64)
			return time.Duration(a), time.Duration(b)
		}
	}
	t.Fatalf("probe %s: no figures in %s", args, out)
	return 0, 0
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

// benchQueries are the queries timed against psql: small answers over
// larger scans, a window, and 3,503 rows sent whole.
var benchQueries = []string{
	"SELECT billing_country, count(*), sum(total) FROM invoice GROUP BY 1 ORDER BY 3 DESC",
	"SELECT customer, count(*), count(DISTINCT channel) FROM big_events GROUP BY customer ORDER BY customer",
	"SELECT date_trunc('day', at) AS day, count(*) FROM big_events GROUP BY 1 ORDER BY 1",
	"SELECT invoice_id, sum(total) OVER (PARTITION BY customer_id ORDER BY invoice_date, invoice_id) FROM invoice",
	"SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY id), avg(customer) FROM big_events",
	"SELECT * FROM track",
}

func TestPostgresBenchReport(t *testing.T) {
	if os.Getenv("QUERENT_BENCH") == "" {
		t.Skip("set QUERENT_BENCH=1 to run the PostgreSQL benchmark report")
	}
	s := server(t)
	ctx := context.Background()
	var rep strings.Builder
	fmt.Fprintf(&rep, "POSTGRESQL BENCHMARK (engine/postgres, PostgreSQL %s on 127.0.0.1, medians)\n", srvVersion)

	// The parser's cold start, each in a fresh process.
	const runs = 3
	var noCache, coldCache, warmCache []time.Duration
	for i := 0; i < runs; i++ {
		d, _ := probe(t, "parse -")
		noCache = append(noCache, d)
		dir := filepath.Join(t.TempDir(), "cache")
		d, _ = probe(t, "parse "+dir)
		coldCache = append(coldCache, d)
		d, _ = probe(t, "parse "+dir)
		warmCache = append(warmCache, d)
	}
	fmt.Fprintf(&rep, "first parse in a process (compiling PostgreSQL's parser): no cache %s, empty cache %s (compiles and fills it), cache filled %s\n",
		median(noCache).Round(time.Millisecond), median(coldCache).Round(time.Millisecond), median(warmCache).Round(time.Millisecond))
	// Open + first Validate, cold, parser compiled while connecting.
	var openNo, valNo, openWarm, valWarm []time.Duration
	dir := filepath.Join(t.TempDir(), "cache")
	probe(t, "parse "+dir) // fill it
	for i := 0; i < runs; i++ {
		o, v := probe(t, "open - "+readerURL(s))
		openNo, valNo = append(openNo, o), append(valNo, v)
		o, v = probe(t, "open "+dir+" "+readerURL(s))
		openWarm, valWarm = append(openWarm, o), append(valWarm, v)
	}
	fmt.Fprintf(&rep, "cold Open + first Validate in a fresh process (the parser compiles while Open connects): no cache %s (Open alone %s), with the cache %s (Open alone %s)\n",
		median(valNo).Round(time.Millisecond), median(openNo).Round(time.Millisecond), median(valWarm).Round(time.Millisecond), median(openWarm).Round(time.Millisecond))

	// Validation per query over the benign corpus.
	db := openReader(t)
	queries := loadBenign(t)
	var local, full []time.Duration
	for round := 0; round < 3; round++ {
		for _, q := range queries {
			start := time.Now()
			if _, err := analyze(ctx, q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			local = append(local, time.Since(start))
			start = time.Now()
			if _, err := db.Validate(ctx, q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			full = append(full, time.Since(start))
		}
	}
	slices.Sort(local)
	slices.Sort(full)
	fmt.Fprintf(&rep, "validation over the %d benign queries: the parser and the policy p50 %s, p95 %s; with the server's Parse/Describe p50 %s, p95 %s (goal < 2 ms)\n",
		len(queries), local[len(local)/2].Round(time.Microsecond), local[len(local)*95/100].Round(time.Microsecond),
		full[len(full)/2].Round(time.Microsecond), full[len(full)*95/100].Round(time.Microsecond))

	// psql's process start, alone.
	var starts []time.Duration
	for i := 0; i < 5; i++ {
		cmd := s.PsqlCommand(ctx, "chinook", "-c", "SELECT 1")
		cmd.Stdout = nil
		start := time.Now()
		if err := cmd.Run(); err != nil {
			t.Fatal(err)
		}
		starts = append(starts, time.Since(start))
	}
	start := median(starts)
	fmt.Fprintf(&rep, "psql's process start and connection (SELECT 1): %s\n", start.Round(time.Millisecond))

	// A plain connection with no guard: the floor of the protocol itself.
	raw, err := pgconn.Connect(ctx, readerURL(s))
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close(ctx)
	const k = 20
	rep.WriteString("guarded Run against psql (per query: psql runs it " + strconv.Itoa(k) + " times in one process, its start taken away) and a bare pgx connection (no guard):\n")
	for _, q := range benchQueries {
		var ours, bare []time.Duration
		for i := 0; i < k; i++ {
			t0 := time.Now()
			if _, err := db.Run(ctx, q, engine.RunOptions{MaxRows: 100000, Timeout: time.Minute}); err != nil {
				t.Fatal(err)
			}
			ours = append(ours, time.Since(t0))
			t0 = time.Now()
			if _, err := raw.Exec(ctx, q).ReadAll(); err != nil {
				t.Fatal(err)
			}
			bare = append(bare, time.Since(t0))
		}
		// psql: the query k times, then once alone, both as one process.
		script := filepath.Join(t.TempDir(), "q.sql")
		os.WriteFile(script, []byte(strings.Repeat(q+";\n", k)), 0o644)
		var psqlK []time.Duration
		for i := 0; i < 3; i++ {
			cmd := s.PsqlCommand(ctx, "chinook", "-o", os.DevNull, "-f", script)
			t0 := time.Now()
			if err := cmd.Run(); err != nil {
				t.Fatal(err)
			}
			psqlK = append(psqlK, time.Since(t0))
		}
		perPsql := max((median(psqlK)-start)/k, time.Microsecond)
		o, b := median(ours), median(bare)
		fmt.Fprintf(&rep, "  %-100s Run %8s  psql %8s  ratio %.2f  (bare pgx %8s, guard overhead %.2f)\n", text.Excerpt(q, 100),
			o.Round(time.Microsecond), perPsql.Round(time.Microsecond), float64(o)/float64(perPsql), b.Round(time.Microsecond), float64(o)/float64(b))
	}
	rep.WriteString("(the guard's own cost per run: the parse and policy above, and two round trips: BEGIN, the SET LOCALs and the statement's Parse, whose rewritten tree the server sends back to be judged; then Bind and Execute, ROLLBACK and DISCARD ALL)\n")
	t.Log("\n" + rep.String())
	if dir := os.Getenv("QUERENT_REPORT_DIR"); dir != "" {
		os.MkdirAll(dir, 0o755)
		if err := os.WriteFile(filepath.Join(dir, "bench-postgres.txt"), []byte(rep.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// BenchmarkAnalyze is PostgreSQL's parser and the policy on one query.
func BenchmarkAnalyze(b *testing.B) {
	ctx := context.Background()
	q := "SELECT c.country, count(*), sum(i.total) FROM customer c JOIN invoice i USING (customer_id) WHERE i.invoice_date >= date '2012-01-01' GROUP BY 1 ORDER BY 3 DESC LIMIT 10"
	if _, err := analyze(ctx, q); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := analyze(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
}
