package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"querent/engine"
	"querent/engine/files"
	"querent/engine/ollama"
	"querent/engine/ollama/ollamatest"
	"querent/engine/sqlite"
	"querent/engine/workspace"
	"querent/internal/wiring"
)

// dataCLI is a CLI whose --db opens as the binaries do (wiring.OpenDatabase:
// a data file through its workspace), with a fake Ollama and a history in
// a temporary folder.
func dataCLI(t *testing.T, fake *ollamatest.Server) *CLI {
	c := &CLI{Open: wiring.OpenDatabase, Importer: wiring.NewImporter(), Version: "test"}
	if fake != nil {
		dir := t.TempDir()
		c.Model = func(host string, timeout time.Duration) (engine.Model, error) {
			return ollama.New(ollama.Config{Host: fake.URL, RequestTimeout: timeout})
		}
		c.History = func(ctx context.Context) (engine.History, func(), error) {
			h, err := sqlite.OpenHistory(ctx, filepath.Join(dir, "history.sqlite"))
			if err != nil {
				return nil, nil, err
			}
			return h, func() { h.Close() }, nil
		}
	}
	return c
}

// workspaceFiles lists the workspaces' folder of the data folder.
func workspaceFiles(t *testing.T) []string {
	t.Helper()
	dir, err := files.DataDir()
	if err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(filepath.Join(dir, workspace.Folder))
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// stateOf is a file's inode and modification time: a workspace imported
// again is another file.
func stateOf(t *testing.T, path string) files.FileID {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	id, err := files.IDOf(f)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func sha256Of(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// issue 27 §4: a CSV named by --db is imported into a workspace in the
// data folder, asked twice without a second import, imported again once
// changed, and never modified nor written beside.
func TestOpenCSVDirectly(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "Sales 2024.csv")
	os.WriteFile(csv, []byte("region,amount\nNorth,10\nSouth,20\nNorth,5\n"), 0o644)
	sum := sha256Of(t, csv)
	before := workspaceFiles(t)

	fake := ollamatest.New(t,
		ollamatest.Answer("SELECT region, sum(amount) AS total FROM sales_2024 GROUP BY region ORDER BY total DESC", "Totals per region."),
		ollamatest.Answer("SELECT count(*) AS n FROM sales_2024", "Counts the rows."),
		ollamatest.Answer("SELECT count(*) AS n FROM sales_2024", "Counts the rows."))
	c := dataCLI(t, fake)
	code, out, errs := runWith(t, c, "", "ask", "--db", csv, "--format", "json", "Total per region?")
	if code != 0 {
		t.Fatalf("first ask: exit %d %s %s", code, out, errs)
	}
	if rows := resultsOf(t, out); len(rows) != 2 || rows[1]["region"] != "North" || rows[1]["total"] != float64(15) {
		t.Errorf("first answer: %s", out)
	}
	made := slices.DeleteFunc(workspaceFiles(t), func(n string) bool { return slices.Contains(before, n) })
	if len(made) != 2 || !strings.HasPrefix(made[0], "sales_2024-") {
		t.Fatalf("workspace files: %v", made)
	}
	data, _ := files.DataDir()
	ws := filepath.Join(data, workspace.Folder, strings.TrimSuffix(made[0], ".json"))
	if !strings.HasSuffix(ws, ".sqlite") {
		ws = filepath.Join(data, workspace.Folder, strings.TrimSuffix(made[1], ".json"))
	}
	first := stateOf(t, ws)

	// Asked again: the same workspace, not imported again.
	code, out, errs = runWith(t, c, "", "ask", "--db", csv, "--format", "json", "How many rows?")
	if code != 0 || len(resultsOf(t, out)) != 1 || resultsOf(t, out)[0]["n"] != float64(3) {
		t.Fatalf("second ask: exit %d %s %s", code, out, errs)
	}
	if got := stateOf(t, ws); got != first {
		t.Errorf("the second ask imported again: %v, then %v", first, got)
	}
	// The history and the answer name the file, not the workspace.
	var h struct {
		Entries []engine.HistoryEntry `json:"entries"`
	}
	code, out, _ = runWith(t, c, "", "history", "--format", "json")
	if code != 0 || json.Unmarshal([]byte(out), &h) != nil || len(h.Entries) != 2 || h.Entries[0].Database != csv || h.Entries[0].DatabaseSHA256 != sum {
		t.Errorf("history: %s", out)
	}

	// Changed on disk: imported again, the new rows seen.
	os.WriteFile(csv, []byte("region,amount\nNorth,10\nSouth,20\nNorth,5\nEast,1\n"), 0o644)
	os.Chtimes(csv, time.Now().Add(time.Minute), time.Now().Add(time.Minute))
	sum = sha256Of(t, csv)
	code, out, errs = runWith(t, c, "", "ask", "--db", csv, "--format", "json", "How many rows?")
	if code != 0 || len(resultsOf(t, out)) != 1 || resultsOf(t, out)[0]["n"] != float64(4) {
		t.Errorf("after the change: exit %d %s %s", code, out, errs)
	}
	if got := stateOf(t, ws); got == first {
		t.Errorf("a changed file was not imported again")
	}
	if left := slices.DeleteFunc(workspaceFiles(t), func(n string) bool { return slices.Contains(before, n) }); len(left) != 2 {
		t.Errorf("after the second import, the workspaces' folder holds %v", left)
	}

	// sql, schema and an export through the same workspace; the file is
	// never modified, nothing is written beside it, and no export may
	// replace it.
	code, out, errs = run0(t, "sql", "--db", csv, "--format", "csv", "SELECT region, amount FROM sales_2024 ORDER BY amount")
	if code != 0 || out != "region,amount\nEast,1\nNorth,5\nNorth,10\nSouth,20\n" {
		t.Errorf("sql: exit %d %q %s", code, out, errs)
	}
	code, out, _ = run0(t, "schema", "--db", csv, "--format", "json")
	if code != 0 || !strings.Contains(out, `"database": "`+jsonEscaped(csv)+`"`) {
		t.Errorf("schema names %s? %s", csv, out)
	}
	code, _, errs = run0(t, "export", "--db", csv, "--out", csv, "--force", "SELECT * FROM sales_2024")
	if code == 0 {
		t.Errorf("an export replaced the opened file: %s", errs)
	}
	if got := sha256Of(t, csv); got != sum {
		t.Errorf("the CSV changed: %s, then %s", sum, got)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files beside the CSV: %v", entries)
	}
	if got := stateOf(t, ws); got == first {
		t.Errorf("workspace lost")
	}
}

// resultsOf is the rows of an answer's JSON document.
func resultsOf(t *testing.T, out string) []map[string]any {
	t.Helper()
	var doc struct {
		Results []map[string]any `json:"results"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Errorf("not an answer: %v", err)
	}
	return doc.Results
}

func jsonEscaped(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

// run0 runs a command line with --db opened as the binaries open it.
func run0(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return runWith(t, dataCLI(t, nil), "", args...)
}

// issue 27 §4: a JSON and a Parquet file opened directly, a table named
// after each; a file of another kind is refused with the import's own error.
func TestOpenJSONAndParquetDirectly(t *testing.T) {
	dir := t.TempDir()
	js := filepath.Join(dir, "customers.json")
	os.WriteFile(js, []byte(`[{"id": 1, "name": "Ann", "address": {"city": "Lyon"}}, {"id": 2, "name": "Bo", "address": {"city": "Paris"}}]`), 0o644)
	code, out, errs := run0(t, "sql", "--db", js, "--format", "csv", "SELECT id, name, address_city FROM customers ORDER BY id")
	if code != 0 || out != "id,name,address_city\n1,Ann,Lyon\n2,Bo,Paris\n" {
		t.Errorf("json: exit %d %q %s", code, out, errs)
	}

	pq := filepath.Join(dir, "orders.parquet")
	f, err := os.Create(pq)
	if err != nil {
		t.Fatal(err)
	}
	type order struct {
		ID         int64 `parquet:"id"`
		CustomerID int64 `parquet:"customer_id"`
		Amount     int64 `parquet:"amount,decimal(2:18)"`
	}
	w := parquet.NewGenericWriter[order](f)
	if _, err := w.Write([]order{{1, 1, 1050}, {2, 2, 200}, {3, 1, 99}}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	sum := sha256Of(t, pq)
	code, out, errs = run0(t, "sql", "--db", pq, "--format", "csv", "SELECT customer_id, sum(amount) FROM orders GROUP BY 1 ORDER BY 1")
	if code != 0 || out != "customer_id,sum(amount)\n1,11.49\n2,2.0\n" {
		t.Errorf("parquet: exit %d %q %s", code, out, errs)
	}
	if sha256Of(t, pq) != sum {
		t.Errorf("the Parquet file changed")
	}

	png := filepath.Join(dir, "logo.png")
	os.WriteFile(png, append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 200)...), 0o644)
	code, _, errs = run0(t, "sql", "--db", png, "SELECT 1")
	_, _, importErrs := runImport(t, "import", "--db", filepath.Join(t.TempDir(), "x.sqlite"), png)
	firstLine := func(s string) string { l, _, _ := strings.Cut(s, "\n"); return l }
	if code != 1 || !strings.Contains(errs, "image") ||
		strings.TrimPrefix(firstLine(errs), "querent sql: ") != strings.TrimPrefix(firstLine(importErrs), "querent import: ") {
		t.Errorf("png: exit %d\n%s\nthe import says\n%s", code, errs, importErrs)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 3 {
		t.Errorf("files beside the data files: %v", entries)
	}
}

// A column of a data file opened directly can be marked sensitive like a
// database's (issue 28): the marks follow the file (its path and sha256),
// through its workspace, and an agent gets the column masked.
func TestOpenDataFileSensitive(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "people.csv")
	os.WriteFile(csv, []byte("name,email\nAnn,ann@example.com\nBob,bob@example.org\n"), 0o644)
	c := dataCLI(t, nil)
	code, out, errs := runWith(t, c, "", "sensitive", "list", "--db", csv)
	if code != 0 || !strings.Contains(out, "people.email: email addresses") {
		t.Fatalf("list: exit %d %s %s", code, out, errs)
	}
	if code, out, errs = runWith(t, c, "", "sensitive", "add", "--db", csv, "people.email"); code != 0 {
		t.Fatalf("add: exit %d %s %s", code, out, errs)
	}
	code, out, _ = runWith(t, c, "", "sql", "--db", csv, "--format", "json", "SELECT name, upper(email) AS e FROM people")
	if code != 0 || !strings.Contains(out, `"sensitive": true`) || !strings.Contains(out, "ANN@EXAMPLE.COM") {
		t.Errorf("the analyst's sql: %s", out)
	}
	req := `{"question": "SELECT name, email FROM people WHERE email LIKE 'ann%'", "connection": {"host": "` + csv + `"}}`
	code, out, _ = runWith(t, c, req, "ask", "--input", "-")
	if code != 0 || strings.Contains(out, "@example") || !strings.Contains(out, `"row_count": 0`) {
		t.Errorf("an agent: %s", out)
	}
}
