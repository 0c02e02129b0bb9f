package main

import (
	"archive/zip"
	"context"
	"fmt"
	"math/rand/v2"
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

	"querent/engine"
)

// treeWatch follows the resident size of a process and all its
// descendants (the query workers), every 5 ms, until stop is called; stop
// returns the largest total seen.
func treeWatch(pid int) (stop func() int64) {
	done := make(chan struct{})
	peak := make(chan int64, 1)
	go func() {
		var most int64
		defer func() { peak <- most }()
		for {
			var total int64
			for _, p := range append([]int{pid}, descendantsOf(pid)...) {
				total += statmRSS(p)
			}
			most = max(most, total)
			select {
			case <-done:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	return func() int64 {
		close(done)
		return <-peak
	}
}

func descendantsOf(pid int) []int {
	var out []int
	for _, c := range childrenOf(pid) {
		out = append(out, c)
		out = append(out, descendantsOf(c)...)
	}
	return out
}

func statmRSS(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/statm", pid))
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	n, _ := strconv.ParseInt(f[1], 10, 64)
	return n * int64(os.Getpagesize())
}

// runUnder runs the binary under a memory ceiling and returns its exit
// code, output and the peak resident size of its process tree.
func runUnder(t *testing.T, exe, ceiling string, args ...string) (int, string, int64) {
	t.Helper()
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), "QUERENT_MAX_MEMORY="+ceiling)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stop := treeWatch(cmd.Process.Pid)
	err := cmd.Wait()
	peak := stop()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, out.String(), peak
}

// tenMBValues are 200 values of 10 MB made by SQL: the red team's export
// (querent and its worker took 1.05-1.54 GB under a 1 GB ceiling), with
// no file to write.
const tenMBValues = "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM r WHERE i < 200) SELECT i, printf('%.*c', 9999000, 'x') AS v FROM r"

// TestExportAndImportUnderTheCeiling: Querent's whole process tree stays
// under its ceiling for an export of 200 values of 10 MB (CSV and XLSX)
// to XLSX and the import of a workbook whose shared strings are large
// (the red team's 90 of 9.9 MB imported at 4.4 GB).
func TestExportAndImportUnderTheCeiling(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	exe := build(t)
	dir := t.TempDir()
	const ceiling = 300 << 20
	// XLSX only: a workbook cuts each cell to Excel's 32,767 characters, so
	// that 2 GB of values are not written to the disk (CSV would keep them
	// whole, through the same stream from the worker).
	for _, out := range []string{"big.xlsx"} {
		code, msg, peak := runUnder(t, exe, "300MB", "export", "--sql", tenMBValues, "--out", filepath.Join(dir, out))
		if code != 0 {
			t.Errorf("export %s: exit %d: %s", out, code, msg)
		}
		if peak > ceiling {
			t.Errorf("export %s: the process tree reached %s, over the 300 MB ceiling", out, engine.FormatSize(peak))
		}
		t.Logf("export to %s of 200 values of 10 MB under 300 MB: the tree's peak %s", out, engine.FormatSize(peak))
		os.Remove(filepath.Join(dir, out))
	}
	book := filepath.Join(dir, "strings.xlsx")
	writeSharedStrings(t, book, 16, 2_500_000)
	code, msg, peak := runUnder(t, exe, "200MB", "import", "--db", filepath.Join(dir, "strings.db"), book)
	if code != 0 {
		t.Errorf("import: exit %d: %s", code, msg)
	}
	if peak > 200<<20 {
		t.Errorf("import: the process tree reached %s, over the 200 MB ceiling", engine.FormatSize(peak))
	}
	t.Logf("import of 16 shared strings of 2.5 MB under 200 MB: the tree's peak %s", engine.FormatSize(peak))
}

// writeSharedStrings writes a workbook of one column whose n cells each
// hold their own shared string of size characters (text that compresses
// about as much as real text, under the bomb ratio).
func writeSharedStrings(t *testing.T, path string, n, size int) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z := zip.NewWriter(f)
	put := func(name, body string) {
		w, err := z.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(body))
	}
	const ns = `xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"`
	put("[Content_Types].xml", `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>`)
	put("_rels/.rels", `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`)
	put("xl/workbook.xml", `<?xml version="1.0" encoding="UTF-8"?><workbook `+ns+` xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>`)
	put("xl/_rels/workbook.xml.rels", `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>`)
	var sheet strings.Builder
	sheet.WriteString(`<?xml version="1.0" encoding="UTF-8"?><worksheet ` + ns + `><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>v</t></is></c></row>`)
	for i := range n {
		fmt.Fprintf(&sheet, `<row r="%d"><c r="A%d" t="s"><v>%d</v></c></row>`, i+2, i+2, i)
	}
	sheet.WriteString(`</sheetData></worksheet>`)
	put("xl/worksheets/sheet1.xml", sheet.String())
	w, err := z.Create("xl/sharedStrings.xml")
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><sst %s count="%d" uniqueCount="%d">`, ns, n, n)
	rng := rand.New(rand.NewPCG(1, 2))
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	block := make([]byte, 64<<10) // longer than deflate's window: no repeats it can use
	for i := range n {
		for j := range block {
			block[j] = letters[rng.IntN(len(letters))]
		}
		w.Write([]byte("<si><t>"))
		for left := size; left > 0; left -= len(block) {
			w.Write(block[:min(left, len(block))])
		}
		_ = i
		w.Write([]byte("</t></si>"))
	}
	w.Write([]byte("</sst>"))
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
}

// hog is a query whose memory grows until it is stopped: an index of
// distinct random blobs, in SQLite's heap (temp_store is MEMORY).
const hog = "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM r LIMIT 100000000) SELECT count(*) FROM (SELECT DISTINCT randomblob(100) FROM r)"

// TestDatabasesShareOneCeiling: several databases open in one querent mcp
// (4 under QUERENT_MAX_MEMORY=400MB, 10 under the default 1 GB), each
// running a query that grows without end at once: the process tree stays
// under the one ceiling (before, each worker had the whole ceiling: 0.8 GB
// and 6.8 GB), every hog is stopped, and a plain query is answered
// meanwhile.
func TestDatabasesShareOneCeiling(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	exe := build(t)
	cases := []struct {
		dbs     int
		ceiling string
		bytes   int64
	}{{4, "400MB", 400 << 20}, {10, "", 1 << 30}}
	if testing.Short() {
		cases = cases[:1]
	}
	for _, tc := range cases {
		peak, outcomes := hogsAtOnce(t, exe, tc.dbs, tc.ceiling)
		if outcomes["too_big"] == 0 || outcomes["too_big"]+outcomes["timeout"] != tc.dbs {
			t.Errorf("%d databases: outcomes %v, want every hog stopped (too_big, or timeout)", tc.dbs, outcomes)
		}
		if peak > tc.bytes {
			t.Errorf("%d databases: the process tree reached %s, over the %s ceiling", tc.dbs, engine.FormatSize(peak), engine.FormatSize(tc.bytes))
		}
		t.Logf("%d databases, a hog on each, under %s: the tree's peak %s", tc.dbs, engine.FormatSize(tc.bytes), engine.FormatSize(peak))
	}
}

// hogsAtOnce runs querent mcp on dbs databases under ceiling ("": the
// default), a hog on each at once and a plain query beside them, and
// returns the process tree's peak and the hogs' outcomes.
func hogsAtOnce(t *testing.T, exe string, dbs int, ceiling string) (int64, map[string]int) {
	t.Helper()
	args := []string{"mcp", "--timeout", "30s"}
	var names []string
	for i := range dbs {
		name := fmt.Sprintf("db%d", i)
		names = append(names, name)
		args = append(args, "--db", hostileDB(t, name))
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = os.Environ()
	if ceiling != "" {
		cmd.Env = append(cmd.Env, "QUERENT_MAX_MEMORY="+ceiling)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	client := sdk.NewClient(&sdk.Implementation{Name: "ceiling-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	stop := treeWatch(cmd.Process.Pid)
	var wg sync.WaitGroup
	var mu sync.Mutex
	outcomes := map[string]int{}
	for _, name := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "run_query", Arguments: map[string]any{"database": name, "sql": hog}})
			what := "answered"
			switch {
			case err != nil:
				what = err.Error()
			case res.IsError && strings.Contains(jsonOf(res), `"too_big"`):
				what = "too_big"
			case res.IsError && strings.Contains(jsonOf(res), `"timeout"`):
				// The last hogs left get the shares the others gave back,
				// and may run out of time before they fill them.
				what = "timeout"
			case res.IsError:
				what = jsonOf(res)
			}
			mu.Lock()
			outcomes[what]++
			mu.Unlock()
		}()
	}
	time.Sleep(500 * time.Millisecond)
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "run_query", Arguments: map[string]any{"database": names[0], "sql": "SELECT count(*) AS n FROM ok"}})
	if err != nil || res.IsError {
		t.Errorf("%d databases: a plain query beside the hogs: %v %s", dbs, err, jsonOf(res))
	}
	wg.Wait()
	return stop(), outcomes
}

// TestCeilingBenchReport prints the process tree's peaks (make bench):
// an export, an import and several databases at once under one ceiling.
func TestCeilingBenchReport(t *testing.T) {
	if os.Getenv("QUERENT_BENCH") == "" || runtime.GOOS != "linux" {
		t.Skip("set QUERENT_BENCH=1 (make bench) to measure; reads /proc")
	}
	exe := build(t)
	dir := t.TempDir()
	var out strings.Builder
	line := func(format string, args ...any) {
		s := fmt.Sprintf(format, args...)
		out.WriteString(s + "\n")
		fmt.Println(s)
	}
	line("ONE CEILING FOR ALL OF QUERENT (QUERENT_MAX_MEMORY): the peak resident size of querent and its workers together, read every 5 ms — %s, %d CPUs, %s",
		runtime.Version(), runtime.NumCPU(), time.Now().Format("2006-01-02 15:04"))
	start := time.Now()
	code, _, peak := runUnder(t, exe, "300MB", "export", "--sql", tenMBValues, "--out", filepath.Join(dir, "big.xlsx"))
	line("export to XLSX of 200 values of 10 MB under 300 MB: exit %d, peak %s, %s", code, engine.FormatSize(peak), time.Since(start).Round(100*time.Millisecond))
	book := filepath.Join(dir, "strings.xlsx")
	writeSharedStrings(t, book, 16, 2_500_000)
	start = time.Now()
	code, _, peak = runUnder(t, exe, "200MB", "import", "--db", filepath.Join(dir, "strings.db"), book)
	line("import of 16 shared strings of 2.5 MB under 200 MB: exit %d, peak %s, %s", code, engine.FormatSize(peak), time.Since(start).Round(100*time.Millisecond))
	for _, tc := range []struct {
		dbs     int
		ceiling string
	}{{4, "400MB"}, {10, ""}} {
		start = time.Now()
		peak, outcomes := hogsAtOnce(t, exe, tc.dbs, tc.ceiling)
		c := tc.ceiling
		if c == "" {
			c = "1GB (the default)"
		}
		line("%d databases in one querent mcp, a hog on each at once, under %s: peak %s, hogs %v, %s", tc.dbs, c, engine.FormatSize(peak), outcomes, time.Since(start).Round(100*time.Millisecond))
	}
	if d := os.Getenv("QUERENT_REPORT_DIR"); d != "" {
		os.MkdirAll(d, 0o755)
		os.WriteFile(filepath.Join(d, "bench-ceiling.txt"), []byte(out.String()), 0o644)
	}
}
