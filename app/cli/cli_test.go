package cli

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"querent/engine"
	"querent/engine/sqlite"
)

func open(ctx context.Context, path string, _ engine.OpenOptions) (engine.Database, error) {
	if path == "" {
		return sqlite.OpenDemo(ctx, sqlite.Options{})
	}
	return sqlite.Open(ctx, path, sqlite.Options{})
}

// run runs one command line and returns its exit status and output.
func run(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	return runCtx(t, context.Background(), stdin, args...)
}

func runCtx(t *testing.T, ctx context.Context, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	c := &CLI{Open: open, Version: "test"}
	code := c.Run(ctx, args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func TestSQLTable(t *testing.T) {
	code, out, errs := run(t, "", "sql", "SELECT ArtistId, Name, NULL AS missing, 'NULL' AS word FROM Artist ORDER BY ArtistId LIMIT 3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want := `ArtistId  Name       missing  word
--------  ---------  -------  ------
       1  AC/DC         NULL  'NULL'
       2  Accept        NULL  'NULL'
       3  Aerosmith     NULL  'NULL'
`
	if !strings.HasPrefix(out, want) {
		t.Errorf("table:\n%s\nwant:\n%s", out, want)
	}
	if !strings.Contains(out, "(3 rows, ") {
		t.Errorf("no footer: %s", out)
	}
}

func TestSQLTableTruncatedAndLong(t *testing.T) {
	code, out, _ := run(t, "", "sql", "--max-rows", "2", "SELECT Name, printf('%.60c', 'x') AS long, x'0102' AS b, randomblob(20) AS big FROM Track")
	if code != 0 {
		t.Fatal(code)
	}
	if !strings.Contains(out, "first 2 rows shown: the result has more") {
		t.Errorf("no truncation notice:\n%s", out)
	}
	if !strings.Contains(out, strings.Repeat("x", 39)+"…") || !strings.Contains(out, "x'0102'") || !strings.Contains(out, "<blob 20 bytes>") {
		t.Errorf("long values and blobs:\n%s", out)
	}
}

// contractKeys are the keys of the sub-agent output schema, in order.
var contractKeys = []string{"question", "query", "executed_sql", "columns", "results", "row_count", "truncated",
	"execution_time_s", "stats", "optimization_hints", "visualization_suggestion", "visualization_reason",
	"explanation", "follow_up_questions", "tables_used", "session_context", "model", "attempts", "errors"}

func TestSQLJSON(t *testing.T) {
	q := "SELECT BillingCountry, count(*) AS invoices, sum(Total) AS total FROM Invoice GROUP BY 1 ORDER BY 3 DESC LIMIT 4"
	code, out, errs := run(t, "", "sql", "--format", "json", q)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	for _, k := range contractKeys {
		if _, ok := doc[k]; !ok {
			t.Errorf("no %q in the document", k)
		}
	}
	// Keys come in the contract's order.
	last := -1
	for _, k := range contractKeys {
		i := strings.Index(out, `"`+k+`":`)
		if i < last {
			t.Errorf("%q out of order", k)
		}
		last = i
	}
	if doc["query"] != q || doc["question"] != nil || doc["model"] != nil || doc["row_count"] != 4.0 || doc["truncated"] != false {
		t.Errorf("document: %v", doc)
	}
	first := doc["results"].([]any)[0].(map[string]any)
	if first["BillingCountry"] != "USA" || first["invoices"] != 91.0 || first["total"] != 523.06 {
		t.Errorf("first row %v", first)
	}
	if i, j := strings.Index(out, `"BillingCountry": "USA"`), strings.Index(out, `"invoices": 91`); i < 0 || j < i {
		t.Error("result keys not in the query's column order")
	}
	if tu := doc["tables_used"].([]any); len(tu) != 1 || tu[0] != "Invoice" {
		t.Errorf("tables_used %v", tu)
	}
	if !strings.Contains(doc["executed_sql"].(string), "MATERIALIZED") {
		t.Error("executed_sql lacks the wrapper")
	}
	st := doc["stats"].(map[string]any)["total"].(map[string]any)
	if st["count"] != 4.0 || st["max"] != 523.06 {
		t.Errorf("stats %v", st)
	}
	if v := doc["visualization_suggestion"]; v != "bar" && v != "pie" {
		t.Errorf("visualization %v", v)
	}
	if v, _ := doc["visualization"].(map[string]any); v == nil || v["type"] != doc["visualization_suggestion"] ||
		v["x"] != "BillingCountry" || v["x_axis"] != "category" || v["series"] != "" || v["y2"] == nil {
		t.Errorf("visualization object %v", doc["visualization"])
	}
	att := doc["attempts"].([]any)
	if len(att) != 1 || att[0].(map[string]any)["error"] != nil {
		t.Errorf("attempts %v", att)
	}
}

func TestSQLErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name    string
		args    []string
		code    int
		errType string
		stderr  string
	}{
		{"refused", []string{"sql", "DELETE FROM Track"}, 1, "refused", "hint:"},
		{"syntax", []string{"sql", "SELECT FROM"}, 1, "syntax", "line 1"},
		{"unknown column", []string{"sql", "SELECT Titel FROM Album"}, 1, "unknown_column", "did you mean Title?"},
		{"timeout", []string{"sql", "--timeout", "0.2", "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM r) SELECT count(*) FROM r"}, 1, "timeout", "200ms timeout"},
		{"missing file", []string{"sql", "--db", filepath.Join(dir, "nope.db"), "SELECT 1"}, 2, "database", "no such file"},
		{"no query", []string{"sql"}, 2, "usage", "no SQL query given"},
		{"bad max-rows", []string{"sql", "--max-rows", "0", "SELECT 1"}, 2, "usage", "--max-rows"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errs := run(t, "", tt.args...)
			if code != tt.code || !strings.Contains(errs, tt.errType) || !strings.Contains(errs, tt.stderr) {
				t.Errorf("exit %d, stderr %q; want %d with %q and %q", code, errs, tt.code, tt.errType, tt.stderr)
			}
			// The same with --format json: the document on stdout, errors filled.
			args := append([]string{tt.args[0], "--format", "json"}, tt.args[1:]...)
			code, out, _ := run(t, "", args...)
			var doc struct {
				Errors []map[string]any `json:"errors"`
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("stdout is not JSON: %v\n%s", err, out)
			}
			if code != tt.code || len(doc.Errors) != 1 || doc.Errors[0]["type"] != tt.errType || doc.Errors[0]["hint"] == "" {
				t.Errorf("json: exit %d, errors %v", code, doc.Errors)
			}
		})
	}
}

func TestUsage(t *testing.T) {
	tests := []struct {
		args   []string
		code   int
		output string
	}{
		{nil, 2, "Usage: querent"},
		{[]string{"help"}, 0, "Commands:"},
		{[]string{"--version"}, 0, "querent test"},
		{[]string{"sql", "--help"}, 0, "--max-rows"},
		{[]string{"help", "schema"}, 0, "Usage: querent schema"},
		{[]string{"frobnicate"}, 2, `unknown command "frobnicate"`},
		{[]string{"eval", "--db", "x.db"}, 2, "no gold set: --gold is required"},
		{[]string{"sql", "--nope", "SELECT 1"}, 2, "flag provided but not defined"},
		{[]string{"sql", "--format", "xml", "SELECT 1"}, 2, "use one of: table, json, csv"},
		{[]string{"sql", "--timeout", "soon", "SELECT 1"}, 2, "use a duration"},
		{[]string{"sql", "SELECT 1", "--format", "json"}, 2, "put flags first"},
	}
	for _, tt := range tests {
		code, out, errs := run(t, "", tt.args...)
		if code != tt.code || !strings.Contains(out+errs, tt.output) {
			t.Errorf("%v: exit %d, output %q %q; want %d with %q", tt.args, code, out, errs, tt.code, tt.output)
		}
	}
}

func TestSQLInputs(t *testing.T) {
	// "-" reads the SQL from standard input.
	code, out, _ := run(t, "SELECT 41 + 1 AS answer;\n", "sql", "--format", "csv", "-")
	if code != 0 || out != "answer\n42\n" {
		t.Errorf("stdin: exit %d, %q", code, out)
	}
	// "--" lets the SQL start with a dash.
	code, out, _ = run(t, "", "sql", "--format", "csv", "--", "-- a comment first\nSELECT 'x' AS y")
	if code != 0 || out != "y\nx\n" {
		t.Errorf("after --: exit %d, %q", code, out)
	}
	// Several arguments are one query.
	code, out, _ = run(t, "", "sql", "--format", "csv", "SELECT", "1", "AS", "z")
	if code != 0 || out != "z\n1\n" {
		t.Errorf("words: exit %d, %q", code, out)
	}
}

func TestSQLCSV(t *testing.T) {
	code, out, _ := run(t, "", "sql", "--format", "csv", `SELECT 'a,b' AS t, 'say "hi"' AS q, NULL AS n, 1.5 AS f, x'00' AS b`)
	if code != 0 {
		t.Fatal(code)
	}
	if want := "t,q,n,f,b\n\"a,b\",\"say \"\"hi\"\"\",,1.5,AA==\n"; out != want {
		t.Errorf("csv %q, want %q", out, want)
	}
}

func TestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	code, _, errs := runCtx(t, ctx, "", "sql", "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM r) SELECT count(*) FROM r")
	if code != 130 || !strings.Contains(errs, "cancelled") {
		t.Errorf("exit %d, %q", code, errs)
	}
}

func TestSchemaCommand(t *testing.T) {
	code, out, errs := run(t, "", "schema")
	if code != 0 {
		t.Fatal(errs)
	}
	for _, want := range []string{"Chinook demo (built in): 11 tables, 0 views", "Track (3,503 rows)", "AlbumId       INTEGER        → Album(AlbumId)",
		"values of Country:", "index IFK_TrackAlbumId (AlbumId)", "e.g. "} {
		if !strings.Contains(out, want) && !strings.Contains(strings.ReplaceAll(out, "  ", " "), strings.ReplaceAll(want, "  ", " ")) {
			t.Errorf("schema text lacks %q", want)
		}
	}
	code, out, _ = run(t, "", "schema", "--format", "json")
	var doc struct {
		Database string            `json:"database"`
		Tables   []json.RawMessage `json:"tables"`
		Errors   []any             `json:"errors"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil || len(doc.Tables) != 11 || doc.Errors == nil {
		t.Errorf("schema json: exit %d, %d tables", code, len(doc.Tables))
	}
	var first map[string]any
	json.Unmarshal(doc.Tables[0], &first)
	var keys []string
	for _, k := range []string{"name", "kind", "row_count", "row_count_estimated", "internal", "columns", "primary_key", "foreign_keys", "indexes", "samples", "distinct_values"} {
		if _, ok := first[k]; !ok {
			keys = append(keys, k)
		}
	}
	if len(keys) > 0 {
		t.Errorf("table document lacks %v", keys)
	}
	code, _, errs = run(t, "", "schema", "--db", filepath.Join(t.TempDir(), "x.db"))
	if code != 2 || !strings.Contains(errs, "no such file") {
		t.Errorf("missing db: %d %q", code, errs)
	}
}

// TestUserFileUntouched runs every command on a user's file and checks that
// the file and its folder are exactly as before.
func TestUserFileUntouched(t *testing.T) {
	dir := t.TempDir()
	b, err := os.ReadFile("../../engine/sqlite/demo/Chinook_Sqlite.sqlite")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "mine.sqlite")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	before := dirState(t, dir)
	for _, args := range [][]string{
		{"sql", "--db", path, "SELECT * FROM Track"},
		{"sql", "--db", path, "--format", "json", "SELECT * FROM Invoice"},
		{"sql", "--db", path, "DROP TABLE Track"},
		{"sql", "--db", path, "ATTACH '" + filepath.Join(dir, "x.db") + "' AS x"},
		{"schema", "--db", path},
		{"schema", "--db", path, "--format", "json"},
	} {
		run(t, "", args...)
	}
	if after := dirState(t, dir); !reflect.DeepEqual(after, before) {
		t.Errorf("the folder changed: %v, was %v", after, before)
	}
}

func dirState(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		info, _ := e.Info()
		m[e.Name()] = fmt.Sprintf("%x %s", sha256.Sum256(b), info.ModTime())
	}
	return m
}
