package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"querent/engine/ollama/ollamatest"
)

// TestMCPOverStdio starts `querent mcp` as a real subprocess, as an MCP
// client would, and calls every tool over standard input/output.
func TestMCPOverStdio(t *testing.T) {
	exe := build(t)
	fake := ollamatest.New(t, ollamatest.Answer("SELECT count(*) AS albums FROM Album", "Counts the albums."))
	src, err := os.ReadFile("../../engine/sqlite/demo/Chinook_Sqlite.sqlite")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	music, sales := filepath.Join(dir, "music.db"), filepath.Join(dir, "sales.sqlite")
	os.WriteFile(music, src, 0o644)
	os.WriteFile(sales, src, 0o644)

	// The analyst's glossary, written by the command line, read by agents.
	if out, err := exec.Command(exe, "glossary", "add", "--db", music, "big invoice", "--meaning", "an invoice over 20", "--sql", "Total > 20").CombinedOutput(); err != nil {
		t.Fatalf("glossary add: %v: %s", err, out)
	}
	cmd := exec.Command(exe, "mcp", "--db", music, "--db", sales, "--timeout", "300ms")
	cmd.Env = append(os.Environ(), "OLLAMA_HOST="+fake.URL)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	client := sdk.NewClient(&sdk.Implementation{Name: "stdio-agent", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v; stderr %s", err, stderr.String())
	}
	if info := cs.InitializeResult(); info.ServerInfo.Name != "querent" || !strings.Contains(info.Instructions, "list_databases") {
		t.Errorf("server info %+v", info.ServerInfo)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 8 { // the seven of issue 8 and profile_table (issue 26)
		t.Fatalf("tools: %v %d", err, len(tools.Tools))
	}

	call := func(tool string, args map[string]any) (bool, map[string]any) {
		t.Helper()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		var doc map[string]any
		b, _ := json.Marshal(res.StructuredContent)
		json.Unmarshal(b, &doc)
		return res.IsError, doc
	}
	errType := func(doc map[string]any) string {
		errs, _ := doc["errors"].([]any)
		if len(errs) == 0 {
			return ""
		}
		return errs[0].(map[string]any)["type"].(string)
	}

	if isErr, doc := call("list_databases", map[string]any{}); isErr || !strings.Contains(jsonOf(doc), `"name":"music"`) || !strings.Contains(jsonOf(doc), `"name":"sales"`) {
		t.Errorf("list_databases: %s", jsonOf(doc))
	}
	if isErr, doc := call("list_tables", map[string]any{"database": "sales"}); isErr || len(doc["tables"].([]any)) != 11 {
		t.Errorf("list_tables: %s", jsonOf(doc))
	}
	if isErr, doc := call("describe_table", map[string]any{"database": "music", "table": "Invoice"}); isErr || !strings.Contains(jsonOf(doc), `"BillingCountry"`) {
		t.Errorf("describe_table: %.500s", jsonOf(doc))
	}
	// A capped result.
	if isErr, doc := call("run_query", map[string]any{"database": "music", "sql": "SELECT InvoiceId FROM Invoice"}); isErr || doc["row_count"] != 50.0 ||
		!strings.Contains(doc["note"].(string), "more than 50 rows") {
		t.Errorf("run_query: %.500s", jsonOf(doc))
	}
	// A timeout.
	if isErr, doc := call("run_query", map[string]any{"database": "music", "sql": "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT max(x) FROM c"}); !isErr || errType(doc) != "timeout" {
		t.Errorf("timeout: %s", jsonOf(doc))
	}
	// Hostile SQL.
	for _, sql := range []string{"WITH x AS (SELECT 1) DELETE FROM Invoice", "ATTACH '" + filepath.Join(dir, "evil.db") + "' AS e", "PRAGMA journal_mode=DELETE", "VACUUM"} {
		if isErr, doc := call("run_query", map[string]any{"database": "sales", "sql": sql}); !isErr || errType(doc) == "" {
			t.Errorf("%q: %s", sql, jsonOf(doc))
		}
	}
	if isErr, doc := call("list_glossary", map[string]any{"database": "music"}); isErr || !strings.Contains(jsonOf(doc), `"term":"big invoice"`) || !strings.Contains(jsonOf(doc), `"kind":"condition"`) {
		t.Errorf("list_glossary: %s", jsonOf(doc))
	}
	if isErr, doc := call("explain_query", map[string]any{"database": "sales", "sql": "SELECT * FROM Invoice ORDER BY Total"}); isErr || doc["valid"] != true {
		t.Errorf("explain_query: %s", jsonOf(doc))
	}
	// ask reaches the model through OLLAMA_HOST.
	if isErr, doc := call("ask", map[string]any{"database": "music", "question": "How many albums?"}); isErr || !strings.Contains(jsonOf(doc), `"albums":347`) {
		t.Errorf("ask: %s", jsonOf(doc))
	}

	// Closing the client ends the server cleanly.
	if err := cs.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 0 {
		t.Errorf("exit: %v; stderr %s", cmd.ProcessState, stderr.String())
	}
	if !strings.Contains(stderr.String(), "querent mcp: serving music, sales (read-only)") {
		t.Errorf("stderr %q", stderr.String())
	}
	for _, p := range []string{music, sales} {
		if got, _ := os.ReadFile(p); !bytes.Equal(got, src) {
			t.Errorf("%s changed", p)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("files beside the databases: %v", entries)
	}
	// The calls are in the history, with the client's name.
	out, err := exec.Command(exe, "history", "--db", music, "--format", "json", "--limit", "50").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"mcp:stdio-agent run_query"`, `"mcp:stdio-agent ask"`, `"mcp:stdio-agent describe_table"`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("history lacks %s: %.1000s", want, out)
		}
	}
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestRealOllamaMCP asks through querent mcp with a real Ollama server
// (make ollama) and a scripted model that writes the SQL in a few tokens:
// the tool answers with the rows and the server's counts, and the file
// stays as it was.
func TestRealOllamaMCP(t *testing.T) {
	host := ollamatest.RealHost(t)
	ollamatest.Scripted(t, host, "qa-mcp-tracks", ollamatest.SQLAnswer("SELECT count(*) AS n FROM Track"), 32768)
	exe := build(t)
	src, err := os.ReadFile("../../engine/sqlite/demo/Chinook_Sqlite.sqlite")
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "music.db")
	os.WriteFile(db, src, 0o644)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.Command(exe, "mcp", "--db", db, "--ollama", host, "--model", "qa-mcp-tracks")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "real-ollama-agent", Version: "1"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v; %s", err, stderr.String())
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "ask", Arguments: map[string]any{"question": "How many tracks are there?", "explain_results": false}})
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Model      string            `json:"model"`
		Results    []map[string]any  `json:"results"`
		Attempts   []json.RawMessage `json:"attempts"`
		ModelStats *struct {
			Rounds []json.RawMessage `json:"rounds"`
		} `json:"model_stats"`
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	if res.IsError || !strings.HasPrefix(doc.Model, "qa-mcp-tracks") || len(doc.Results) != 1 || doc.Results[0]["n"] != 3503.0 ||
		len(doc.Attempts) != 1 || doc.ModelStats == nil || len(doc.ModelStats.Rounds) != 1 {
		t.Fatalf("%.1500s", b)
	}
	if got, _ := os.ReadFile(db); !bytes.Equal(got, src) {
		t.Error("the database changed")
	}
}
