package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"querent/engine/postgres/pgtest"
)

// TestPostgresCLIBenchReport times what a user waits for on PostgreSQL:
// `querent sql --db postgres://…` against `psql` on the same queries, each
// a whole process (connecting, the guard, the output), alternating, seven
// rounds, medians. The engine-level figures (the guard's own cost, psql's
// start taken away) are engine/postgres's TestPostgresBenchReport.
func TestPostgresCLIBenchReport(t *testing.T) {
	if os.Getenv("QUERENT_BENCH") == "" {
		t.Skip("set QUERENT_BENCH=1 (make bench) to measure")
	}
	p := startPGFaces(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	big := `CREATE TABLE public.events AS SELECT g AS id, g % 1000 AS customer, (ARRAY['web','store','phone'])[1 + g % 3] AS channel,
  timestamp '2020-01-01' + g * interval '1 minute' AS at, (g % 997) * 1.5 AS amount FROM generate_series(1, 200000) g;
GRANT SELECT ON public.events TO ` + pgtest.Reader + `; ANALYZE;`
	if out, err := p.srv.Psql(ctx, "chinook", "-c", big); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	psql := filepath.Join(p.srv.Bin, "psql")
	queries := []struct{ name, sql string }{
		{"one row", "SELECT count(*) FROM invoice"},
		{"200,000 rows scanned, grouped", "SELECT channel, count(*), sum(amount) FROM events GROUP BY channel"},
		{"200,000 rows, by month", "SELECT date_trunc('month', at) AS m, sum(amount) FROM events GROUP BY 1 ORDER BY 1"},
		{"3,503 rows out", "SELECT * FROM track"},
	}
	var out strings.Builder
	line := func(format string, args ...any) {
		s := fmt.Sprintf(format, args...)
		out.WriteString(s + "\n")
		fmt.Println(s)
	}
	line("POSTGRESQL FROM THE COMMAND LINE (querent sql vs psql, whole processes, same server, median of 7)")
	// The parser's compiled code is cached in the data folder from the first run on.
	p.run(t, "", nil, "sql", "--db", p.reader, "SELECT 1")
	for _, q := range queries {
		var qs, ps []time.Duration
		for range 7 {
			start := time.Now()
			cmd := exec.Command(p.exe, "sql", "--db", p.reader, "--max-rows", "1000000", "--format", "csv", q.sql)
			if b, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("querent: %v %.300s", err, b)
			}
			qs = append(qs, time.Since(start))
			start = time.Now()
			cmd = exec.Command(psql, "-X", "-A", "-F", ",", "-d", p.reader, "-c", q.sql)
			if b, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("psql: %v %.300s", err, b)
			}
			ps = append(ps, time.Since(start))
		}
		mq, mp := median(qs), median(ps)
		line("  %-32s querent %7.1f ms  psql %6.1f ms  ratio %.2f  (difference %.0f ms)", q.name,
			ms(mq), ms(mp), float64(mq)/float64(mp), ms(mq-mp))
	}
	line("  the difference is Querent's fixed cost per process: start, the parser's cached code, the role check, the schema's names for error hints")
	if d := os.Getenv("QUERENT_REPORT_DIR"); d != "" {
		os.WriteFile(filepath.Join(d, "bench-postgres-cli.txt"), []byte(out.String()), 0o644)
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
