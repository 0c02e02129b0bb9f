package mcp_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"querent/app/mcp"
	"querent/engine"
	"querent/engine/ollama"
	"querent/engine/ollama/ollamatest"
	"querent/engine/sqlite"
)

func TestMain(m *testing.M) {
	data, err := os.MkdirTemp("", "querent-mcp-test-")
	if err != nil {
		panic(err)
	}
	os.Setenv("QUERENT_DATA_DIR", data)
	code := m.Run()
	os.RemoveAll(data)
	os.Exit(code)
}

// fixture is a server over two copies of Chinook (same stem: chinook and
// chinook_2), a history, and a connected in-memory client.
type fixture struct {
	files   []string
	sums    []string
	history *sqlite.HistoryStore
	client  *sdk.ClientSession
	// dbs are the databases served, in order.
	dbs []engine.Database
}

func copyChinook(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile("../../engine/sqlite/demo/Chinook_Sqlite.sqlite")
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(dir, 0o755)
	p := filepath.Join(dir, "Chinook.sqlite")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func sum(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

func newFixture(t *testing.T, n int, opts mcp.Options) *fixture {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	f := &fixture{}
	var opened []engine.Database
	for i := range n {
		p := copyChinook(t, filepath.Join(dir, string(rune('a'+i))))
		f.files = append(f.files, p)
		f.sums = append(f.sums, sum(t, p))
		db, err := sqlite.Open(ctx, p, sqlite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		opened = append(opened, db)
	}
	f.dbs = opened
	names := mcp.Names(opened)
	dbs := make([]mcp.Database, n)
	for i := range opened {
		dbs[i] = mcp.Database{Name: names[i], DB: opened[i]}
	}
	h, err := sqlite.OpenHistory(ctx, filepath.Join(dir, "history.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	f.history = h
	opts.History = h
	opts.Version = "test"
	srv := mcp.New(dbs, opts).SDK()
	ct, st := sdk.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	c := sdk.NewClient(&sdk.Implementation{Name: "test-agent", Version: "1"}, nil)
	cs, err := c.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	f.client = cs
	return f
}

// result is a tool result: its structured content decoded, and whether it
// is an error.
type result struct {
	isError bool
	text    string
	doc     map[string]any
}

func (r result) errType() string {
	errs, _ := r.doc["errors"].([]any)
	if len(errs) == 0 {
		return ""
	}
	e, _ := errs[0].(map[string]any)
	s, _ := e["type"].(string)
	return s
}

func (r result) errField(k string) string {
	errs, _ := r.doc["errors"].([]any)
	if len(errs) == 0 {
		return ""
	}
	e, _ := errs[0].(map[string]any)
	s, _ := e[k].(string)
	return s
}

func (f *fixture) call(t *testing.T, tool string, args map[string]any) result {
	t.Helper()
	res, err := f.client.CallTool(context.Background(), &sdk.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	r := result{isError: res.IsError}
	if len(res.Content) != 1 {
		t.Fatalf("%s: %d content blocks", tool, len(res.Content))
	}
	tc, ok := res.Content[0].(*sdk.TextContent)
	if !ok {
		t.Fatalf("%s: content %T", tool, res.Content[0])
	}
	r.text = tc.Text
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &r.doc); err != nil {
		t.Fatalf("%s: structured content %s: %v", tool, b, err)
	}
	// The text carries the same document, for clients that read only text.
	var fromText map[string]any
	if err := json.Unmarshal([]byte(tc.Text), &fromText); err != nil {
		t.Fatalf("%s: the text is not the JSON document: %v", tool, err)
	}
	if _, ok := fromText["errors"]; !ok {
		t.Errorf("%s: no errors field in %s", tool, tc.Text)
	}
	// Advice speaks of the tools, not of the command line's flags.
	for _, k := range []string{"message", "hint"} {
		v := r.errField(k)
		for _, cli := range []string{"--timeout", "--model", "--max-rows", "querent sql", "querent ask"} {
			if strings.Contains(v, cli) {
				t.Errorf("%s: command-line advice for an agent: %q", tool, v)
			}
		}
	}
	return r
}

func (f *fixture) unchanged(t *testing.T) {
	t.Helper()
	for i, p := range f.files {
		if got := sum(t, p); got != f.sums[i] {
			t.Errorf("%s changed", p)
		}
		for _, suffix := range []string{"-wal", "-shm", "-journal"} {
			if _, err := os.Stat(p + suffix); err == nil {
				t.Errorf("%s appeared", p+suffix)
			}
		}
		entries, _ := os.ReadDir(filepath.Dir(p))
		if len(entries) != 1 {
			t.Errorf("files beside the database: %v", entries)
		}
	}
}

func TestToolsAreListedWithSchemas(t *testing.T) {
	f := newFixture(t, 1, mcp.Options{})
	res, err := f.client.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"list_databases": nil, "list_tables": nil, "describe_table": {"table"}, "profile_table": {"table"},
		"run_query": {"sql"}, "explain_query": {"sql"}, "ask": {"question"}, "list_glossary": nil,
	}
	if len(res.Tools) != len(want) {
		t.Errorf("%d tools", len(res.Tools))
	}
	for _, tool := range res.Tools {
		required, ok := want[tool.Name]
		if !ok {
			t.Errorf("unexpected tool %s", tool.Name)
			continue
		}
		b, _ := json.Marshal(tool.InputSchema)
		var schema struct {
			Type       string                     `json:"type"`
			Properties map[string]json.RawMessage `json:"properties"`
			Required   []string                   `json:"required"`
		}
		json.Unmarshal(b, &schema)
		if schema.Type != "object" || strings.Join(schema.Required, ",") != strings.Join(required, ",") {
			t.Errorf("%s: schema %s", tool.Name, b)
		}
		if tool.Name != "list_databases" {
			if _, ok := schema.Properties["database"]; !ok {
				t.Errorf("%s has no database argument: %s", tool.Name, b)
			}
		}
		if tool.Annotations == nil || !tool.Annotations.ReadOnlyHint || tool.Description == "" {
			t.Errorf("%s: annotations %+v", tool.Name, tool.Annotations)
		}
	}
}

func TestListAndDescribe(t *testing.T) {
	f := newFixture(t, 2, mcp.Options{})
	r := f.call(t, "list_databases", nil)
	dbs, _ := r.doc["databases"].([]any)
	if r.isError || len(dbs) != 2 {
		t.Fatalf("%s", r.text)
	}
	for i, want := range []string{"Chinook", "Chinook_2"} {
		d := dbs[i].(map[string]any)
		if d["name"] != want || d["file"] != f.files[i] || d["tables"] != 11.0 || d["read_only"] != true {
			t.Errorf("database %d: %v", i, d)
		}
	}

	// Two databases: the call must say which.
	r = f.call(t, "list_tables", nil)
	if !r.isError || r.errType() != engine.CodeUsage || !strings.Contains(r.errField("hint"), "Chinook, Chinook_2") {
		t.Errorf("no database named: %s", r.text)
	}
	r = f.call(t, "list_tables", map[string]any{"database": "nope"})
	if !r.isError || !strings.Contains(r.errField("message"), `"nope"`) {
		t.Errorf("unknown database: %s", r.text)
	}
	r = f.call(t, "list_tables", map[string]any{"database": "chinook_2"})
	tables, _ := r.doc["tables"].([]any)
	if r.isError || len(tables) != 11 || r.doc["database"] != "Chinook_2" {
		t.Fatalf("list_tables: %s", r.text)
	}
	found := false
	for _, x := range tables {
		tb := x.(map[string]any)
		if tb["name"] == "Track" {
			found = tb["row_count"] == 3503.0 && tb["kind"] == "table" && tb["columns"] == 9.0
		}
	}
	if !found {
		t.Errorf("Track is not listed right: %s", r.text)
	}

	r = f.call(t, "describe_table", map[string]any{"table": "track", "database": "Chinook"})
	tb, _ := r.doc["table"].(map[string]any)
	if r.isError || tb == nil {
		t.Fatalf("describe_table: %s", r.text)
	}
	b, _ := json.Marshal(tb)
	for _, want := range []string{`"name":"Track"`, `"name":"Composer"`, `"references":"Album(AlbumId)"`, `"IFK_TrackAlbumId"`, `"For Those About To Rock (We Salute You)"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("describe_table lacks %s: %.600s", want, b)
		}
	}
	r = f.call(t, "describe_table", map[string]any{"table": "Employee", "database": "Chinook"})
	if b, _ := json.Marshal(r.doc["table"]); !strings.Contains(string(b), `"Title":["General Manager","IT Manager","IT Staff","Sales Manager","Sales Support Agent"]`) {
		t.Errorf("low-cardinality values: %.2000s", b)
	}
	r = f.call(t, "describe_table", map[string]any{"table": "Tracks", "database": "Chinook"})
	if !r.isError || r.errType() != engine.CodeUnknownTable || !strings.Contains(r.errField("hint"), "Track") {
		t.Errorf("unknown table: %s", r.text)
	}
	r = f.call(t, "describe_table", map[string]any{"database": "Chinook"})
	if !r.isError || r.errType() != engine.CodeUsage || !strings.Contains(r.errField("message"), "table") || r.errField("hint") != "the arguments are: table (string, required), database (string)" {
		t.Errorf("describe_table without a table: %s", r.text)
	}
	f.unchanged(t)
}

func TestRunQuery(t *testing.T) {
	f := newFixture(t, 1, mcp.Options{Timeout: 300 * time.Millisecond})

	// The default cap: 50 rows, with a note on how to get the rest.
	r := f.call(t, "run_query", map[string]any{"sql": "SELECT TrackId, Name FROM Track ORDER BY TrackId"})
	rows, _ := r.doc["results"].([]any)
	note, _ := r.doc["note"].(string)
	if r.isError || len(rows) != 50 || r.doc["row_count"] != 50.0 || r.doc["truncated"] != true {
		t.Fatalf("capped: %d rows, %.300s", len(rows), r.text)
	}
	if !strings.Contains(note, "more than 50 rows") || !strings.Contains(note, "LIMIT 50 OFFSET 50") {
		t.Errorf("note %q", note)
	}
	if first := rows[0].(map[string]any); first["TrackId"] != 1.0 || first["Name"] != "For Those About To Rock (We Salute You)" {
		t.Errorf("first row %v", first)
	}

	// A small answer: whole, no note, with columns and statistics.
	r = f.call(t, "run_query", map[string]any{"sql": "SELECT Name FROM MediaType ORDER BY 1"})
	if r.isError || r.doc["row_count"] != 5.0 || r.doc["truncated"] != false || r.doc["note"] != nil {
		t.Errorf("small: %s", r.text)
	}
	if cols, _ := r.doc["columns"].([]any); len(cols) != 1 || r.doc["stats"] == nil {
		t.Errorf("columns/stats: %s", r.text)
	}

	// max_rows, and its ceiling of 1000.
	r = f.call(t, "run_query", map[string]any{"sql": "SELECT TrackId FROM Track", "max_rows": 7})
	if r.doc["row_count"] != 7.0 || !strings.Contains(r.doc["note"].(string), "more than 7 rows") {
		t.Errorf("max_rows 7: %s", r.text)
	}
	r = f.call(t, "run_query", map[string]any{"sql": "SELECT TrackId FROM Track", "max_rows": 5000})
	if r.doc["row_count"] != 1000.0 || r.doc["truncated"] != true {
		t.Errorf("max_rows 5000: %v rows", r.doc["row_count"])
	}

	// The character cap: wide rows are cut to fit, and the note says so.
	r = f.call(t, "run_query", map[string]any{"sql": "SELECT * FROM Track", "max_rows": 1000})
	rows, _ = r.doc["results"].([]any)
	b, _ := json.Marshal(rows)
	if r.isError || len(rows) == 0 || len(rows) >= 1000 || len(b) > 20_000 || r.doc["row_count"] != float64(len(rows)) {
		t.Errorf("character cap: %d rows, %d characters", len(rows), len(b))
	}
	if note, _ := r.doc["note"].(string); !strings.Contains(note, "cut to fit 20000 characters") || !strings.Contains(note, "LIMIT/OFFSET") {
		t.Errorf("note %q", note)
	}

	// Errors that help the model repair its query.
	r = f.call(t, "run_query", map[string]any{"sql": "SELECT Nmae FROM Artist"})
	if !r.isError || r.errType() != engine.CodeUnknownColumn || !strings.Contains(r.errField("hint"), "Name") || r.errField("query") != "SELECT Nmae FROM Artist" {
		t.Errorf("unknown column: %s", r.text)
	}
	r = f.call(t, "run_query", map[string]any{"sql": "SELEC 1"})
	if !r.isError || r.errType() != engine.CodeSyntax {
		t.Errorf("syntax: %s", r.text)
	}

	// A timeout.
	r = f.call(t, "run_query", map[string]any{"sql": "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c"})
	if !r.isError || r.errType() != engine.CodeTimeout || r.errField("hint") == "" {
		t.Errorf("timeout: %s", r.text)
	}
	f.unchanged(t)
}

// The attacks of the red team that matter most for an agent: each is
// refused with a reason, and the file stays as it was.
func TestHostileSQLIsRefused(t *testing.T) {
	f := newFixture(t, 1, mcp.Options{Timeout: 2 * time.Second})
	attacks := []string{
		"DELETE FROM Track",
		"WITH x AS (SELECT 1) DELETE FROM Track",
		"UPDATE Artist SET Name = 'x'",
		"DROP TABLE Track",
		"INSERT INTO Genre(Name) VALUES ('x')",
		"CREATE TABLE t(x)",
		"ATTACH DATABASE '" + filepath.Join(t.TempDir(), "x.db") + "' AS x",
		"VACUUM INTO '" + filepath.Join(t.TempDir(), "copy.db") + "'",
		"PRAGMA writable_schema = ON",
		"PRAGMA journal_mode = WAL",
		"SELECT load_extension('x')",
		"SELECT writefile('/tmp/x', 'y')",
		"SELECT 1; DELETE FROM Track",
		"BEGIN; DELETE FROM Track; COMMIT",
		"REINDEX",
		"ANALYZE",
		"SELECT * FROM sqlite_master; UPDATE sqlite_master SET sql = ''",
	}
	for _, sql := range attacks {
		for _, tool := range []string{"run_query", "explain_query"} {
			r := f.call(t, tool, map[string]any{"sql": sql})
			if !r.isError || r.errType() == "" || r.errField("message") == "" || r.errField("hint") == "" {
				t.Errorf("%s %q was not refused with a reason: %s", tool, sql, r.text)
			}
		}
	}
	f.unchanged(t)

	// Every call is in the history, tagged with the client's name.
	entries, err := f.history.List(context.Background(), "", 1000)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2*len(attacks) {
		t.Errorf("%d history entries, want %d", len(entries), 2*len(attacks))
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Client, "mcp:test-agent ") || e.Status == "ok" || e.SQL == "" || e.Database != f.files[0] {
			t.Errorf("history entry %+v", e)
			break
		}
	}
}

func TestExplainQuery(t *testing.T) {
	f := newFixture(t, 1, mcp.Options{})
	r := f.call(t, "explain_query", map[string]any{"sql": "SELECT a.Title, count(*) FROM Album a, Track t GROUP BY a.Title ORDER BY 2 DESC"})
	if r.isError || r.doc["valid"] != true {
		t.Fatalf("%s", r.text)
	}
	hints, _ := r.doc["optimization_hints"].([]any)
	cols, _ := r.doc["columns"].([]any)
	if len(cols) != 2 || len(hints) == 0 || !strings.Contains(strings.ToLower(r.text), "cartesian") {
		t.Errorf("explain: %s", r.text)
	}
	r = f.call(t, "explain_query", map[string]any{"sql": "SELECT Titel FROM Album"})
	if !r.isError || r.errType() != engine.CodeUnknownColumn {
		t.Errorf("bad SQL: %s", r.text)
	}
}

func TestAuditNamesTheClientAndTool(t *testing.T) {
	f := newFixture(t, 1, mcp.Options{})
	f.call(t, "list_databases", nil)
	f.call(t, "list_tables", nil)
	f.call(t, "describe_table", map[string]any{"table": "Album"})
	f.call(t, "run_query", map[string]any{"sql": "SELECT count(*) FROM Album"})
	f.call(t, "explain_query", map[string]any{"sql": "SELECT count(*) FROM Album"})
	entries, err := f.history.List(context.Background(), "", 100)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i := len(entries) - 1; i >= 0; i-- {
		got = append(got, entries[i].Client+"|"+entries[i].Status+"|"+entries[i].SQL)
	}
	want := []string{
		"mcp:test-agent list_databases|ok|",
		"mcp:test-agent list_tables|ok|",
		"mcp:test-agent describe_table|ok|",
		"mcp:test-agent run_query|ok|SELECT count(*) FROM Album",
		"mcp:test-agent explain_query|ok|SELECT count(*) FROM Album",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("history:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if entries[1].DatabaseSHA256 != f.sums[0] || entries[1].RowCount != 1 {
		t.Errorf("run_query entry %+v", entries[1])
	}
}

func modelAt(url string) func(string, time.Duration) (engine.Model, error) {
	return func(host string, timeout time.Duration) (engine.Model, error) {
		if host == "" {
			host = url
		}
		return ollama.New(ollama.Config{Host: host, RequestTimeout: timeout})
	}
}

func TestAsk(t *testing.T) {
	fake := ollamatest.New(t,
		ollamatest.Answer("SELECT ar.Name AS artist, count(*) AS albums FROM Artist ar JOIN Album al USING (ArtistId) GROUP BY ar.ArtistId ORDER BY albums DESC LIMIT 1",
			"Counts albums per artist and keeps the first.", "Which artist has the most tracks?"),
		ollamatest.Answer("SELECT ar.Name AS artist, count(*) AS tracks FROM Artist ar JOIN Album al USING (ArtistId) JOIN Track USING (AlbumId) GROUP BY ar.ArtistId ORDER BY tracks DESC LIMIT 1",
			"The same for tracks."),
		ollamatest.Answer("DELETE FROM Track", "x"),
		ollamatest.Abstain("", "The database has no salaries."))
	f := newFixture(t, 1, mcp.Options{Model: modelAt(fake.URL)})

	r := f.call(t, "ask", map[string]any{"question": "Which artist has the most albums?"})
	rows, _ := r.doc["results"].([]any)
	if r.isError || len(rows) != 1 || rows[0].(map[string]any)["artist"] != "Iron Maiden" || r.doc["model"] != "qwen2.5-coder:7b" {
		t.Fatalf("ask: %s", r.text)
	}
	if fu, _ := r.doc["follow_up_questions"].([]any); len(fu) != 1 || r.doc["explanation"] == "" {
		t.Errorf("explanation/follow-ups: %s", r.text)
	}
	// A follow-up continues the conversation: the model sees the first question.
	r = f.call(t, "ask", map[string]any{"question": "and tracks?"})
	if r.isError {
		t.Fatalf("follow-up: %s", r.text)
	}
	reqs := fake.Requests()
	prompt, _ := json.Marshal(reqs[len(reqs)-1].Messages)
	if !strings.Contains(string(prompt), "Which artist has the most albums?") {
		t.Errorf("the follow-up's prompt lacks the conversation")
	}
	// A question that asks for a change: refused once (asking again would be
	// refused again), with the read-only version, nothing written.
	r = f.call(t, "ask", map[string]any{"question": "delete the tracks"})
	if !r.isError || r.errType() != engine.CodeRefused || !strings.Contains(r.errField("hint"), "run_query") {
		t.Errorf("writes: %s", r.text)
	}
	if attempts, _ := r.doc["attempts"].([]any); len(attempts) != 1 || !strings.Contains(r.errField("hint"), "SELECT * FROM Track") {
		t.Errorf("%d attempts", len(attempts))
	}
	r = f.call(t, "ask", map[string]any{"question": "What is the average salary?"})
	if !r.isError || r.errType() != engine.CodeUnanswerable || !strings.Contains(r.errField("message"), "no salaries") {
		t.Errorf("unanswerable: %s", r.text)
	}
	r = f.call(t, "ask", map[string]any{"question": "x", "model": "llama3:70b"})
	if !r.isError || r.errType() != engine.CodeModelMissing {
		t.Errorf("missing model: %s", r.text)
	}
	f.unchanged(t)

	entries, _ := f.history.List(context.Background(), "", 100)
	asks := 0
	for _, e := range entries {
		if e.Client == "mcp:test-agent ask" {
			asks++
		}
	}
	if asks != 5 {
		t.Errorf("%d ask entries in the history, want 5", asks)
	}
}

func TestAskWithoutOllama(t *testing.T) {
	// Nothing listens on the port: a clear llm_unavailable that points to run_query.
	f := newFixture(t, 1, mcp.Options{Model: modelAt("127.0.0.1:1")})
	r := f.call(t, "ask", map[string]any{"question": "How many albums?"})
	if !r.isError || r.errType() != engine.CodeLLMUnavailable || !strings.Contains(r.errField("hint"), "run_query") {
		t.Errorf("%s", r.text)
	}
	// No model at all.
	f = newFixture(t, 1, mcp.Options{})
	r = f.call(t, "ask", map[string]any{"question": "How many albums?"})
	if !r.isError || r.errType() != engine.CodeLLMUnavailable || !strings.Contains(r.errField("hint"), "run_query") {
		t.Errorf("%s", r.text)
	}
}

func TestNames(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	a := copyChinook(t, filepath.Join(dir, "a"))
	b := copyChinook(t, filepath.Join(dir, "b"))
	c := filepath.Join(dir, "sales.db")
	os.Rename(copyChinook(t, filepath.Join(dir, "c")), c)
	var dbs []engine.Database
	for _, p := range []string{a, b, c, a} {
		db, err := sqlite.Open(ctx, p, sqlite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		dbs = append(dbs, db)
	}
	demo, err := sqlite.OpenDemo(ctx, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer demo.Close()
	dbs = append(dbs, demo)
	got := strings.Join(mcp.Names(dbs), ",")
	if got != "Chinook,Chinook_2,sales,Chinook_3,chinook_4" {
		t.Errorf("names %s", got)
	}
}

// TestRunQueryRowBounds (issue 11 §6): max_rows past the ceiling of 1000
// is held to it; at the int64 maximum (which the SDK reads through a
// float64, so that it no longer fits an int) and for what is no whole
// number it is refused; a negative one gets the default. Never an
// unbounded answer.
func TestRunQueryRowBounds(t *testing.T) {
	f := newFixture(t, 1, mcp.Options{})
	for _, tt := range []struct {
		maxRows any
		rows    float64 // 0: refused
	}{{5000, 1000}, {int64(math.MaxInt64), 0}, {-5, 50}, {0, 50}, {1e300, 0}, {2.5, 0}, {"10", 0}} {
		r := f.call(t, "run_query", map[string]any{"sql": "SELECT TrackId FROM Track", "max_rows": tt.maxRows})
		switch {
		case tt.rows == 0 && (!r.isError || r.errType() != engine.CodeUsage):
			t.Errorf("max_rows %v: not refused: %.200s", tt.maxRows, r.text)
		case tt.rows != 0 && (r.isError || r.doc["row_count"] != tt.rows):
			t.Errorf("max_rows %v: %v rows, want %v: %.200s", tt.maxRows, r.doc["row_count"], tt.rows, r.text)
		}
	}
	f.unchanged(t)
}

// The ask tool reads a question with the database's earlier ones only when
// it reads as a follow-up, or when follow_up says so (issue 25).
func TestAskFollowUpChoice(t *testing.T) {
	fake := ollamatest.New(t)
	fake.Respond(func(ollamatest.Request) ollamatest.Reply {
		return ollamatest.Answer("SELECT count(*) AS n FROM Artist", "Counts the artists.")
	})
	f := newFixture(t, 1, mcp.Options{Model: modelAt(fake.URL)})
	used := func(args map[string]any) int {
		t.Helper()
		r := f.call(t, "ask", args)
		if r.isError {
			t.Fatalf("%v: %s", args, r.text)
		}
		c, _ := r.doc["context_used"].([]any)
		return len(c)
	}
	used(map[string]any{"question": "Which artist has the most albums?", "explain_results": false})
	if n := used(map[string]any{"question": "Top 10 customers", "explain_results": false}); n != 0 {
		t.Errorf("an unrelated question was read with the one before (%d)", n)
	}
	if n := used(map[string]any{"question": "Count the genres", "follow_up": true, "explain_results": false}); n != 1 {
		t.Errorf("follow_up: true read it with %d questions, want 1", n)
	}
	if n := used(map[string]any{"question": "and of those?", "follow_up": false, "explain_results": false}); n != 0 {
		t.Errorf("follow_up: false read it with %d questions", n)
	}
	f.unchanged(t)
}
