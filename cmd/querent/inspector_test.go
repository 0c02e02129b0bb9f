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
)

// inspectorVersion is the MCP Inspector the check uses: later versions need
// Node 22, and these machines have Node 20.
const inspectorVersion = "@modelcontextprotocol/inspector@0.15.0"

// TestMCPInspector drives `querent mcp` with the official MCP Inspector's
// command-line mode, as a user checking the server would. It needs npm's
// registry (or a warm npx cache), so it runs when QUERENT_INSPECTOR=1: make
// test and CI set it.
func TestMCPInspector(t *testing.T) {
	if os.Getenv("QUERENT_INSPECTOR") != "1" {
		t.Skip("set QUERENT_INSPECTOR=1 to check the MCP server with the MCP Inspector (make mcp-inspector)")
	}
	npx, err := exec.LookPath("npx")
	if err != nil {
		t.Fatal("npx is missing: install Node.js and npm")
	}
	exe := build(t)
	src, err := os.ReadFile("../../engine/sqlite/demo/Chinook_Sqlite.sqlite")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	work := t.TempDir() // the Inspector's working folder
	db := filepath.Join(dir, "shop.db")
	os.WriteFile(db, src, 0o644)

	// The Inspector starts the server with a bare environment: pass what it needs.
	inspect := func(args ...string) map[string]any {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		full := append([]string{"-y", inspectorVersion, "--cli",
			"-e", "QUERENT_DATA_DIR=" + os.Getenv("QUERENT_DATA_DIR"), "-e", "OLLAMA_HOST=127.0.0.1:1",
			exe, "mcp", "--db", db}, args...)
		cmd := exec.CommandContext(ctx, npx, full...)
		cmd.Dir = work
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("inspector %v: %v\n%s\n%s", args, err, out.String(), errb.String())
		}
		var doc map[string]any
		if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
			t.Fatalf("inspector %v printed no JSON: %v\n%s", args, err, out.String())
		}
		return doc
	}
	call := func(tool string, args ...string) (bool, string) {
		t.Helper()
		full := []string{"--method", "tools/call", "--tool-name", tool}
		for _, a := range args {
			full = append(full, "--tool-arg", a)
		}
		doc := inspect(full...)
		isErr, _ := doc["isError"].(bool)
		b, _ := json.Marshal(doc["structuredContent"])
		return isErr, string(b)
	}

	doc := inspect("--method", "tools/list")
	tools, _ := doc["tools"].([]any)
	var names []string
	for _, x := range tools {
		names = append(names, x.(map[string]any)["name"].(string))
	}
	if strings.Join(names, ",") != "ask,describe_table,explain_query,list_databases,list_glossary,list_tables,profile_table,run_query" {
		t.Errorf("tools: %v", names)
	}
	if isErr, out := call("list_databases"); isErr || !strings.Contains(out, `"name":"shop"`) {
		t.Errorf("list_databases: %s", out)
	}
	if isErr, out := call("list_tables"); isErr || !strings.Contains(out, `"name":"InvoiceLine"`) {
		t.Errorf("list_tables: %.300s", out)
	}
	if isErr, out := call("describe_table", "table=Album"); isErr || !strings.Contains(out, `"references":"Artist(ArtistId)"`) {
		t.Errorf("describe_table: %.300s", out)
	}
	if isErr, out := call("run_query", "sql=SELECT Name FROM Artist ORDER BY Name", "max_rows=3"); isErr ||
		!strings.Contains(out, `"row_count":3`) || !strings.Contains(out, "more than 3 rows") {
		t.Errorf("run_query: %.600s", out)
	}
	if isErr, out := call("run_query", "sql=WITH x AS (SELECT 1) DELETE FROM Artist"); !isErr || !strings.Contains(out, `"type":"refused"`) {
		t.Errorf("hostile run_query: %s", out)
	}
	if isErr, out := call("explain_query", "sql=SELECT * FROM Track ORDER BY Milliseconds"); isErr || !strings.Contains(out, `"valid":true`) {
		t.Errorf("explain_query: %s", out)
	}
	if isErr, out := call("ask", "question=How many albums?"); !isErr || !strings.Contains(out, `"type":"llm_unavailable"`) {
		t.Errorf("ask without Ollama: %s", out)
	}
	if got, _ := os.ReadFile(db); !bytes.Equal(got, src) {
		t.Error("the database changed")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files beside the database: %v", entries)
	}
}
