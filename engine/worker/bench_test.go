package worker_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"querent/engine"
	"querent/engine/benchtest"
	"querent/engine/sqlite"
	"querent/engine/worker"
)

// TestWorkerBenchReport measures what the query worker costs and what it
// buys (`make bench`): the cost of a worker (start, memory), the guarded
// path through it against the same guard in-process and the bare driver
// on 1,000,000 rows, the overshoot of the timeout and of a cancel over the
// red team's bombs, and the answer time of another database meanwhile.
func TestWorkerBenchReport(t *testing.T) {
	if os.Getenv("QUERENT_BENCH") == "" {
		t.Skip("set QUERENT_BENCH=1 (make bench) to measure")
	}
	ctx := context.Background()
	var out strings.Builder
	line := func(format string, args ...any) {
		s := fmt.Sprintf(format, args...)
		out.WriteString(s + "\n")
		fmt.Println(s)
	}
	line("THE QUERY WORKER (engine/worker) — %s, %d CPUs, %s", runtime.Version(), runtime.NumCPU(), time.Now().Format("2006-01-02 15:04"))

	// 1. What a worker costs.
	small := makeDB(t, "CREATE TABLE t(x)", "INSERT INTO t VALUES (1)")
	var starts []time.Duration
	var rss []int64
	for i := 0; i < 7; i++ {
		start := time.Now()
		c, err := worker.Open(ctx, small, worker.Config{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Run(ctx, "SELECT x FROM t", engine.RunOptions{}); err != nil {
			t.Fatal(err)
		}
		starts = append(starts, time.Since(start))
		rss = append(rss, residentBytes(c.PID()))
		c.Close()
	}
	line("a worker: start, open and first answer %s (median of 7; min %s, max %s); resident memory when idle %s",
		benchtest.Median(starts).Round(100*time.Microsecond), minOf(starts).Round(100*time.Microsecond), maxOf(starts).Round(100*time.Microsecond),
		engine.FormatSize(medianInt(rss)))
	c := open(t, small, worker.Config{})
	inproc, err := sqlite.Open(ctx, small, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer inproc.Close()
	rt := benchtest.TimeIt(5, func() {
		for i := 0; i < 200; i++ {
			if _, err := c.Run(ctx, "SELECT x FROM t", engine.RunOptions{}); err != nil {
				t.Fatal(err)
			}
		}
	}) / 200
	ip := benchtest.TimeIt(5, func() {
		for i := 0; i < 200; i++ {
			if _, err := inproc.Run(ctx, "SELECT x FROM t", engine.RunOptions{}); err != nil {
				t.Fatal(err)
			}
		}
	}) / 200
	line("a one-row query: %s through the worker, %s in-process (the round trip costs %s)", rt.Round(time.Microsecond), ip.Round(time.Microsecond), (rt - ip).Round(time.Microsecond))

	// 2. Ordinary queries on 1,000,000 rows.
	bigPath := makeBig(t)
	big := open(t, bigPath, worker.Config{})
	bigIn, err := sqlite.Open(ctx, bigPath, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer bigIn.Close()
	bare := benchtest.BareDB(t, bigPath)
	defer bare.Close()
	line("1,000,000-row table: median of 3 runs")
	line("  %-26s %10s %10s %10s %8s", "query", "worker", "in-process", "bare", "w/bare")
	var sumW, sumI, sumB time.Duration
	for _, q := range []struct{ name, sql string }{
		{"group by 100 categories", "SELECT cat, count(*), sum(amount) FROM big GROUP BY cat"},
		{"filtered count", "SELECT count(*) FROM big WHERE amount > 500 AND note LIKE '%7%'"},
		{"daily averages, sorted", "SELECT day, avg(qty), max(amount) FROM big GROUP BY day ORDER BY day"},
		{"top 1000 by amount", "SELECT * FROM big ORDER BY amount DESC LIMIT 1000"},
	} {
		w := benchtest.TimeIt(3, func() {
			if _, err := big.Run(ctx, q.sql, engine.RunOptions{MaxRows: 1000, Timeout: time.Minute}); err != nil {
				t.Fatal(err)
			}
		})
		in := benchtest.TimeIt(3, func() {
			if _, err := bigIn.Run(ctx, q.sql, engine.RunOptions{MaxRows: 1000, Timeout: time.Minute}); err != nil {
				t.Fatal(err)
			}
		})
		b := benchtest.TimeIt(3, func() { benchtest.BareRun(t, bare, q.sql) })
		sumW, sumI, sumB = sumW+w, sumI+in, sumB+b
		line("  %-26s %10s %10s %10s %7.2fx", q.name, w.Round(time.Millisecond), in.Round(time.Millisecond), b.Round(time.Millisecond), benchtest.Ratio(w, b))
	}
	line("  %-26s %10s %10s %10s %7.2fx   (goal: guarded through the worker / bare <= 1.1x)", "all four", sumW.Round(time.Millisecond), sumI.Round(time.Millisecond), sumB.Round(time.Millisecond), benchtest.Ratio(sumW, sumB))
	var streamed int64
	st := benchtest.TimeIt(3, func() {
		streamed = 0
		if _, err := big.Stream(ctx, "SELECT * FROM big", engine.StreamOptions{}, func([]engine.Column) error { return nil },
			func([]engine.Value) error { streamed++; return nil }); err != nil {
			t.Fatal(err)
		}
	})
	sti := benchtest.TimeIt(3, func() {
		if _, err := bigIn.Stream(ctx, "SELECT * FROM big", engine.StreamOptions{}, func([]engine.Column) error { return nil },
			func([]engine.Value) error { return nil }); err != nil {
			t.Fatal(err)
		}
	})
	line("streaming all %d rows × 6 columns (an export's read): %s through the worker, %s in-process (%.2fx)", streamed, st.Round(time.Millisecond), sti.Round(time.Millisecond), benchtest.Ratio(st, sti))

	// 3. Overshoot of the timeout and of a cancel over the bombs.
	bombs := []struct{ name, sql string }{
		{"like", likeBomb}, {"instr", instrBomb},
		{"glob", "SELECT printf('%.*c', 9999000, 'a') GLOB '*' || printf('%.*c', 9990, 'a') || 'b' AS g"},
		{"recursive CTE", "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT count(*) FROM r"},
		{"cross join", "SELECT count(*) FROM big a, big b"},
	}
	const timeout = 500 * time.Millisecond
	var over, cancels []time.Duration
	for _, b := range bombs {
		var mine []time.Duration
		for i := 0; i < 4; i++ {
			start := time.Now()
			_, err := big.Run(ctx, b.sql, engine.RunOptions{Timeout: timeout})
			if engine.ErrorCode(err) != engine.CodeTimeout {
				t.Fatalf("%s: %v", b.name, err)
			}
			mine = append(mine, max(0, time.Since(start)-timeout))
		}
		over = append(over, mine...)
		line("  timeout overshoot, %-14s p50 %s, max %s", b.name, benchtest.Median(mine).Round(time.Millisecond), maxOf(mine).Round(time.Millisecond))
		cctx, cancel := context.WithCancel(ctx)
		at := make(chan time.Time, 1)
		go func() { time.Sleep(300 * time.Millisecond); at <- time.Now(); cancel() }()
		_, err := big.Run(cctx, b.sql, engine.RunOptions{Timeout: time.Minute})
		if engine.ErrorCode(err) != engine.CodeCancelled {
			t.Fatalf("%s cancelled: %v", b.name, err)
		}
		cancels = append(cancels, time.Since(<-at))
	}
	line("timeout overshoot at %s, %d runs over %d bombs (incl. a new worker after each kill): p50 %s, max %s (goal: max <= 100ms)",
		timeout, len(over), len(bombs), benchtest.Median(over).Round(time.Millisecond), maxOf(over).Round(time.Millisecond))
	line("cancel to return, the same bombs: p50 %s, max %s (goal: <= 100ms)", benchtest.Median(cancels).Round(time.Millisecond), maxOf(cancels).Round(time.Millisecond))

	// 4. Another database answers while one runs a bomb.
	other := open(t, small, worker.Config{})
	bctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { big.Run(bctx, instrBomb, engine.RunOptions{Timeout: time.Minute}); close(done) }()
	time.Sleep(200 * time.Millisecond)
	var others []time.Duration
	for i := 0; i < 20; i++ {
		start := time.Now()
		if _, err := other.Run(ctx, "SELECT x FROM t", engine.RunOptions{}); err != nil {
			t.Fatal(err)
		}
		others = append(others, time.Since(start))
	}
	cancel()
	<-done
	line("another database while a bomb runs: p50 %s, max %s per query (20 queries)", benchtest.Median(others).Round(10*time.Microsecond), maxOf(others).Round(10*time.Microsecond))

	// 5. A pool under load: a call that needs a new worker beside a busy
	// one, 300 calls at once, and 300 with 5 runaways among them.
	pool := open(t, small, worker.Config{})
	var second []time.Duration
	for i := 0; i < 5; i++ {
		hctx, hold := context.WithCancel(ctx)
		held := make(chan struct{})
		go func() { pool.Run(hctx, instrBomb, engine.RunOptions{Timeout: time.Minute}); close(held) }()
		time.Sleep(100 * time.Millisecond)
		before := pool.Starts()
		start := time.Now()
		if _, err := pool.Run(ctx, "SELECT x FROM t", engine.RunOptions{}); err != nil {
			t.Fatal(err)
		}
		if pool.Starts() > before {
			second = append(second, time.Since(start))
		}
		hold()
		<-held
	}
	if len(second) > 0 {
		line("a call that starts a worker beside a busy one (no integrity check, the file's descriptor inherited): %s (median of %d)",
			benchtest.Median(second).Round(100*time.Microsecond), len(second))
	}
	for _, runaways := range []int{0, 5} {
		c := open(t, small, worker.Config{})
		var mu sync.Mutex
		var lat []time.Duration
		failed := 0
		var wg sync.WaitGroup
		start := time.Now()
		for i := range 300 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if runaways > 0 && i%(300/runaways) == 0 {
					c.Run(ctx, instrBomb, engine.RunOptions{Timeout: 2 * time.Second})
					return
				}
				s := time.Now()
				_, err := c.Run(ctx, "SELECT x FROM t", engine.RunOptions{Timeout: 30 * time.Second})
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					failed++
					return
				}
				lat = append(lat, time.Since(s))
			}()
		}
		wg.Wait()
		sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
		line("300 calls at once on one database, %d runaways (2 s timeout) among them: %d answered, %d failed, in %s; each p50 %s, p95 %s, max %s; %d workers",
			runaways, len(lat), failed, time.Since(start).Round(time.Millisecond), lat[len(lat)/2].Round(100*time.Microsecond),
			lat[len(lat)*95/100].Round(100*time.Microsecond), lat[len(lat)-1].Round(time.Millisecond), c.Starts())
		c.Close()
	}

	// 6. The identity of a file with a sparse 50 GB tail, and the
	// background sha256's pace (on 1 GB of holes).
	sparse := makeDB(t, "CREATE TABLE t(x)", "INSERT INTO t VALUES (1)")
	if err := os.Truncate(sparse, 50<<30); err == nil {
		var opens []time.Duration
		for i := 0; i < 5; i++ {
			start := time.Now()
			c, err := worker.Open(ctx, sparse, worker.Config{})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.Run(ctx, "SELECT x FROM t", engine.RunOptions{}); err != nil {
				t.Fatal(err)
			}
			if sum, _ := c.SHA256(ctx); !strings.HasPrefix(sum, "quick:") {
				t.Fatalf("fingerprint %s", sum)
			}
			opens = append(opens, time.Since(start))
			c.Close()
		}
		line("a file with a sparse 50 GB tail: open, first answer and fingerprint %s (median of 5; the sha256 follows in the background)",
			benchtest.Median(opens).Round(time.Millisecond))
		os.Truncate(sparse, 1<<30)
		start := time.Now()
		c := open(t, sparse, worker.Config{})
		for {
			if sum, _ := c.SHA256(ctx); !strings.HasPrefix(sum, "quick:") {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		d := time.Since(start)
		line("the background sha256 of 1 GB (sparse): %s, %.0f MB/s (50 GB: about %s)", d.Round(time.Millisecond),
			float64(1<<30)/d.Seconds()/1e6, (d * 50).Round(time.Second))
	}

	if d := os.Getenv("QUERENT_REPORT_DIR"); d != "" {
		os.MkdirAll(d, 0o755)
		os.WriteFile(filepath.Join(d, "bench-worker.txt"), []byte(out.String()), 0o644)
	}
}

func residentBytes(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/statm", pid))
	if err != nil {
		return 0
	}
	var size, res int64
	fmt.Sscan(string(b), &size, &res)
	return res * int64(os.Getpagesize())
}

func makeBig(t *testing.T) string {
	return makeDB(t, "PRAGMA journal_mode = OFF", "PRAGMA synchronous = OFF",
		"CREATE TABLE big(id INTEGER PRIMARY KEY, cat TEXT, amount REAL, qty INTEGER, day TEXT, note TEXT)",
		`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 1000000)
		 INSERT INTO big SELECT n, 'category ' || (n % 100), (n * 7919 % 100000) / 100.0, n % 50,
		   date('2020-01-01', '+' || (n % 1461) || ' days'), 'note ' || (n * 31 % 1000) FROM r`)
}

func minOf(ds []time.Duration) time.Duration {
	m := ds[0]
	for _, d := range ds {
		m = min(m, d)
	}
	return m
}

func maxOf(ds []time.Duration) time.Duration {
	m := ds[0]
	for _, d := range ds {
		m = max(m, d)
	}
	return m
}

func medianInt(xs []int64) int64 {
	s := append([]int64(nil), xs...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}
