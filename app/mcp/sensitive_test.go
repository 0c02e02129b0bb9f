package mcp_test

import (
	"encoding/json"
	"strings"
	"testing"

	"querent/app/mcp"
	"querent/engine"
	"querent/engine/ollama/ollamatest"
	"querent/engine/sensitive"
)

// TestSensitiveIsMaskedForAgents reproduces issue 28 for MCP: with
// Customer.Email marked, no tool gives an agent any of its values — not a
// result (the column, an expression over it, an aggregate), not a filter
// over it (it reads as NULL), not describe_table's samples, not
// profile_table's figures, not the ask tool's answer — and each says which
// columns it masked.
func TestSensitiveIsMaskedForAgents(t *testing.T) {
	fake := ollamatest.New(t)
	fake.Respond(func(ollamatest.Request) ollamatest.Reply {
		return ollamatest.Answer("SELECT FirstName, Email, lower(Email) AS mail FROM Customer ORDER BY CustomerId LIMIT 3", "Lists customers.")
	})
	f := newFixture(t, 1, mcp.Options{Model: modelAt(fake.URL)})
	f.dbs[0].(engine.SensitiveMarker).SetSensitive(sensitive.New("Customer.Email"))
	leaks := func(what string, r result) {
		t.Helper()
		if strings.Contains(strings.ToLower(r.text), "@embraer.com.br") || strings.Contains(r.text, "luisg@") {
			t.Errorf("%s gives an agent an email: %.600s", what, r.text)
		}
	}
	for _, c := range []struct {
		sql    string
		masked []string
		rows   int
	}{
		{`SELECT FirstName, Email FROM Customer WHERE CustomerId = 1`, []string{"Email"}, 1},
		{`SELECT lower(Email) AS m, substr(Email, 1, 5) AS s FROM Customer WHERE CustomerId = 1`, []string{"m", "s"}, 1},
		{`SELECT group_concat(Email) AS all_of_them FROM Customer`, []string{"all_of_them"}, 1},
		// A filter over the column tells nothing: it reads as NULL.
		{`SELECT CustomerId FROM Customer WHERE Email LIKE 'luisg%'`, []string{}, 0},
		{`SELECT CustomerId FROM Customer WHERE substr(Email, 1, 1) = 'l'`, []string{}, 0},
	} {
		r := f.call(t, "run_query", map[string]any{"sql": c.sql})
		if r.isError {
			t.Fatalf("%s: %s", c.sql, r.text)
		}
		leaks(c.sql, r)
		got, _ := json.Marshal(r.doc["masked_columns"])
		want, _ := json.Marshal(c.masked)
		if string(got) != string(want) {
			t.Errorf("%s: masked_columns %s, want %s", c.sql, got, want)
		}
		if rows, _ := r.doc["results"].([]any); len(rows) != c.rows {
			t.Errorf("%s: %d rows, want %d", c.sql, len(rows), c.rows)
		}
		if len(c.masked) > 0 && !strings.Contains(r.text, engine.MaskText) {
			t.Errorf("%s: no mask in %.400s", c.sql, r.text)
		}
	}
	r := f.call(t, "run_query", map[string]any{"sql": `SELECT FirstName, Email FROM Customer WHERE CustomerId = 1`})
	if w, _ := json.Marshal(r.doc["warnings"]); !strings.Contains(string(w), "sensitive columns, masked") {
		t.Errorf("no note on the mask: %s", w)
	}
	r = f.call(t, "describe_table", map[string]any{"table": "Customer"})
	leaks("describe_table", r)
	if m, _ := json.Marshal(r.doc["masked_columns"]); string(m) != `["Email"]` || !strings.Contains(r.text, "Luís") {
		t.Errorf("describe_table: masked %s: %.300s", m, r.text)
	}
	r = f.call(t, "profile_table", map[string]any{"table": "Customer"})
	leaks("profile_table", r)
	if m, _ := json.Marshal(r.doc["masked_columns"]); string(m) != `["Email"]` || !strings.Contains(r.text, `"sensitive":true`) {
		t.Errorf("profile_table: masked %s", m)
	}
	r = f.call(t, "ask", map[string]any{"question": "List three customers with their emails"})
	leaks("ask", r)
	if m, _ := json.Marshal(r.doc["masked_columns"]); r.isError || string(m) != `["Email","mail"]` {
		t.Errorf("ask: masked %s: %.500s", m, r.text)
	}
	// Nor did the model see one.
	for _, req := range fake.Requests() {
		b, _ := json.Marshal(req.Messages)
		if strings.Contains(string(b), "luisg@embraer.com.br") {
			t.Errorf("a request to the model holds an email")
		}
	}
	f.unchanged(t)
}
